// Smoothed-aggregation setup on the host (hierarchy.hpp).
#include "amg/hierarchy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <limits>
#include <new>

#include "amg/coloring.hpp"
#include "sparse/analysis.hpp"
#include "amg/device_aggregation.hpp"
#include "core/error.hpp"
#include "core/parallel_errors.hpp"
#include "krylov/gauss_jordan.hpp"
#include "krylov/gmres_common.hpp"
#include "sparse/device_product.hpp"
#include "sparse/product.hpp"

namespace tessera::amg {

namespace {

using krylov::detail::conj_of;
using krylov::detail::narrow;
using krylov::detail::wide_t;
using sparse::size64;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// a value in [-1, 1) from node_hash: the power iteration's fixed start
double hashed_unit(std::size_t i) {
  return static_cast<double>(node_hash(static_cast<std::uint32_t>(i) ^ 0x9e3779b9u)) /
             2147483648.0 -
         1.0;
}

// sum of term(0..n-1) in a fixed order whatever the thread count: chunks
// of 4096 terms summed in index order, then the chunks' sums in order (the
// power iteration's norms and inner products, parallel and deterministic)
template <class T, class F>
T ordered_sum(std::size_t n, const F& term) {
  constexpr std::size_t chunk = 4096;
  std::vector<T> part((n + chunk - 1) / chunk, T(0));
  const auto parts = static_cast<std::ptrdiff_t>(part.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t c = 0; c < parts; ++c) {
    T s(0);
    const std::size_t end = std::min(n, static_cast<std::size_t>(c + 1) * chunk);
    for (std::size_t i = static_cast<std::size_t>(c) * chunk; i < end; ++i) s += term(i);
    part[static_cast<std::size_t>(c)] = s;
  }
  T s(0);
  for (const T& v : part) s += v;
  return s;
}

template <class V>
double abs_of(V v) {
  return static_cast<double>(std::abs(v));
}

// Whether a equals its conjugate transpose to rounding relative to its
// largest entry (the Rayleigh quotient of the power iteration is only an
// estimate from below then): a Galerkin product's cancellation-sized
// entries differ from their mirror images by more than their own size.
template <Scalar V>
bool hermitian(const Csr<V>& a) {
  return sparse::hermitian_defect(a) <= (std::is_same_v<sparse::real_t<V>, float> ? 1e-5 : 1e-12);
}

// The block diagonal D^-1 as a CSR matrix (b entries per row).
template <Scalar V>
Csr<V> block_diagonal(const std::vector<V>& dinv, std::size_t n, int b) {
  Csr<V> d;
  d.rows = d.cols = static_cast<size64>(n);
  d.row_ptr.resize(n + 1);
  const auto bs = static_cast<std::size_t>(b);
  for (std::size_t r = 0; r < n; ++r) {
    const std::size_t node = r / bs, i = r % bs;
    for (std::size_t j = 0; j < bs; ++j) {
      const V v = dinv[node * bs * bs + i * bs + j];
      if (v == V(0)) continue;
      d.col.push_back(static_cast<index_t>(node * bs + j));
      d.val.push_back(v);
    }
    d.row_ptr[r + 1] = static_cast<index_t>(d.col.size());
  }
  return d;
}

// C = A + s B (same shape; the union of the patterns, columns ascending).
template <Scalar V>
Csr<V> add_scaled(const Csr<V>& a, V s, const Csr<V>& b) {
  Csr<V> c;
  c.rows = a.rows;
  c.cols = a.cols;
  c.row_ptr.assign(a.row_ptr.size(), 0);
  for (size64 i = 0; i < a.rows; ++i) {
    index_t p = a.row_ptr[i], q = b.row_ptr[i];
    const index_t pe = a.row_ptr[i + 1], qe = b.row_ptr[i + 1];
    while (p < pe || q < qe) {
      if (q >= qe || (p < pe && a.col[p] < b.col[q])) {
        c.col.push_back(a.col[p]);
        c.val.push_back(a.val[p++]);
      } else if (p >= pe || b.col[q] < a.col[p]) {
        c.col.push_back(b.col[q]);
        c.val.push_back(s * b.val[q++]);
      } else {
        c.col.push_back(a.col[p]);
        c.val.push_back(a.val[p++] + s * b.val[q++]);
      }
    }
    c.row_ptr[i + 1] = sparse::to_index(static_cast<size64>(c.col.size()), "prolongator entries");
  }
  return c;
}

// The rows among first .. first + span - 1 that have entries. A row without
// any (TRACE's ghost cells; a coarse unknown whose near-nullspace vector
// vanished on its aggregate) is left out of an inverse: its row and column
// there are zero.
template <Scalar V>
std::vector<std::size_t> rows_with_entries(const Csr<V>& a, std::size_t first, std::size_t span) {
  std::vector<std::size_t> act;
  for (std::size_t i = 0; i < span; ++i)
    if (a.row_ptr[first + i + 1] > a.row_ptr[first + i]) act.push_back(i);
  return act;
}

// The inverse of a's principal submatrix on the rows first + act[i], back in
// the span x span positions (row-major; the rows left out zero), into out.
// Returns the position in act whose pivot vanished, or act.size().
template <Scalar V>
std::size_t invert_part(const Csr<V>& a, std::size_t first, std::size_t span, V* out) {
  using W = wide_t<V>;
  const auto act = rows_with_entries(a, first, span);
  const std::size_t k = act.size();
  std::vector<index_t> pos(span, -1);
  for (std::size_t i = 0; i < k; ++i) pos[act[i]] = static_cast<index_t>(i);
  std::vector<W> m(k * k, W(0)), inv;
  double scale = 0;
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t r = first + act[i];
    for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) {
      const auto c = static_cast<std::size_t>(a.col[p]);
      scale = std::max(scale, abs_of(a.val[p]));
      if (c < first || c >= first + span || pos[c - first] < 0) continue;
      m[i * k + static_cast<std::size_t>(pos[c - first])] = W(a.val[p]);
    }
  }
  if (const std::size_t c = krylov::gauss_jordan(m, inv, k, scale); c < k) return act[c];
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) out[act[i] * span + act[j]] = narrow<V>(inv[i * k + j]);
  return span;
}

