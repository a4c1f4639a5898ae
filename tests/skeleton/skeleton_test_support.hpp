// Shared by the skeleton tests: teams of N parts on a device id, and the
// sequential references (plain loops over global arrays, written from the
// documented semantics, not from the library's kernels).
#pragma once
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/registry.hpp"
#include "skeleton/examples.hpp"
#include "skeleton/skeleton.hpp"
#include "test_support.hpp"

namespace tessera::skeleton::test {

/// How many parts a team on `id` may have: CUDA needs that many GPUs from
/// the given one on; CPU and OpenCL devices are replicated logically.
inline int max_parts(const std::string& id) {
  if (id.rfind("cuda:", 0) != 0) return 4;
  int n = 0;
  for (const auto& d : list_devices())
    if (d.backend == Backend::cuda) ++n;
  return n - std::stoi(id.substr(5));
}

/// Bitwise equality of two arrays (NaN-safe), with the first difference.
template <class T>
::testing::AssertionResult same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size())
    return ::testing::AssertionFailure() << "sizes differ: " << a.size() << " vs " << b.size();
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) {
      if constexpr (std::is_arithmetic_v<T>)
        return ::testing::AssertionFailure()
               << "first difference at " << i << ": " << +a[i] << " vs " << +b[i];
      else
        return ::testing::AssertionFailure() << "first difference at element " << i;
    }
  return ::testing::AssertionSuccess();
}

/// The value a stencil reads at global (x, y, z) (possibly outside), per the
/// documented boundary modes; `user` for BoundaryMode::user.
template <class T, class U>
T reference_read(const std::vector<T>& g, const Extents& e, const Stencil& st, index_t x, index_t y,
                 index_t z, const T& neutral, const U& user) {
  index_t c[3] = {x, y, z};
  for (int a = 0; a < 3; ++a) {
    const index_t n = e.n[a];
    if (c[a] >= 0 && c[a] < n) continue;
    switch (st.mode[a]) {
      case BoundaryMode::neutral:
        return neutral;
      case BoundaryMode::user:
        return user(c[0], c[1], c[2], neutral);
      case BoundaryMode::periodic:
        c[a] = ((c[a] % n) + n) % n;
        break;
      case BoundaryMode::clamp:
        c[a] = c[a] < 0 ? 0 : n - 1;
        break;
      case BoundaryMode::mirror:
        c[a] = c[a] < 0 ? -c[a] : 2 * (n - 1) - c[a];
        break;
    }
  }
  return g[static_cast<std::size_t>((c[2] * e.n[1] + c[1]) * e.n[0] + c[0])];
}

/// The reference's neighbour accessor (global array, boundary modes above).
template <class T, class U>
struct ReferenceAccess {
  using value_type = T;
  const std::vector<T>* g;
  const Extents* e;
  const Stencil* st;
  index_t p[3];
  T neutral;
  const U* user;
  T operator()(int dx, int dy, int dz) const {
    return reference_read(*g, *e, *st, p[0] + dx, p[1] + dy, p[2] + dz, neutral, *user);
  }
  index_t pos(int a) const { return p[a]; }
};

/// Sequential mapStencil over a global array.
template <class T, class F, class U = NoBoundaryFunction>
std::vector<T> reference_stencil(const std::vector<T>& g, const Extents& e, const Stencil& st,
                                 const F& f, const T& neutral, const U& user = {}) {
  std::vector<T> out(g.size());
  for (index_t z = 0; z < e.n[2]; ++z)
    for (index_t y = 0; y < e.n[1]; ++y)
      for (index_t x = 0; x < e.n[0]; ++x) {
        const ReferenceAccess<T, U> acc{&g, &e, &st, {x, y, z}, neutral, &user};
        out[static_cast<std::size_t>((z * e.n[1] + y) * e.n[0] + x)] = f(acc);
      }
  return out;
}

}  // namespace tessera::skeleton::test
