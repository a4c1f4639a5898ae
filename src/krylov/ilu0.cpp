// ILU(0) factorisation on the host and level-scheduled triangular solves on
// the device (see ilu0.hpp).
#include "krylov/ilu0.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "krylov/gmres.hpp"
#include "krylov/kernels/krylov_host.hpp"
#include "krylov/kernels/krylov_kernels.hpp"

namespace tessera::krylov {

namespace {

using sparse::index_t;

template <class V>
constexpr int components() {
  return sparse::is_complex_v<V> ? 2 : 1;
}

// Groups of `group` consecutive rows ordered by level: level(g) = 1 + the
// largest level among the groups whose rows g's rows read outside g (0
// without any), visiting groups in solve order (`forward` or not).
template <class V>
void schedule(const sparse::Csr<V>& part, bool forward, int group, std::vector<index_t>& groups,
              std::vector<index_t>& levels) {
  const auto n = static_cast<std::size_t>(part.rows), gs = static_cast<std::size_t>(group);
  const std::size_t ng = (n + gs - 1) / gs;
  std::vector<index_t> level(ng, 0);
  index_t top = -1;
  for (std::size_t k = 0; k < ng; ++k) {
    const std::size_t g = forward ? k : ng - 1 - k;
    index_t l = 0;
    for (std::size_t i = g * gs; i < std::min(n, (g + 1) * gs); ++i)
      for (auto p = part.row_ptr[i]; p < part.row_ptr[i + 1]; ++p) {
        const std::size_t h = std::size_t(part.col[std::size_t(p)]) / gs;
        if (h != g) l = std::max(l, index_t(level[h] + 1));
      }
    level[g] = l;
    top = std::max(top, l);
  }
  levels.assign(std::size_t(top + 2), 0);  // counting sort, groups ascending within a level
  for (std::size_t g = 0; g < ng; ++g) ++levels[std::size_t(level[g]) + 1];
  for (std::size_t l = 1; l < levels.size(); ++l) levels[l] += levels[l - 1];
  groups.assign(ng, 0);
  std::vector<index_t> next(levels.begin(), levels.end() - 1);
  for (std::size_t g = 0; g < ng; ++g)
    groups[std::size_t(next[std::size_t(level[g])]++)] = index_t(g);
}

}  // namespace

template <Scalar V>
Ilu0Factors<V> ilu0_factor(const sparse::Csr<V>& a, int group) {
  using W = detail::wide_t<V>;
  if (group < 1)
    throw UsageError(fmt::format("krylov: ILU(0): rows per group must be >= 1 (got {})", group));
  if (a.rows != a.cols)
    throw Error(fmt::format("krylov: ILU(0) needs a square matrix (got {} x {})", a.rows, a.cols));
  const auto n = static_cast<std::size_t>(a.rows);
  // A copy in W with each row's columns sorted and duplicates summed.
  std::vector<index_t> ptr(n + 1, 0), col;
  std::vector<W> lu;
  col.reserve(a.col.size());
  lu.reserve(a.val.size());
  std::vector<double> scale(n, 0.0);
  std::vector<std::pair<index_t, W>> row;
  for (std::size_t i = 0; i < n; ++i) {
    row.clear();
    for (auto p = std::size_t(a.row_ptr[i]); p < std::size_t(a.row_ptr[i + 1]); ++p)
      row.emplace_back(a.col[p], W(a.val[p]));
    std::sort(row.begin(), row.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [c, v] : row)
      if (!std::isfinite(std::abs(v)))
        throw Error(fmt::format(
            "krylov: ILU(0): the matrix holds a non-finite value in row {} (column {})", i, c));
    for (std::size_t k = 0; k < row.size(); ++k) {
      if (k > 0 && row[k].first == row[k - 1].first) {
        lu.back() += row[k].second;
      } else {
        col.push_back(row[k].first);
        lu.push_back(row[k].second);
      }
    }
    ptr[i + 1] = index_t(col.size());
    for (auto p = std::size_t(ptr[i]); p < col.size(); ++p)
      scale[i] = std::max(scale[i], double(std::abs(lu[p])));
  }
  // IKJ elimination restricted to the pattern (Saad, Iterative Methods, alg. 10.4).
  std::vector<long> diag(n, -1), where(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    const auto p0 = std::size_t(ptr[i]), p1 = std::size_t(ptr[i + 1]);
    if (p0 == p1) continue;  // a row without entries: its unknown maps to zero
    for (std::size_t p = p0; p < p1; ++p) {
      where[std::size_t(col[p])] = long(p);
      if (std::size_t(col[p]) == i) diag[i] = long(p);
    }
    // The hints name what works on the same matrix: Jacobi divides by the
    // same missing or zero a_ii, so it is suggested only where a_ii != 0.
    if (diag[i] < 0)
      throw Error(fmt::format(
          "krylov: ILU(0): row {} has no diagonal entry (the pattern must hold every a_ii of a "
          "row with entries; Jacobi needs it too); use --precond none with --method gmres or "
          "bicgstab, or reorder the matrix (permute rows) so that every a_ii is non-zero",
          i));
    const double original_pivot = std::abs(lu[std::size_t(diag[i])]);
    for (std::size_t p = p0; p < std::size_t(diag[i]); ++p) {
      const auto k = std::size_t(col[p]);
      if (diag[k] < 0) {  // row k has no entries (its unknown is zero)
        lu[p] = W(0);
        continue;
      }
      lu[p] /= lu[std::size_t(diag[k])];
      const W l = lu[p];
      for (auto q = std::size_t(diag[k]) + 1; q < std::size_t(ptr[k + 1]); ++q)
        if (const long w = where[std::size_t(col[q])]; w >= 0) lu[std::size_t(w)] -= l * lu[q];
    }
    const double piv = std::abs(lu[std::size_t(diag[i])]);
    if (!(piv > 1e-14 * scale[i]) || !std::isfinite(piv))
      throw Error(fmt::format(
          "krylov: ILU(0): zero pivot in row {} (|u_ii| = {:.3g} after elimination, the row's largest entry {:.3g}); "
          "{}",
          i, piv, scale[i],
          original_pivot > 1e-14 * scale[i]
              ? fmt::format(
                    "a_ii = {:.3g} itself is not zero: use --precond jacobi (or block-jacobi), --precond none "
                    "with --method gmres or bicgstab, or reorder the matrix",
                    original_pivot)
              : "a_ii itself is zero, so Jacobi fails too: use --precond none with --method gmres or bicgstab, or "
                "reorder the matrix (permute rows) so that every a_ii is non-zero"));
    for (std::size_t p = p0; p < p1; ++p) where[std::size_t(col[p])] = -1;
  }
  Ilu0Factors<V> f;
  f.n = n;
  f.inv_diag.assign(n, V(0));
  for (sparse::Csr<V>* part : {&f.lower, &f.upper}) {
    part->rows = part->cols = a.rows;
    part->row_ptr.assign(n + 1, 0);
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (auto p = std::size_t(ptr[i]); p < std::size_t(ptr[i + 1]); ++p) {
      const auto j = std::size_t(col[p]);
      if (j == i) continue;
      sparse::Csr<V>& part = j < i ? f.lower : f.upper;
      part.col.push_back(index_t(j));
      part.val.push_back(detail::narrow<V>(lu[p]));
    }
    f.lower.row_ptr[i + 1] = index_t(f.lower.col.size());
    f.upper.row_ptr[i + 1] = index_t(f.upper.col.size());
    if (diag[i] >= 0) {
      f.inv_diag[i] = detail::narrow<V>(W(1) / lu[std::size_t(diag[i])]);
      if (!std::isfinite(std::abs(W(f.inv_diag[i]))))
        throw Error(fmt::format(
            "krylov: ILU(0): 1/u_ii of row {} ({:.3g}) overflows the working precision; use "
            "--precision double or another preconditioner",
            i, std::abs(W(1) / lu[std::size_t(diag[i])])));
    }
  }
  f.group = group;
  schedule(f.lower, true, group, f.lower_groups, f.lower_levels);
  schedule(f.upper, false, group, f.upper_groups, f.upper_levels);
  return f;
}

template <Scalar V>
std::vector<V> ilu0_solve_host(const Ilu0Factors<V>& f, const std::vector<V>& r) {
  using R = sparse::real_t<V>;
  constexpr int nc = components<V>();
  if (r.size() != f.n)
    throw Error(fmt::format("krylov: ILU(0) of size {} applied to a vector of {}", f.n, r.size()));
  std::vector<V> y(f.n), z(f.n);
  auto reals = [](const std::vector<V>& v) { return reinterpret_cast<const R*>(v.data()); };
  // forward, then backward: one group (and in it one row) at a time
  const int group = f.group;
  const std::size_t ng = (f.n + std::size_t(group) - 1) / std::size_t(group);
  for (std::size_t k = 0; k < ng; ++k) {
    const int g = int(k);
    host::tri_group<R>(nc, 1, &g, group, f.n, false, f.lower.row_ptr.data(), f.lower.col.data(),
                       reals(f.lower.val), nullptr, reals(r), reinterpret_cast<R*>(y.data()));
  }
  for (std::size_t k = ng; k-- > 0;) {
    const int g = int(k);
    host::tri_group<R>(nc, 1, &g, group, f.n, true, f.upper.row_ptr.data(), f.upper.col.data(),
                       reals(f.upper.val), reals(f.inv_diag), reals(y),
                       reinterpret_cast<R*>(z.data()));
  }
  return z;
}

template <Scalar V>
typename Ilu0<V>::Triangle Ilu0<V>::upload(const sparse::Csr<V>& part,
                                           const std::vector<index_t>& groups) {
  // at least one element each: a kernel argument must be a valid buffer
  auto put = [&](auto& buf, const auto& host) {
    using T = typename std::decay_t<decltype(host)>::value_type;
    buf = Buffer<T>(device_, std::max<std::size_t>(host.size(), 1));
    if (!host.empty()) buf.copy_from_host(host);
  };
  Triangle t;
  put(t.ptr, part.row_ptr);
  put(t.col, part.col);
  put(t.groups, groups);
  put(t.val, part.val);
  return t;
}

template <Scalar V>
Ilu0<V>::Ilu0(std::shared_ptr<Device> device, const sparse::Csr<V>& a, int group)
    : device_(std::move(device)),
      n_(static_cast<std::size_t>(a.rows)),
      f_(ilu0_factor(a, group)),
      lower_levels_(f_.lower_levels),
      upper_levels_(f_.upper_levels),
      lower_(upload(f_.lower, f_.lower_groups)),
      upper_(upload(f_.upper, f_.upper_groups)),
      inv_diag_(device_, std::max<std::size_t>(n_, 1)),
      tmp_(device_, std::max<std::size_t>(n_, 1)) {
  if (n_) inv_diag_.copy_from_host(f_.inv_diag);
}

template <Scalar V>
void Ilu0<V>::solve(const Triangle& t, const std::vector<index_t>& levels, bool backward,
                    const Buffer<V>* inv_diag, const Buffer<V>& b, Buffer<V>& x) {
  using R = sparse::real_t<V>;
  constexpr int nc = components<V>();
  Device& d = *device_;
  dispatch(d, [&](auto tag) {
    for (std::size_t l = 0; l + 1 < levels.size(); ++l)
      kernels::tri_group(tag, d.queue(), nc, std::size_t(levels[l + 1] - levels[l]), f_.group, n_,
                         backward, kernels::in<int>(d, t.groups.handle(), std::size_t(levels[l])),
                         launch::In<int>(t.ptr), launch::In<int>(t.col),
                         kernels::in<R>(d, t.val.handle()),
                         kernels::in<R>(d, inv_diag ? inv_diag->handle() : nullptr),
                         kernels::in<R>(d, b.handle()), kernels::out<R>(d, x.handle()));
  });
}

template <Scalar V>
void Ilu0<V>::apply(const Buffer<V>& x, Buffer<V>& y) {
  if (x.size() < n_ || y.size() < n_)
    throw Error(fmt::format("krylov: ILU(0) of size {} applied to vectors of {} and {}", n_,
                            x.size(), y.size()));
  solve(lower_, lower_levels_, false, nullptr, x, tmp_);    // L t = x (unit diagonal)
  solve(upper_, upper_levels_, true, &inv_diag_, tmp_, y);  // U y = t
}

#define TS_INSTANTIATE(V)                                                                   \
  template Ilu0Factors<V> ilu0_factor<V>(const sparse::Csr<V>&, int);                       \
  template std::vector<V> ilu0_solve_host<V>(const Ilu0Factors<V>&, const std::vector<V>&); \
  template class Ilu0<V>;
TESSERA_SPARSE_FOR_EACH_SCALAR(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::krylov
