// OpenCL launchers of the matrix product (device code: matmul.cl).
#include <fmt/format.h>

#include "backends/opencl/cl_device.hpp"
#include "dense/kernels/matmul_kernels.hpp"

namespace tessera::dense::kernels {

namespace {

template <class T>
constexpr int kPack = 16 / sizeof(T);

template <class T>
std::string options(opencl::ClDevice& dev) {
  std::string o = fmt::format("-Dts_real={} -DTS_PACK={} -DTS_TILE={}",
                              std::is_same_v<T, float> ? "float" : "double -DTS_DOUBLE=1", kPack<T>,
                              kMatmulTile);
  // The CUDA float kernel is built for two 256-thread blocks per SM
  // (__launch_bounds__(256, 2): at most 128 registers); NVIDIA's OpenCL
  // compiler gets the same budget, so that both run the same occupancy.
  if (std::is_same_v<T, float> && dev.native().getInfo<CL_DEVICE_EXTENSIONS>().find(
                                      "cl_nv_compiler_options") != std::string::npos)
    o += " -cl-nv-maxrregcount=128";
  return o;
}

std::size_t round_up(std::size_t n, std::size_t m) { return (n + m - 1) / m * m; }

}  // namespace

template <class T>
void matmul(OpenCLTag, Queue& q, MatmulVariant v, const Buffer<T>& A, const Buffer<T>& B,
            Buffer<T>& C, MatmulShape s) {
  if (v == MatmulVariant::vendor) throw Error("internal: dense::matmul vendor reached OpenCL");
  const auto m = static_cast<std::size_t>(s.m), n = static_cast<std::size_t>(s.n);
  const char* name = nullptr;
  cl::NDRange global, local;
  if (v == MatmulVariant::register_blocked) {
    // 16-byte accesses need every row of A, B and C to start on a pack.
    const bool vec = s.k % kPack<T> == 0 && s.n % kPack<T> == 0;
    name = vec ? "matmul_rb_vec" : "matmul_rb_any";
    global =
        cl::NDRange((n + TS_MM_BN - 1) / TS_MM_BN * TS_MM_THREADS, (m + TS_MM_BM - 1) / TS_MM_BM);
    local = cl::NDRange(TS_MM_THREADS, 1);
  } else {
    // One work-item per element of C: x along its columns (coalesced), y along its rows.
    const bool naive = v == MatmulVariant::naive;
    const std::size_t g = naive ? kMatmulNaiveGroup : kMatmulTile;
    name = naive ? "matmul_naive" : "matmul_tiled";
    global = cl::NDRange(round_up(n, g), round_up(m, g));
    local = cl::NDRange(g, g);
  }
  auto& dev = opencl::device_of(C.device());
  cl::Kernel k = dev.kernel("dense/kernels/matmul.cl", name, options<T>(dev));
  opencl::set_args(k, static_cast<cl_int>(s.m), static_cast<cl_int>(s.k), static_cast<cl_int>(s.n),
                   opencl::mem(A.handle()), opencl::mem(B.handle()), opencl::mem(C.handle()));
  opencl::queue_of(q).launch(k, global, local, name);
}

#define TS_INSTANTIATE(T)                                                                       \
  template void matmul<T>(OpenCLTag, Queue&, MatmulVariant, const Buffer<T>&, const Buffer<T>&, \
                          Buffer<T>&, MatmulShape);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::dense::kernels