// The dense inverse (row-major) of the coarsest matrix.
template <Scalar V>
std::vector<V> dense_inverse(const Csr<V>& a, int level) {
  const auto n = static_cast<std::size_t>(a.rows);
  std::vector<V> out(n * n, V(0));
  constexpr const char* kWhy =
      "a singular system such as a pure Neumann problem, or a near-nullspace that does not "
      "match the matrix; fix the system, or use --precond jacobi or ilu0";
  if (const std::size_t c = invert_part(a, 0, n, out.data()); c < n)
    throw Error(
        fmt::format("amg: the coarsest matrix (level {}, {} rows) is singular (no pivot "
                    "in column {}): {}",
                    level, n, c, kWhy));
  // A pivot can survive rounding where the matrix is singular (a pure
  // Neumann problem's coarse level): its inverse is then huge and the
  // coarse correction garbage. The infinity-norm condition number says so.
  double norm_a = 0, norm_inv = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double ra = 0, ri = 0;
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) ra += abs_of(a.val[p]);
    for (std::size_t j = 0; j < n; ++j) ri += abs_of(out[i * n + j]);
    norm_a = std::max(norm_a, ra);
    norm_inv = std::max(norm_inv, ri);
  }
  if (!(norm_a * norm_inv * std::numeric_limits<sparse::real_t<V>>::epsilon() <=
        kMaxCoarseConditionEps))
    throw Error(
        fmt::format("amg: the coarsest matrix (level {}, {} rows) is singular to working "
                    "precision (condition number {:.1e}): {}",
                    level, n, norm_a * norm_inv, kWhy));
  return out;
}

// The inverted diagonal blocks of a (b x b per node, row-major). Error
// naming the row (b = 1) or the node's block when one is singular.
template <Scalar V>
std::vector<V> invert_node_blocks(const Csr<V>& a, int block, int level) {
  const auto b = static_cast<std::size_t>(block), n = static_cast<std::size_t>(a.rows);
  std::vector<V> out(n * b, V(0));
  // every node in parallel; the error names the first singular one
  const auto nodes = static_cast<std::ptrdiff_t>(n / b);
  std::ptrdiff_t first_bad = nodes;
  ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : first_bad)
  for (std::ptrdiff_t node = 0; node < nodes; ++node)
    errors.run([&] {
      const auto nb = static_cast<std::size_t>(node);
      if (invert_part(a, nb * b, b, out.data() + nb * b * b) != b)
        first_bad = std::min(first_bad, node);
    });
  errors.rethrow();
  if (first_bad < nodes) {
    const auto node = static_cast<std::size_t>(first_bad);
    const std::size_t c = invert_part(a, node * b, b, out.data() + node * b * b);
    const std::size_t row = node * b + c;
    bool has_diag = false;
    for (index_t p = a.row_ptr[row]; p < a.row_ptr[row + 1]; ++p)
      has_diag = has_diag || static_cast<std::size_t>(a.col[p]) == row;
    throw Error(b == 1
                    ? fmt::format("amg: level {}: row {} {}", level, row,
                                  has_diag ? "has a zero diagonal entry" : "has no diagonal entry")
                    : fmt::format("amg: level {}: the {} x {} diagonal block of node {} (rows "
                                  "{}..{}) is singular",
                                  level, b, b, node, node * b, node * b + b - 1));
  }
  return out;
}

