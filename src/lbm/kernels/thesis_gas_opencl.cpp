// OpenCL host side of the thesis's gas simulation kernels (thesis_gas.cl).
#include "backends/opencl/cl_device.hpp"
#include "lbm/kernels/thesis_gas_kernels.hpp"

namespace tessera::lbm::kernels {

namespace {
constexpr std::size_t kGroupX = 64;
// correctly rounded 1/p, as on the CPU; the layout as a compile-time switch
const char* options(ThesisLayout layout) {
  return layout == ThesisLayout::soa ? "-cl-fp32-correctly-rounded-divide-sqrt -DTS_THESIS_SOA=1"
                                     : "-cl-fp32-correctly-rounded-divide-sqrt -DTS_THESIS_SOA=0";
}

void run(Queue& q, const cl::Kernel& k, const Grid& g, const char* what) {
  const std::size_t gx = (static_cast<std::size_t>(g.nx) + kGroupX - 1) / kGroupX * kGroupX;
  opencl::queue_of(q).launch(
      k, cl::NDRange(gx, static_cast<std::size_t>(g.ny), static_cast<std::size_t>(g.nz)),
      cl::NDRange(kGroupX, 1, 1), what);
}
}  // namespace

void thesis_update(OpenCLTag, Queue& q, const Grid& g, const Buffer<float>& src, Buffer<float>& dst,
                   float omega, ThesisLayout layout) {
  cl::Kernel k = opencl::device_of(dst.device())
                     .kernel("lbm/kernels/thesis_gas.cl", "thesis_update", options(layout));
  opencl::set_args(k, cl_long(g.nx), cl_long(g.ny), cl_long(g.nz), cl_float(omega),
                   opencl::mem(src.handle()), opencl::mem(dst.handle()));
  run(q, k, g, "lbm thesis_update");
}

void thesis_generate(OpenCLTag, Queue& q, const Grid& g, Buffer<float>& dst, ThesisLayout layout) {
  cl::Kernel k = opencl::device_of(dst.device())
                     .kernel("lbm/kernels/thesis_gas.cl", "thesis_generate", options(layout));
  opencl::set_args(k, cl_long(g.nx), cl_long(g.ny), cl_long(g.nz), opencl::mem(dst.handle()));
  run(q, k, g, "lbm thesis_generate");
}

void thesis_update_part(OpenCLTag, Device& d, Queue& q, const Grid& g, const PartGeometry& p,
                        long gz0, const void* src, void* dst, float omega) {
  cl::Kernel k = opencl::device_of(d).kernel("lbm/kernels/thesis_gas.cl", "thesis_update_part",
                                             options(ThesisLayout::aos));
  opencl::set_args(k, cl_long(g.nx), cl_long(g.ny), cl_long(g.nz), cl_long(p.nx), cl_long(p.ny),
                   cl_long(p.nz), cl_long(gz0), cl_long(p.sy), cl_long(p.sz), cl_long(p.origin),
                   cl_float(omega), opencl::mem(const_cast<void*>(src)), opencl::mem(dst));
  run(q, k, Grid{p.nx, p.ny, p.nz}, "lbm thesis_update_part");
}

}  // namespace tessera::lbm::kernels
