/* How a stencil user function reads its neighbours, written once for the
 * CPU (C++), CUDA and OpenCL backends.
 *
 *   TS_STENCIL_FN(name, s) { return TS_AT(s, -1, 0, 0) + TS_AT(s, 1, 0, 0); }
 *
 * TS_AT(s, dx, dy, dz) is the value at offset (dx, dy, dz) from the cell being
 * computed (|dx| <= radius x, ...); TS_POS(s, a) its global coordinate along
 * axis a (0 = x). Outside the domain the skeleton's boundary mode decides what
 * TS_AT returns (the skeleton fills ghost layers around the domain with it, so
 * every read is a plain load). Inside a stencil function `ts_real` is the
 * element type.
 *
 * C++/CUDA: a function template over the accessor (inlined into the kernel);
 * OpenCL: a function of `const ts_stencil*`, which the generated program
 * defines (skel_template.cl). Guarded: include once. */
#ifndef TESSERA_SKEL_ACCESS_H
#define TESSERA_SKEL_ACCESS_H

#if defined(__OPENCL_VERSION__)
#define TS_STENCIL_FN(name, s) TS_FN ts_real name(const ts_stencil* s)
#define TS_AT(s, dx, dy, dz) ts_stencil_at((s), (dx), (dy), (dz))
#define TS_POS(s, a) ((s)->pos[(a)])
#else
#define TS_STENCIL_FN(name, s) \
  template <class TsStencil>   \
  TS_FN typename TsStencil::value_type name(const TsStencil& s)
#define TS_AT(s, dx, dy, dz) (s)((dx), (dy), (dz))
#define TS_POS(s, a) (s).pos(a)
#endif

/* Cells per work-item along z in the map and stencil kernels of every GPU
 * backend. One float cell per thread leaves too few bytes in flight per SM to
 * cover HBM latency (the float map and 7-point stencil ran at 35-38% of the
 * copy bandwidth on an H200, double at 66-72%): a work-item computes
 * TS_SKEL_Z_CELLS consecutive cells before it stores any, so their loads are
 * issued together (and the z-neighbours a stencil shares hit the same
 * work-item's cache lines). */
#define TS_SKEL_Z_CELLS 4

#endif /* TESSERA_SKEL_ACCESS_H */
