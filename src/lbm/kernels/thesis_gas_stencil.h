/* The thesis's Muesli program (Listing 3.14) as a skeleton stencil function:
 * each cell of a one-component field of 76-byte cells (ts_thesis_cell, the
 * thesis's array<float, 19>) is computed from its radius-1 neighbourhood by
 * pull streaming, then collided (thesis_gas_point.h). Run through the
 * skeleton's mapStencil with the neutral boundary and the all-zero cell as
 * neutral value (Muesli's PLCube). Outside reads only happen in the 2-cell
 * keep-velocity shell, which returns before reading any neighbour, so every
 * value equals the native kernel's bit for bit.
 * Shared by the C++/CUDA functor (thesis_gas_stencil.hpp) and the OpenCL
 * program the skeleton generates around it (ts_real: the cell type there). */
#ifndef TESSERA_THESIS_GAS_STENCIL_H
#define TESSERA_THESIS_GAS_STENCIL_H

#if defined(__OPENCL_VERSION__) /* C++ includes it in its namespace first */
#include "lbm/kernels/thesis_gas_point.h"
#endif

/* omega = deltaT / tau = 1.f / 0.65f, the thesis's float division
 * (thesis_omega() on the host; a test checks the two agree) */
#define TS_THESIS_OMEGA 0x1.89d89ep+0f

TS_STENCIL_FN(ts_thesis_gas_stencil, s) {
  ts_real cell = TS_AT(s, 0, 0, 0);
  const unsigned b0 = ts_float_bits(cell.f[0]);
  if (((b0 >> 23) & 0xffu) == 255u && (b0 & TS_THESIS_FLAG_KEEP_VELOCITY)) return cell;
  for (int i = 1; i < TS_THESIS_Q; i++)
    cell.f[i] = TS_AT(s, ts_thesis_ox(i), ts_thesis_oy(i), ts_thesis_oz(i)).f[i];
  ts_thesis_collide(cell.f, TS_THESIS_OMEGA, 1.0f);
  return cell;
}

#endif /* TESSERA_THESIS_GAS_STENCIL_H */
