// The storage formats of the sparse module: plain data, host side. Converters
// are in convert.hpp, reference SpMVs in spmv.hpp, byte accounting in
// storage.hpp, invariant checks in validate.hpp; docs/sparse.md has pictures.
//
// Conventions shared by every format:
//  - Indices are 0-based index_t (32-bit); sizes are size64 (see types.hpp).
//  - rows x cols is the logical matrix; y has `rows` entries, x has `cols`.
//  - "Row maps" (ELL, SELL, BELL, compressed BCSR): a stored row i writes
//    y[row_map[i]]. An empty map means the identity. They serve TRACE's ghost
//    gaps (rows that are not stored) and row sorting (ELL, SELL-C-sigma).
//    An empty map with no stored rows means nothing is stored. Rows no stored
//    row maps to are zero in y.
//  - Padding slots (ELL, SELL, BELL, DIA) hold the value 0 and a valid column
//    index, so a kernel may multiply them without a branch and without reading
//    out of bounds. Padding policy: the column of the row's own index clamped to
//    [0, cols-1] (Saad's choice, shown in the thesis's ELL example); for BELL the
//    block column of the block row's own index, clamped likewise.
#pragma once
#include <vector>

#include "sparse/types.hpp"

namespace tessera::sparse {

/// Coordinate list; no ordering requirement, duplicates allowed (summed by to_csr).
template <Scalar T>
struct Coo {
  using value_type = T;
  size64 rows = 0, cols = 0;
  std::vector<index_t> row, col;
  std::vector<T> val;
  size64 nnz() const { return static_cast<size64>(val.size()); }
};

/// Compressed sparse rows: columns ascending and unique within a row.
template <Scalar T>
struct Csr {
  using value_type = T;
  size64 rows = 0, cols = 0;
  std::vector<index_t> row_ptr{0};  ///< rows + 1 offsets into col/val
  std::vector<index_t> col;
  std::vector<T> val;
  size64 nnz() const { return static_cast<size64>(val.size()); }
};

/// Diagonal storage: diagonal d (offset k = offsets[d], column = row + k) is
/// column d of a rows x ndiag data matrix, stored diagonal by diagonal:
/// data[d * rows + i] = A(i, i + offsets[d]). Positions outside the matrix are
/// 0 (the thesis's "x" placeholders). Offsets ascending.
template <Scalar T>
struct Dia {
  using value_type = T;
  size64 rows = 0, cols = 0;
  std::vector<index_t> offsets;
  std::vector<T> data;
  size64 diagonals() const { return static_cast<size64>(offsets.size()); }
};

/// In-block order of an r x c block: row_major is TRACE's native BCSR,
/// col_major is the thesis's "permuted" BCSR (kernel V3).
enum class BlockLayout { row_major, col_major };

struct BlockShape {
  int r = 1, c = 1;
  BlockLayout layout = BlockLayout::row_major;
  size64 size() const { return static_cast<size64>(r) * c; }
  /// Position of element (i, j) inside a block's r*c values.
  size64 offset(int i, int j) const {
    return layout == BlockLayout::row_major ? static_cast<size64>(i) * c + j
                                            : static_cast<size64>(j) * r + i;
  }
};

/// Block CSR with r x c blocks; every block with at least one entry is stored
/// complete (its zeros included). Block b's values are val[b*r*c, (b+1)*r*c).
/// rows/cols need not be multiples of r/c: the last block row/column is cut
/// off, its positions outside the matrix hold 0 and are never used.
/// With a non-empty block_row_map this is TRACE's GPU form ("compressed row
/// pointer + block row index"): stored block row i is block row
/// block_row_map[i] and block rows absent from the map are empty.
template <Scalar T>
struct Bcsr {
  using value_type = T;
  size64 rows = 0, cols = 0;
  BlockShape block;
  std::vector<index_t> row_ptr{0};     ///< stored block rows + 1 offsets (in blocks)
  std::vector<index_t> block_row_map;  ///< empty: identity
  std::vector<index_t> col;            ///< block column of each block, ascending per row
  std::vector<T> val;                  ///< nblocks * r * c
  size64 block_rows() const { return ceil_div(rows, block.r); }
  size64 block_cols() const { return ceil_div(cols, block.c); }
  size64 stored_block_rows() const { return static_cast<size64>(row_ptr.size()) - 1; }
  size64 nblocks() const { return static_cast<size64>(col.size()); }
};

/// Marks a placeholder block row in GappedBcsr::row_ptr.
inline constexpr index_t kGhostRow = -1;

/// TRACE's native matrix of one grid block: block rows are numbered over the
/// whole index space, ghost cells included, but ghost cells have no stored
/// row. row_ptr keeps one entry per block row (+1); a ghost row holds the
/// placeholder kGhostRow, so a row's end is the next entry that is not a
/// placeholder (TRACE's CPU code finds it with a while loop). row_ptr's last
/// entry is always nblocks. A real row without blocks is an empty range.
/// (The thesis does not say how placeholders are encoded; a sentinel is what
/// makes its "skip them with a while loop" necessary, hence this choice.)
template <Scalar T>
struct GappedBcsr {
  using value_type = T;
  size64 rows = 0, cols = 0;
  BlockShape block;
  std::vector<index_t> row_ptr{0};  ///< block_rows() + 1 entries, kGhostRow for ghosts
  std::vector<index_t> col;
  std::vector<T> val;
  size64 block_rows() const { return ceil_div(rows, block.r); }
  size64 block_cols() const { return ceil_div(cols, block.c); }
  size64 nblocks() const { return static_cast<size64>(col.size()); }
};

/// ELLPACK: every stored row has `width` slots, stored column-major
/// (slot k of stored row i at [k * stored_rows + i]), so consecutive rows are
/// consecutive in memory (one work-item per row reads coalesced). width is the
/// longest row rounded up to a multiple of `subsection` (the thesis's
/// subsection length L; 1 = no rounding).
template <Scalar T>
struct Ell {
  using value_type = T;
  size64 rows = 0, cols = 0;
  size64 stored_rows = 0;
  size64 width = 0;
  size64 subsection = 1;
  std::vector<index_t> row_map;  ///< empty: identity
  std::vector<index_t> col;      ///< width * stored_rows
  std::vector<T> val;            ///< width * stored_rows
  size64 at(size64 i, size64 k) const { return k * stored_rows + i; }
};

/// Which column index a blocked ELL carries (the thesis's two kernels):
///  scalar_row: one entry per (slot, stored scalar row), holding the block's
///              first scalar column (bcol * c): kernel BELL, one work-item per
///              scalar row, one coalesced index load per block.
///  block_row:  one entry per (slot, stored block row), holding the block
///              column: kernel BELL V2, one work-item per block row.
enum class BellIndex { scalar_row, block_row };

/// Blocked ELLPACK: every stored block row has `width` block slots (trailing
/// ones are all-zero padding blocks). Values are column-major over the whole
/// matrix, as in TRACE's GPU layout: element (i, j) of slot k in stored block
/// row br is val[(k * c + j) * stored_rows + br * r + i], where stored_rows =
/// stored_block_rows * r; so each in-block column of a slot is one contiguous
/// column over all stored scalar rows.
template <Scalar T>
struct Bell {
  using value_type = T;
  size64 rows = 0, cols = 0;
  BlockShape block;  ///< layout unused: the matrix-wide column-major order above
  size64 stored_block_rows = 0;
  size64 width = 0;  ///< block slots per block row
  size64 subsection = 1;
  BellIndex index = BellIndex::scalar_row;
  std::vector<index_t> block_row_map;  ///< empty: identity
  std::vector<index_t> col;            ///< see BellIndex
  std::vector<T> val;
  size64 stored_rows() const { return stored_block_rows * block.r; }
  size64 at(size64 br, size64 k, int i, int j) const {
    return (k * block.c + j) * stored_rows() + br * block.r + i;
  }
  /// Block column of slot k of stored block row br, whichever index is stored.
  index_t block_col(size64 br, size64 k) const {
    return index == BellIndex::block_row
               ? col[k * stored_block_rows + br]
               : static_cast<index_t>(col[k * stored_rows() + br * block.r] / block.c);
  }
};

/// SELL-C-sigma: rows are sorted by decreasing length within windows of
/// sort_window (sigma) rows, then cut into slices of slice_height (C) rows;
/// each slice is an ELL matrix of its own width, column-major inside the slice:
/// slot k of row i of slice s at slice_ptr[s] + k * C + i. Sorted position p
/// is matrix row row_map[p]; positions >= rows in the last slice are padding.
template <Scalar T>
struct Sell {
  using value_type = T;
  size64 rows = 0, cols = 0;
  int slice_height = 32;
  int sort_window = 1;
  std::vector<index_t> slice_ptr{0};  ///< slices + 1 element offsets
  std::vector<index_t> row_map;       ///< empty: identity (sort_window 1)
  std::vector<index_t> col;
  std::vector<T> val;
  size64 slices() const { return static_cast<size64>(slice_ptr.size()) - 1; }
  size64 slice_width(size64 s) const { return (slice_ptr[s + 1] - slice_ptr[s]) / slice_height; }
};

/// Hybrid: an ELL part of fixed width holding each row's first entries and a
/// COO part (row-sorted) with the rest.
template <Scalar T>
struct Hyb {
  using value_type = T;
  Ell<T> ell;
  Coo<T> coo;
  size64 rows() const { return ell.rows; }
  size64 cols() const { return ell.cols; }
};

/// A fresh To with a's size, and a's block shape where both have one: how a
/// conversion (host or device) starts.
template <class To, class From>
To same_shape(const From& a) {
  To out;
  out.rows = a.rows;
  out.cols = a.cols;
  if constexpr (requires { out.block = a.block; }) out.block = a.block;
  return out;
}

/// same_shape plus a's col and val, for conversions that keep the entries in
/// their order (BCSR <-> gapped BCSR, CSR -> COO).
template <class To, class From>
To same_entries(const From& a) {
  To out = same_shape<To>(a);
  out.col = a.col;
  out.val = a.val;
  return out;
}

/// Stored row `i` of a format with a row map: the matrix row it writes.
inline size64 mapped_row(const std::vector<index_t>& map, size64 i) {
  return map.empty() ? i : static_cast<size64>(map[i]);
}

}  // namespace tessera::sparse

