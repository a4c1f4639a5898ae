/* Start of every generated skeleton program (before the user's source):
 * portability macros, the stencil accessor type and its declaration. The
 * program defines ts_real (the element type) before this file. */
#include "core/kernels/portable.h"
#include "skel_access.h"
#include "skel_params.h"

/* What a stencil function sees: `p` is the cell being computed; the ghost
 * layers around the owned box hold what the boundary modes say. */
typedef struct {
  __global const ts_real* p;
  long sy, sz;
  long pos[3]; /* global coordinates of the cell */
} ts_stencil;

TS_FN ts_real ts_stencil_at(const ts_stencil* s, int dx, int dy, int dz);
