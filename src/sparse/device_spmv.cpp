// spmv(): checks, then the launcher of the matrix's format on its backend.
#include <fmt/format.h>

#include "core/error.hpp"
#include "sparse/device_matrix.hpp"
#include "sparse/kernels/spmv_launch.hpp"
#include "sparse/kernels/spmv_point.hpp"

namespace tessera::sparse {

namespace {

template <class... F>
struct overloaded : F... {
  using F::operator()...;
};
template <class... F>
overloaded(F...) -> overloaded<F...>;

/// Why kernel k cannot run on matrix a (empty when it can).
template <Scalar V>
std::string incompatibility(const DeviceMatrix<V>& a, Kernel k) {
  if (format_of(k) != a.format())
    return fmt::format("kernel {} needs a {} matrix; this one was built as {} (for kernel {})",
                       to_string(k), to_string(format_of(k)), to_string(a.format()),
                       to_string(a.kernel()));
  if (const auto* b = std::get_if<DeviceBcsr<V>>(&a.arrays())) {
    const bool col = k == Kernel::bcsr_v3 || k == Kernel::bcsr_warp;
    if (k == Kernel::bcsr_warp && b->block.size() > TS_SPMV_WARP)
      return fmt::format("kernel bcsr-warp needs blocks of at most {} entries", TS_SPMV_WARP);
    if (col != (b->block.layout == BlockLayout::col_major))
      return fmt::format("kernel {} needs {} blocks; this matrix was built for {}", to_string(k),
                         col ? "column-major" : "row-major", to_string(a.kernel()));
  }
  if (const auto* b = std::get_if<DeviceBell<V>>(&a.arrays())) {
    const bool block_index = bell_index_for(k) == BellIndex::block_row;
    if (block_index != (b->index == BellIndex::block_row))
      return fmt::format("kernel {} needs the {} column index; this matrix was built for {}",
                         to_string(k), block_index ? "block-row" : "scalar-row",
                         to_string(a.kernel()));
  }
  return {};
}

/// The thesis's V1a/V2a: the whole matrix crosses the bus again on every call.
template <Scalar V>
void upload_again(const DeviceBcsr<V>& m, Queue& q) {
  auto put = [&](const auto& buf, const auto& host) {
    if (!host.empty()) q.write(buf.handle(), 0, host.data(), host.size() * sizeof(host[0]), true);
  };
  put(m.row_ptr, m.host.row_ptr);
  put(m.block_row_map, m.host.block_row_map);
  put(m.col, m.host.col);
  put(m.val, m.host.val);
}

}  // namespace

template <Scalar V>
void spmv(const DeviceMatrix<V>& a, const Buffer<V>& x, Buffer<V>& y, Kernel k) {
  if (static_cast<size64>(x.size()) != a.cols() || static_cast<size64>(y.size()) != a.rows())
    throw Error(fmt::format("SpMV: the matrix is {} x {} but x has {} and y has {} entries",
                            a.rows(), a.cols(), x.size(), y.size()));
  if ((x.size() && &x.device() != &a.device()) || (y.size() && &y.device() != &a.device()))
    throw UsageError(
        fmt::format("SpMV: x and y must live on the matrix's device {}", a.device().id()));
  if (x.size() && x.handle() == y.handle())
    throw UsageError("SpMV: x and y must be different buffers");
  if (const std::string why = incompatibility(a, k); !why.empty()) throw UsageError("SpMV: " + why);
  if (!available(k, a.device().backend()))
    throw UsageError(fmt::format("SpMV: kernel {} does not exist on the {} backend", to_string(k),
                                 to_string(a.device().backend())));
  if (a.rows() == 0) return;
  Queue& q = a.device().queue();
  const std::shared_ptr<Device>& dev = a.device_ptr();
  dispatch(a.device(), [&](auto tag) {
    if (a.stored_entries() == 0) return kernels::zero(tag, q, y);  // also no zero-sized launches
    std::visit(
        overloaded{
            [&](const DeviceCsr<V>& m) {
              if (k == Kernel::csr_merge) kernels::merge_prepare(tag, q, dev, m);
              kernels::csr(tag, q, m, k, x, y);
            },
            [&](const DeviceEll<V>& m) {
              if (m.stored_rows < m.rows) kernels::zero(tag, q, y);
              if (k == Kernel::ell &&
                  m.partial.size() < static_cast<std::size_t>(m.stored_rows * m.subsections()))
                m.partial =
                    Buffer<V>(dev, static_cast<std::size_t>(m.stored_rows * m.subsections()));
              kernels::ell(tag, q, m, k, x, y);
            },
            [&](const DeviceSell<V>& m) { kernels::sell(tag, q, m, k, x, y); },
            [&](const DeviceBcsr<V>& m) {
              if (k == Kernel::bcsr_v1a || k == Kernel::bcsr_v2a) upload_again(m, q);
              if (m.stored_block_rows < ceil_div(m.rows, m.block.r)) kernels::zero(tag, q, y);
              const auto need = static_cast<std::size_t>(m.nblocks * m.block.r);
              if (k != Kernel::bcsr_warp && m.partial.size() < need)
                m.partial = Buffer<V>(dev, need);
              kernels::bcsr(tag, q, m, k, x, y);
            },
            [&](const DeviceBell<V>& m) {
              if (m.stored_block_rows < ceil_div(m.rows, m.block.r)) kernels::zero(tag, q, y);
              kernels::bell(tag, q, m, k, x, y);
            },
        },
        a.arrays());
  });
}

template <Scalar V>
void spmv(const DeviceMatrix<V>& a, const Buffer<V>& x, Buffer<V>& y) {
  spmv(a, x, y, a.kernel());
}

#define TS_INSTANTIATE(V)                                                           \
  template void spmv(const DeviceMatrix<V>&, const Buffer<V>&, Buffer<V>&, Kernel); \
  template void spmv(const DeviceMatrix<V>&, const Buffer<V>&, Buffer<V>&);
TESSERA_SPARSE_FOR_EACH_SCALAR(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::sparse
