/* The parameter structs of the OpenCL kernels generated around a user
 * function (skel_template.cl), declared once for that program and its host
 * side (skel_opencl.cpp). 64-bit fields only: host and device agree on the
 * layout. Guarded: include once. */
#ifndef TESSERA_SKEL_PARAMS_H
#define TESSERA_SKEL_PARAMS_H

/* The cells a launch covers: from local coordinates lo, n[0] x n[1] x n[2]
 * of them; g, the global coordinates of local (0, 0, 0). */
typedef struct {
  long lo[3];
  long n[3];
  long g[3];
} ts_skel_box;

/* One field's part: o, the element offset of local owned (0, 0, 0) of
 * component 0; the strides of y, z and components. */
typedef struct {
  long o, sy, sz, cs;
} ts_skel_view;

#endif /* TESSERA_SKEL_PARAMS_H */
