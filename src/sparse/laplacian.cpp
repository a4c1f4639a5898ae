#include "sparse/laplacian.hpp"

#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::sparse {

template <Scalar T>
Csr<T> laplacian_7pt(size64 nx, size64 ny, size64 nz) {
  if (nx < 1 || ny < 1 || nz < 1)
    throw UsageError(fmt::format("7-point Laplacian: bad grid {}x{}x{}", nx, ny, nz));
  Csr<T> a;
  a.rows = a.cols = checked_mul(checked_mul(nx, ny, "grid points"), nz, "grid points");
  to_index(checked_mul(a.rows, 7, "Laplacian entries"), "Laplacian entries");
  a.row_ptr.reserve(static_cast<std::size_t>(a.rows + 1));
  a.col.reserve(static_cast<std::size_t>(7 * a.rows));
  a.val.reserve(static_cast<std::size_t>(7 * a.rows));
  auto put = [&](size64 j, double v) {
    a.col.push_back(static_cast<index_t>(j));
    a.val.push_back(T(static_cast<real_t<T>>(v)));
  };
  for (size64 k = 0; k < nz; ++k)
    for (size64 j = 0; j < ny; ++j)
      for (size64 i = 0; i < nx; ++i) {
        const size64 p = (k * ny + j) * nx + i;  // columns ascending
        if (k > 0) put(p - nx * ny, -1);
        if (j > 0) put(p - nx, -1);
        if (i > 0) put(p - 1, -1);
        put(p, 6);
        if (i + 1 < nx) put(p + 1, -1);
        if (j + 1 < ny) put(p + nx, -1);
        if (k + 1 < nz) put(p + nx * ny, -1);
        a.row_ptr.push_back(static_cast<index_t>(a.col.size()));
      }
  return a;
}

GridSize parse_laplacian(std::string_view spec) {
  const std::string s(spec);
  long long x = 0, y = 0, z = 0;
  char tail = 0;
  GridSize g;
  if (std::sscanf(s.c_str(), "laplace7:%lldx%lldx%lld%c", &x, &y, &z, &tail) == 3)
    g = {x, y, z};
  else if (std::sscanf(s.c_str(), "laplace7:%lld%c", &x, &tail) == 1)
    g = {x, x, x};
  else
    throw UsageError(
        fmt::format("bad Laplacian spec '{}' (expected laplace7:N or laplace7:NXxNYxNZ)", s));
  if (g.nx < 1 || g.ny < 1 || g.nz < 1)
    throw UsageError(fmt::format("bad Laplacian grid in '{}'", s));
  return g;
}

#define TS_INSTANTIATE(T) template Csr<T> laplacian_7pt<T>(size64, size64, size64);
TESSERA_SPARSE_FOR_EACH_SCALAR(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::sparse
