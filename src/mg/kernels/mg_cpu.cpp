// CPU (OpenMP) launchers of the multigrid kernels; the mathematics is in
// mg_point.h. Loops run over interior points; the halo supplies the zero
// Dirichlet boundary, so there are no boundary branches.
#include "backends/cpu/cpu_device.hpp"
#include "mg/kernels/mg_kernels.hpp"
#include "mg/kernels/mg_point.hpp"

namespace tessera::mg::kernels {

namespace {

using namespace point;

template <class T>
T* p(const Buffer<T>& b) {
  return cpu::ptr<T>(b.handle());
}

// Calls f(i, j, k, idx) for every interior point of `d`.
template <class F>
void for_each_point(const Dims& d, F f) {
  const long nz = d.dim == 3 ? d.nz : 1, sx = d.sx(), sy = d.sy();
  const int kh = d.kh();
#pragma omp parallel for collapse(2) schedule(static)
  for (long k = 0; k < nz; ++k)
    for (long j = 0; j < d.ny; ++j)
      for (long i = 0; i < d.nx; ++i) f(i, j, k, TS_MG_IDX(i, j, k, sx, sy, kh));
}

// Calls f(m, j, k) for every slot of every row of a split level.
template <class F>
void for_each_slot(const Dims& d, F f) {
  const long n = slots(d);
#pragma omp parallel for collapse(2) schedule(static)
  for (long k = 0; k < d.nz; ++k)
    for (long j = 0; j < d.ny; ++j)
      for (long m = 0; m < n; ++m) f(m, j, k);
}

}  // namespace

template <class T>
void thesis_jacobi(CpuTag, Queue&, const Dims& d, const Buffer<T>& b, const Buffer<T>& xs,
                   Buffer<T>& xd) {
  const T *bp = p(b), *x = p(xs);
  T* y = p(xd);
  const long sx = d.sx();
  for_each_point(d, [&](long, long, long, long c) {
    y[c] = ts_mg_thesis_jacobi(bp[c], x[c - 1], x[c + 1], x[c - sx], x[c + sx]);
  });
}

template <class T>
void thesis_residual(CpuTag, Queue&, const Dims& d, const Buffer<T>& b, const Buffer<T>& x,
                     Buffer<T>& r) {
  const T *bp = p(b), *xp = p(x);
  T* rp = p(r);
  const long sx = d.sx();
  for_each_point(d, [&](long, long, long, long c) {
    rp[c] = ts_mg_thesis_residual(bp[c], xp[c], xp[c - 1], xp[c + 1], xp[c - sx], xp[c + sx]);
  });
}

template <class T>
void thesis_restrict(CpuTag, Queue&, const Dims& fine, const Buffer<T>& src, const Dims& coarse,
                     Buffer<T>& bc) {
  const T* s = p(src);
  T* out = p(bc);
  const long fsx = fine.sx(), fsy = fine.sy();
  for_each_point(coarse, [&](long i, long j, long, long c) {
    out[c] = ts_mg_thesis_restrict_at(s, i, j, fsx, fsy);
  });
}

template <class T>
void thesis_prolong(CpuTag, Queue&, const Dims& fine, Buffer<T>& xf, const Dims& coarse,
                    const Buffer<T>& xc, bool accumulate) {
  const T* cx = p(xc);
  T* fx = p(xf);
  const long csx = coarse.sx(), csy = coarse.sy();
  for_each_point(fine, [&](long i, long j, long, long f) {
    const T v = ts_mg_thesis_prolong_at(cx, i, j, csx, csy);
    fx[f] = accumulate ? fx[f] + v : v;
  });
}

template <class T>
void jacobi(CpuTag, Queue&, const Dims& d, T omega, const Buffer<T>& b, const Buffer<T>& xs,
            Buffer<T>& xd) {
  const T *bp = p(b), *x = p(xs);
  T* y = p(xd);
  const long sx = d.sx(), sy = d.sy();
  for_each_point(
      d, [&](long, long, long, long c) { y[c] = ts_mg_jacobi_at(bp, x, c, sx, sy, d.dim, omega); });
}

template <class T>
void gauss_seidel_color(CpuTag, Queue&, const Dims& d, int color, const Buffer<T>& b, Buffer<T>& x,
                        bool zero) {
  const T* bp = p(b);
  T* xp = p(x);
  if (d.split) {
    const long px = d.px(), py = d.py(), ph = d.ph();
    for_each_slot(d, [&](long m, long j, long k) {
      ts_mg_gauss_seidel_split(bp, xp, m, j, k, color, zero, d.nx, px, py, ph);
    });
    return;
  }
  const long sx = d.sx(), sy = d.sy();
  for_each_point(d, [&](long i, long j, long k, long c) {
    if (((i + j + k) & 1) == color) xp[c] = ts_mg_gauss_seidel_at(bp, xp, c, sx, sy, d.dim, zero);
  });
}

template <class T>
void gauss_seidel_red_prolonged(CpuTag, Queue&, const Dims& d, const Buffer<T>& b, Buffer<T>& x,
                                const Dims& coarse, const Buffer<T>& ec) {
  require_split_pair(d, coarse, "gauss_seidel_red_prolonged");
  const T *bp = p(b), *e = p(ec);
  T* xp = p(x);
  const long px = d.px(), py = d.py(), ph = d.ph(), cx = coarse.px(), cy = coarse.py(),
             ch = coarse.ph();
  for_each_slot(d, [&](long m, long j, long k) {
    ts_mg_gauss_seidel_red_prolonged(bp, xp, e, m, j, k, d.nx, px, py, ph, cx, cy, ch);
  });
}

// The CPU reference of the fused sweep is the unfused sequence it must equal.
template <class T>
void gauss_seidel_fused(CpuTag tag, Queue& q, const Dims& d, const Buffer<T>& b,
                        const Buffer<T>& xo, Buffer<T>& xn, const Buffer<T>* ec,
                        const Dims* coarse) {
  q.copy(xo.handle(), 0, xn.handle(), 0, xo.bytes());
  if (ec) prolong_add(tag, q, d, xn, *coarse, *ec, -1);
  gauss_seidel_color(tag, q, d, 0, b, xn);
  gauss_seidel_color(tag, q, d, 1, b, xn);
}

template <class T>
void residual(CpuTag, Queue&, const Dims& d, const Buffer<T>& b, const Buffer<T>& x, Buffer<T>& r) {
  const T *bp = p(b), *xp = p(x);
  T* rp = p(r);
  const long px = d.px(), py = d.py(), ph = d.ph();
  for_each_point(d, [&](long i, long j, long k, long c) {
    rp[c] = ts_mg_residual_any(bp, xp, i, j, k, px, py, ph, d.dim);
  });
}

template <class T>
void restrict_residual(CpuTag, Queue&, const Dims& fine, const Buffer<T>& b, const Buffer<T>& x,
                       const Dims& coarse, Buffer<T>& bc, bool red_only) {
  const T *bp = p(b), *xp = p(x);
  T* out = p(bc);
  const long fx = fine.px(), fy = fine.py(), fh = fine.ph();
  const long cx = coarse.px(), cy = coarse.py(), ch = coarse.ph();
  for_each_point(coarse, [&](long i, long j, long k, long) {
    out[ts_mg_index(i, j, k, cx, cy, ch, fine.dim)] =
        ts_mg_restrict_residual_at(bp, xp, i, j, k, fx, fy, fh, fine.dim, red_only);
  });
}

template <class T>
void prolong_add(CpuTag, Queue&, const Dims& fine, Buffer<T>& xf, const Dims& coarse,
                 const Buffer<T>& ec, int color) {
  const T* e = p(ec);
  T* x = p(xf);
  const long fx = fine.px(), fy = fine.py(), fh = fine.ph();
  const long cx = coarse.px(), cy = coarse.py(), ch = coarse.ph();
  for_each_point(fine, [&](long i, long j, long k, long) {
    if (color >= 0 && ((i + j + k) & 1) != color) return;
    const long f = ts_mg_index(i, j, k, fx, fy, fh, fine.dim);
    x[f] = x[f] + ts_mg_prolong_at(e, i, j, k, cx, cy, ch, fine.dim);
  });
}

template <class T>
void convert_split(CpuTag, Queue&, const Dims& d, const Buffer<T>& src, Buffer<T>& dst,
                   bool to_split) {
  const T* s = p(src);
  T* o = p(dst);
  const Dims sd = d.as_split();
  const long px = sd.px(), py = sd.py(), ph = sd.ph();
  for_each_point(d.natural(), [&](long i, long j, long k, long c) {
    const long q = ts_mg_at3(i, j, k, px, py, ph);
    if (to_split)
      o[q] = s[c];
    else
      o[c] = s[q];
  });
}

#define TS_INSTANTIATE(T)                                                                         \
  template void thesis_jacobi<T>(CpuTag, Queue&, const Dims&, const Buffer<T>&, const Buffer<T>&, \
                                 Buffer<T>&);                                                     \
  template void thesis_residual<T>(CpuTag, Queue&, const Dims&, const Buffer<T>&,                 \
                                   const Buffer<T>&, Buffer<T>&);                                 \
  template void thesis_restrict<T>(CpuTag, Queue&, const Dims&, const Buffer<T>&, const Dims&,    \
                                   Buffer<T>&);                                                   \
  template void thesis_prolong<T>(CpuTag, Queue&, const Dims&, Buffer<T>&, const Dims&,           \
                                  const Buffer<T>&, bool);                                        \
  template void jacobi<T>(CpuTag, Queue&, const Dims&, T, const Buffer<T>&, const Buffer<T>&,     \
                          Buffer<T>&);                                                            \
  template void gauss_seidel_color<T>(CpuTag, Queue&, const Dims&, int, const Buffer<T>&,         \
                                      Buffer<T>&, bool);                                          \
  template void gauss_seidel_red_prolonged<T>(CpuTag, Queue&, const Dims&, const Buffer<T>&,      \
                                              Buffer<T>&, const Dims&, const Buffer<T>&);         \
  template void gauss_seidel_fused<T>(CpuTag, Queue&, const Dims&, const Buffer<T>&,              \
                                      const Buffer<T>&, Buffer<T>&, const Buffer<T>*,             \
                                      const Dims*);                                               \
  template void residual<T>(CpuTag, Queue&, const Dims&, const Buffer<T>&, const Buffer<T>&,      \
                            Buffer<T>&);                                                          \
  template void restrict_residual<T>(CpuTag, Queue&, const Dims&, const Buffer<T>&,               \
                                     const Buffer<T>&, const Dims&, Buffer<T>&, bool);            \
  template void prolong_add<T>(CpuTag, Queue&, const Dims&, Buffer<T>&, const Dims&,              \
                               const Buffer<T>&, int);                                            \
  template void convert_split<T>(CpuTag, Queue&, const Dims&, const Buffer<T>&, Buffer<T>&, bool);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::mg::kernels