// Gauss-Seidel's data: A without its diagonal, 1 / a_ii, the rows by colour.
template <Scalar V>
void gauss_seidel_data(Level<V>& l, int level) {
  const Csr<V>& a = l.a;
  const auto n = static_cast<std::size_t>(a.rows);
  l.inv_point_diag.assign(n, V(0));
  l.offdiag = Csr<V>{};
  l.offdiag.rows = l.offdiag.cols = a.rows;
  l.offdiag.row_ptr.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      if (static_cast<std::size_t>(a.col[p]) == i) {
        if (a.val[p] != V(0)) l.inv_point_diag[i] = V(1) / a.val[p];
        continue;
      }
      l.offdiag.col.push_back(a.col[p]);
      l.offdiag.val.push_back(a.val[p]);
    }
    l.offdiag.row_ptr[i + 1] = static_cast<index_t>(l.offdiag.col.size());
    if (a.row_ptr[i + 1] > a.row_ptr[i] && l.inv_point_diag[i] == V(0))
      throw Error(fmt::format(
          "amg: level {}: row {} has a zero or missing diagonal entry: Gauss-Seidel divides by "
          "a_ii; use --amg-smoother chebyshev or jacobi{}",
          level, i, l.block > 1 ? " (they invert the diagonal blocks)" : ""));
  }
  int colors = 0;
  // rows, not nodes: the rows of a block are coupled, so they need colours
  // of their own
  const auto color = color_graph(node_graph(a, 1), colors);
  l.color_start.assign(static_cast<std::size_t>(colors) + 1, 0);
  for (const index_t c : color) ++l.color_start[static_cast<std::size_t>(c) + 1];
  for (int c = 0; c < colors; ++c) l.color_start[c + 1] += l.color_start[c];
  l.color_nodes.assign(color.size(), 0);
  std::vector<index_t> next(l.color_start.begin(), l.color_start.end() - 1);
  for (std::size_t i = 0; i < color.size(); ++i)
    l.color_nodes[next[color[i]]++] = static_cast<index_t>(i);
}

template <Scalar V>
std::size_t level_bytes(const Level<V>& l) {
  auto csr = [](const Csr<V>& m) {
    return m.val.size() * (sizeof(V) + sizeof(index_t)) + m.row_ptr.size() * sizeof(index_t);
  };
  return csr(l.a) + csr(l.p) + csr(l.r) + csr(l.offdiag) +
         (l.dinv.size() + l.inv_point_diag.size()) * sizeof(V) +
         l.aggregate.size() * sizeof(index_t);
}

}  // namespace

template <Scalar V>
double Hierarchy<V>::operator_complexity() const {
  double s = 0;
  for (const auto& l : levels) s += static_cast<double>(l.a.nnz());
  return levels.empty() || levels[0].a.nnz() == 0 ? 0 : s / static_cast<double>(levels[0].a.nnz());
}

template <Scalar V>
double Hierarchy<V>::grid_complexity() const {
  double s = 0;
  for (const auto& l : levels) s += static_cast<double>(l.a.rows);
  return levels.empty() || levels[0].a.rows == 0 ? 0 : s / static_cast<double>(levels[0].a.rows);
}

