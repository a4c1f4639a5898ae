// OpenCL host side of the multigrid kernels (device code: mg.cl).
#include <string>

#include "backends/opencl/cl_device.hpp"
#include "mg/kernels/mg_grid.h"
#include "mg/kernels/mg_kernels.hpp"

namespace tessera::mg::kernels {

namespace {

// TS_MG_FY is passed on so that a build that sets it (mg_grid.h) launches
// and compiles the fused sweep with the same group shape.
template <class T>
std::string options() {
  return std::string(std::is_same_v<T, float> ? "-Dts_real=float"
                                              : "-Dts_real=double -DTS_DOUBLE=1") +
         " -DTS_MG_FY=" + std::to_string(TS_MG_FY);
}

cl_mem m(const void* handle) { return opencl::mem(const_cast<void*>(handle)); }

// Launches `name` over the interior of `d` with the level arguments first.
template <class T, class... Extra>
void launch(Queue& q, const Buffer<T>& any, const char* name, const Dims& d,
            const Extra&... extra) {
  cl::Kernel k = opencl::device_of(any.device()).kernel("mg/kernels/mg.cl", name, options<T>());
  const long nz = d.dim == 3 ? d.nz : 1;
  opencl::set_args(k, cl_long(d.nx), cl_long(d.ny), cl_long(nz), cl_long(d.sx()), cl_long(d.sy()),
                   cl_int(d.dim), extra...);
  auto up = [](long n, long b) { return static_cast<std::size_t>((n + b - 1) / b * b); };
  const long lx = 32, ly = d.dim == 3 ? 4 : 8;
  opencl::queue_of(q).launch(k,
                             cl::NDRange(up(d.nx, lx), up(d.ny, ly), static_cast<std::size_t>(nz)),
                             cl::NDRange(lx, ly, 1), name);
}

// Launches `name` over the slots of the rows of split level `d` (one slot
// per work-item, each marching Tuning::slot_planes planes), with its sizes,
// storage pitches and planes first.
template <class T, class... Extra>
void launch_slots(Queue& q, const Buffer<T>& any, const char* name, const Dims& d,
                  const Extra&... extra) {
  cl::Kernel k = opencl::device_of(any.device()).kernel("mg/kernels/mg.cl", name, options<T>());
  const int planes = checked_tuning().slot_planes;
  opencl::set_args(k, cl_long(d.nx), cl_long(d.ny), cl_long(d.nz), cl_long(d.px()), cl_long(d.py()),
                   cl_long(d.ph()), cl_int(planes), extra...);
  const long ly = checked_tuning().slot_rows, lx = 256 / ly;
  auto up = [](long n, long b) { return static_cast<std::size_t>((n + b - 1) / b * b); };
  opencl::queue_of(q).launch(k,
                             cl::NDRange(up(slots(d), lx), up(d.ny, ly),
                                         static_cast<std::size_t>((d.nz + planes - 1) / planes)),
                             cl::NDRange(lx, ly, 1), name);
}

}  // namespace

template <class T>
void thesis_jacobi(OpenCLTag, Queue& q, const Dims& d, const Buffer<T>& b, const Buffer<T>& xs,
                   Buffer<T>& xd) {
  launch(q, b, "thesis_jacobi", d, m(b.handle()), m(xs.handle()), m(xd.handle()));
}
template <class T>
void thesis_residual(OpenCLTag, Queue& q, const Dims& d, const Buffer<T>& b, const Buffer<T>& x,
                     Buffer<T>& r) {
  launch(q, b, "thesis_residual", d, m(b.handle()), m(x.handle()), m(r.handle()));
}
template <class T>
void thesis_restrict(OpenCLTag, Queue& q, const Dims& fine, const Buffer<T>& src,
                     const Dims& coarse, Buffer<T>& bc) {
  launch(q, src, "thesis_restrict", coarse, cl_long(fine.sx()), cl_long(fine.sy()), m(src.handle()),
         m(bc.handle()));
}
template <class T>
void thesis_prolong(OpenCLTag, Queue& q, const Dims& fine, Buffer<T>& xf, const Dims& coarse,
                    const Buffer<T>& xc, bool accumulate) {
  launch(q, xf, "thesis_prolong", fine, cl_long(coarse.sx()), cl_long(coarse.sy()),
         cl_int(accumulate), m(xf.handle()), m(xc.handle()));
}
template <class T>
void jacobi(OpenCLTag, Queue& q, const Dims& d, T omega, const Buffer<T>& b, const Buffer<T>& xs,
            Buffer<T>& xd) {
  launch(q, b, "jacobi", d, omega, m(b.handle()), m(xs.handle()), m(xd.handle()));
}
template <class T>
void gauss_seidel_color(OpenCLTag, Queue& q, const Dims& d, int color, const Buffer<T>& b,
                        Buffer<T>& x, bool zero) {
  if (d.split)
    return launch_slots(q, b, "gauss_seidel_split", d, cl_int(color), cl_int(zero), m(b.handle()),
                        m(x.handle()));
  launch(q, b, "gauss_seidel_color", d, cl_int(color), cl_int(zero), m(b.handle()), m(x.handle()));
}
template <class T>
void gauss_seidel_red_prolonged(OpenCLTag, Queue& q, const Dims& d, const Buffer<T>& b,
                                Buffer<T>& x, const Dims& coarse, const Buffer<T>& ec) {
  require_split_pair(d, coarse, "gauss_seidel_red_prolonged");
  launch_slots(q, b, "gauss_seidel_red_prolonged", d, cl_long(coarse.px()), cl_long(coarse.py()),
               cl_long(coarse.ph()), m(b.handle()), m(x.handle()), m(ec.handle()));
}
template <class T>
void gauss_seidel_fused(OpenCLTag, Queue& q, const Dims& d, const Buffer<T>& b, const Buffer<T>& xo,
                        Buffer<T>& xn, const Buffer<T>* ec, const Dims* coarse) {
  const char* name = ec ? "gauss_seidel_fused_prolong" : "gauss_seidel_fused";
  cl::Kernel k = opencl::device_of(b.device()).kernel("mg/kernels/mg.cl", name, options<T>());
  opencl::set_args(k, cl_long(d.nx), cl_long(d.ny), cl_long(d.nz), cl_long(d.sx()), cl_long(d.sy()),
                   cl_long(coarse ? coarse->sx() : 0), cl_long(coarse ? coarse->sy() : 0),
                   m(b.handle()), m(xo.handle()), m(xn.handle()), m((ec ? *ec : xo).handle()));
  const FusedGrid g = fused_grid(d);
  opencl::queue_of(q).launch(
      k, cl::NDRange(std::size_t(g.x) * TS_MG_FX, std::size_t(g.y) * TS_MG_FY, std::size_t(g.z)),
      cl::NDRange(TS_MG_FX, TS_MG_FY, 1), name);
}

template <class T>
void residual(OpenCLTag, Queue& q, const Dims& d, const Buffer<T>& b, const Buffer<T>& x,
              Buffer<T>& r) {
  launch(q, b, "residual", d.natural(), cl_long(d.px()), cl_long(d.py()), cl_long(d.ph()),
         m(b.handle()), m(x.handle()), m(r.handle()));
}
template <class T>
void restrict_residual(OpenCLTag, Queue& q, const Dims& fine, const Buffer<T>& b,
                       const Buffer<T>& x, const Dims& coarse, Buffer<T>& bc, bool red_only) {
  if (tiled_restriction(fine, coarse)) {  // mg_tiles.h
    static const char* const names[2][2][2] = {
        {{"restrict_residual_tile_nn", "restrict_residual_tile_nn_red"},
         {"restrict_residual_tile_ns", "restrict_residual_tile_ns_red"}},
        {{"restrict_residual_tile_sn", "restrict_residual_tile_sn_red"},
         {"restrict_residual_tile_ss", "restrict_residual_tile_ss_red"}}};
    const char* name = names[fine.split][coarse.split][red_only];
    const int planes = checked_tuning().restrict_planes;
    cl::Kernel k = opencl::device_of(b.device()).kernel("mg/kernels/mg.cl", name, options<T>());
    opencl::set_args(k, cl_long(coarse.nx), cl_long(coarse.ny), cl_long(coarse.nz),
                     cl_long(coarse.px()), cl_long(coarse.py()), cl_long(coarse.ph()),
                     cl_long(fine.nx), cl_long(fine.ny), cl_long(fine.px()), cl_long(fine.py()),
                     cl_long(fine.ph()), cl_int(lean_restriction(fine)), cl_int(planes),
                     m(b.handle()), m(x.handle()), m(bc.handle()));
    const auto groups = [](long n, long g) { return static_cast<std::size_t>((n + g - 1) / g); };
    return opencl::queue_of(q).launch(
        k,
        cl::NDRange(groups(coarse.nx, TS_MG_RX) * TS_MG_RX, groups(coarse.ny, TS_MG_RY) * TS_MG_RY,
                    groups(coarse.nz, planes)),
        cl::NDRange(TS_MG_RX, TS_MG_RY, 1), name);
  }
  launch(q, b, "restrict_residual", coarse.natural(), cl_long(coarse.px()), cl_long(coarse.py()),
         cl_long(coarse.ph()), cl_long(fine.px()), cl_long(fine.py()), cl_long(fine.ph()),
         cl_int(red_only), m(b.handle()), m(x.handle()), m(bc.handle()));
}
template <class T>
void prolong_add(OpenCLTag, Queue& q, const Dims& fine, Buffer<T>& xf, const Dims& coarse,
                 const Buffer<T>& ec, int color) {
  if (fine.split && checked_tuning().prolong_slots) {
    require_cube_offsets(coarse, "prolong_slot");
    for (int c : {0, 1})
      if (color < 0 || color == c)
        launch_slots(q, xf, "prolong_slot", fine, cl_long(coarse.px()), cl_long(coarse.py()),
                     cl_long(coarse.ph()), cl_int(c), m(xf.handle()), m(ec.handle()));
    return;
  }
  if (fine.split) {  // by coarse cells (mg_point.h, ts_mg_prolong_cells)
    const int cells = checked_tuning().prolong_cells;
    cl::Kernel k =
        opencl::device_of(xf.device()).kernel("mg/kernels/mg.cl", "prolong_cells", options<T>());
    opencl::set_args(k, cl_long(fine.nx), cl_long(fine.ny), cl_long(fine.nz), cl_long(fine.px()),
                     cl_long(fine.py()), cl_long(fine.ph()), cl_long(coarse.nx), cl_long(coarse.ny),
                     cl_long(coarse.nz), cl_long(coarse.px()), cl_long(coarse.py()),
                     cl_long(coarse.ph()), cl_int(color < 0 ? 3 : 1 << color), cl_int(cells),
                     m(xf.handle()), m(ec.handle()));
    const auto up = [](long n, long g) { return static_cast<std::size_t>((n + g - 1) / g * g); };
    return opencl::queue_of(q).launch(
        k,
        cl::NDRange(up(coarse.nx + 1, TS_MG_PX), up(coarse.ny + 1, TS_MG_PY),
                    up(coarse.nz + 1, cells) / cells),
        cl::NDRange(TS_MG_PX, TS_MG_PY, 1), "prolong_cells");
  }
  launch(q, xf, "prolong_add", fine, cl_long(coarse.px()), cl_long(coarse.py()),
         cl_long(coarse.ph()), cl_int(color), m(xf.handle()), m(ec.handle()));
}
template <class T>
void convert_split(OpenCLTag, Queue& q, const Dims& d, const Buffer<T>& src, Buffer<T>& dst,
                   bool to_split) {
  const Dims s = d.as_split();
  launch(q, src, "convert_split", d.natural(), cl_long(s.px()), cl_long(s.py()), cl_long(s.ph()),
         cl_int(to_split), m(src.handle()), m(dst.handle()));
}

#define TS_INSTANTIATE(T)                                                                         \
  template void thesis_jacobi<T>(OpenCLTag, Queue&, const Dims&, const Buffer<T>&,                \
                                 const Buffer<T>&, Buffer<T>&);                                   \
  template void thesis_residual<T>(OpenCLTag, Queue&, const Dims&, const Buffer<T>&,              \
                                   const Buffer<T>&, Buffer<T>&);                                 \
  template void thesis_restrict<T>(OpenCLTag, Queue&, const Dims&, const Buffer<T>&, const Dims&, \
                                   Buffer<T>&);                                                   \
  template void thesis_prolong<T>(OpenCLTag, Queue&, const Dims&, Buffer<T>&, const Dims&,        \
                                  const Buffer<T>&, bool);                                        \
  template void jacobi<T>(OpenCLTag, Queue&, const Dims&, T, const Buffer<T>&, const Buffer<T>&,  \
                          Buffer<T>&);                                                            \
  template void gauss_seidel_color<T>(OpenCLTag, Queue&, const Dims&, int, const Buffer<T>&,      \
                                      Buffer<T>&, bool);                                          \
  template void gauss_seidel_red_prolonged<T>(OpenCLTag, Queue&, const Dims&, const Buffer<T>&,   \
                                              Buffer<T>&, const Dims&, const Buffer<T>&);         \
  template void gauss_seidel_fused<T>(OpenCLTag, Queue&, const Dims&, const Buffer<T>&,           \
                                      const Buffer<T>&, Buffer<T>&, const Buffer<T>*,             \
                                      const Dims*);                                               \
  template void residual<T>(OpenCLTag, Queue&, const Dims&, const Buffer<T>&, const Buffer<T>&,   \
                            Buffer<T>&);                                                          \
  template void restrict_residual<T>(OpenCLTag, Queue&, const Dims&, const Buffer<T>&,            \
                                     const Buffer<T>&, const Dims&, Buffer<T>&, bool);            \
  template void prolong_add<T>(OpenCLTag, Queue&, const Dims&, Buffer<T>&, const Dims&,           \
                               const Buffer<T>&, int);                                            \
  template void convert_split<T>(OpenCLTag, Queue&, const Dims&, const Buffer<T>&, Buffer<T>&,    \
                                 bool);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::mg::kernels
