#include "lbm/geometry/crossings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>

namespace tessera::lbm::geometry {
namespace {

constexpr double kBin = 4;  // cells per bin edge

using Vec = std::array<double, 3>;

Vec sub(const Vec& a, const Vec& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vec cross(const Vec& a, const Vec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

long bin_of(double v) { return long(std::floor(v / kBin)); }

// A bin's key: 21 bits per axis, offset so that negative bins fit (the
// voxelizer keeps vertices within 2^19 cells of the origin, bins of 4
// cells within 2^17).
std::uint64_t key(long i, long j, long k) {
  const auto u = [](long v) { return std::uint64_t(v + (1L << 20)) & ((1u << 21) - 1); };
  return u(i) | (u(j) << 21) | (u(k) << 42);
}

// The segment's parameter t where it crosses the triangle (Moeller and
// Trumbore 1997), or a NaN. Edges and vertices count (a segment through a
// shared edge meets both triangles at the same t).
double crossing(const Vec& o, const Vec& dir, const Vec& a, const Vec& b, const Vec& c) {
  const Vec e1 = sub(b, a), e2 = sub(c, a), p = cross(dir, e2);
  const double det = dot(e1, p);
  const double scale = std::sqrt(dot(e1, e1) * dot(e2, e2));
  if (std::fabs(det) <= 1e-14 * scale) return std::nan("");  // parallel to the plane
  const double inv = 1 / det;
  const Vec s = sub(o, a);
  const double u = dot(s, p) * inv;
  if (u < -1e-12 || u > 1 + 1e-12) return std::nan("");
  const Vec qv = cross(s, e1);
  const double v = dot(dir, qv) * inv;
  if (v < -1e-12 || u + v > 1 + 1e-12) return std::nan("");
  const double t = dot(e2, qv) * inv;
  return t >= -1e-12 && t <= 1 + 1e-12 ? std::clamp(t, 0.0, 1.0) : std::nan("");
}

}  // namespace

std::vector<double> first_crossings(const Triangles& mesh, std::span<const LinkSegment> segments) {
  std::vector<double> t(segments.size(), std::nan(""));
  // the segments by bin (a segment spans at most 2 bins per axis)
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> bins;
  for (std::size_t s = 0; s < segments.size(); ++s) {
    const auto& g = segments[s];
    long lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
      const double p = g.from[std::size_t(a)], q = p + g.c[std::size_t(a)];
      lo[a] = bin_of(std::min(p, q));
      hi[a] = bin_of(std::max(p, q));
    }
    for (long i = lo[0]; i <= hi[0]; ++i)
      for (long j = lo[1]; j <= hi[1]; ++j)
        for (long k = lo[2]; k <= hi[2]; ++k) bins[key(i, j, k)].push_back(std::uint32_t(s));
  }
  std::vector<std::uint32_t> tested(segments.size(), std::uint32_t(-1));  // by triangle
  for (std::size_t tri = 0; tri < mesh.size(); ++tri) {
    const double* v = mesh.xyz.data() + 9 * tri;
    const Vec A{v[0], v[1], v[2]}, B{v[3], v[4], v[5]}, C{v[6], v[7], v[8]};
    const Vec n = cross(sub(B, A), sub(C, A));
    // the axis the plane is steepest against: w = (d - n_u u - n_v v) / n_w
    int w = 0;
    for (int a = 1; a < 3; ++a)
      if (std::fabs(n[std::size_t(a)]) > std::fabs(n[std::size_t(w)])) w = a;
    const int u = (w + 1) % 3, vv = (w + 2) % 3;
    long lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
      const double mn = std::min({A[std::size_t(a)], B[std::size_t(a)], C[std::size_t(a)]});
      const double mx = std::max({A[std::size_t(a)], B[std::size_t(a)], C[std::size_t(a)]});
      lo[a] = bin_of(mn - 1e-9);
      hi[a] = bin_of(mx + 1e-9);
    }
    const double nw = n[std::size_t(w)], d = dot(n, A);
    auto visit = [&](long i, long j, long k) {
      const auto it = bins.find(key(i, j, k));
      if (it == bins.end()) return;
      for (const std::uint32_t s : it->second) {
        if (tested[s] == std::uint32_t(tri)) continue;  // met in another bin already
        tested[s] = std::uint32_t(tri);
        const auto& g = segments[s];
        const double x =
            crossing(g.from, {double(g.c[0]), double(g.c[1]), double(g.c[2])}, A, B, C);
        if (!std::isnan(x) && !(x >= t[s])) t[s] = x;
      }
    };
    long b[3];
    for (b[u] = lo[u]; b[u] <= hi[u]; ++b[u])
      for (b[vv] = lo[vv]; b[vv] <= hi[vv]; ++b[vv]) {
        long wlo = lo[w], whi = hi[w];
        if (nw != 0) {  // the plane's w over this column of bins, a cell either side
          double mn = 1e300, mx = -1e300;
          for (int cu = 0; cu < 2; ++cu)
            for (int cv = 0; cv < 2; ++cv) {
              const double pu = double(b[u] + cu) * kBin, pv = double(b[vv] + cv) * kBin;
              const double pw = (d - n[std::size_t(u)] * pu - n[std::size_t(vv)] * pv) / nw;
              mn = std::min(mn, pw);
              mx = std::max(mx, pw);
            }
          wlo = std::max(wlo, bin_of(mn - 1));
          whi = std::min(whi, bin_of(mx + 1));
        }
        for (b[w] = wlo; b[w] <= whi; ++b[w]) visit(b[0], b[1], b[2]);
      }
  }
  return t;
}

double crossing_by_bisection(const std::function<bool(double, double, double)>& inside,
                             const LinkSegment& s) {
  double lo = 0, hi = 1;
  for (int k = 0; k < 40; ++k) {
    const double mid = 0.5 * (lo + hi);
    if (inside(s.from[0] + mid * s.c[0], s.from[1] + mid * s.c[1], s.from[2] + mid * s.c[2]))
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

}  // namespace tessera::lbm::geometry
