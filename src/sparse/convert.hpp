// Host-side converters. CSR is the hub: every format converts to and from CSR,
// so any pair converts through it; the TRACE path has direct converters where
// going through CSR would lose block structure (BCSR <-> gapped BCSR, BCSR ->
// BELL, BCSR layout change).
//
// Zeros: formats that pad (DIA, ELL, SELL, HYB's ELL part) cannot tell padding
// from an explicit zero, so converting them back to CSR drops every zero value.
// Block formats (BCSR, gapped BCSR, BELL) store blocks whole; converting them to
// CSR keeps the in-block zeros (Zeros::keep, the block structure is data) or
// drops them (Zeros::drop, what the thesis's BCSR -> ELL conversion does).
// Round trips CSR -> X -> CSR are therefore exact for matrices without explicit
// zeros (and for block formats with Zeros::drop).
//
// Every converter checks sizes in 64 bits and throws Error when an array of the
// result would exceed the 32-bit index range.
#pragma once
#include "sparse/formats.hpp"

namespace tessera::sparse {

enum class Zeros { keep, drop };

// ---- COO / CSR ---------------------------------------------------------------
/// Sorts by (row, column) and sums duplicate entries (the sum is formed in the
/// order the duplicates appear in the COO arrays).
template <Scalar T>
Csr<T> to_csr(const Coo<T>& a);
/// Row-major COO of a CSR matrix.
template <Scalar T>
Coo<T> to_coo(const Csr<T>& a);
/// CSR with all exact zeros removed.
template <Scalar T>
Csr<T> drop_zeros(const Csr<T>& a);

/// The same matrix with values converted to another type (a complex source
/// needs a complex target).
template <Scalar To, Scalar From>
Csr<To> cast_values(const Csr<From>& a) {
  static_assert(is_complex_v<To> || !is_complex_v<From>, "complex values do not fit a real type");
  auto out = same_shape<Csr<To>>(a);
  out.row_ptr = a.row_ptr;
  out.col = a.col;
  out.val.reserve(a.val.size());
  for (const From& v : a.val) {
    if constexpr (is_complex_v<From>)
      out.val.push_back(To(static_cast<real_t<To>>(v.real()), static_cast<real_t<To>>(v.imag())));
    else
      out.val.push_back(To(static_cast<real_t<To>>(v)));
  }
  return out;
}

// ---- DIA ---------------------------------------------------------------------
struct DiaOptions {
  /// Refuse (Error) when rows * diagonals exceeds this many slots; 0 = only the
  /// 32-bit limit. DIA of an unstructured matrix can be enormous.
  size64 max_slots = 0;
};
template <Scalar T>
Dia<T> to_dia(const Csr<T>& a, DiaOptions opt = {});
template <Scalar T>
Csr<T> to_csr(const Dia<T>& a);
/// Number of distinct diagonals of `a` (what DIA would store), without building it.
template <Scalar T>
size64 count_diagonals(const Csr<T>& a);

// ---- BCSR and TRACE's gapped BCSR -----------------------------------------------
struct BcsrOptions {
  int r = 5, c = 5;
  BlockLayout layout = BlockLayout::row_major;
  /// Drop block rows without blocks and record the others in block_row_map
  /// (TRACE's compressed GPU form).
  bool compress_rows = false;
};
template <Scalar T>
Bcsr<T> to_bcsr(const Csr<T>& a, BcsrOptions opt = {});
template <Scalar T>
Csr<T> to_csr(const Bcsr<T>& a, Zeros zeros = Zeros::keep);
/// Same blocks, in-block order changed (row-major <-> the thesis's "permuted").
template <Scalar T>
Bcsr<T> with_layout(const Bcsr<T>& a, BlockLayout layout);
/// Drops empty stored block rows, recording the rest in block_row_map.
template <Scalar T>
Bcsr<T> compress_rows(const Bcsr<T>& a);

/// A square block system restricted to the block rows that hold blocks, with
/// the same block columns dropped: `kept[i]` is the original block row of
/// block row i. TRACE's ghost cells have no row and no block refers to them,
/// so A x = b on the kept unknowns has the same solution there (the dropped
/// unknowns are free and untouched by a Krylov method started from b with
/// zeros in them), and every vector of a solver shrinks by the ghost share.
/// Error when the matrix is not square with square blocks dividing it, or
/// when a block refers to a dropped column (it would lose a coupling).
template <Scalar T>
struct RestrictedSystem {
  Bcsr<T> a;
  std::vector<size64> kept;
};
template <Scalar T>
RestrictedSystem<T> drop_empty_block_rows(const Bcsr<T>& a);

/// Placeholders removed: compressed row pointer + block row index.
template <Scalar T>
Bcsr<T> to_bcsr(const GappedBcsr<T>& a);
/// Block rows that no stored block row maps to become placeholders (with an
/// identity map, i.e. an uncompressed BCSR, none do: compress it first).
template <Scalar T>
GappedBcsr<T> to_gapped(const Bcsr<T>& a);
template <Scalar T>
Csr<T> to_csr(const GappedBcsr<T>& a, Zeros zeros = Zeros::keep);

// ---- ELL ------------------------------------------------------------------------
struct EllOptions {
  size64 subsection = 1;         ///< width rounded up to a multiple of this (thesis L)
  bool sort_rows = false;        ///< stable sort by increasing length (Saad's example)
  bool drop_empty_rows = false;  ///< do not store rows without entries (ghost rows)
};
template <Scalar T>
Ell<T> to_ell(const Csr<T>& a, EllOptions opt = {});
template <Scalar T>
Csr<T> to_csr(const Ell<T>& a);

// ---- BELL -----------------------------------------------------------------------
struct BellOptions {
  BellIndex index = BellIndex::scalar_row;
  size64 subsection = 1;  ///< width (in blocks) rounded up to a multiple of this
};
/// Keeps a's blocks (explicit zeros included) and its block row map.
template <Scalar T>
Bell<T> to_bell(const Bcsr<T>& a, BellOptions opt = {});
/// Trailing all-zero blocks of each block row (the padding) are dropped.
template <Scalar T>
Bcsr<T> to_bcsr(const Bell<T>& a, BlockLayout layout = BlockLayout::row_major);
template <Scalar T>
Csr<T> to_csr(const Bell<T>& a, Zeros zeros = Zeros::keep);

// ---- SELL-C-sigma -----------------------------------------------------------------
struct SellOptions {
  int slice_height = 32;  ///< C
  int sort_window = 1;    ///< sigma; 1 = no sorting
};
template <Scalar T>
Sell<T> to_sell(const Csr<T>& a, SellOptions opt = {});
template <Scalar T>
Csr<T> to_csr(const Sell<T>& a);

// ---- HYB ------------------------------------------------------------------------
struct HybOptions {
  /// ELL width; negative = the width that minimises stored bytes (value + index
  /// per ELL slot against value + 2 indices per COO entry).
  size64 ell_width = -1;
};
template <Scalar T>
Hyb<T> to_hyb(const Csr<T>& a, HybOptions opt = {});
template <Scalar T>
Csr<T> to_csr(const Hyb<T>& a);

}  // namespace tessera::sparse
