// OpenCL host side of the SpMV kernels (device code: spmv.cl): one program
// per value type (and, for bell-bi's square blocks, per block size),
// one-dimensional NDRanges of TS_SPMV_GROUP work-items unless a kernel says
// otherwise.
#include <complex>
#include <string>
#include <type_traits>

#include <fmt/format.h>

#include "backends/opencl/cl_device.hpp"
#include "core/error.hpp"
#include "sparse/kernels/spmv_kernels.hpp"
#include "sparse/kernels/spmv_point.hpp"

namespace tessera::sparse::kernels {

namespace {

template <class V>
const char* options() {
  if constexpr (std::is_same_v<V, float>)
    return "-Dts_real=float -Dts_value=float -DTS_COMPLEX=0";
  else if constexpr (std::is_same_v<V, double>)
    return "-Dts_real=double -Dts_value=double -DTS_COMPLEX=0 -DTS_DOUBLE=1";
  else if constexpr (std::is_same_v<V, std::complex<float>>)
    return "-Dts_real=float -Dts_value=float2 -DTS_COMPLEX=1";
  else
    return "-Dts_real=double -Dts_value=double2 -DTS_COMPLEX=1 -DTS_DOUBLE=1";
}

template <class T>
cl_mem m(const Buffer<T>& b) {
  return opencl::mem(b.handle());
}

std::size_t round_up(long n, long group) {
  return static_cast<std::size_t>((n + group - 1) / group * group);
}

/// Runs kernel `name` over `n` work-items (nothing when n is 0).
template <class V, class... Args>
void launch(Queue& q, const Buffer<V>& y, const char* name, long n, long group,
            const Args&... args) {
  if (n <= 0) return;
  cl::Kernel k = opencl::device_of(y.device()).kernel("sparse/kernels/spmv.cl", name, options<V>());
  opencl::set_args(k, args...);
  opencl::queue_of(q).launch(k, cl::NDRange(round_up(n, group)),
                             cl::NDRange(static_cast<std::size_t>(group)), name);
}

}  // namespace

template <class V>
void fill_zero(OpenCLTag, Queue& q, Buffer<V>& y) {
  launch(q, y, "fill_zero", static_cast<long>(y.size()), TS_SPMV_GROUP, cl_long(y.size()), m(y));
}

template <class V>
void csr(OpenCLTag, Queue& q, const DeviceCsr<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y) {
  if (k == Kernel::csr_scalar) {
    launch(q, y, "csr_scalar", a.rows, TS_SPMV_GROUP, cl_long(a.rows), m(a.row_ptr), m(a.col),
           m(a.val), m(x), m(y));
  } else {
    // lanes / chains work-items per row, each with `chains` lane chains in registers
    const std::string opts =
        std::string(options<V>()) + " -DTS_SPMV_CHAINS=" + std::to_string(a.chains);
    cl::Kernel kk =
        opencl::device_of(y.device()).kernel("sparse/kernels/spmv.cl", "csr_vector", opts);
    opencl::set_args(kk, cl_long(a.rows), cl_int(a.lanes), m(a.row_ptr), m(a.col), m(a.val), m(x),
                     m(y));
    const long items = a.rows * (a.lanes / a.chains);
    if (items > 0)
      opencl::queue_of(q).launch(kk, cl::NDRange(round_up(items, TS_SPMV_GROUP)),
                                 cl::NDRange(TS_SPMV_GROUP), "csr_vector");
  }
}

template <class V>
void ell(OpenCLTag, Queue& q, const DeviceEll<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y) {
  const long n = a.stored_rows;
  if (k == Kernel::ell_v2) {
    launch(q, y, "ell_row", n, TS_SPMV_GROUP, cl_long(n), cl_long(a.width), cl_int(a.mapped),
           m(a.row_map), m(a.col), m(a.val), m(x), m(y));
    return;
  }
  const long nsub = a.subsections();
  launch(q, y, "ell_subsection", n * nsub, TS_SPMV_GROUP, cl_long(n), cl_long(a.width),
         cl_long(a.subsection), cl_long(nsub), m(a.col), m(a.val), m(x), m(a.partial));
  launch(q, y, "ell_reduce", n, TS_SPMV_GROUP, cl_long(n), cl_long(nsub), cl_int(a.mapped),
         m(a.row_map), m(a.partial), m(y));
}

template <class V>
void sell(OpenCLTag, Queue& q, const DeviceSell<V>& a, Kernel, const Buffer<V>& x, Buffer<V>& y) {
  launch(q, y, "sell", a.rows, TS_SPMV_GROUP, cl_long(a.rows), cl_int(a.slice_height),
         cl_int(a.mapped), m(a.row_map), m(a.slice_ptr), m(a.col), m(a.val), m(x), m(y));
}

template <class V>
void bcsr(OpenCLTag, Queue& q, const DeviceBcsr<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y) {
  const int r = a.block.r, c = a.block.c;
  const long nbr = a.stored_block_rows;
  if (k == Kernel::bcsr_warp) {
    launch(q, y, "bcsr_warp", nbr * TS_SPMV_WARP, TS_SPMV_GROUP, cl_long(nbr), cl_int(r), cl_int(c),
           cl_long(a.rows), cl_long(a.cols), cl_int(a.mapped), m(a.block_row_map), m(a.row_ptr),
           m(a.col), m(a.val), m(x), m(y));
    return;
  }
  const bool row_major = a.block.layout == BlockLayout::row_major;
  const cl_long si = row_major ? c : 1, sj = row_major ? 1 : r;
  const bool per_block = k == Kernel::bcsr_v1a || k == Kernel::bcsr_v1b;
  launch(q, y, per_block ? "bcsr_block" : "bcsr_block_row", per_block ? a.nblocks : a.nblocks * r,
         TS_SPMV_GROUP, cl_long(a.nblocks), cl_int(r), cl_int(c), si, sj, cl_long(a.cols), m(a.col),
         m(a.val), m(x), m(a.partial));
  launch(q, y, "bcsr_reduce", nbr * r, TS_SPMV_GROUP, cl_long(nbr), cl_int(r), cl_long(a.rows),
         cl_int(a.mapped), m(a.block_row_map), m(a.row_ptr), m(a.partial), m(y));
}

template <class V>
void bell(OpenCLTag, Queue& q, const DeviceBell<V>& a, Kernel k, const Buffer<V>& x, Buffer<V>& y) {
  const int r = a.block.r, c = a.block.c;
  const long n = a.stored_rows();
  if (k == Kernel::bell_v2) {
    launch(q, y, "bell_block_row", a.stored_block_rows, TS_SPMV_GROUP, cl_long(a.stored_block_rows),
           cl_long(a.width), cl_int(r), cl_int(c), cl_long(a.rows), cl_long(a.cols),
           cl_int(a.mapped), m(a.block_row_map), m(a.col), m(a.val), m(x), m(y));
  } else if (k == Kernel::bell_v3) {
    auto& dev = opencl::device_of(y.device());
    const std::size_t bytes = static_cast<std::size_t>(a.max_window) * sizeof(V);
    const auto local = dev.native().template getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
    if (bytes > local)
      throw Error(fmt::format(
          "BELL V3: the x window of {} values needs {} of local memory per work-group; {} has {}",
          a.max_window, format_bytes(bytes), y.device().id(), format_bytes(local)));
    cl::Kernel kk = dev.kernel("sparse/kernels/spmv.cl", "bell_window", options<V>());
    opencl::set_args(kk, cl_long(n), cl_long(a.width), cl_int(r), cl_int(c), cl_long(a.rows),
                     cl_long(a.cols), cl_int(a.mapped), m(a.block_row_map), m(a.windows), m(a.col),
                     m(a.val), m(x), m(y));
    opencl::cl_check(clSetKernelArg(kk(), 13, std::max<std::size_t>(bytes, sizeof(V)), nullptr),
                     "clSetKernelArg", "BELL V3 local window");
    opencl::queue_of(q).launch(kk, cl::NDRange(round_up(n, a.group_rows)),
                               cl::NDRange(static_cast<std::size_t>(a.group_rows)), "bell_window");
  } else if (k == Kernel::bell_sub) {
    const long nsub = a.subsections();
    cl::Kernel kk =
        opencl::device_of(y.device()).kernel("sparse/kernels/spmv.cl", "bell_sub", options<V>());
    opencl::set_args(kk, cl_long(n), cl_long(a.width), cl_int(r), cl_int(c), cl_long(a.rows),
                     cl_long(a.cols), cl_int(a.mapped), m(a.block_row_map), cl_long(a.sub_slots),
                     m(a.col), m(a.val), m(x), m(y));
    opencl::queue_of(q).launch(
        kk, cl::NDRange(round_up(n, TS_SPMV_WARP), static_cast<std::size_t>(nsub)),
        cl::NDRange(TS_SPMV_WARP, static_cast<std::size_t>(nsub)), "bell_sub");
  } else {  // BELL (per-scalar-row index) and bell-bi (block-row index)
    // bell-bi with square blocks: a program compiled for the block size (as CUDA's bell_row_k<K, RB>)
    const bool fixed = a.index == BellIndex::block_row && r == c;
    const std::string opts =
        std::string(options<V>()) + (fixed ? " -DTS_SPMV_BLOCK=" + std::to_string(r) : "");
    cl::Kernel kk =
        opencl::device_of(y.device()).kernel("sparse/kernels/spmv.cl", "bell_row", opts);
    opencl::set_args(kk, cl_long(n), cl_long(a.width), cl_int(r), cl_int(c), cl_long(a.rows),
                     cl_long(a.cols), cl_int(a.mapped), m(a.block_row_map), cl_int(a.index_rows()),
                     cl_int(a.index_scale()), cl_int(a.lengths.size() ? 1 : 0), m(a.lengths),
                     m(a.col), m(a.val), m(x), m(y));
    if (n > 0)
      opencl::queue_of(q).launch(kk, cl::NDRange(round_up(n, TS_SPMV_GROUP)),
                                 cl::NDRange(TS_SPMV_GROUP), "bell_row");
  }
}

#define TS_INSTANTIATE(V)                                                                  \
  template void fill_zero<V>(OpenCLTag, Queue&, Buffer<V>&);                               \
  template void csr<V>(OpenCLTag, Queue&, const DeviceCsr<V>&, Kernel, const Buffer<V>&,   \
                       Buffer<V>&);                                                        \
  template void ell<V>(OpenCLTag, Queue&, const DeviceEll<V>&, Kernel, const Buffer<V>&,   \
                       Buffer<V>&);                                                        \
  template void sell<V>(OpenCLTag, Queue&, const DeviceSell<V>&, Kernel, const Buffer<V>&, \
                        Buffer<V>&);                                                       \
  template void bcsr<V>(OpenCLTag, Queue&, const DeviceBcsr<V>&, Kernel, const Buffer<V>&, \
                        Buffer<V>&);                                                       \
  template void bell<V>(OpenCLTag, Queue&, const DeviceBell<V>&, Kernel, const Buffer<V>&, \
                        Buffer<V>&);
TESSERA_SPARSE_FOR_EACH_SCALAR(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::sparse::kernels
