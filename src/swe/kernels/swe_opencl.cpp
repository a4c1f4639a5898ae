// OpenCL host side of the shallow-water kernels (device code: swe.cl).
#include <algorithm>
#include <cmath>
#include <type_traits>

#include <fmt/format.h>

#include "backends/opencl/cl_device.hpp"
#include "core/error.hpp"
#include "swe/kernels/swe_hll_consts.h"
#include "swe/kernels/swe_kernels.hpp"
#include "swe/thesis.hpp"

namespace tessera::swe::kernels {

namespace {

// Divisions and square roots correctly rounded in single precision too, so
// that every backend computes the same bits (NVIDIA's default is approximate).
// On NVIDIA's OpenCL the kernels take the PTX sequences of
// core/kernels/ieee_fast.h for 1/x and sqrt, as CUDA does.
template <class T>
std::string options(const Device& d) {
  std::string o = std::is_same_v<T, float>
                      ? "-Dts_real=float -cl-fp32-correctly-rounded-divide-sqrt"
                      : "-Dts_real=double -DTS_DOUBLE=1 -cl-fp32-correctly-rounded-divide-sqrt";
  if (d.info().vendor.find("NVIDIA") != std::string::npos) o += " -DTS_NV_PTX=1";
  return o;
}

cl_mem m(const void* handle) { return opencl::mem(const_cast<void*>(handle)); }

template <class T>
cl::Kernel kernel(const Buffer<T>& any, const char* name) {
  return opencl::device_of(any.device())
      .kernel("swe/kernels/swe.cl", name, options<T>(any.device()));
}

std::size_t up(long n, long b) { return static_cast<std::size_t>((n + b - 1) / b * b); }

// The physical parameters in the order of swe.cl's TS_PHYS_PARAMS.
template <class T>
void set_phys_params(const cl::Kernel& k, const PhysGrid& g, const PhysParams<T>& p) {
  opencl::set_args(k, cl_long(g.nx), cl_long(g.ny), cl_long(g.w), p.g, p.h_dry, p.dx, p.dy,
                   p.manning, p.cfl, p.fixed_dt, cl_int(p.bc[0]), cl_int(p.bc[1]), cl_int(p.bc[2]),
                   cl_int(p.bc[3]), p.bc_value[0], p.bc_value[1], p.bc_value[2], p.bc_value[3]);
}

// Sets arguments from index `first` on (after the common ones).
template <class... Args>
void set_args_from(const cl::Kernel& k, cl_uint first, const Args&... args) {
  cl_uint i = first;
  auto one = [&](const auto& v) {
    opencl::cl_check(clSetKernelArg(k(), i, sizeof(v), &v), "clSetKernelArg",
                     "setting argument " + std::to_string(i) + " of a shallow-water kernel");
    ++i;
  };
  (one(args), ...);
}

constexpr cl_uint kPhysParams = 18;

long strip_length(const PhysGrid& g) { return phys_strip_rows(g); }

}  // namespace

template <class T>
void thesis_update(OpenCLTag, Queue& q, const ThesisGrid& g, ThesisKernel kind, WorkGroup wg, T k,
                   const Fields<T>& src, Fields<T>& dst) {
  const char* name = kind == ThesisKernel::global      ? "thesis_global"
                     : kind == ThesisKernel::tile_halo ? "thesis_tile_halo"
                     : kind == ThesisKernel::rows      ? "thesis_rows"
                     : kind == ThesisKernel::walls     ? "thesis_walls"
                     : kind == ThesisKernel::strip     ? "thesis_strip"
                     : kind == ThesisKernel::simd4     ? "thesis_simd4"
                                                       : "thesis_tile_edge";
  cl::Kernel kr = kernel(src.z, name);
  opencl::set_args(kr, cl_long(g.nx), cl_long(g.ny), cl_long(g.w), k, m(src.z.handle()),
                   m(src.qx.handle()), m(src.qy.handle()), m(dst.z.handle()), m(dst.qx.handle()),
                   m(dst.qy.handle()));
  auto& cq = opencl::queue_of(q);
  if (kind == ThesisKernel::rows) {  // local: NULL (default) or the given l1 (thesis: 1 or #CU)
    const long items = std::max(1, src.z.device().info().compute_units);
    set_args_from(kr, 10, cl_long(items));
    if (wg.is_default()) return cq.launch(kr, cl::NDRange(items), cl::NullRange, name);
    return cq.launch(kr, cl::NDRange(up(items, wg.l1)), cl::NDRange(wg.l1), name);
  }
  if (kind ==
      ThesisKernel::strip) {  // fixed groups of TS_SWE_BLOCK items overlapping by two columns
    const long strip = thesis_strip_rows(g);
    set_args_from(kr, 10, cl_long(strip));
    const std::size_t groups =
        static_cast<std::size_t>((g.ny + TS_SWE_BLOCK - 3) / (TS_SWE_BLOCK - 2));
    return cq.launch(
        kr,
        cl::NDRange(groups * TS_SWE_BLOCK, static_cast<std::size_t>((g.nx + strip - 1) / strip)),
        cl::NDRange(TS_SWE_BLOCK, 1), name);
  }
  if (kind == ThesisKernel::simd4) {  // dimension 0: the 4-vectors q of a row (4q <= ny)
    const long vectors = g.ny / 4 + 1;
    if (wg.is_default()) return cq.launch(kr, cl::NDRange(vectors, g.nx), cl::NullRange, name);
    const std::size_t limit =
        kr.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(opencl::device_of(src.z.device()).native());
    if (static_cast<std::size_t>(wg.l0) * wg.l1 > limit)  // its 12-value windows take registers
      throw UsageError(fmt::format(
          "work-group {}x{} exceeds this kernel's CL_KERNEL_WORK_GROUP_SIZE of {} on {}", wg.l0,
          wg.l1, limit, src.z.device().id()));
    return cq.launch(kr, cl::NDRange(up(vectors, wg.l1), up(g.nx, wg.l0)),
                     cl::NDRange(wg.l1, wg.l0), name);
  }
  if (kind == ThesisKernel::global || kind == ThesisKernel::walls) {
    if (wg.is_default()) return cq.launch(kr, cl::NDRange(g.ny, g.nx), cl::NullRange, name);
    return cq.launch(kr, cl::NDRange(up(g.ny, wg.l1), up(g.nx, wg.l0)), cl::NDRange(wg.l1, wg.l0),
                     name);
  }
  const auto& dev = opencl::device_of(src.z.device());
  const std::size_t limit = kr.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(dev.native());
  if (static_cast<std::size_t>(wg.l0) * wg.l1 > limit)
    throw UsageError(
        fmt::format("work-group {}x{} exceeds this kernel's CL_KERNEL_WORK_GROUP_SIZE "
                    "of {} on {}",
                    wg.l0, wg.l1, limit, src.z.device().id()));
  const int halo = kind == ThesisKernel::tile_halo ? 2 : 0;
  const std::size_t tile = static_cast<std::size_t>(wg.l0 + halo) * (wg.l1 + halo) * sizeof(T);
  for (cl_uint a = 10; a < 13; ++a)
    opencl::cl_check(clSetKernelArg(kr(), a, tile, nullptr), "clSetKernelArg",
                     "local tile of a thesis kernel");
  cq.launch(kr,
            cl::NDRange(static_cast<std::size_t>(thesis_round_global(g.ny, wg.l1)),
                        static_cast<std::size_t>(thesis_round_global(g.nx, wg.l0))),
            cl::NDRange(wg.l1, wg.l0), name);
}

template <class T>
void thesis_ghosts(OpenCLTag, Queue& q, const ThesisGrid& g, Fields<T>& f, bool vector_rows) {
  if (vector_rows) {  // V1f4: rows as 4-vectors, then the columns (two launches, in order)
    cl::Kernel r = kernel(f.z, "thesis_ghost_rows4");
    opencl::set_args(r, cl_long(g.nx), cl_long(g.w), m(f.z.handle()), m(f.qx.handle()),
                     m(f.qy.handle()));
    opencl::queue_of(q).launch(r, cl::NDRange(up(g.w / 4, 64)), cl::NDRange(64),
                               "thesis_ghost_rows4");
    cl::Kernel c = kernel(f.z, "thesis_ghost_cols");
    opencl::set_args(c, cl_long(g.nx), cl_long(g.ny), cl_long(g.w), m(f.z.handle()),
                     m(f.qx.handle()), m(f.qy.handle()));
    opencl::queue_of(q).launch(c, cl::NDRange(up(g.nx, 64)), cl::NDRange(64), "thesis_ghost_cols");
    return;
  }
  cl::Kernel k = kernel(f.z, "thesis_ghosts");
  opencl::set_args(k, cl_long(g.nx), cl_long(g.ny), cl_long(g.w), m(f.z.handle()), m(f.qx.handle()),
                   m(f.qy.handle()));
  opencl::queue_of(q).launch(k, cl::NDRange(up(std::max(g.nx, g.ny), 64)), cl::NDRange(64),
                             "thesis_ghosts");
}

WorkGroup max_work_group(OpenCLTag, Device& d) {
  const cl::Device& dev = opencl::device_of(d).native();
  const auto sizes = dev.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
  const std::size_t total = dev.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  // seed §4.2: floor(sqrt(per-dimension maximum)) per side, within the total
  int a = static_cast<int>(std::sqrt(double(sizes.size() > 1 ? sizes[1] : 1)));
  int b = static_cast<int>(std::sqrt(double(sizes.empty() ? 1 : sizes[0])));
  while (static_cast<std::size_t>(a) * b > total) (a > b ? a : b) -= 1;
  return {std::max(a, 1), std::max(b, 1)};
}

template <class T>
void phys_ghosts(OpenCLTag, Queue& q, const PhysGrid& g, const PhysParams<T>& p,
                 const Buffer<T>& zb, Fields<T>& f, Buffer<T>& scalars,
                 Buffer<std::uint32_t>& flags, bool bookkeeping) {
  cl::Kernel k = kernel(zb, "phys_ghosts");
  set_phys_params(k, g, p);
  set_args_from(k, kPhysParams, cl_int(bookkeeping), m(zb.handle()), m(f.z.handle()),
                m(f.qx.handle()), m(f.qy.handle()), m(scalars.handle()), m(flags.handle()));
  opencl::queue_of(q).launch(k, cl::NDRange(up(std::max(g.nx, g.ny), 64)), cl::NDRange(64),
                             "phys_ghosts");
}

template <class T>
void phys_update(OpenCLTag, Queue& q, const PhysGrid& g, const PhysParams<T>& p,
                 const Buffer<T>& zb, const Fields<T>& src, Fields<T>& dst, Buffer<T>& scalars,
                 Buffer<std::uint32_t>& flags) {
  const bool shared = p.columns == 3 && ts_swe_shared_fits(g.nx, g.w);
  const char* name = shared ? "phys_update_shared" : "phys_update";
  cl::Kernel k = kernel(zb, name);
  set_phys_params(k, g, p);
  set_args_from(k, kPhysParams, m(zb.handle()), m(src.z.handle()), m(src.qx.handle()),
                m(src.qy.handle()), m(dst.z.handle()), m(dst.qx.handle()), m(dst.qy.handle()),
                m(scalars.handle()), m(flags.handle()), cl_long(strip_length(g)));
  // phys_update_shared's last argument, after the ten above: the prefetch distance
  if (shared) set_args_from(k, kPhysParams + 10, cl_int(phys_prefetch_rows()));
  const std::size_t strips =
      static_cast<std::size_t>((g.nx + strip_length(g) - 1) / strip_length(g));
  const long block = !shared                    ? TS_SWE_BLOCK
                     : std::is_same_v<T, float> ? TS_SWE_SHARED_BLOCK_F
                                                : TS_SWE_SHARED_BLOCK_D;
  const long groups = shared ? (g.ny + block - 3) / (block - 2) : 0;
  const std::size_t items =
      shared ? static_cast<std::size_t>(groups * block) : up(g.ny, TS_SWE_BLOCK);
  opencl::queue_of(q).launch(k, cl::NDRange(items, strips),
                             cl::NDRange(static_cast<std::size_t>(block), 1), name);
}

template <class T>
void ieee_check(OpenCLTag, Queue& q, std::uint64_t first, std::uint64_t count,
                Buffer<std::uint32_t>& counts) {
  cl::Kernel k = opencl::device_of(counts.device())
                     .kernel("swe/kernels/swe.cl", "ieee_check", options<T>(counts.device()));
  opencl::set_args(k, cl_ulong(first), cl_ulong(count), m(counts.handle()));
  opencl::queue_of(q).launch(k, cl::NDRange(256 * 1024), cl::NDRange(256), "ieee_check");
}

template <class T>
void phys_stage(OpenCLTag, Queue& q, const PhysGrid& g, const PhysParams<T>& p, const Buffer<T>& zb,
                const Fields<T>& base, const Fields<T>& src, Fields<T>& dst, int stage,
                Buffer<T>& scalars, Buffer<std::uint32_t>& flags) {
  cl::Kernel k = kernel(zb, "phys_stage");
  set_phys_params(k, g, p);
  set_args_from(k, kPhysParams, cl_int(stage), m(zb.handle()), m(base.z.handle()),
                m(base.qx.handle()), m(base.qy.handle()), m(src.z.handle()), m(src.qx.handle()),
                m(src.qy.handle()), m(dst.z.handle()), m(dst.qx.handle()), m(dst.qy.handle()),
                m(scalars.handle()), m(flags.handle()));
  opencl::queue_of(q).launch(k, cl::NDRange(up(g.ny, TS_SWE_BLOCK), static_cast<std::size_t>(g.nx)),
                             cl::NDRange(TS_SWE_BLOCK, 1), "phys_stage");
}

TS_SWE_INSTANTIATE(OpenCLTag, float)
TS_SWE_INSTANTIATE(OpenCLTag, double)

}  // namespace tessera::swe::kernels
