// CPU generator of the one launcher: a module's _cpu.cpp expands its kernel
// list with TS_CPU_KERNEL. A kernel of kind each or each_one runs its item
// function in an OpenMP loop over [0, n), one of kind cells its cell function
// over the box (static schedule, so the work split is the same on every
// run); group kernels are GPU tilings, so the module
// writes their CPU launcher itself (TS_LAUNCHER_SIGNATURE) as the plain loop
// it stands for, summing in the order of the tiling (the oracle).
#pragma once
#include <cstddef>

#include "core/launch/launch.hpp"

namespace tessera::launch {

// The arguments arrive converted, as by-value parameters, so that the loop
// sees local pointers it can keep in registers and vectorise over.
template <class Item, class... A>
void cpu_for_each(ts_size n, Item item, A... args) {
  const auto count = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for simd schedule(static)
  for (std::ptrdiff_t i = 0; i < count; ++i) item(static_cast<ts_size>(i), args...);
}

/// Below this many cells a box costs less than waking the threads (and far
/// less than spinning at the barrier when the cores are shared): serial.
constexpr long kCpuParallelCells = 1L << 16;

/// cell(i, j, k, args...) for every cell of the box, planes and rows split
/// statically over the threads.
template <class Cell, class... A>
void cpu_for_cells(const Cells& box, Cell cell, A... args) {
  const long nx = box.nx, ny = box.ny, nz = box.nz;
#pragma omp parallel for collapse(2) schedule(static) if (nx * ny * nz >= kCpuParallelCells)
  for (long k = 0; k < nz; ++k)
    for (long j = 0; j < ny; ++j)
      for (long i = 0; i < nx; ++i) cell(i, j, k, args...);
}

}  // namespace tessera::launch

#define TS_CPU_ARG(type, name) , ::tessera::launch::device_arg(name)
#define TS_CPU_IN_ARG(elem, ...) TS_IN_ARGS(TS_CPU_IN_ARG_, elem, __VA_ARGS__)
#define TS_CPU_IN_ARG_(elem, name, qualifier) , ::tessera::launch::device_arg(name)
#define TS_CPU_ARGS(K) TS_ARGS_##K(TS_CPU_ARG, TS_CPU_IN_ARG, TS_CPU_ARG)

#define TS_CPU_KERNEL(kind, K, THREADS, SCRATCH, OCCUPANCY, VARIANTS) \
  TS_CPU_##kind(K, kind, VARIANTS)
#define TS_CPU_each(K, kind, VARIANTS)                                                \
  template <class ts_value>                                                           \
  TS_LAUNCHER_SIGNATURE(::tessera::CpuTag, kind, K) {                                 \
    ::tessera::launch::device_of(#K TS_HOST_NAMES(K));                                \
    ::tessera::launch::cpu_for_each(ts_count, [](ts_size ts_i, const auto&... ts_a) { \
      K##_item(ts_i, ts_a...);                                                        \
    } TS_CPU_ARGS(K));                                                                \
  }                                                                                   \
  TS_INSTANTIATE_LAUNCHER(::tessera::CpuTag, kind, K)
#define TS_CPU_each_one(K, kind, VARIANTS) TS_CPU_each(K, kind, VARIANTS)
#define TS_CPU_cells(K, kind, VARIANTS)                                                     \
  template <class ts_value>                                                                 \
  TS_LAUNCHER_SIGNATURE(::tessera::CpuTag, cells, K) {                                      \
    ::tessera::launch::device_of(#K TS_HOST_NAMES(K));                                      \
    ::tessera::launch::with_variant(VARIANTS{}, #K, ts_cells.variant, [&](auto ts_v) {      \
      ::tessera::launch::cpu_for_cells(                                                     \
          ts_cells, [](long ts_i, long ts_j, long ts_k, const auto&... ts_a) {              \
            K##_cell(::ts_variant_tag<decltype(ts_v)::value>{}, ts_i, ts_j, ts_k, ts_a...); \
          } TS_CPU_ARGS(K));                                                                \
    });                                                                                     \
  }                                                                                         \
  TS_INSTANTIATE_LAUNCHER(::tessera::CpuTag, cells, K)
#define TS_CPU_group_xy(K, kind, VARIANTS)
#define TS_CPU_group(K, kind, VARIANTS)
#define TS_CPU_group_dynamic(K, kind, VARIANTS)
#define TS_CPU_group_sized(K, kind, VARIANTS)
#define TS_CPU_group_sized_xy(K, kind, VARIANTS)
