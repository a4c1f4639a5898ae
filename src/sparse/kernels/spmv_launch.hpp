// Which kernels of spmv_point.h each format's SpMV runs, with what shape and
// parameters: written once for every backend (Tag: CpuTag, OpenCLTag,
// CudaTag). The front end (device_spmv.cpp) checks sizes, devices and
// kernel/format compatibility before calling these, and allocates the
// partial-sum buffers of the two-kernel thesis variants.
#pragma once
#include <algorithm>

#include "sparse/device_formats.hpp"
#include "sparse/kernels/spmv_kernels.hpp"

namespace tessera::sparse::kernels {

inline ts_size groups_for(size64 items, size64 per_group) {
  return static_cast<ts_size>(ceil_div(items, per_group));
}

/// y = 0
template <class Tag, class V>
void zero(Tag tag, Queue& q, Buffer<V>& y) {
  spmv_zero<V>(tag, q, y.size(), y);
}

template <class V>
ts_spmv_params merge_params(const DeviceCsr<V>& a) {
  ts_spmv_params p{};
  p.rows = a.rows;
  p.nnz = a.nnz;
  p.n = a.tiles();
  p.sub = a.merge_scan() ? 1 : 0;  // the carries are scanned by blocks of tiles
  return p;
}

/// csr-merge's partition and carry buffers, made on first use.
template <class Tag, class V>
void merge_prepare(Tag tag, Queue& q, const std::shared_ptr<Device>& d, const DeviceCsr<V>& a) {
  const auto tiles = static_cast<std::size_t>(a.tiles());
  if (a.tile_row.size() == tiles + 1) return;
  a.tile_row = Buffer<index_t>(d, tiles + 1);
  a.carry = Buffer<V>(d, tiles);
  if (a.merge_scan()) a.carry_scan = Buffer<V>(d, tiles);
  spmv_merge_partition<V>(tag, q, tiles + 1, merge_params(a), a.row_ptr, a.tile_row);
}

template <class Tag, class V>
void csr(Tag tag, Queue& q, const DeviceCsr<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y) {
  if (k == Kernel::csr_scalar)
    return spmv_csr_scalar<V>(tag, q, a.rows, a.row_ptr, a.col, a.val, x, y);
  if (k == Kernel::csr_merge) {  // merge_prepare made the partition
    const ts_spmv_params p = merge_params(a);
    spmv_csr_merge<V>(tag, q, p.n, p, a.tile_row, a.row_ptr, a.col, a.val, x, y, a.carry);
    if (p.sub)
      spmv_merge_scan<V>(tag, q, groups_for(p.n, TS_SPMV_MERGE_SCAN), p, a.tile_row, a.carry,
                         a.carry_scan);
    return spmv_merge_carry<V>(tag, q, p.n, p, a.tile_row, a.row_ptr, a.carry,
                               p.sub ? launch::In<V>(a.carry_scan) : launch::In<V>(), y);
  }
  ts_spmv_params p{};
  p.rows = a.rows;
  p.lanes = a.lanes;
  // lanes / chains work-items per row, each with `chains` lane chains in registers
  const size64 items = a.rows * (a.lanes / a.chains);
  spmv_csr_vector<V>(tag, q, {groups_for(items, TS_SPMV_GROUP), 0, 0, a.chains}, p, a.row_ptr,
                     a.col, a.val, x, y);
}

template <class Tag, class V>
void ell(Tag tag, Queue& q, const DeviceEll<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y) {
  ts_spmv_params p{};
  p.n = a.stored_rows;
  p.width = a.width;
  p.rows = a.rows;
  p.cols = a.cols;
  p.sub = a.subsection;
  p.nsub = a.subsections();
  p.mapped = a.mapped;
  if (k == Kernel::ell_v2)
    return spmv_ell_row<V>(tag, q, a.stored_rows, p, a.row_map, a.col, a.val, x, y);
  spmv_ell_subsection<V>(tag, q, a.stored_rows * a.subsections(), p, a.col, a.val, x, a.partial);
  spmv_ell_reduce<V>(tag, q, a.stored_rows, p, a.row_map, a.partial, y);
}

template <class Tag, class V>
void sell(Tag tag, Queue& q, const DeviceSell<V>& a, Kernel, const Buffer<V>& x, Buffer<V>& y) {
  ts_spmv_params p{};
  p.rows = a.rows;
  p.cols = a.cols;
  p.slice = a.slice_height;
  p.mapped = a.mapped;
  spmv_sell<V>(tag, q, a.rows, p, a.row_map, a.slice_ptr, a.col, a.val, x, y);
}

template <class Tag, class V>
void bcsr(Tag tag, Queue& q, const DeviceBcsr<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y) {
  const int r = a.block.r, c = a.block.c;
  const bool row_major = a.block.layout == BlockLayout::row_major;
  ts_spmv_params p{};
  p.n = a.stored_block_rows;
  p.rows = a.rows;
  p.cols = a.cols;
  p.r = r;
  p.c = c;
  p.si = row_major ? c : 1;  // in-block row and column strides
  p.sj = row_major ? 1 : r;
  p.mapped = a.mapped;
  if (k == Kernel::bcsr_warp)
    return spmv_bcsr_warp<V>(tag, q, groups_for(a.stored_block_rows * TS_SPMV_WARP, TS_SPMV_GROUP),
                             p, a.block_row_map, a.row_ptr, a.col, a.val, x, y);
  if (k == Kernel::bcsr_v1a || k == Kernel::bcsr_v1b)
    spmv_bcsr_block<V>(tag, q, a.nblocks, p, a.col, a.val, x, a.partial);
  else
    spmv_bcsr_block_row<V>(tag, q, a.nblocks * r, p, a.col, a.val, x, a.partial);
  spmv_bcsr_reduce<V>(tag, q, a.stored_block_rows * r, p, a.block_row_map, a.row_ptr, a.partial, y);
}

template <class Tag, class V>
void bell(Tag tag, Queue& q, const DeviceBell<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y) {
  const int r = a.block.r, c = a.block.c;
  const size64 n = a.stored_rows();
  ts_spmv_params p{};
  p.n = n;
  p.width = a.width;
  p.rows = a.rows;
  p.cols = a.cols;
  p.sub = a.sub_slots;
  p.r = r;
  p.c = c;
  p.mapped = a.mapped;
  p.ir = a.index_rows();
  p.iscale = a.index_scale();
  p.has_len = a.lengths.size() ? 1 : 0;
  if (k == Kernel::bell_v2)
    return spmv_bell_block_row<V>(tag, q, a.stored_block_rows, p, a.block_row_map, a.col, a.val, x,
                                  y);
  if (k == Kernel::bell_v3) {  // groups of group_rows rows, each with its x window
    const launch::Groups shape(groups_for(n, a.group_rows), std::max<size64>(a.max_window, 1),
                               static_cast<unsigned>(a.group_rows));
    return spmv_bell_window<V>(tag, q, shape, p, a.block_row_map, a.windows, a.col, a.val, x, y);
  }
  if (k == Kernel::bell_sub) {  // groups of TS_SPMV_WARP rows x subsections
    const auto threads = static_cast<unsigned>(TS_SPMV_WARP * a.subsections());
    return spmv_bell_sub<V>(tag, q, {groups_for(n, TS_SPMV_WARP), threads, threads}, p,
                            a.block_row_map, a.col, a.val, x, y);
  }
  // BELL, BELL V4 (the thesis's CUDA launch of it) and bell-bi, whose common
  // square blocks have kernels compiled for their size
  const bool square = a.index == BellIndex::block_row && r == c && r >= 2 && r <= 6;
  spmv_bell_row<V>(tag, q, {groups_for(n, TS_SPMV_GROUP), 0, 0, square ? r : 0}, p, a.block_row_map,
                   a.lengths, a.col, a.val, x, y);
}

}  // namespace tessera::sparse::kernels
