// CUDA launchers of the skeleton operations: header-only templates for .cu
// files, on the one launcher's functor kernels (core/launch/functor_cuda.cuh).
// A program that runs its own functor on CUDA includes this header in a .cu
// file and instantiates the operations it uses with the macros at the end
// (the built-in examples are instantiated in skel_examples_cuda.cu); a .cpp
// file that calls a skeleton with a functor nobody instantiated fails to link,
// naming the missing cuda_for_boxes<...>.
#pragma once
#include "core/launch/functor_cuda.cuh"
#include "skeleton/kernels/skel_fold.h"
#include "skeleton/kernels/skel_launch.hpp"

namespace tessera::skeleton::kernels {

/// One box: its runs of cells (BoxRuns) as a 3-D grid of 32 x 8 blocks;
/// several boxes (a frame or the ghost shell): their cells as items, in
/// one launch.
template <class Op>
void cuda_for_boxes(Device& d, Queue& q, const BoxList& boxes, const Op& op) {
  if (boxes.count == 1) {
    const BoxRuns<Op> runs{op, boxes.box[0]};
    launch::cuda_for_cells(q, "skeleton box kernel", runs.cells(), runs);
    return;
  }
  launch::cuda_for_items(q, d, "skeleton frame kernel", boxes.volume(),
                         BoxListItems<Op>{op, boxes});
}

/// fold: one group of TS_REDUCE_THREADS per (row, chunk), skel_fold.h's order.
template <class F, class T>
struct FoldChunks {
  RowsReduce<F, T> op;
  TS_FN void operator()(const ts_group& g, T* s) const {
    const index_t r = g.id / op.chunks, k = g.id % op.chunks;
    const index_t begin = k * TS_REDUCE_CHUNK;
    const index_t n = op.len - begin < TS_REDUCE_CHUNK ? op.len - begin : TS_REDUCE_CHUNK;
    ts_skel_fold_chunk(op.f, int(g.lid), s, op.row(r) + begin, n, &op.out[r * op.chunks + k]);
  }
};

template <class F, class T>
void cuda_reduce_rows(Queue& q, const RowsReduce<F, T>& op, index_t rows) {
  launch::cuda_for_groups<TS_REDUCE_THREADS, T>(q, "skeleton fold kernel", rows * op.chunks,
                                                FoldChunks<F, T>{op});
}

}  // namespace tessera::skeleton::kernels

// ---- explicit instantiation for a functor used from .cpp files ----
#define TS_SKEL_CUDA_OP(...)                                                         \
  template void tessera::skeleton::kernels::cuda_for_boxes<__VA_ARGS__>(             \
      tessera::Device&, tessera::Queue&, const tessera::skeleton::kernels::BoxList&, \
      const __VA_ARGS__&);
/// map/mapInPlace of F on T -> R (D: 1 DA, 2 DM, 3 DC)
#define TS_SKEL_CUDA_MAP(F, T, R, D) \
  TS_SKEL_CUDA_OP(                   \
      tessera::skeleton::kernels::MapOp<F, T, T, R, tessera::skeleton::kernels::MapKind::map, D>)
#define TS_SKEL_CUDA_MAP_INDEX(F, T, R, D)          \
  TS_SKEL_CUDA_OP(                                  \
      tessera::skeleton::kernels::MapOp<F, T, T, R, \
                                        tessera::skeleton::kernels::MapKind::map_index, D>)
#define TS_SKEL_CUDA_ZIP(F, T, U, R, D) \
  TS_SKEL_CUDA_OP(                      \
      tessera::skeleton::kernels::MapOp<F, T, U, R, tessera::skeleton::kernels::MapKind::zip, D>)
#define TS_SKEL_CUDA_ZIP_INDEX(F, T, U, R, D)       \
  TS_SKEL_CUDA_OP(                                  \
      tessera::skeleton::kernels::MapOp<F, T, U, R, \
                                        tessera::skeleton::kernels::MapKind::zip_index, D>)
/// mapStencil of F on T with boundary function B (NoBoundaryFunction if none)
#define TS_SKEL_CUDA_STENCIL(F, T, B)                               \
  TS_SKEL_CUDA_OP(tessera::skeleton::kernels::StencilInnerOp<F, T>) \
  TS_SKEL_CUDA_OP(tessera::skeleton::kernels::GhostFillOp<F, T, B>)
/// only the ghost fill, for a second boundary function B of a stencil F
#define TS_SKEL_CUDA_STENCIL_BOUNDARY(F, T, B) \
  TS_SKEL_CUDA_OP(tessera::skeleton::kernels::GhostFillOp<F, T, B>)
/// fold of F on T
#define TS_SKEL_CUDA_FOLD(F, T)                                             \
  template void tessera::skeleton::kernels::cuda_reduce_rows<F, T>(         \
      tessera::Queue&, const tessera::skeleton::kernels::RowsReduce<F, T>&, \
      tessera::skeleton::index_t);
