/* The scalars of every SpMV kernel (core/kernels/kernel_args.h): one struct
 * for C++, CUDA and OpenCL, filled once per launch from the device matrix.
 * A plain struct (no ts_real field): the same type for every element type.
 * Fields of fixed size, widest first, so that host and device agree. */
#ifndef TESSERA_SPMV_PARAMS_H
#define TESSERA_SPMV_PARAMS_H
#include "core/kernels/portable.h"

/* csr-merge: merge-path items (row ends and nonzeros) per work-item (odd,
 * so that the work-items of a warp reading their items from local memory,
 * TS_SPMV_MERGE_ITEMS apart, fall into different banks, as CUB's SpMV does),
 * work-items per work-group, the items of a work-group (its tile), and the
 * tiles per block of the carries' scan. */
#define TS_SPMV_MERGE_ITEMS 7
#define TS_SPMV_MERGE_THREADS 128
#define TS_SPMV_MERGE_TILE (TS_SPMV_MERGE_ITEMS * TS_SPMV_MERGE_THREADS)
#define TS_SPMV_MERGE_SCAN 256

typedef struct {
  ts_size n;      /* stored rows: scalar rows (ELL, BELL) or block rows (BCSR); csr-merge: tiles */
  ts_size width;  /* ELL and BELL: slots per stored row */
  ts_size rows;   /* the matrix's rows */
  ts_size cols;   /* the matrix's columns */
  ts_size nnz;    /* csr-merge: the matrix's nonzeros */
  ts_size sub;    /* slots per subsection (thesis ELL) or per work-item (bell-sub); csr-merge:
                     1 where a row can span 3 tiles (the carries are scanned) */
  ts_size nsub;   /* subsections (thesis ELL) */
  ts_size si, sj; /* BCSR: in-block row and column strides of the values */
  int r, c;       /* block shape (1 x 1 for the scalar formats) */
  int mapped;     /* 1: stored row i is row map[i]; 0: row i */
  int lanes;      /* csr-vector: work-items' lanes per row */
  int slice;      /* SELL: rows per slice */
  int ir, iscale; /* BELL: rows per index entry, column scale (ts_spmv_bell_row_ix) */
  int has_len;    /* bell-bi: real blocks per block row given (len) */
} ts_spmv_params;

#endif /* TESSERA_SPMV_PARAMS_H */