template <Scalar V>
NodeGraph node_graph(const Csr<V>& a, int b) {
  const auto bs = static_cast<std::size_t>(b);
  const std::size_t nodes = static_cast<std::size_t>(a.rows) / bs;
  NodeGraph g;
  g.nodes = sparse::to_index(static_cast<size64>(nodes), "AMG nodes");
  g.row_ptr.assign(nodes + 1, 0);
  // The weights of a/2^e, 2^e about the largest |a_ij|: exactly 2^-e times
  // a's (the strength tests compare ratios, so the same decisions), and
  // finite where |a|^2 would overflow (entries near 1e160) or underflow.
  double largest = 0;
  const auto nnz = static_cast<std::ptrdiff_t>(a.val.size());
#pragma omp parallel for schedule(static) reduction(max : largest)
  for (std::ptrdiff_t p = 0; p < nnz; ++p) largest = std::max(largest, abs_of(a.val[p]));
  int e = 0;
  if (largest > 0 && std::isfinite(largest)) std::frexp(largest, &e);
  const auto scale = static_cast<sparse::real_t<V>>(std::ldexp(1.0, -e));
  // node I's (block column, |a/2^e|^2) pairs sorted by block column (memory
  // per thread: one node's entries); each run's sum in stored order
  auto pairs = [&](std::size_t I, std::vector<std::pair<index_t, double>>& out) {
    out.clear();
    for (std::size_t r = I * bs; r < I * bs + bs; ++r)
      for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p)
        out.emplace_back(static_cast<index_t>(static_cast<std::size_t>(a.col[p]) / bs),
                         std::norm(a.val[p] * scale));
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
  };
  // point rows (b = 1) with ascending columns, as every CSR here has: the
  // graph is a's pattern, no pairs to sort (the same weights)
  bool ascending = bs == 1;
  if (ascending) {
    const auto rows = static_cast<std::ptrdiff_t>(nodes);
#pragma omp parallel for schedule(static) reduction(&& : ascending)
    for (std::ptrdiff_t i = 0; i < rows; ++i)
      for (index_t p = a.row_ptr[i] + 1; p < a.row_ptr[i + 1]; ++p)
        ascending = ascending && a.col[p - 1] < a.col[p];
  }
  if (ascending) {
    g.row_ptr = a.row_ptr;
    g.col = a.col;
    g.weight.resize(a.col.size());
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t p = 0; p < nnz; ++p)
      g.weight[p] = std::sqrt(static_cast<double>(std::norm(a.val[p] * scale)));
    return g;
  }
  ParallelErrors errors;
  for (int pass = 0; pass < 2; ++pass) {
#pragma omp parallel
    {
      std::vector<std::pair<index_t, double>> pr;
#pragma omp for schedule(dynamic, 1024)
      for (std::size_t I = 0; I < nodes; ++I)
        errors.run([&] {
          pairs(I, pr);
          index_t k = 0;
          auto at = pass == 0 ? std::size_t(0) : static_cast<std::size_t>(g.row_ptr[I]);
          for (std::size_t q = 0; q < pr.size(); ++q) {
            const bool same = q > 0 && pr[q].first == pr[q - 1].first;
            if (pass == 1) {
              if (same) {
                g.weight[at - 1] += pr[q].second;
              } else {
                g.col[at] = pr[q].first;
                g.weight[at++] = pr[q].second;
              }
            }
            k += !same;
          }
          if (pass == 0) g.row_ptr[I + 1] = k;
        });
    }
    errors.rethrow();
    if (pass == 0) {
      for (std::size_t I = 0; I < nodes; ++I) g.row_ptr[I + 1] += g.row_ptr[I];
      g.col.resize(static_cast<std::size_t>(g.row_ptr[nodes]));
      g.weight.resize(g.col.size());
    }
  }
  const auto entries = static_cast<std::ptrdiff_t>(g.weight.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t p = 0; p < entries; ++p) g.weight[p] = std::sqrt(g.weight[p]);
  return g;
}

