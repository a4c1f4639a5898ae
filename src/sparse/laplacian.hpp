// The 7-point Laplacian of an nx x ny x nz grid (Dirichlet boundary, x
// fastest): 6 on the diagonal, -1 for each neighbour inside the grid. The
// stencil matrix on which ELL/SELL should beat CSR (rows of 4..7 entries, no
// padding to speak of). `laplace7:NXxNYxNZ` on the command line.
#pragma once
#include <string_view>

#include "sparse/formats.hpp"

namespace tessera::sparse {

template <Scalar T>
Csr<T> laplacian_7pt(size64 nx, size64 ny, size64 nz);

/// Parses "laplace7:N" (cube) or "laplace7:NXxNYxNZ"; UsageError otherwise.
struct GridSize {
  size64 nx = 0, ny = 0, nz = 0;
};
GridSize parse_laplacian(std::string_view spec);

}  // namespace tessera::sparse
