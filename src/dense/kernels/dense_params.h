/* The parameter structs of the dense kernels (core/kernels/kernel_args.h):
 * declared once for C++, CUDA and OpenCL. Guarded, and included at file
 * scope before the per-precision passes (dense_point.hpp), since in C++ a
 * struct is a template on ts_real. */
#ifndef TESSERA_DENSE_PARAMS_H
#define TESSERA_DENSE_PARAMS_H
#include "core/kernels/portable.h"

/* y = f(s, x, z) over n elements; op is a TS_EW_* code. */
TS_PARAMS_STRUCT(ts_ew_params) {
  ts_size n;
  ts_real s;
  int op;
};

/* A fold of term(x_i, y_i) over n elements with combine (TS_TERM_*,
 * TS_COMBINE_* codes). */
TS_PARAMS_STRUCT(ts_fold_params) {
  ts_size n;
  int term;
  int combine;
};

#endif /* TESSERA_DENSE_PARAMS_H */
