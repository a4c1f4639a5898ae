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

constexpr std::string_view kFamilies[] = {"powerlaw",   "uniform",    "banded",
                                          "stencil2d5", "stencil2d9", "stencil3d27",
                                          "fem3",       "arrow",      "emptyrows"};

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

}  // namespace

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
  std::string known;
  for (auto f : kFamilies) known += (known.empty() ? "" : ", ") + std::string(f);
  throw UsageError(
      fmt::format("matrix spec '{}': unknown family '{}' (known: {})", text, family, known));
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