template <Scalar V>
Nullspace<V> rigid_body_modes(const std::vector<double>& xyz, int dim) {
  if (dim != 2 && dim != 3)
    throw UsageError(fmt::format("amg: rigid-body modes in {} dimensions: expected 2 or 3", dim));
  if (xyz.size() % static_cast<std::size_t>(dim))
    throw Error(
        fmt::format("amg: {} coordinates are not a whole number of {}-D points", xyz.size(), dim));
  const std::size_t nodes = xyz.size() / static_cast<std::size_t>(dim);
  Nullspace<V> b;
  b.cols = dim == 2 ? 3 : 6;
  const auto k = static_cast<std::size_t>(b.cols), d = static_cast<std::size_t>(dim);
  b.values.assign(nodes * d * k, V(0));
  for (std::size_t i = 0; i < nodes; ++i) {
    const double x = xyz[i * d], y = xyz[i * d + 1], z = dim == 3 ? xyz[i * d + 2] : 0.0;
    auto at = [&](std::size_t comp, std::size_t mode) -> V& {
      return b.values[(i * d + comp) * k + mode];
    };
    for (std::size_t c = 0; c < d; ++c) at(c, c) = V(1);  // translations
    if (dim == 2) {
      at(0, 2) = V(static_cast<sparse::real_t<V>>(-y));  // rotation about z
      at(1, 2) = V(static_cast<sparse::real_t<V>>(x));
    } else {
      using R = sparse::real_t<V>;
      at(1, 3) = V(R(-z)), at(2, 3) = V(R(y));  // about x
      at(0, 4) = V(R(z)), at(2, 4) = V(R(-x));  // about y
      at(0, 5) = V(R(-y)), at(1, 5) = V(R(x));  // about z
    }
  }
  return b;
}

template <Scalar V>
Csr<V> tentative_prolongator(const std::vector<index_t>& agg, index_t count, int block,
                             const Nullspace<V>& b, Nullspace<V>& b_coarse) {
  using W = wide_t<V>;
  const auto bs = static_cast<std::size_t>(block), k = static_cast<std::size_t>(b.cols);
  const std::size_t nodes = agg.size(), rows = nodes * bs;
  // the nodes of each aggregate, in index order
  std::vector<index_t> start(static_cast<std::size_t>(count) + 1, 0), members(nodes);
  for (const index_t a : agg)
    if (a >= 0) ++start[static_cast<std::size_t>(a) + 1];
  for (std::size_t a = 0; a < static_cast<std::size_t>(count); ++a) start[a + 1] += start[a];
  {
    std::vector<index_t> next(start.begin(), start.end() - 1);
    for (std::size_t i = 0; i < nodes; ++i)
      if (agg[i] >= 0) members[static_cast<std::size_t>(next[agg[i]]++)] = static_cast<index_t>(i);
  }
  b_coarse.cols = b.cols;
  b_coarse.values.assign(static_cast<std::size_t>(count) * k * k, V(0));
  std::vector<V> q(rows * k, V(0));  // Q's values at the fine rows, row by row
  std::vector<W> m;
  for (std::size_t a = 0; a < static_cast<std::size_t>(count); ++a) {
    const auto first = static_cast<std::size_t>(start[a]),
               last = static_cast<std::size_t>(start[a + 1]);
    const std::size_t mr = (last - first) * bs;  // rows of the aggregate's block of B
    m.assign(mr * k, W(0));
    auto row_of = [&](std::size_t local) {  // the fine row of local row `local`
      return static_cast<std::size_t>(members[first + local / bs]) * bs + local % bs;
    };
    for (std::size_t r = 0; r < mr; ++r)
      for (std::size_t j = 0; j < k; ++j) m[r * k + j] = W(b.values[row_of(r) * k + j]);
    // modified Gram-Schmidt, twice (CGS2's "twice is enough" for MGS too)
    std::vector<W> rr(k * k, W(0));
    for (std::size_t j = 0; j < k; ++j) {
      double before = 0;
      for (std::size_t r = 0; r < mr; ++r) before += std::norm(m[r * k + j]);
      for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < j; ++i) {
          W h(0);
          for (std::size_t r = 0; r < mr; ++r) h += conj_of(m[r * k + i]) * m[r * k + j];
          for (std::size_t r = 0; r < mr; ++r) m[r * k + j] -= h * m[r * k + i];
          rr[i * k + j] += h;
        }
      double nrm = 0;
      for (std::size_t r = 0; r < mr; ++r) nrm += std::norm(m[r * k + j]);
      nrm = std::sqrt(nrm);
      // a column dependent on the previous ones in this aggregate (or zero
      // there): no coarse unknown for it here
      if (!(nrm > 1e-10 * std::sqrt(before)) || nrm == 0) {
        for (std::size_t r = 0; r < mr; ++r) m[r * k + j] = W(0);
        continue;
      }
      rr[j * k + j] = W(nrm);
      for (std::size_t r = 0; r < mr; ++r) m[r * k + j] /= nrm;
    }
    for (std::size_t r = 0; r < mr; ++r)
      for (std::size_t j = 0; j < k; ++j) q[row_of(r) * k + j] = narrow<V>(m[r * k + j]);
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j)
        b_coarse.values[(a * k + i) * k + j] = narrow<V>(rr[i * k + j]);
  }
  Csr<V> t;
  t.rows = static_cast<size64>(rows);
  t.cols = static_cast<size64>(count) * static_cast<size64>(k);
  t.row_ptr.assign(rows + 1, 0);
  for (std::size_t r = 0; r < rows; ++r) {
    const index_t a = agg[r / bs];
    if (a >= 0)
      for (std::size_t j = 0; j < k; ++j)
        if (q[r * k + j] != V(0)) {
          t.col.push_back(static_cast<index_t>(static_cast<std::size_t>(a) * k + j));
          t.val.push_back(q[r * k + j]);
        }
    t.row_ptr[r + 1] = sparse::to_index(static_cast<size64>(t.col.size()), "prolongator entries");
  }
  return t;
}

