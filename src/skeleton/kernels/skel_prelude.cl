/* Start of every generated skeleton program (before the user's source):
 * portability macros, the stencil accessor type and its declaration. The
 * program defines ts_real (the element type) before this file. */
#include "core/kernels/portable.h"
#include "skel_access.h"

/* What a stencil function sees: in interior cells `p` is the cell itself, in
 * boundary cells it is local owned (0, 0, 0) and the boundary modes apply. */
typedef struct {
  __global const ts_real* p;
  long sy, sz;
  long pos[3]; /* global coordinates of the cell */
  long lo[3];  /* global coordinates of local (0, 0, 0) */
  long n[3];   /* global extents */
  int mode[3]; /* 0 neutral, 1 periodic, 2 clamp, 3 mirror, 4 user */
  int has_halo[3];
  ts_real neutral;
} ts_stencil;

TS_FN ts_real ts_stencil_at(const ts_stencil* s, int dx, int dy, int dz);
