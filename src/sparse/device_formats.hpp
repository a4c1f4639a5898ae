// The device copies of the host formats (formats.hpp): the same arrays, in
// Buffers, plus what the kernels need besides (partial-sum buffers of the
// two-kernel thesis variants, BELL V3's x windows). Built by DeviceMatrix
// (device_matrix.hpp); read by the launchers in kernels/.
//
// `mapped` says whether a row map was uploaded; without one stored row i is
// row i. A mapped matrix leaves rows no stored row maps to untouched, so the
// launcher zeroes y first.
#pragma once
#include "core/buffer.hpp"
#include "sparse/formats.hpp"
#include "sparse/kernels/spmv_params.h"  // TS_SPMV_MERGE_TILE

namespace tessera::sparse {

template <Scalar V>
struct DeviceCsr {
  size64 rows = 0, cols = 0, nnz = 0;
  int lanes = 1;   ///< csr-vector: threads per row (1, 2, 4, ..., 32)
  int chains = 1;  ///< csr-vector: lane chains per work-item (lanes / chains work-items per row)
  Buffer<index_t> row_ptr, col;
  Buffer<V> val;
  size64 longest = 0;  ///< the longest row's entries
  /// csr-merge, made on first use: each tile's first row (tiles + 1
  /// entries), each tile's carry-out (the partial of its last row) and,
  /// where a row can span three tiles, the carries' scan by blocks of tiles.
  mutable Buffer<index_t> tile_row;
  mutable Buffer<V> carry, carry_scan;
  size64 tiles() const { return ceil_div(rows + nnz, size64{TS_SPMV_MERGE_TILE}); }
  /// Whether a row can span three tiles or more (its carries are scanned).
  bool merge_scan() const { return longest + 1 > TS_SPMV_MERGE_TILE; }
};

template <Scalar V>
struct DeviceEll {
  size64 rows = 0, cols = 0, stored_rows = 0, width = 0, subsection = 1;
  bool mapped = false;
  Buffer<index_t> row_map, col;
  Buffer<V> val;
  mutable Buffer<V>
      partial;  ///< thesis ELL: stored_rows x (width / subsection), allocated on first use
  size64 subsections() const { return subsection > 0 ? ceil_div(width, subsection) : 0; }
};

template <Scalar V>
struct DeviceSell {
  size64 rows = 0, cols = 0, slices = 0;
  int slice_height = 32;
  bool mapped = false;
  Buffer<index_t> slice_ptr, row_map, col;
  Buffer<V> val;
};

template <Scalar V>
struct DeviceBcsr {
  size64 rows = 0, cols = 0, stored_block_rows = 0, nblocks = 0;
  BlockShape block;
  bool mapped = false;
  Buffer<index_t> row_ptr, block_row_map, col;
  Buffer<V> val;
  mutable Buffer<V> partial;  ///< V1/V2/V3: nblocks * r partial row sums, allocated on first use
  Bcsr<V> host;               ///< what the "upload every call" variants upload again
};

template <Scalar V>
struct DeviceBell {
  size64 rows = 0, cols = 0, stored_block_rows = 0, width = 0;
  BlockShape block;  ///< layout unused: BELL's matrix-wide column-major order
  BellIndex index = BellIndex::scalar_row;
  bool mapped = false;
  Buffer<index_t> block_row_map, col;
  Buffer<V> val;
  Buffer<index_t>
      lengths;  ///< bell-bi: real blocks per stored block row (the padding slots are skipped)
  size64 real_blocks = 0;   ///< bell-bi: the sum of `lengths`
  int group_rows = 0;       ///< BELL V3: rows per work-group (0: no windows)
  size64 max_window = 0;    ///< BELL V3: largest window, in values (local memory per group)
  Buffer<index_t> windows;  ///< BELL V3: (first x index, window size) per group
  int sub_slots = 4;        ///< bell-sub: block slots per thread
  size64 stored_rows() const { return stored_block_rows * block.r; }
  /// ts_spmv_bell_row_ix's ir and iscale for this matrix's index: (1, 1) per
  /// scalar row (BELL, V3, V4), (r, c) per block row (bell-bi).
  int index_rows() const { return index == BellIndex::block_row ? block.r : 1; }
  int index_scale() const { return index == BellIndex::block_row ? block.c : 1; }
  size64 subsections() const { return sub_slots > 0 ? ceil_div(width, sub_slots) : 0; }
};

}  // namespace tessera::sparse