template <Scalar V>
double spectral_radius(const Csr<V>& a, const std::vector<V>& dinv, int block) {
  using W = wide_t<V>;
  const auto n = static_cast<std::size_t>(a.rows), bs = static_cast<std::size_t>(block);
  if (n == 0) return 0;
  // the bound: the largest absolute row sum of D^-1 A (rows of the block
  // product formed entry by entry)
  double bound = 0;
  {
    ParallelErrors errors;
#pragma omp parallel reduction(max : bound)
    {
      std::vector<std::pair<index_t, W>> acc;  // one row's terms, reused
#pragma omp for schedule(dynamic, 1024)
      for (std::size_t node = 0; node < n / bs; ++node) {
        errors.run([&] {
          for (std::size_t i = 0; i < bs; ++i) {
            // sum_j |sum_c dinv(i, c) a(node*bs + c, j)|, via the rows' entries
            acc.clear();
            bool ascending = true;  // one row of increasing columns: no sort
            for (std::size_t c = 0; c < bs; ++c) {
              const W d = W(dinv[node * bs * bs + i * bs + c]);
              if (d == W(0)) continue;
              const std::size_t src = node * bs + c;
              for (index_t p = a.row_ptr[src]; p < a.row_ptr[src + 1]; ++p) {
                ascending = ascending && (acc.empty() || acc.back().first < a.col[p]);
                acc.emplace_back(a.col[p], d * W(a.val[p]));
              }
            }
            if (!ascending)
              std::stable_sort(acc.begin(), acc.end(),
                               [](const auto& x, const auto& y) { return x.first < y.first; });
            double s = 0;
            for (std::size_t p = 0; p < acc.size();) {
              W v(0);
              std::size_t q = p;
              for (; q < acc.size() && acc[q].first == acc[p].first; ++q) v += acc[q].second;
              s += std::abs(v);
              p = q;
            }
            bound = std::max(bound, s);
          }
        });
      }
    }
    errors.rethrow();
  }
  const bool herm = hermitian(a);
  std::vector<W> x(n), z(n), dx(n), y(n);
  const auto nodes = static_cast<std::ptrdiff_t>(n / bs), rows = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < rows; ++i) x[i] = W(hashed_unit(static_cast<std::size_t>(i)));
  const double nx =
      std::sqrt(ordered_sum<double>(n, [&](std::size_t i) { return std::norm(x[i]); }));
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < rows; ++i) x[i] /= nx;
  double est = 0;
  for (int it = 0; it < 20; ++it) {
#pragma omp parallel for schedule(static)
    for (std::size_t r = 0; r < n; ++r) {
      W s(0), sd(0);
      // the columns of r's diagonal block (a test, not a division an entry)
      const std::size_t lo = r - r % bs, hi = lo + bs;
      for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) {
        const auto c = static_cast<std::size_t>(a.col[p]);
        const W t = W(a.val[p]) * x[c];
        s += t;
        if (c >= lo && c < hi) sd += t;
      }
      z[r] = s;
      dx[r] = sd;
    }
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t node = 0; node < nodes; ++node) {
      const auto nb = static_cast<std::size_t>(node);
      for (std::size_t i = 0; i < bs; ++i) {
        W s(0);
        for (std::size_t c = 0; c < bs; ++c)
          s += W(dinv[nb * bs * bs + i * bs + c]) * z[nb * bs + c];
        y[nb * bs + i] = s;
      }
    }
    const double ny =
        std::sqrt(ordered_sum<double>(n, [&](std::size_t i) { return std::norm(y[i]); }));
    if (herm) {
      const W xz = ordered_sum<W>(n, [&](std::size_t i) { return conj_of(x[i]) * z[i]; });
      const W xd = ordered_sum<W>(n, [&](std::size_t i) { return conj_of(x[i]) * dx[i]; });
      if (std::real(xd) > 0) est = std::max(est, std::real(xz) / std::real(xd));
    } else {
      est = ny;  // x has unit norm
    }
    if (!(ny > 0) || !std::isfinite(ny)) break;
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < rows; ++i) x[i] = y[i] / ny;
  }
  if (!(est > 0) || !std::isfinite(est)) est = bound;
  return std::min(est, bound);
}

