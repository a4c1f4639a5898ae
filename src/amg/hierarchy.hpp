// Smoothed-aggregation AMG's setup on the host (Vanek, Mandel & Brezina
// 1996; docs/amg.md): the level operators, prolongators and smoother data
// that the device cycle (preconditioner.hpp) applies. This is the oracle a
// device setup must reproduce.
//
//   level l: A_l (rows n_l = nodes_l * b_l), D_l^-1 (the inverted b_l x b_l
//   diagonal blocks), rho_l ~ rho(D_l^-1 A_l);
//   T_l: the tentative prolongator, B_l's rows of each aggregate
//        orthonormalised (thin QR), R gives B_{l+1};
//   P_l = (I - w / rho_l D_l^-1 A_l) T_l, R_l = P_l^H, A_{l+1} = R_l A_l P_l.
// The coarsest level's inverse is dense (Gauss-Jordan, partial pivoting, in
// double).
#pragma once
#include <vector>

#include "amg/aggregation.hpp"
#include "amg/options.hpp"
#include "core/device.hpp"
#include "sparse/formats.hpp"

namespace tessera::amg {

using sparse::Csr;
using sparse::Scalar;

template <Scalar V>
struct Level {
  Csr<V> a;
  int block = 1;                   ///< rows per node
  std::vector<V> dinv;             ///< inverted diagonal blocks, block^2 per node, row-major
  double rho = 0;                  ///< estimate of the spectral radius of D^-1 A
  std::vector<index_t> aggregate;  ///< node -> aggregate of the next level (-1: none)
  Csr<V> p, r;                     ///< to and from the next level (empty on the coarsest)
  /// Gauss-Seidel (Options::smoother, not on the coarsest level): A without
  /// its diagonal, 1 / a_ii, and the rows by colour (colour c is
  /// color_nodes[color_start[c] .. color_start[c + 1]), ascending; the rows
  /// of a node get different colours: point Gauss-Seidel).
  Csr<V> offdiag;
  std::vector<V> inv_point_diag;
  std::vector<index_t> color_nodes, color_start;
  /// Gauss-Seidel's colours: one launch each per sweep (0 without)
  int colors() const { return color_start.empty() ? 0 : static_cast<int>(color_start.size()) - 1; }
};

/// Seconds of each setup phase (host wall clock).
struct SetupTimes {
  /// diagonal: the inverted diagonal blocks and the spectral radius
  double diagonal = 0, strength = 0, aggregation = 0, tentative = 0, smoothing = 0, galerkin = 0,
         coloring = 0, coarse = 0, total = 0;
};

template <Scalar V>
struct Hierarchy {
  std::vector<Level<V>> levels;
  std::vector<V> coarse_inverse;  ///< dense, row-major, of the last level's A
  SetupTimes times;
  /// where the aggregation and the prolongators' and Galerkin products ran:
  /// "host" or a device id
  std::string products_on = "host";
  /// sum of the levels' nonzeros / the finest's
  double operator_complexity() const;
  /// sum of the levels' rows / the finest's
  double grid_complexity() const;
};

/// A near-nullspace: `cols` vectors of the matrix's rows, stored row by row
/// (values[i * cols + j] is vector j at row i). Empty: the default, one
/// constant per row of a node (the identity of each b x b block).
template <Scalar V>
struct Nullspace {
  int cols = 0;
  std::vector<V> values;
};

/// The six rigid-body modes (three in 2D) of linear elasticity at nodes with
/// coordinates xyz (dim values per node; dim 2 or 3), for b = dim rows per
/// node: translations, then rotations about the coordinate axes.
template <Scalar V>
Nullspace<V> rigid_body_modes(const std::vector<double>& xyz, int dim);

/// Builds the hierarchy of `a` (square; rows a multiple of o.block, which
/// must be set) with near-nullspace `b` (empty: the default).
/// Errors name the row or node: a zero or missing diagonal (b = 1), a
/// singular diagonal block, a non-square matrix, a nullspace of the wrong
/// size; a coarsest level over kMaxDenseCoarse rows names the level and
/// what to change. Running out of host memory says how much the levels
/// built so far take. The Gauss-Seidel colours are built for
/// Smoother::gauss_seidel and for automatic (a CPU's choice; Amg resolves
/// automatic for its device before it builds).
/// `products`: the device that aggregates (device_aggregation.hpp) and
/// forms the sparse products (the smoothed prolongator's and the Galerkin
/// operators: sparse::multiply on a device); the host's bits either way;
/// null: the host.
template <Scalar V>
Hierarchy<V> build_hierarchy(const Csr<V>& a, const Options& o, const Nullspace<V>& b = {},
                             const std::shared_ptr<Device>& products = nullptr);

/// The node graph of a (b x b blocks, Frobenius norms), for tests.
template <Scalar V>
NodeGraph node_graph(const Csr<V>& a, int b);

/// The tentative prolongator of aggregates `agg` (count aggregates) for the
/// near-nullspace b over nodes of `block` rows; b_coarse gets the next
/// level's near-nullspace (one k x k block per aggregate).
template <Scalar V>
Csr<V> tentative_prolongator(const std::vector<index_t>& agg, index_t count, int block,
                             const Nullspace<V>& b, Nullspace<V>& b_coarse);

/// The estimate of rho(D^-1 A) setup uses (power iteration, 20 steps from a
/// fixed start; Rayleigh quotients in the D inner product for Hermitian A),
/// never above the bound max_i sum_j |(D^-1 A)_ij|.
template <Scalar V>
double spectral_radius(const Csr<V>& a, const std::vector<V>& dinv, int block);

}  // namespace tessera::amg
