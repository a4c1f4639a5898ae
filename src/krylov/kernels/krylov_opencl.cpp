// OpenCL launchers of the Krylov kernels (device code: krylov.cl).
#include <string>

#include "backends/opencl/cl_device.hpp"
#include "core/error.hpp"
#include "krylov/kernels/krylov_kernels.hpp"

namespace tessera::krylov::kernels {

namespace {

constexpr std::size_t kGroup = 256;

// compressed: the program whose basis operands are half (float arithmetic)
// or float (double arithmetic); krylov_kernels.hpp
template <class R>
cl::Kernel kernel(Device& dev, const char* name, bool compressed = false) {
  const char* opt =
      std::is_same_v<R, float>
          ? (compressed ? "-Dts_real=float -Dts_vstore=ushort -DTS_KRY_COMPRESSED=1 -DTS_KRY_HALF=1"
                        : "-Dts_real=float -Dts_vstore=float")
          : (compressed ? "-Dts_real=double -DTS_DOUBLE=1 -Dts_vstore=float -DTS_KRY_COMPRESSED=1"
                        : "-Dts_real=double -DTS_DOUBLE=1 -Dts_vstore=double");
  return opencl::device_of(dev).kernel("krylov/kernels/krylov.cl", name, opt);
}

// s-step GMRES's block kernels: one program per block width t (its arrays
// in registers; NVIDIA's compiler gives argument-selected paths one register
// allocation, docs/backends.md).
template <class R>
cl::Kernel block_kernel(Device& dev, const char* name, int t) {
  if (t < 1 || t > TS_KRY_BLOCK_MAX)
    throw Error("krylov: a block of " + std::to_string(t) + " vectors (1 to " +
                std::to_string(TS_KRY_BLOCK_MAX) + ")");
  const char* opt = std::is_same_v<R, float> ? "-Dts_real=float -Dts_vstore=float"
                                             : "-Dts_real=double -DTS_DOUBLE=1 -Dts_vstore=double";
  return opencl::device_of(dev).kernel("krylov/kernels/krylov.cl", name,
                                       std::string(opt) + " -DTS_KRY_T=" + std::to_string(t));
}

std::size_t round_up(std::size_t n, std::size_t m) { return (n + m - 1) / m * m; }

// A kernel argument must be a valid cl_mem even where the kernel ignores it.
cl_mem mem_or(const void* h, const void* fallback) {
  return opencl::mem(const_cast<void*>(h ? h : fallback));
}

}  // namespace

template <class R>
void dots(OpenCLTag, Device& dev, int nc, std::size_t n, int k, const void* v, std::size_t v_off,
          std::size_t ld, const void* w, std::size_t w_off, const void* w2, std::size_t w2_off,
          void* partials, bool compressed) {
  if (n == 0 || k == 0) return;
  cl::Kernel kr = kernel<R>(dev, w2 ? "kry_dots2" : "kry_dots", compressed);
  const std::size_t nch = chunks(n);
  if (w2)
    opencl::set_args(kr, cl_int(nc), cl_ulong(n), cl_ulong(nch), cl_ulong(k), mem_or(v, nullptr),
                     cl_ulong(v_off), cl_ulong(ld), mem_or(w, nullptr), cl_ulong(w_off),
                     mem_or(w2, nullptr), cl_ulong(w2_off), opencl::mem(partials));
  else
    opencl::set_args(kr, cl_int(nc), cl_ulong(n), cl_ulong(nch), cl_ulong(k), mem_or(v, nullptr),
                     cl_ulong(v_off), cl_ulong(ld), mem_or(w, nullptr), cl_ulong(w_off),
                     opencl::mem(partials));
  opencl::queue_of(dev.queue())
      .launch(kr, cl::NDRange(nch * std::size_t(k) * kGroup), cl::NDRange(kGroup), "krylov dots");
}

template <class R>
void dots_block(OpenCLTag, Device& dev, int nc, std::size_t n, int k, const void* v,
                std::size_t v_off, int t, const void* y, std::size_t y_off, std::size_t ld,
                void* partials) {
  if (n == 0 || k == 0 || t == 0) return;
  cl::Kernel kr = block_kernel<R>(dev, "kry_dots_block", t);
  const std::size_t nch = chunks(n);
  opencl::set_args(kr, cl_int(nc), cl_ulong(n), cl_ulong(nch), cl_ulong(k), mem_or(v, nullptr),
                   cl_ulong(v_off), mem_or(y, nullptr), cl_ulong(y_off), cl_ulong(ld),
                   opencl::mem(partials));
  opencl::queue_of(dev.queue())
      .launch(kr, cl::NDRange(nch * std::size_t(k) * kGroup), cl::NDRange(kGroup),
              "krylov dots_block");
}

template <class R>
void combine_block(OpenCLTag, Device& dev, int nc, std::size_t n, int t, const void* coef,
                   std::size_t coef_off, int k, const void* v, std::size_t v_off, void* y,
                   std::size_t y_off, std::size_t ld) {
  if (n == 0 || t == 0) return;
  cl::Kernel kr = block_kernel<R>(dev, "kry_combine_block", t);
  opencl::set_args(kr, cl_int(nc), cl_ulong(n), cl_int(k), mem_or(coef, nullptr),
                   cl_ulong(coef_off), mem_or(v, y), cl_ulong(v_off), opencl::mem(y),
                   cl_ulong(y_off), cl_ulong(ld));
  opencl::queue_of(dev.queue())
      .launch(kr, cl::NDRange(round_up(n, kGroup)), cl::NDRange(kGroup), "krylov combine_block");
}

template <class R>
void sum_chunks(OpenCLTag, Device& dev, std::size_t chunks, int count, const void* partials,
                void* out) {
  if (count <= 0) return;
  cl::Kernel kr = kernel<R>(dev, "kry_sum_chunks");
  opencl::set_args(kr, cl_ulong(chunks), mem_or(partials, nullptr), opencl::mem(out));
  opencl::queue_of(dev.queue())
      .launch(kr, cl::NDRange(std::size_t(count) * TS_REDUCE_THREADS),
              cl::NDRange(TS_REDUCE_THREADS), "krylov sum_chunks");
}

template <class R>
void dcgs2_coef(OpenCLTag, Device& dev, int nc, int j, const void* sums, std::size_t sums_off,
                void* coef, std::size_t coef_off) {
  if (!dev.info().fp64)
    throw Error("krylov: DCGS2's device coefficients need double precision (" + dev.id() + ")");
  cl::Kernel kr = kernel<R>(dev, "kry_dcgs2_coef");
  opencl::set_args(kr, cl_int(nc), cl_int(j), mem_or(sums, nullptr), cl_ulong(sums_off),
                   opencl::mem(coef), cl_ulong(coef_off));
  opencl::queue_of(dev.queue()).launch(kr, cl::NDRange(128), cl::NDRange(128), "krylov dcgs2_coef");
}

template <class R>
void combine(OpenCLTag, Device& dev, int nc, std::size_t n, int k, const void* coef,
             std::size_t coef_off, const void* x, std::size_t x_off, const void* v,
             std::size_t v_off, std::size_t ld, void* y, std::size_t y_off,
             const SecondOutput& second, bool compressed, bool y_real) {
  if (n == 0) return;
  cl::Kernel kr = kernel<R>(dev, "kry_combine", compressed);
  const bool two = second.y != nullptr;
  opencl::set_args(kr, cl_int(nc), cl_ulong(n), cl_int(k), mem_or(coef, nullptr),
                   cl_ulong(coef_off), cl_int(x ? 1 : 0), mem_or(x, y), cl_ulong(x_off),
                   mem_or(v, y), cl_ulong(v_off), cl_ulong(ld), opencl::mem(y), cl_ulong(y_off),
                   cl_int(y_real ? 1 : 0), cl_int(two ? 1 : 0), cl_int(second.k),
                   cl_ulong(second.coef_off), cl_int(second.x ? 1 : 0), mem_or(second.x, y),
                   cl_ulong(second.x_off), mem_or(second.y, y), cl_ulong(second.y_off));
  opencl::queue_of(dev.queue())
      .launch(kr, cl::NDRange(round_up(n, kGroup)), cl::NDRange(kGroup), "krylov combine");
}

template <class R>
void update(OpenCLTag, Device& dev, int nc, std::size_t n, const void* coef, std::size_t coef_off,
            const UpdateOperands& op, void* partials) {
  if (n == 0) return;
  cl::Kernel kr = kernel<R>(dev, "kry_update");
  const std::size_t nch = chunks(n);
  const void* any = op.y;  // bound where an operand is absent (never read)
  opencl::set_args(kr, cl_int(nc), cl_ulong(n), cl_ulong(nch), cl_uint(op.flags()),
                   cl_int(op.products()), mem_or(coef, nullptr), cl_ulong(coef_off),
                   mem_or(op.x, any), mem_or(op.u, any), mem_or(op.w, any), opencl::mem(op.y),
                   mem_or(op.x2, any), mem_or(op.u2, any), mem_or(op.w2, any), mem_or(op.y2, any),
                   mem_or(op.d, any), mem_or(op.z, any), mem_or(op.e, any), mem_or(partials, any));
  opencl::queue_of(dev.queue())
      .launch(kr, cl::NDRange(nch * TS_REDUCE_THREADS), cl::NDRange(TS_REDUCE_THREADS),
              "krylov update");
}

template <class R>
void block_diag(OpenCLTag, Device& dev, int nc, std::size_t n, int bs, const void* d, const void* x,
                void* y) {
  if (n == 0) return;
  cl::Kernel kr = kernel<R>(dev, "kry_block_diag");
  opencl::set_args(kr, cl_int(nc), cl_ulong(n), cl_int(bs), mem_or(d, nullptr), mem_or(x, nullptr),
                   opencl::mem(y));
  opencl::queue_of(dev.queue())
      .launch(kr, cl::NDRange(round_up(n, kGroup)), cl::NDRange(kGroup), "krylov block_diag");
}

template <class R>
void tri_group(OpenCLTag, Device& dev, int nc, std::size_t count, const void* groups,
               std::size_t groups_off, int group, std::size_t n, bool backward, const void* ptr,
               const void* col, const void* val, const void* inv_d, const void* b, void* x) {
  if (count == 0) return;
  cl::Kernel kr = kernel<R>(dev, "kry_tri_group");
  opencl::set_args(kr, cl_int(nc), mem_or(groups, nullptr), cl_ulong(groups_off), cl_int(group),
                   cl_long(n), cl_int(backward ? 1 : 0), mem_or(ptr, nullptr), mem_or(col, nullptr),
                   mem_or(val, x), cl_int(inv_d ? 1 : 0), mem_or(inv_d, x), mem_or(b, nullptr),
                   opencl::mem(x));
  opencl::queue_of(dev.queue())
      .launch(kr, cl::NDRange(count * TS_KRY_TRI_THREADS), cl::NDRange(TS_KRY_TRI_THREADS),
              "krylov tri_group");
}

#define TS_INSTANTIATE(R)                                                                          \
  template void tri_group<R>(OpenCLTag, Device&, int, std::size_t, const void*, std::size_t, int,  \
                             std::size_t, bool, const void*, const void*, const void*,             \
                             const void*, const void*, void*);                                     \
  template void dots<R>(OpenCLTag, Device&, int, std::size_t, int, const void*, std::size_t,       \
                        std::size_t, const void*, std::size_t, const void*, std::size_t, void*,    \
                        bool);                                                                     \
  template void sum_chunks<R>(OpenCLTag, Device&, std::size_t, int, const void*, void*);           \
  template void dots_block<R>(OpenCLTag, Device&, int, std::size_t, int, const void*, std::size_t, \
                              int, const void*, std::size_t, std::size_t, void*);                  \
  template void combine_block<R>(OpenCLTag, Device&, int, std::size_t, int, const void*,           \
                                 std::size_t, int, const void*, std::size_t, void*, std::size_t,   \
                                 std::size_t);                                                     \
  template void dcgs2_coef<R>(OpenCLTag, Device&, int, int, const void*, std::size_t, void*,       \
                              std::size_t);                                                        \
  template void combine<R>(OpenCLTag, Device&, int, std::size_t, int, const void*, std::size_t,    \
                           const void*, std::size_t, const void*, std::size_t, std::size_t, void*, \
                           std::size_t, const SecondOutput&, bool, bool);                          \
  template void block_diag<R>(OpenCLTag, Device&, int, std::size_t, int, const void*, const void*, \
                              void*);                                                              \
  template void update<R>(OpenCLTag, Device&, int, std::size_t, const void*, std::size_t,          \
                          const UpdateOperands&, void*);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::krylov::kernels