template <Scalar V>
Hierarchy<V> build_hierarchy(const Csr<V>& a, const Options& o, const Nullspace<V>& b0,
                             const std::shared_ptr<Device>& products) {
  using clock = std::chrono::steady_clock;
  o.check();
  if (o.block < 1) throw Error("amg: build_hierarchy needs the block size set (Options::block)");
  if (a.rows != a.cols)
    throw Error(
        fmt::format("amg: the matrix is {} x {}; AMG needs a square matrix", a.rows, a.cols));
  if (a.rows % o.block)
    throw Error(fmt::format("amg: {} rows are not a whole number of {} x {} blocks (--block {})",
                            a.rows, o.block, o.block, o.block));
  for (size64 i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      if (!std::isfinite(abs_of(a.val[p])))
        throw Error(fmt::format("amg: the matrix entry in row {}, column {} is {}", i, a.col[p],
                                abs_of(a.val[p])));
  if (a.rows > 0 && a.val.empty())
    throw Error("amg: the matrix has no entries: nothing to precondition");
  Nullspace<V> b = b0;
  if (b.values.empty()) {  // constants per row of a node: the identity of each block
    b.cols = o.block;
    b.values.assign(static_cast<std::size_t>(a.rows) * static_cast<std::size_t>(o.block), V(0));
    for (size64 r = 0; r < a.rows; ++r)
      b.values[static_cast<std::size_t>(r) * static_cast<std::size_t>(o.block) +
               static_cast<std::size_t>(r % o.block)] = V(1);
  } else if (b.cols < 1 || b.values.size() != static_cast<std::size_t>(a.rows) *
                                                  static_cast<std::size_t>(b.cols)) {
    throw Error(fmt::format(
        "amg: the near-nullspace has {} values for {} vectors; the matrix has {} rows, so {} "
        "were expected",
        b.values.size(), b.cols, a.rows, static_cast<size64>(b.cols < 1 ? 1 : b.cols) * a.rows));
  } else {
    const auto k = static_cast<std::size_t>(b.cols);
    for (std::size_t j = 0; j < k; ++j) {
      double norm = 0;
      for (std::size_t r = 0; r < static_cast<std::size_t>(a.rows); ++r) {
        const double v = abs_of(b.values[r * k + j]);
        if (!std::isfinite(v))
          throw Error(fmt::format("amg: near-nullspace vector {} is {} in row {}", j, v, r));
        norm += v * v;
      }
      if (norm == 0) throw Error(fmt::format("amg: near-nullspace vector {} is zero", j));
    }
  }

  const auto t_all = clock::now();
  Hierarchy<V> h;
  if (products) h.products_on = products->info().id;
  // the same bits either way (device_product.hpp)
  auto multiply = [&](const Csr<V>& x, const Csr<V>& y) {
    return products ? sparse::multiply(products, x, y) : sparse::multiply(x, y);
  };
  Csr<V> cur = a;
  int block = o.block;
  try {
    for (int level = 0;; ++level) {
      Level<V> l;
      l.block = block;
      auto td = clock::now();
      try {
        l.dinv = invert_node_blocks(cur, block, level);
      } catch (const Error& e) {
        throw Error(fmt::format(
            "{}: AMG's smoother and prolongator invert the diagonal{}; check the matrix, or use "
            "--precond ilu0, or --precond none with --method gmres",
            e.what(), block == 1 ? "" : " blocks"));
      }
      l.rho = spectral_radius(cur, l.dinv, block);
      h.times.diagonal += seconds_since(td);
      const bool last = level + 1 >= o.max_levels || cur.rows <= o.coarse_size;
      if (!last) {
        // on a device with FP64 the threshold and the graph's union run there
        // too (aggregate_strong), counted under aggregation
        const bool on_device = products && products->info().fp64;
        auto t0 = clock::now();
        const NodeGraph g = node_graph(cur, block);
        const NodeGraph s = on_device ? NodeGraph{} : strength_graph(g, o.strength, o.theta);
        h.times.strength += seconds_since(t0);
        t0 = clock::now();
        index_t count = 0;
        l.aggregate = on_device  ? aggregate_strong(products, g, o.strength, o.theta, count)
                      : products ? aggregate_mis2(products, s, count)
                                 : aggregate_mis2(s, count);
        h.times.aggregation += seconds_since(t0);
        // a coarse level of at most 0.8 of this one's rows (a near-nullspace
        // of more vectors than rows per node can make "coarse" levels larger)
        if (count > 0 && static_cast<size64>(count) * b.cols <= cur.rows * 4 / 5) {
          t0 = clock::now();
          Nullspace<V> bc;
          const Csr<V> t = tentative_prolongator(l.aggregate, count, block, b, bc);
          h.times.tentative += seconds_since(t0);
          t0 = clock::now();
          const Csr<V> dat = multiply(
              block_diagonal(l.dinv, static_cast<std::size_t>(cur.rows), block), multiply(cur, t));
          const auto w =
              static_cast<sparse::real_t<V>>(l.rho > 0 ? o.prolongator_omega / l.rho : 0);
          l.p = add_scaled(t, V(-w), dat);
          l.r = sparse::conj_transpose(l.p);
          h.times.smoothing += seconds_since(t0);
          t0 = clock::now();
          Csr<V> next = multiply(l.r, multiply(cur, l.p));
          h.times.galerkin += seconds_since(t0);
          l.a = std::move(cur);
          // automatic, without a device here, builds what a CPU runs
          if (resolve_smoother(o.smoother, false) == Smoother::gauss_seidel) {
            t0 = clock::now();
            gauss_seidel_data(l, level);
            h.times.coloring += seconds_since(t0);
          }
          cur = std::move(next);
          b = std::move(bc);
          block = b.cols;
          h.levels.push_back(std::move(l));
          continue;
        }
        l.aggregate.clear();  // no coarsening: this is the coarsest level
      }
      if (cur.rows > kMaxDenseCoarse)
        throw Error(fmt::format(
            "amg: the coarsest level (level {}) has {} rows, more than the {} a dense coarse solve "
            "takes: {}",
            level, cur.rows, kMaxDenseCoarse,
            level + 1 >= o.max_levels ? std::string("raise --amg-levels")
            : o.theta > 0
                ? std::string("aggregation stopped coarsening (no strong connections left: lower "
                              "--amg-theta, or use --precond jacobi)")
                : std::string("aggregation stopped coarsening (too few couplings between the rows "
                              "left, e.g. a diagonal matrix: use --precond jacobi)")));
      const auto t0 = clock::now();
      h.coarse_inverse = dense_inverse(cur, level);
      h.times.coarse += seconds_since(t0);
      l.a = std::move(cur);
      h.levels.push_back(std::move(l));
      break;
    }
  } catch (const std::bad_alloc&) {
    std::size_t bytes = 0;
    for (const auto& l : h.levels) bytes += level_bytes(l);
    throw Error(fmt::format(
        "amg: out of host memory in the setup of level {} ({:.1f} MiB in the {} levels built "
        "before it, plus the level being built): use a machine with more memory, fewer levels "
        "(--amg-levels), or a higher --amg-theta (sparser coarse levels)",
        h.levels.size(), static_cast<double>(bytes) / (1 << 20), h.levels.size()));
  }
  h.times.total = seconds_since(t_all);
  return h;
}

#define TS_INSTANTIATE(V)                                                                      \
  template struct Hierarchy<V>;                                                                \
  template NodeGraph node_graph<V>(const Csr<V>&, int);                                        \
  template Nullspace<V> rigid_body_modes<V>(const std::vector<double>&, int);                  \
  template Csr<V> tentative_prolongator<V>(const std::vector<index_t>&, index_t, int,          \
                                           const Nullspace<V>&, Nullspace<V>&);                \
  template double spectral_radius<V>(const Csr<V>&, const std::vector<V>&, int);               \
  template Hierarchy<V> build_hierarchy<V>(const Csr<V>&, const Options&, const Nullspace<V>&, \
                                           const std::shared_ptr<Device>&);
TESSERA_SPARSE_FOR_EACH_SCALAR(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::amg
