// OpenCL host side of the lattice Boltzmann kernels (device code: lbm.cl).
#include <string>

#include "backends/opencl/cl_device.hpp"
#include "lbm/kernels/lbm_kernels.hpp"

namespace tessera::lbm::kernels {

namespace {

// Correctly rounded division: 1/rho must give the CPU's bits on every device.
// `idx32`: 32-bit population offsets (the lattice has Q * cells < 2^31).
std::string options(const KernelVariant& v, bool idx32 = false) {
  std::string o = "-DTS_LBM_Q=" + std::to_string(v.q) +
                  " -DTS_LBM_STORE=" + std::to_string(v.store_bits) +
                  " -cl-fp32-correctly-rounded-divide-sqrt" + (idx32 ? " -DTS_LBM_IDX32=1" : "");
  return o + (v.store_bits == 64 ? " -Dts_real=double -DTS_DOUBLE=1" : " -Dts_real=float");
}

cl_mem m(const Bytes& b) { return opencl::mem(b.handle()); }

// Sets arguments first, first+1, ... of `k`, checking each.
template <class... Args>
void set_from(const cl::Kernel& k, cl_uint first, const Args&... args) {
  cl_uint i = first;
  auto one = [&](const auto& v) {
    opencl::cl_check(clSetKernelArg(k(), i, sizeof(v), &v), "clSetKernelArg",
                     "setting argument " + std::to_string(i) + " of an lbm kernel");
    ++i;
  };
  (one(args), ...);
}

// The per-run constants, in the arithmetic type R, from argument `first` on.
template <class R>
void set_params(const cl::Kernel& k, cl_uint first, const StepParams& p) {
  set_from(k, first, R(p.omega_p), R(p.omega_m), cl_int(p.trt ? 1 : 0), R(p.force[0]),
           R(p.force[1]), R(p.force[2]), R(p.u_wall[0]), R(p.u_wall[1]), R(p.u_wall[2]),
           R(p.u_in[0]), R(p.u_in[1]), R(p.u_in[2]), R(p.rho_out));
}

// The group size along x: v.group_x(), lowered (halving) to what this
// kernel allows on the queue's device (a large D3Q27 FP64 kernel may allow
// less). Two cheap queries per launch, no program or device-list lookups.
void run(Queue& q, const cl::Kernel& k, const KernelVariant& v, long nx, long ny, long nz,
         const char* what) {
  auto& cq = opencl::queue_of(q);
  const std::size_t limit =
      k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(cq.native().getInfo<CL_QUEUE_DEVICE>());
  std::size_t b = v.group_x();
  while (b > 1 && b > limit) b /= 2;
  const std::size_t gx = (static_cast<std::size_t>(nx) + b - 1) / b * b;
  cq.launch(k, cl::NDRange(gx, static_cast<std::size_t>(ny), static_cast<std::size_t>(nz)),
            cl::NDRange(b, 1, 1), what);
}
void run(Queue& q, const cl::Kernel& k, const KernelVariant& v, const Grid& g, const char* what) {
  run(q, k, v, g.nx, g.ny, g.nz, what);
}

cl::Kernel kernel(const Bytes& any, const KernelVariant& v, const char* name, bool idx32 = false) {
  return opencl::device_of(any.device()).kernel("lbm/kernels/lbm.cl", name, options(v, idx32));
}

}  // namespace

void stream_collide(OpenCLTag, Queue& q, const KernelVariant& v, const Grid& g, Bytes& f,
                    const Bytes& flags, long t, const StepParams& p) {
  cl::Kernel k = kernel(f, v, "stream_collide", v.fits_idx32(g));
  opencl::set_args(k, cl_long(g.nx), cl_long(g.ny), cl_long(g.nz), cl_int(t & 1), m(f), m(flags));
  v.store_bits == 64 ? set_params<cl_double>(k, 6, p) : set_params<cl_float>(k, 6, p);
  run(q, k, v, g, "lbm stream_collide");
}

void initialize(OpenCLTag, Queue& q, const KernelVariant& v, const Grid& g, Bytes& f,
                const Bytes& flags, const Bytes* fields, double rho0, const double u0[3]) {
  cl::Kernel k = kernel(f, v, "initialize");
  const cl_mem fm = fields ? m(*fields) : m(flags);  // unread when uniform
  opencl::set_args(k, cl_long(g.nx), cl_long(g.ny), cl_long(g.nz), m(f), m(flags),
                   cl_int(fields ? 0 : 1), fm);
  if (v.store_bits == 64)
    set_from(k, 7, cl_double(rho0), cl_double(u0[0]), cl_double(u0[1]), cl_double(u0[2]));
  else
    set_from(k, 7, cl_float(rho0), cl_float(u0[0]), cl_float(u0[1]), cl_float(u0[2]));
  run(q, k, v, g, "lbm initialize");
}

void moments(OpenCLTag, Queue& q, const KernelVariant& v, const Grid& g, const Bytes& f,
             const Bytes& flags, long t, const StepParams& p, Bytes& fields) {
  cl::Kernel k = kernel(f, v, "moments");
  opencl::set_args(k, cl_long(g.nx), cl_long(g.ny), cl_long(g.nz), cl_int(t & 1), m(f), m(flags),
                   m(fields));
  v.store_bits == 64 ? set_params<cl_double>(k, 7, p) : set_params<cl_float>(k, 7, p);
  run(q, k, v, g, "lbm moments");
}

void stream_collide_pull(OpenCLTag, Device& d, Queue& q, const KernelVariant& v,
                         const PartGeometry& g, long z0, long z1, const void* src, void* dst,
                         const void* flags, const StepParams& p) {
  if (z1 <= z0) return;
  cl::Kernel k =
      opencl::device_of(d).kernel("lbm/kernels/lbm.cl", "stream_collide_pull", options(v));
  opencl::set_args(k, cl_long(g.nx), cl_long(g.ny), cl_long(z0), cl_long(z1), cl_long(g.sy),
                   cl_long(g.sz), cl_long(g.cs), cl_long(g.origin),
                   opencl::mem(const_cast<void*>(src)), opencl::mem(dst),
                   opencl::mem(const_cast<void*>(flags)));
  v.store_bits == 64 ? set_params<cl_double>(k, 11, p) : set_params<cl_float>(k, 11, p);
  run(q, k, v, g.nx, g.ny, z1 - z0, "lbm stream_collide_pull");
}

}  // namespace tessera::lbm::kernels
