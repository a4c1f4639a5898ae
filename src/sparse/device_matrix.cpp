// Kernel names and DeviceMatrix: the host format each kernel needs, built with
// the host converters and uploaded once.
#include "sparse/device_matrix.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/kernels/spmv_kernels.hpp"
#include "sparse/kernels/spmv_launch.hpp"
#include "sparse/kernels/spmv_point.hpp"
#include "sparse/storage.hpp"

namespace tessera::sparse {

namespace {

struct KernelName {
  Kernel kernel;
  std::string_view name;
  Format format;
};
constexpr std::array<KernelName, 18> kKernels{{
    {Kernel::csr_scalar, "csr-scalar", Format::csr},
    {Kernel::csr_vector, "csr-vector", Format::csr},
    {Kernel::csr_merge, "csr-merge", Format::csr},
    {Kernel::ell, "ell", Format::ell},
    {Kernel::ell_v2, "ell-v2", Format::ell},
    {Kernel::sell, "sell", Format::sell},
    {Kernel::bcsr_v1a, "bcsr-v1a", Format::bcsr},
    {Kernel::bcsr_v1b, "bcsr-v1b", Format::bcsr},
    {Kernel::bcsr_v2a, "bcsr-v2a", Format::bcsr},
    {Kernel::bcsr_v2b, "bcsr-v2b", Format::bcsr},
    {Kernel::bcsr_v3, "bcsr-v3", Format::bcsr},
    {Kernel::bcsr_warp, "bcsr-warp", Format::bcsr},
    {Kernel::bell, "bell", Format::bell},
    {Kernel::bell_v2, "bell-v2", Format::bell},
    {Kernel::bell_v3, "bell-v3", Format::bell},
    {Kernel::bell_v4, "bell-v4", Format::bell},
    {Kernel::bell_sub, "bell-sub", Format::bell},
    {Kernel::bell_bi, "bell-bi", Format::bell},
}};

const KernelName& entry(Kernel k) {
  for (const auto& e : kKernels)
    if (e.kernel == k) return e;
  throw Error("unknown SpMV kernel");
}

/// The in-block order a BCSR kernel reads: the thesis's V1/V2 row-major
/// blocks, V3 and the warp kernel column-major ("permuted") ones.
BlockLayout layout_for(Kernel k) {
  return k == Kernel::bcsr_v3 || k == Kernel::bcsr_warp ? BlockLayout::col_major
                                                        : BlockLayout::row_major;
}

template <class T>
Buffer<T> upload(const std::shared_ptr<Device>& d, const std::vector<T>& v) {
  Buffer<T> b(d, v.size());
  b.copy_from_host(v);
  return b;
}

/// same_shape(h) with h's col and val uploaded: every device format starts so.
template <class D, class H>
D device_entries(const std::shared_ptr<Device>& d, const H& h) {
  auto m = same_shape<D>(h);
  m.col = upload(d, h.col);
  m.val = upload(d, h.val);
  return m;
}

/// upload(d, map), and in `mapped` whether there is a map (device_formats.hpp).
Buffer<index_t> upload_map(const std::shared_ptr<Device>& d, const std::vector<index_t>& map,
                           bool& mapped) {
  mapped = !map.empty();
  return upload(d, map);
}

/// BELL V3's window per group of `group` stored scalar rows: the x indices
/// [first, first + size) every slot of the group reads, padding slots
/// included (their column is valid but may lie outside the real blocks').
template <Scalar V>
std::vector<index_t> bell_windows(const Bell<V>& b, int group, size64& max_window) {
  const size64 n = b.stored_rows(), groups = ceil_div(n, group);
  std::vector<index_t> w(static_cast<std::size_t>(2 * groups), 0);
  max_window = 0;
  for (size64 g = 0; g < groups; ++g) {
    size64 lo = b.cols, hi = -1;
    for (size64 row = g * group; row < std::min(n, (g + 1) * group); ++row)
      for (size64 k = 0; k < b.width; ++k) {
        const size64 first = b.col[k * n + row];
        lo = std::min(lo, first);
        hi = std::max(hi, std::min(first + b.block.c, b.cols) - 1);
      }
    if (hi < lo) continue;
    w[2 * g] = static_cast<index_t>(lo);
    w[2 * g + 1] = static_cast<index_t>(hi - lo + 1);
    max_window = std::max(max_window, hi - lo + 1);
  }
  return w;
}

constexpr std::array<std::string_view, 5> kFormatNames{"CSR", "ELL", "SELL", "BCSR", "BELL"};
static_assert(kFormatNames.size() == std::size_t(Format::bell) + 1);
}  // namespace

std::string_view to_string(Format f) { return enum_name(f, kFormatNames); }

std::string_view to_string(Kernel k) { return entry(k).name; }
Format format_of(Kernel k) { return entry(k).format; }

Kernel parse_kernel(std::string_view name) {
  for (const auto& e : kKernels)
    if (e.name == name) return e.kernel;
  std::string known;
  for (const auto& e : kKernels) known += (known.empty() ? "" : ", ") + std::string(e.name);
  throw UsageError(fmt::format("unknown SpMV kernel '{}' (known: {})", name, known));
}

std::vector<Kernel> all_kernels() {
  std::vector<Kernel> out;
  for (const auto& e : kKernels) out.push_back(e.kernel);
  return out;
}

Kernel default_kernel(Format f) {
  switch (f) {
    case Format::csr:
      return Kernel::csr_vector;
    case Format::ell:
      return Kernel::ell_v2;
    case Format::sell:
      return Kernel::sell;
    case Format::bcsr:
      return Kernel::bcsr_warp;
    case Format::bell:
      return Kernel::bell;
  }
  return Kernel::csr_vector;
}

Kernel block_solver_kernel() { return Kernel::bell_bi; }

BellIndex bell_index_for(Kernel k) {
  return k == Kernel::bell_v2 || k == Kernel::bell_bi ? BellIndex::block_row
                                                      : BellIndex::scalar_row;
}

bool available(Kernel k, Backend b) {
  return k != Kernel::bell_v4 || b == Backend::cuda || b == Backend::cpu;
}

template <Scalar V>
DeviceMatrix<V>::DeviceMatrix(std::shared_ptr<Device> device, const Csr<V>& a, Kernel kernel,
                              const DeviceOptions& opt)
    : device_(std::move(device)), rows_(a.rows), cols_(a.cols) {
  init(a, kernel, opt);
}

template <Scalar V>
DeviceMatrix<V>::DeviceMatrix(std::shared_ptr<Device> device, const Bcsr<V>& a, Kernel kernel,
                              const DeviceOptions& opt)
    : device_(std::move(device)), rows_(a.rows), cols_(a.cols) {
  init(a, kernel, opt);
}

template <Scalar V>
void DeviceMatrix<V>::init(const Csr<V>& a, Kernel kernel, const DeviceOptions& opt) {
  format_ = format_of(kernel);
  kernel_ = kernel;
  auto account = [&](const sparse::Storage& s) {
    stored_ = s.slots;
    nonzeros_ = s.nonzeros();
    matrix_bytes_ = s.total_bytes();
  };
  if (format_ == Format::bcsr || format_ == Format::bell) {
    if (opt.block_r < 1 || opt.block_c < 1) throw UsageError("block size must be at least 1x1");
    init(to_bcsr(a, {opt.block_r, opt.block_c, layout_for(kernel), true}), kernel, opt);
  } else if (format_ == Format::csr) {
    const int lanes =
        opt.csr_lanes > 0 ? opt.csr_lanes : kernels::csr_vector_lanes(a.rows, a.nnz());
    if (lanes > TS_SPMV_WARP || (lanes & (lanes - 1)) != 0)
      throw UsageError(fmt::format(
          "csr-vector lanes per row must be a power of two up to {}, not {}", TS_SPMV_WARP, lanes));
    if (opt.csr_chains < 0 || (opt.csr_chains & (opt.csr_chains - 1)) != 0)
      throw UsageError(fmt::format("csr-vector chains per work-item must be a power of two, not {}",
                                   opt.csr_chains));
    // the options are checked before anything is allocated on the device
    auto m = device_entries<DeviceCsr<V>>(device_, a);
    m.nnz = a.nnz();
    for (size64 i = 0; i < a.rows; ++i)
      m.longest = std::max<size64>(m.longest, a.row_ptr[i + 1] - a.row_ptr[i]);
    m.lanes = lanes;
    // 4 chains per work-item: measured on TRACE case 4 (bench/results, docs/sparse-history.md)
    m.chains = std::min(opt.csr_chains > 0 ? opt.csr_chains : 4, lanes);
    m.row_ptr = upload(device_, a.row_ptr);
    if (kernel == Kernel::csr_merge && a.nnz() > 0)  // its partition, once, on the device
      dispatch(*device_,
               [&](auto tag) { kernels::merge_prepare(tag, device_->queue(), device_, m); });
    account(sparse::storage(a));
    data_ = std::move(m);
  } else if (format_ == Format::ell) {
    if (opt.ell_subsection < 1) throw UsageError("the ELL subsection length must be at least 1");
    // ELL V2 has no subsections (no padding to a multiple of L)
    const Ell<V> e = to_ell(a, {kernel == Kernel::ell ? opt.ell_subsection : 1, false, true});
    auto m = device_entries<DeviceEll<V>>(device_, e);
    m.stored_rows = e.stored_rows;
    m.width = e.width;
    m.subsection = e.subsection;
    m.row_map = upload_map(device_, e.row_map, m.mapped);
    account(sparse::storage(e));
    data_ = std::move(m);
  } else {
    if (opt.sell_slice < 1 || opt.sell_slice > 1024)
      throw UsageError("SELL slice height must be 1..1024");
    const Sell<V> s = to_sell(a, {opt.sell_slice, std::max(1, opt.sell_sort)});
    auto m = device_entries<DeviceSell<V>>(device_, s);
    m.slices = s.slices();
    m.slice_height = s.slice_height;
    m.slice_ptr = upload(device_, s.slice_ptr);
    m.row_map = upload_map(device_, s.row_map, m.mapped);
    account(sparse::storage(s));
    data_ = std::move(m);
  }
}

template <Scalar V>
void DeviceMatrix<V>::init(const Bcsr<V>& a, Kernel kernel, const DeviceOptions& opt) {
  format_ = format_of(kernel);
  kernel_ = kernel;
  if (format_ != Format::bcsr && format_ != Format::bell)
    return init(to_csr(a, Zeros::drop), kernel, opt);
  const int r = a.block.r;
  if (kernel == Kernel::bell_v2 && r > TS_SPMV_MAX_BLOCK)
    throw UsageError(
        fmt::format("bell-v2 keeps one accumulator per block row: blocks up to {} rows, not {}",
                    TS_SPMV_MAX_BLOCK, r));
  if (kernel == Kernel::bcsr_warp && a.block.size() > TS_SPMV_WARP)
    throw UsageError(fmt::format("bcsr-warp: blocks of up to {} entries, not {}x{}", TS_SPMV_WARP,
                                 r, a.block.c));
  sparse::Storage s;
  if (format_ == Format::bcsr) {
    Bcsr<V> h = a.block.layout == layout_for(kernel) ? a : with_layout(a, layout_for(kernel));
    auto m = device_entries<DeviceBcsr<V>>(device_, h);
    m.stored_block_rows = h.stored_block_rows();
    m.nblocks = h.nblocks();
    m.row_ptr = upload(device_, h.row_ptr);
    m.block_row_map = upload_map(device_, h.block_row_map, m.mapped);
    s = sparse::storage(h);
    m.host = std::move(h);
    data_ = std::move(m);
  } else {
    const Bell<V> b = to_bell(a, {bell_index_for(kernel), 1});
    auto m = device_entries<DeviceBell<V>>(device_, b);
    m.stored_block_rows = b.stored_block_rows;
    m.width = b.width;
    m.index = b.index;
    m.block_row_map = upload_map(device_, b.block_row_map, m.mapped);
    if (kernel == Kernel::bell_bi) {  // the slots past a block row's length are zero padding
      std::vector<index_t> len(static_cast<std::size_t>(b.stored_block_rows));
      for (size64 sb = 0; sb < b.stored_block_rows; ++sb)
        len[sb] = a.row_ptr[sb + 1] - a.row_ptr[sb];
      m.lengths = upload(device_, len);
      m.real_blocks = a.nblocks();
    }
    // a work-group is 32 rows x subsections: at most 8 subsections keeps it
    // at 256 work-items, which every backend runs this kernel with (NVIDIA's
    // OpenCL refuses more); the same slots on every backend, the same sums
    m.sub_slots = static_cast<int>(std::max<size64>(
        {1, opt.bell_sub_slots, ceil_div(b.width, size64{kBellSubMaxSubsections})}));
    if (b.index == BellIndex::scalar_row) {
      if (opt.bell_group_rows < 1 || opt.bell_group_rows > 1024)
        throw UsageError("BELL V3 work-group rows must be 1..1024");
      m.group_rows = opt.bell_group_rows;
      m.windows = upload(device_, bell_windows(b, m.group_rows, m.max_window));
    }
    s = sparse::storage(b);
    data_ = std::move(m);
  }
  stored_ = s.slots;
  nonzeros_ = s.nonzeros();
  matrix_bytes_ = s.total_bytes();
}

template <Scalar V>
double DeviceMatrix<V>::model_bytes(Kernel k) const {
  const double v = sizeof(V);
  double bytes = static_cast<double>(matrix_bytes_) + v * static_cast<double>(rows_ + cols_);
  if (const auto* c = std::get_if<DeviceCsr<V>>(&data_); c && k == Kernel::csr_merge)
    // per tile: its two partition entries read (twice: the carry step), its
    // carry written and read (and its scan where rows span three tiles)
    bytes += static_cast<double>(c->tiles()) *
             (4 * sizeof(index_t) + 2 * v + (c->merge_scan() ? 3 * v : 0));
  if (const auto* e = std::get_if<DeviceEll<V>>(&data_)) {
    if (k == Kernel::ell) bytes += 2 * v * static_cast<double>(e->stored_rows * e->subsections());
    if (e->stored_rows < e->rows) bytes += v * static_cast<double>(rows_);
  } else if (const auto* b = std::get_if<DeviceBcsr<V>>(&data_)) {
    if (k != Kernel::bcsr_warp) bytes += 2 * v * static_cast<double>(b->nblocks * b->block.r);
    if (k == Kernel::bcsr_v1a || k == Kernel::bcsr_v2a) bytes += static_cast<double>(matrix_bytes_);
    if (b->stored_block_rows < ceil_div(b->rows, b->block.r))
      bytes += v * static_cast<double>(rows_);
  } else if (const auto* l = std::get_if<DeviceBell<V>>(&data_)) {
    if (k ==
        Kernel::
            bell_bi)  // what it reads: the real blocks with one index each, and a length per block row
      bytes =
          static_cast<double>(l->real_blocks) * (v * l->block.r * l->block.c + sizeof(index_t)) +
          static_cast<double>(l->stored_block_rows + (l->mapped ? l->stored_block_rows : 0)) *
              sizeof(index_t) +
          v * static_cast<double>(rows_ + cols_);
    if (l->stored_block_rows < ceil_div(l->rows, l->block.r))
      bytes += v * static_cast<double>(rows_);
  }
  return bytes;
}

#define TS_INSTANTIATE(V) template class DeviceMatrix<V>;
TESSERA_SPARSE_FOR_EACH_SCALAR(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::sparse