/// F(Format, args...) for every format template above, with the arguments
/// (none or more) passed through: the declarations and explicit
/// instantiations of what every format has (storage, validate, spmv).
// The list by hand: clang-format 14 splits it unevenly.
// clang-format off
#define TESSERA_SPARSE_FOR_EACH_FORMAT(F, ...)                                     \
  F(Coo, __VA_ARGS__) F(Csr, __VA_ARGS__) F(Dia, __VA_ARGS__) F(Bcsr, __VA_ARGS__) \
  F(GappedBcsr, __VA_ARGS__) F(Ell, __VA_ARGS__) F(Bell, __VA_ARGS__)              \
  F(Sell, __VA_ARGS__) F(Hyb, __VA_ARGS__)
// clang-format on

/// Declares `template <Scalar T> Ret name(const Format<T>& a);` for every
/// format: the per-format functions of storage.hpp and validate.hpp.
#define TESSERA_SPARSE_DECLARE_ONE(Format, Ret, name) \
  template <Scalar T>                                 \
  Ret name(const Format<T>& a);
#define TESSERA_SPARSE_DECLARE_FOR_EACH_FORMAT(Ret, name) \
  TESSERA_SPARSE_FOR_EACH_FORMAT(TESSERA_SPARSE_DECLARE_ONE, Ret, name)
