// Generated matrices with the row structure of real ones, for the SpMV
// benchmark's matrix set (`tessera bench spmv --param parts=matrices`), the
// kernel choice (analysis.hpp) and `tessera sparse spmv --generate`:
//
//   powerlaw:ROWS[,alpha=2.2][,mean=8][,max=ROWS][,seed=1]
//       row lengths from a Pareto law of tail exponent alpha (P(len >= l)
//       ~ l^(1 - alpha)), scaled to the mean, at least 1, capped at max;
//       columns uniform
//       (graphs, circuits, economics)
//   uniform:ROWS[,mean=8][,seed=1]     Poisson row lengths, uniform columns
//   banded:ROWS[,width=11]             every row the band |i - j| <= width / 2
//   stencil2d5:N, stencil2d9:N, stencil3d27:N
//       the 5- and 9-point stencils of an N x N grid, the 27-point one of N^3
//       (laplace7:N, laplacian.hpp, is the 7-point one)
//   fem3:N[,seed=1]                    3 unknowns per node of an N^3 grid of
//       nodes, each coupled with its 27 neighbours: dense 3 x 3 blocks, rows
//       of up to 81 entries (elasticity-like)
//   arrow:ROWS[,dense=4][,mean=6][,seed=1]
//       `dense` full rows and columns over a sparse uniform matrix (hubs,
//       bordered systems)
//   emptyrows:ROWS[,filled=0.05][,mean=40][,seed=1]
//       only a fraction of the rows has entries (mostly-empty rows)
//
// and, for algebraic multigrid (issue 46), discretised PDEs, real and square:
//
//   aniso2d:N[,eps=0.001][,angle=0]
//       rotated anisotropic diffusion -div(K grad u), K with eigenvalues 1
//       and eps rotated by angle degrees, on an N x N grid, Dirichlet: the
//       9-point finite-difference stencil (5-point at angle 0) of PyAMG's
//       stencil_grid(diffusion_stencil_2d(eps, radians(angle), 'FD'), (N, N)),
//       the same matrix bit for bit (the strong direction at angle 0 is the
//       slow index j); 2 (1 + eps) on the diagonal. SPD
//   convdiff2d:N[,peclet=100][,angle=30]
//       -Laplace(u) + w . grad(u) on the unit square, N x N interior points,
//       Dirichlet, first-order upwind convection, |w| = peclet at angle
//       degrees to x; times h^2 (4 + h |w_x| + h |w_y| on the diagonal).
//       A nonsymmetric M-matrix
//   elasticity3d:N[,nu=0.3]
//       3D linear elasticity, E = 1, Poisson ratio nu, on the unit cube of
//       N^3 trilinear (Q1) hexahedra (2 x 2 x 2 Gauss points), the face x = 0
//       clamped (its nodes removed): 3 N (N + 1)^2 rows, the x, y, z of a
//       node in a row each (nodes x fastest), dense 3 x 3 blocks. SPD;
//       elasticity3d_coordinates gives the nodes (rigid-body modes)
//
// Values are uniform in [-1, 1) (the stencils and PDEs: their weights); the
// same spec gives the same matrix on every machine. Sizes beyond 32-bit
// indices are refused before anything is allocated.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "sparse/formats.hpp"

namespace tessera::sparse {

/// Whether `spec` names one of the families above ("powerlaw:...", ...).
bool is_family_spec(std::string_view spec);

/// The families' names, comma-separated (for messages).
std::string family_names();

/// The matrix of a family spec; UsageError (naming the spec, the key and what
/// was expected) for anything malformed.
template <Scalar T>
Csr<T> generate_family(std::string_view spec);

/// The coordinates of elasticity3d:N's nodes in the matrix's order, x, y, z
/// a node (3 values per 3 rows); UsageError for any other spec.
std::vector<double> elasticity3d_coordinates(std::string_view spec);

/// The benchmark's matrix set, each family at about `nnz` nonzeros
/// (power-law at three exponents; every stencil; ...).
std::vector<std::string> family_benchmark_set(size64 nnz);

}  // namespace tessera::sparse
