/* What a stencil reads outside the global domain under the per-axis
 * boundary modes: written once, for the C++ backends (skel_ops.hpp's ghost
 * fill) and the OpenCL program generated around a user function
 * (skel_template.cl). The ghost layers around a part's owned box hold these
 * values, so that the stencil kernels themselves read plain memory.
 * Guarded: include once. */
#ifndef TESSERA_SKEL_BOUNDARY_H
#define TESSERA_SKEL_BOUNDARY_H

#include "core/kernels/portable.h"

/* The modes (skeleton::BoundaryMode). */
#define TS_SKEL_NEUTRAL 0
#define TS_SKEL_PERIODIC 1
#define TS_SKEL_CLAMP 2
#define TS_SKEL_MIRROR 3
#define TS_SKEL_USER 4
/* ts_skel_fill_source: the cell is no ghost to fill. */
#define TS_SKEL_NOT_GHOST (-2)

/* The global domain and its modes; widest fields first, so that the host
 * and OpenCL agree on the layout (it is a kernel argument there). */
typedef struct {
  long n[3];       /* global extents */
  int mode[3];     /* per axis, TS_SKEL_NEUTRAL ... TS_SKEL_USER */
  int has_halo[3]; /* the axis is decomposed: a periodic read goes to the halo */
} ts_skel_bounds;

/* Whether global coordinate g along axis a is a ghost to fill: outside the
 * domain, and not a periodic wrap that the exchange brings into the halo. */
TS_FN int ts_skel_ghost(const ts_skel_bounds* b, int a, long g) {
  return (g < 0 || g >= b->n[a]) && !(b->has_halo[a] && b->mode[a] == TS_SKEL_PERIODIC);
}

/* Resolves a read at global coordinates w, axis by axis as documented: the
 * first axis outside the domain whose mode yields a value of its own
 * (neutral, user) decides, and the user function sees the coordinates with
 * the axes before it already wrapped (u). Two sets of coordinates: w, the
 * documented ones, and c, where the value is loaded from (a periodic axis
 * with a halo keeps c outside: the halo holds the wrap); an axis that
 * decides is clamped, only to keep the load inside. Returns the deciding
 * mode, or -1 where the loaded value is the answer. */
TS_FN int ts_skel_resolve(const ts_skel_bounds* b, long* w, long* c, long* u) {
  int m = -1;
  for (int a = 0; a < 3; ++a) c[a] = w[a];
  for (int a = 0; a < 3; ++a) {
    const long n = b->n[a];
    if (w[a] >= 0 && w[a] < n) continue;
    switch (b->mode[a]) {
      case TS_SKEL_NEUTRAL:
      case TS_SKEL_USER:
        if (m < 0) {
          m = b->mode[a];
          u[0] = w[0];
          u[1] = w[1];
          u[2] = w[2];
        }
        c[a] = w[a] = w[a] < 0 ? 0 : n - 1;
        break;
      case TS_SKEL_PERIODIC:
        w[a] = w[a] < 0 ? w[a] + n : w[a] - n;
        if (!b->has_halo[a]) c[a] = w[a];
        break;
      case TS_SKEL_CLAMP:
        c[a] = w[a] = w[a] < 0 ? 0 : n - 1;
        break;
      default: /* mirror: the edge cell is not repeated */
        c[a] = w[a] = w[a] < 0 ? -w[a] : 2 * (n - 1) - w[a];
        break;
    }
  }
  return m;
}

/* What the ghost fill stores in the cell at global coordinates g:
 * TS_SKEL_NOT_GHOST (leave it: inside, or a halo cell the exchange fills),
 * TS_SKEL_NEUTRAL (the neutral value), TS_SKEL_USER (the user function at
 * u), or -1: the value at global coordinates c. Its loads resolve to cells
 * inside the domain or in halos, never to other ghosts. */
TS_FN int ts_skel_fill_source(const ts_skel_bounds* b, const long* g, long* c, long* u) {
  if (!(ts_skel_ghost(b, 0, g[0]) || ts_skel_ghost(b, 1, g[1]) || ts_skel_ghost(b, 2, g[2])))
    return TS_SKEL_NOT_GHOST;
  long w[3];
  w[0] = g[0];
  w[1] = g[1];
  w[2] = g[2];
  return ts_skel_resolve(b, w, c, u);
}

#endif /* TESSERA_SKEL_BOUNDARY_H */
