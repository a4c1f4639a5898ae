/* Single-threaded stand-in for <omp.h> in the fuzz build (tests/fuzz only):
   the readers' OpenMP pragmas are ignored and this is the only call they make. */
#pragma once
static inline int omp_get_max_threads(void) { return 1; }
static inline int omp_get_thread_num(void) { return 0; }
