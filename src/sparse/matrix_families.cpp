#include "sparse/matrix_families.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::sparse {

namespace {

constexpr std::string_view kFamilies[] = {
    "powerlaw", "uniform", "banded",    "stencil2d5", "stencil2d9", "stencil3d27",
    "fem3",     "arrow",   "emptyrows", "aniso2d",    "convdiff2d", "elasticity3d"};

/// "family:N,key=value,..." split and checked against the keys a family takes.
struct Spec {
  std::string text, family;
  size64 n = 0;
  std::map<std::string, double> values;

  double get(const std::string& key, double fallback) const {
    const auto it = values.find(key);
    return it == values.end() ? fallback : it->second;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw UsageError(fmt::format("matrix spec '{}': {}", text, what));
  }
};

double parse_number(const Spec& s, const std::string& key, std::string_view v) {
  double d = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
  if (ec != std::errc() || end != v.data() + v.size() || !std::isfinite(d))
    s.fail(fmt::format("{}={}: expected a number", key, v));
  return d;
}

Spec parse(std::string_view text, std::initializer_list<std::string_view> keys) {
  Spec s;
  s.text = std::string(text);
  const auto colon = text.find(':');
  s.family = std::string(text.substr(0, colon));
  if (colon == std::string_view::npos) s.fail("expected FAMILY:SIZE[,key=value...]");
  std::string_view rest = text.substr(colon + 1);
  bool first = true;
  while (true) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    if (first) {
      const double n = parse_number(s, "size", item);
      if (n < 1 || n != std::floor(n) || n > 2147483647.0)
        s.fail(fmt::format("size {}: expected a whole number from 1 to 2^31-1", item));
      s.n = static_cast<size64>(n);
      first = false;
    } else {
      const auto eq = item.find('=');
      const std::string key(item.substr(0, eq));
      if (eq == std::string_view::npos || std::find(keys.begin(), keys.end(), key) == keys.end()) {
        std::string known;
        for (auto k : keys) known += (known.empty() ? "" : ", ") + std::string(k);
        s.fail(fmt::format("'{}': expected key=value with a key of {}", item,
                           known.empty() ? "none (this family takes only a size)" : known));
      }
      s.values[key] = parse_number(s, key, item.substr(eq + 1));
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return s;
}

/// A whole number in [lo, hi] from key (or the fallback).
size64 whole(const Spec& s, const std::string& key, double fallback, double lo, double hi) {
  const double v = s.get(key, fallback);
  if (v < lo || v > hi || v != std::floor(v))
    s.fail(fmt::format("{}={}: expected a whole number from {} to {}", key, v, lo, hi));
  return static_cast<size64>(v);
}
double real_in(const Spec& s, const std::string& key, double fallback, double lo, double hi) {
  const double v = s.get(key, fallback);
  if (!(v >= lo && v <= hi)) s.fail(fmt::format("{}={}: expected {} to {}", key, v, lo, hi));
  return v;
}

/// Uniform doubles and Poisson counts from a 64-bit Mersenne twister, by
/// hand: the standard distributions differ between standard libraries, and
/// a spec must give the same matrix everywhere.
struct Random {
  std::mt19937_64 engine;
  explicit Random(size64 seed) : engine(static_cast<std::uint64_t>(seed)) {}
  double unit() { return static_cast<double>(engine() >> 11) * 0x1.0p-53; }  // [0, 1)
  size64 below(size64 n) { return static_cast<size64>(engine() % static_cast<std::uint64_t>(n)); }
  /// Knuth's product of uniforms (means up to a few hundred).
  size64 poisson(double mean) {
    const double limit = std::exp(-mean);
    size64 k = 0;
    for (double p = unit(); p > limit; p *= unit()) ++k;
    return k;
  }
};

template <Scalar T>
T value(Random& r) {
  const auto u = [&] { return static_cast<real_t<T>>(2 * r.unit() - 1); };
  if constexpr (is_complex_v<T>)
    return T(u(), u());
  else
    return u();
}

/// Builds a CSR matrix row by row, refusing more than 2^31-1 entries.
template <Scalar T>
struct Builder {
  Csr<T> a;
  const Spec& spec;
  Builder(const Spec& s, size64 rows, size64 cols, double expected_nnz) : spec(s) {
    if (expected_nnz > 2147483647.0)
      s.fail(fmt::format("about {:.3g} nonzeros: beyond 32-bit indices (2^31-1)", expected_nnz));
    a.rows = rows;
    a.cols = cols;
    a.row_ptr.reserve(static_cast<std::size_t>(rows + 1));
    a.col.reserve(static_cast<std::size_t>(expected_nnz * 1.05));
    a.val.reserve(static_cast<std::size_t>(expected_nnz * 1.05));
  }
  void put(size64 j, T v) {
    a.col.push_back(static_cast<index_t>(j));
    a.val.push_back(v);
  }
  void end_row() {
    if (a.col.size() > 2147483647u) spec.fail("more than 2^31-1 nonzeros: beyond 32-bit indices");
    a.row_ptr.push_back(static_cast<index_t>(a.col.size()));
  }
  /// `len` distinct uniform columns (ascending), plus `extra` given ones.
  void random_row(Random& r, size64 len, std::vector<index_t>& scratch,
                  const std::vector<index_t>& extra = {}) {
    scratch.assign(extra.begin(), extra.end());
    len = std::min(len, a.cols);
    if (len * 2 > a.cols) {  // dense: every column, a random subset dropped
      for (size64 j = 0; j < a.cols; ++j)
        if (r.unit() * static_cast<double>(a.cols) < static_cast<double>(len))
          scratch.push_back(static_cast<index_t>(j));
    } else {
      for (size64 k = 0; k < len; ++k) scratch.push_back(static_cast<index_t>(r.below(a.cols)));
    }
    std::sort(scratch.begin(), scratch.end());
    scratch.erase(std::unique(scratch.begin(), scratch.end()), scratch.end());
    for (index_t j : scratch) put(j, value<T>(r));
    end_row();
  }
};

template <Scalar T>
Csr<T> powerlaw(const Spec& s) {
  const size64 rows = s.n;
  const double alpha = real_in(s, "alpha", 2.2, 1.1, 10);
  const double mean = real_in(s, "mean", 8, 0.01, 1e6);
  const size64 cap = whole(s, "max", double(rows), 1, double(rows));
  Random r(whole(s, "seed", 1, 0, 1e18));
  // Pareto lengths l_i = u^(-1/(alpha-1)) >= 1, scaled by the factor that
  // brings their rounded, capped sum to mean * rows (bisection).
  std::vector<double> raw(static_cast<std::size_t>(rows));
  for (double& l : raw) l = std::pow(1.0 - r.unit(), -1.0 / (alpha - 1.0));
  const double target = mean * static_cast<double>(rows);
  // at least one entry a row (a graph's vertices have an edge), at most cap
  const auto length = [&](double l, double f) {
    return std::min(std::max(1.0, std::floor(l * f + 0.5)), static_cast<double>(cap));
  };
  const auto total = [&](double f) {
    double t = 0;
    for (double l : raw) t += length(l, f);
    return t;
  };
  if (mean > double(cap)) s.fail(fmt::format("mean={}: more than max={} allows", mean, cap));
  double lo = 0, hi = mean;
  while (total(hi) < target && hi < 1e12) hi *= 2;
  if (total(hi) < 0.99 * target)  // the cap binds too many rows to reach the mean
    s.fail(fmt::format("mean={} cannot be reached with max={} at alpha={}", mean, cap, alpha));
  for (int it = 0; it < 60; ++it) (total((lo + hi) / 2) < target ? lo : hi) = (lo + hi) / 2;
  Builder<T> b(s, rows, rows, total(hi));
  std::vector<index_t> scratch;
  for (double l : raw) b.random_row(r, static_cast<size64>(length(l, hi)), scratch);
  return std::move(b.a);
}

template <Scalar T>
Csr<T> uniform(const Spec& s) {
  const double mean = real_in(s, "mean", 8, 0.01, 500);
  Random r(whole(s, "seed", 1, 0, 1e18));
  Builder<T> b(s, s.n, s.n, mean * double(s.n));
  std::vector<index_t> scratch;
  for (size64 i = 0; i < s.n; ++i) b.random_row(r, r.poisson(mean), scratch);
  return std::move(b.a);
}

template <Scalar T>
Csr<T> arrow(const Spec& s) {
  const size64 dense = whole(s, "dense", 4, 0, double(s.n));
  const double mean = real_in(s, "mean", 6, 0, 500);
  Random r(whole(s, "seed", 1, 0, 1e18));
  Builder<T> b(s, s.n, s.n, double(dense) * double(s.n) * 2 + (mean + 1) * double(s.n));
  std::vector<index_t> scratch, hubs;
  for (size64 j = 0; j < dense; ++j) hubs.push_back(static_cast<index_t>(j));
  for (size64 i = 0; i < s.n; ++i) {
    if (i < dense) {  // a full row
      for (size64 j = 0; j < s.n; ++j) b.put(j, value<T>(r));
      b.end_row();
      continue;
    }
    std::vector<index_t> extra = hubs;
    extra.push_back(static_cast<index_t>(i));
    b.random_row(r, r.poisson(mean), scratch, extra);
  }
  return std::move(b.a);
}

template <Scalar T>
Csr<T> emptyrows(const Spec& s) {
  const double filled = real_in(s, "filled", 0.05, 0, 1);
  const double mean = real_in(s, "mean", 40, 1, 500);
  Random r(whole(s, "seed", 1, 0, 1e18));
  Builder<T> b(s, s.n, s.n, filled * mean * double(s.n));
  std::vector<index_t> scratch;
  for (size64 i = 0; i < s.n; ++i) {
    if (r.unit() < filled)
      b.random_row(r, 1 + r.poisson(mean - 1), scratch);
    else
      b.end_row();
  }
  return std::move(b.a);
}

template <Scalar T>
Csr<T> banded(const Spec& s) {
  const size64 half = whole(s, "width", 11, 1, 1e6) / 2;
  Random r(1);
  Builder<T> b(s, s.n, s.n, double(2 * half + 1) * double(s.n));
  for (size64 i = 0; i < s.n; ++i) {
    for (size64 j = i > half ? i - half : 0; j <= std::min(i + half, s.n - 1); ++j)
      b.put(j, value<T>(r));
    b.end_row();
  }
  return std::move(b.a);
}

/// The (2r+1)^d-point (box) or 2d+1-point (star) stencil of an N^d grid:
/// the centre weighs the number of neighbours, each neighbour -1.
template <Scalar T>
Csr<T> stencil(const Spec& s, int dims, bool box) {
  const size64 n = s.n, per = box ? (dims == 2 ? 9 : 27) : 2 * dims + 1;
  const double nodes = std::pow(double(n), dims);
  if (nodes > 2147483647.0) s.fail(fmt::format("{}^{} rows: beyond 32-bit indices", n, dims));
  Builder<T> b(s, size64(nodes), size64(nodes), double(per) * nodes);
  const size64 nz = dims == 3 ? n : 1;
  for (size64 k = 0; k < nz; ++k)
    for (size64 j = 0; j < n; ++j)
      for (size64 i = 0; i < n; ++i) {
        const size64 p = (k * n + j) * n + i;
        for (int dk = -1; dk <= 1; ++dk)
          for (int dj = -1; dj <= 1; ++dj)
            for (int di = -1; di <= 1; ++di) {
              if (dims == 2 && dk != 0) continue;
              const int away = std::abs(di) + std::abs(dj) + std::abs(dk);
              if (!box && away > 1) continue;
              const size64 x = i + di, y = j + dj, z = k + dk;
              if (x < 0 || y < 0 || z < 0 || x >= n || y >= n || z >= nz) continue;
              const size64 q = (z * n + y) * n + x;
              b.put(q, T(static_cast<real_t<T>>(q == p ? double(per - 1) : -1.0)));
            }
        b.end_row();
      }
  return std::move(b.a);
}

template <Scalar T>
Csr<T> fem3(const Spec& s) {
  const size64 n = s.n;
  const double nodes = std::pow(double(n), 3);
  if (3 * nodes > 2147483647.0) s.fail(fmt::format("3 x {}^3 rows: beyond 32-bit indices", n));
  Random r(whole(s, "seed", 1, 0, 1e18));
  Builder<T> b(s, size64(3 * nodes), size64(3 * nodes), 81 * 3 * nodes);
  for (size64 k = 0; k < n; ++k)
    for (size64 j = 0; j < n; ++j)
      for (size64 i = 0; i < n; ++i)
        for (int c = 0; c < 3; ++c) {
          for (int dk = -1; dk <= 1; ++dk)
            for (int dj = -1; dj <= 1; ++dj)
              for (int di = -1; di <= 1; ++di) {
                const size64 x = i + di, y = j + dj, z = k + dk;
                if (x < 0 || y < 0 || z < 0 || x >= n || y >= n || z >= n) continue;
                const size64 q = (z * n + y) * n + x;
                for (int c2 = 0; c2 < 3; ++c2) b.put(3 * q + c2, value<T>(r));
              }
          b.end_row();
        }
  return std::move(b.a);
}

/// An N x N grid's rows (x fastest), refused beyond 32-bit indices.
size64 grid2d_rows(const Spec& s, double per_row) {
  const double rows = double(s.n) * double(s.n);
  if (rows * per_row > 2147483647.0)
    s.fail(fmt::format("{}^2 rows of up to {} entries: beyond 32-bit indices", s.n, per_row));
  return size64(rows);
}

/// Degrees to radians as Python's math.radians does (x * (pi / 180)), so that
/// aniso2d's weights are bit for bit those of PyAMG's stencil.
double radians(double degrees) { return degrees * (3.141592653589793 / 180.0); }

/// PyAMG's diffusion_stencil_2d(eps, theta, type='FD') on stencil_grid((N, N)):
/// -div(K grad u), K = Q diag(1, eps) Q^T, Q the rotation by the angle, in the
/// coordinates (s, t) of PyAMG's grid: s along the slow index (j, stride N),
/// t along the fast one (i). Its weights, in PyAMG's order of operations:
///   centre 2 (eps + 1), i +- 1: -(eps c^2 + s^2), j +- 1: -(eps s^2 + c^2),
///   corners (di, dj): di dj a with a = 0.5 (eps - 1) c s;
/// weights exactly 0 are not stored (PyAMG keeps only the stencil's
/// nonzeros), so angle=0 gives the 5-point stencil.
template <Scalar T>
Csr<T> aniso2d(const Spec& s) {
  const double eps = real_in(s, "eps", 0.001, 1e-12, 1e12);
  const double theta = radians(real_in(s, "angle", 0, -360, 360));
  const size64 n = s.n, rows = grid2d_rows(s, 9);
  const double c = std::cos(theta), sn = std::sin(theta);
  const double cs = c * sn, cc = c * c, ss = sn * sn;
  const double corner = 0.5 * (eps - 1) * cs;
  const double along_i = -(eps * cc + ss), along_j = -(eps * ss + cc), centre = 2.0 * (eps + 1);
  Builder<T> b(s, rows, rows, 9.0 * double(rows));
  for (size64 j = 0; j < n; ++j)
    for (size64 i = 0; i < n; ++i) {
      for (int dj = -1; dj <= 1; ++dj)
        for (int di = -1; di <= 1; ++di) {
          const size64 x = i + di, y = j + dj;
          if (x < 0 || y < 0 || x >= n || y >= n) continue;
          const double w = di != 0 && dj != 0 ? (di == dj ? corner : -corner)
                           : di != 0          ? along_i
                           : dj != 0          ? along_j
                                              : centre;
          if (w != 0) b.put(y * n + x, T(static_cast<real_t<T>>(w)));
        }
      b.end_row();
    }
  return std::move(b.a);
}

/// -Laplace(u) + w . grad(u) on the unit square, N x N interior points
/// (h = 1 / (N + 1), x fastest), Dirichlet, first-order upwind convection,
/// |w| = peclet at the angle to the x axis; times h^2: 4 + h (|w_x| + |w_y|)
/// on the diagonal, -1 - h |w_d| at the upwind neighbour of direction d and
/// -1 at the other. An M-matrix, nonsymmetric unless w = 0.
template <Scalar T>
Csr<T> convdiff2d(const Spec& s) {
  const double peclet = real_in(s, "peclet", 100, 0, 1e12);
  const double theta = radians(real_in(s, "angle", 30, -360, 360));
  const size64 n = s.n, rows = grid2d_rows(s, 5);
  const double h = 1.0 / double(n + 1);
  const double wx = h * peclet * std::cos(theta), wy = h * peclet * std::sin(theta);
  const double west = -1 - std::max(wx, 0.0), east = -1 - std::max(-wx, 0.0);
  const double south = -1 - std::max(wy, 0.0), north = -1 - std::max(-wy, 0.0);
  const double centre = 4 + std::abs(wx) + std::abs(wy);
  Builder<T> b(s, rows, rows, 5.0 * double(rows));
  const auto put = [&](size64 q, double w) { b.put(q, T(static_cast<real_t<T>>(w))); };
  for (size64 j = 0; j < n; ++j)
    for (size64 i = 0; i < n; ++i) {
      const size64 p = j * n + i;
      if (j > 0) put(p - n, south);
      if (i > 0) put(p - 1, west);
      put(p, centre);
      if (i + 1 < n) put(p + 1, east);
      if (j + 1 < n) put(p + n, north);
      b.end_row();
    }
  return std::move(b.a);
}

/// The element stiffness of a trilinear (Q1) hexahedron of side h, E = 1 and
/// Poisson ratio nu, 24 x 24 row-major over (local node a, component c) with
/// a = ax + 2 ay + 4 az:
///   K(a c, b d) = lambda I_ab(c, d) + mu I_ab(d, c) + mu delta_cd sum_x I_ab(x, x),
///   I_ab(c, d) = integral of dN_a/dx_c dN_b/dx_d.
/// The 2 x 2 x 2 Gauss rule is a tensor product and the integrands are
/// products of one-dimensional factors, so each I is the product of three
/// two-point Gauss sums: exactly symmetric, and mirror images of an element
/// give the same numbers (their sums cancel exactly where they should).
std::vector<double> hex8_stiffness(double h, double nu) {
  const double lambda = nu / ((1 + nu) * (1 - 2 * nu)), mu = 1 / (2 * (1 + nu));
  const double g[2] = {-1 / std::sqrt(3.0), 1 / std::sqrt(3.0)};
  // f[da][db][a][b]: the Gauss sum over one direction of phi_a^(da) phi_b^(db)
  // on [0, h], phi_0 = (1 - xi) / 2, phi_1 = (1 + xi) / 2, a derivative d/dx = 2/h d/dxi
  double f[2][2][2][2];
  const auto phi = [&](int a, int d, double xi) {
    const double sign = a == 0 ? -1.0 : 1.0;
    return d == 0 ? (1 + sign * xi) / 2 : sign / h;
  };
  for (int da = 0; da < 2; ++da)
    for (int db = 0; db < 2; ++db)
      for (int a = 0; a < 2; ++a)
        for (int bb = 0; bb < 2; ++bb)
          f[da][db][a][bb] =
              (phi(a, da, g[0]) * phi(bb, db, g[0]) + phi(a, da, g[1]) * phi(bb, db, g[1])) * h / 2;
  const auto integral = [&](int a, int bb, int c, int d) {  // I_ab(c, d)
    double v = 1;
    for (int x = 0; x < 3; ++x) {
      const int ax = (a >> x) & 1, bx = (bb >> x) & 1;
      v *= f[c == x][d == x][ax][bx];
    }
    return v;
  };
  std::vector<double> k(24 * 24);
  for (int a = 0; a < 8; ++a)
    for (int c = 0; c < 3; ++c)
      for (int bb = 0; bb < 8; ++bb)
        for (int d = 0; d < 3; ++d) {
          double v = lambda * integral(a, bb, c, d) + mu * integral(a, bb, d, c);
          if (c == d)
            v += mu * (integral(a, bb, 0, 0) + integral(a, bb, 1, 1) + integral(a, bb, 2, 2));
          k[(3 * a + c) * 24 + 3 * bb + d] = v;
        }
  return k;
}

/// elasticity3d's free nodes: (N + 1)^3 nodes of N^3 elements less the x = 0
/// face, x fastest; refused beyond 32-bit indices.
size64 elasticity_nodes(const Spec& s) {
  const double nodes = double(s.n) * double(s.n + 1) * double(s.n + 1);
  if (3 * nodes * 81 > 2147483647.0)
    s.fail(
        fmt::format("3 x {} x {}^2 rows of up to 81 entries: beyond 32-bit indices", s.n, s.n + 1));
  return size64(nodes);
}

/// 3D linear elasticity (E = 1, Poisson ratio nu) on the unit cube, N^3 Q1
/// elements, the x = 0 face clamped: its nodes removed. Node (i, j, k),
/// i = 1..N, is node (k (N + 1) + j) N + i - 1; its unknowns x, y, z are rows
/// 3 node + 0, 1, 2. Every pair of neighbouring nodes couples through a dense
/// 3 x 3 block (entries that cancel to 0 are kept).
template <Scalar T>
Csr<T> elasticity3d(const Spec& s) {
  const double nu = real_in(s, "nu", 0.3, -0.99, 0.4999);
  const size64 n = s.n, m = n + 1, nodes = elasticity_nodes(s);
  const std::vector<double> ke = hex8_stiffness(1.0 / double(n), nu);
  Builder<T> b(s, 3 * nodes, 3 * nodes, 81.0 * 3 * double(nodes));
  double block[27][9];  // the row node's 27 neighbours, (c, d) row-major
  bool present[27];
  for (size64 k = 0; k < m; ++k)
    for (size64 j = 0; j < m; ++j)
      for (size64 i = 1; i < m; ++i) {
        for (int q = 0; q < 27; ++q) {
          present[q] = false;
          std::fill(std::begin(block[q]), std::end(block[q]), 0.0);
        }
        // the (up to 8) elements around the node, in ascending order, each
        // adding its couplings of this node with its other 7
        for (size64 ez = std::max<size64>(k - 1, 0); ez <= std::min(k, n - 1); ++ez)
          for (size64 ey = std::max<size64>(j - 1, 0); ey <= std::min(j, n - 1); ++ey)
            for (size64 ex = std::max<size64>(i - 1, 0); ex <= std::min(i, n - 1); ++ex) {
              const int a = int(i - ex) + 2 * int(j - ey) + 4 * int(k - ez);
              for (int bb = 0; bb < 8; ++bb) {
                const size64 qi = ex + (bb & 1), qj = ey + ((bb >> 1) & 1),
                             qk = ez + ((bb >> 2) & 1);
                if (qi == 0) continue;  // clamped
                const int q = int(qi - i + 1) + 3 * int(qj - j + 1) + 9 * int(qk - k + 1);
                present[q] = true;
                for (int c = 0; c < 3; ++c)
                  for (int d = 0; d < 3; ++d)
                    block[q][3 * c + d] += ke[(3 * a + c) * 24 + 3 * bb + d];
              }
            }
        const auto node = [&](size64 x, size64 y, size64 z) { return (z * m + y) * n + x - 1; };
        for (int c = 0; c < 3; ++c) {
          for (int q = 0; q < 27; ++q) {
            if (!present[q]) continue;
            const size64 col = node(i + q % 3 - 1, j + (q / 3) % 3 - 1, k + q / 9 - 1);
            for (int d = 0; d < 3; ++d)
              b.put(3 * col + d, T(static_cast<real_t<T>>(block[q][3 * c + d])));
          }
          b.end_row();
        }
      }
  return std::move(b.a);
}
}  // namespace

std::string family_names() {
  std::string s;
  for (const std::string_view f : kFamilies) s += (s.empty() ? "" : ", ") + std::string(f);
  return s;
}

bool is_family_spec(std::string_view spec) {
  const std::string_view family = spec.substr(0, spec.find(':'));
  return spec.find(':') != std::string_view::npos &&
         std::find(std::begin(kFamilies), std::end(kFamilies), family) != std::end(kFamilies);
}

template <Scalar T>
Csr<T> generate_family(std::string_view text) {
  const std::string_view family = text.substr(0, text.find(':'));
  if (family == "powerlaw") return powerlaw<T>(parse(text, {"alpha", "mean", "max", "seed"}));
  if (family == "uniform") return uniform<T>(parse(text, {"mean", "seed"}));
  if (family == "banded") return banded<T>(parse(text, {"width"}));
  if (family == "stencil2d5") return stencil<T>(parse(text, {}), 2, false);
  if (family == "stencil2d9") return stencil<T>(parse(text, {}), 2, true);
  if (family == "stencil3d27") return stencil<T>(parse(text, {}), 3, true);
  if (family == "fem3") return fem3<T>(parse(text, {"seed"}));
  if (family == "arrow") return arrow<T>(parse(text, {"dense", "mean", "seed"}));
  if (family == "emptyrows") return emptyrows<T>(parse(text, {"filled", "mean", "seed"}));
  if (family == "aniso2d") return aniso2d<T>(parse(text, {"eps", "angle"}));
  if (family == "convdiff2d") return convdiff2d<T>(parse(text, {"peclet", "angle"}));
  if (family == "elasticity3d") return elasticity3d<T>(parse(text, {"nu"}));
  std::string known;
  for (auto f : kFamilies) known += (known.empty() ? "" : ", ") + std::string(f);
  throw UsageError(
      fmt::format("matrix spec '{}': unknown family '{}' (known: {})", text, family, known));
}

std::vector<double> elasticity3d_coordinates(std::string_view text) {
  if (text.substr(0, text.find(':')) != "elasticity3d")
    throw UsageError(fmt::format("matrix spec '{}': coordinates only for elasticity3d:N", text));
  const Spec s = parse(text, {"nu"});
  (void)real_in(s, "nu", 0.3, -0.99, 0.4999);
  const size64 n = s.n, m = n + 1, nodes = elasticity_nodes(s);
  const double h = 1.0 / double(n);
  std::vector<double> xyz;
  xyz.reserve(static_cast<std::size_t>(3 * nodes));
  for (size64 k = 0; k < m; ++k)
    for (size64 j = 0; j < m; ++j)
      for (size64 i = 1; i < m; ++i)
        for (size64 c : {i, j, k}) xyz.push_back(double(c) * h);
  return xyz;
}

std::vector<std::string> family_benchmark_set(size64 nnz) {
  const double z = static_cast<double>(nnz);
  const auto side = [&](double per, int dims) {
    return static_cast<size64>(std::ceil(std::pow(z / per, 1.0 / dims)));
  };
  const auto rows = [&](double per) { return static_cast<size64>(std::ceil(z / per)); };
  return {fmt::format("powerlaw:{},alpha=1.8,mean=8", rows(8)),
          fmt::format("powerlaw:{},alpha=2.2,mean=8", rows(8)),
          fmt::format("powerlaw:{},alpha=3,mean=8", rows(8)),
          fmt::format("uniform:{},mean=8", rows(8)),
          fmt::format("banded:{},width=15", rows(15)),
          fmt::format("stencil2d5:{}", side(5, 2)),
          fmt::format("stencil2d9:{}", side(9, 2)),
          fmt::format("laplace7:{}", side(7, 3)),
          fmt::format("stencil3d27:{}", side(27, 3)),
          fmt::format("fem3:{}", side(243, 3)),
          fmt::format("arrow:{},dense=2,mean=6", rows(13)),
          fmt::format("emptyrows:{},filled=0.05,mean=40", rows(2))};
}

#define TS_INSTANTIATE(T) template Csr<T> generate_family<T>(std::string_view);
TESSERA_SPARSE_FOR_EACH_SCALAR(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::sparse
