// CPU (OpenMP) launchers of the matrix product. `naive` is the textbook loop
// (one dot product per element, B read down its columns); `tiled` and
// `register_blocked` are one cache-blocked loop nest whose micro-kernel keeps
// an MR x NR block of C in vector registers. Both follow matmul_point.h's order
// (one accumulator per C_ij, p ascending), so they agree bitwise with the GPUs.
#include <algorithm>

#include "core/launch/launch_cpu.hpp"
#include "dense/kernels/matmul_kernels.hpp"

// ts_mm_mac is a fused multiply-add. Compiled for a baseline x86-64 that is a
// call into libm per element; so every loop nest below is also compiled for
// AVX2+FMA and chosen at run time when the CPU has it (same bits either way:
// fma is correctly rounded in hardware and in libm).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TS_FMA_TARGET [[gnu::target("avx2,fma")]]
#define TS_CPU_HAS_FMA() (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
#else
#define TS_FMA_TARGET
#define TS_CPU_HAS_FMA() false
#endif

namespace tessera::dense::kernels {

namespace {

template <class T>
struct Operands {
  const T* A;
  const T* B;
  T* C;
  std::ptrdiff_t m, k, n;
};

// Register block of the micro-kernel: MR rows by two 32-byte vectors of columns
// (6 x 16 floats or 6 x 8 doubles: 12 AVX registers of accumulators).
constexpr std::ptrdiff_t MR = 6;
template <class T>
constexpr std::ptrdiff_t NR = 64 / sizeof(T);
// Cache blocks: a task owns MB x NB of C; the k range is walked in KC slices
// so the KC x NB panel of B stays in L2 while the task's rows stream past it.
constexpr std::ptrdiff_t MB = 16 * MR;
constexpr std::ptrdiff_t NB = 256;
constexpr std::ptrdiff_t KC = 256;

// Rows [i0, i1) of the naive product.
template <class T>
[[gnu::always_inline]] inline void naive_rows(const Operands<T>& g, std::ptrdiff_t i0,
                                              std::ptrdiff_t i1) {
  for (std::ptrdiff_t i = i0; i < i1; ++i)
    for (std::ptrdiff_t j = 0; j < g.n; ++j) {
      T acc = T(0);
      for (std::ptrdiff_t p = 0; p < g.k; ++p)
        acc = point::ts_mm_mac(acc, g.A[i * g.k + p], g.B[p * g.n + j]);
      g.C[i * g.n + j] = acc;
    }
}

// C[i0.., j0..] (mr x nr, at most MR x NR) continues its accumulation over
// p in [p0, p1): the partial sums wait in C between k slices, which keeps each
// element's single accumulator and ascending order. Full blocks have
// compile-time extents, so the j loop becomes two vector FMAs per row.
template <class T, bool Full>
[[gnu::always_inline]] inline void micro(const Operands<T>& g, std::ptrdiff_t i0, std::ptrdiff_t j0,
                                         std::ptrdiff_t mr, std::ptrdiff_t nr, std::ptrdiff_t p0,
                                         std::ptrdiff_t p1) {
  constexpr std::ptrdiff_t R = MR, S = NR<T>;
  const std::ptrdiff_t rows = Full ? R : mr, cols = Full ? S : nr;
  T acc[R][S];
  for (std::ptrdiff_t i = 0; i < rows; ++i)
#pragma omp simd
    for (std::ptrdiff_t j = 0; j < cols; ++j)
      acc[i][j] = p0 == 0 ? T(0) : g.C[(i0 + i) * g.n + j0 + j];
  for (std::ptrdiff_t p = p0; p < p1; ++p) {
    const T* brow = g.B + p * g.n + j0;
    for (std::ptrdiff_t i = 0; i < rows; ++i) {
      const T a = g.A[(i0 + i) * g.k + p];
#pragma omp simd
      for (std::ptrdiff_t j = 0; j < cols; ++j) acc[i][j] = point::ts_mm_mac(acc[i][j], a, brow[j]);
    }
  }
  for (std::ptrdiff_t i = 0; i < rows; ++i)
#pragma omp simd
    for (std::ptrdiff_t j = 0; j < cols; ++j) g.C[(i0 + i) * g.n + j0 + j] = acc[i][j];
}

// One MB x NB block of C, all of k.
template <class T>
[[gnu::always_inline]] inline void block(const Operands<T>& g, std::ptrdiff_t ib,
                                         std::ptrdiff_t jb) {
  const std::ptrdiff_t ie = std::min(ib + MB, g.m), je = std::min(jb + NB, g.n);
  for (std::ptrdiff_t p0 = 0; p0 < g.k; p0 += KC) {
    const std::ptrdiff_t p1 = std::min(p0 + KC, g.k);
    for (std::ptrdiff_t i0 = ib; i0 < ie; i0 += MR)
      for (std::ptrdiff_t j0 = jb; j0 < je; j0 += NR<T>) {
        const std::ptrdiff_t mr = std::min(MR, ie - i0), nr = std::min(NR<T>, je - j0);
        if (mr == MR && nr == NR<T>)
          micro<T, true>(g, i0, j0, mr, nr, p0, p1);
        else
          micro<T, false>(g, i0, j0, mr, nr, p0, p1);
      }
  }
}

// Each loop nest twice: for AVX2+FMA and for the baseline ISA.
#define TS_CPU_ISA_PAIR(NAME)                                                               \
  template <class T>                                                                        \
  TS_FMA_TARGET void NAME##_fma(const Operands<T>& g, std::ptrdiff_t a, std::ptrdiff_t b) { \
    NAME<T>(g, a, b);                                                                       \
  }                                                                                         \
  template <class T>                                                                        \
  void NAME##_base(const Operands<T>& g, std::ptrdiff_t a, std::ptrdiff_t b) {              \
    NAME<T>(g, a, b);                                                                       \
  }
TS_CPU_ISA_PAIR(naive_rows)
TS_CPU_ISA_PAIR(block)
#undef TS_CPU_ISA_PAIR

/// fma_fn where the CPU has AVX2+FMA (asked once), else base_fn.
template <class F>
F pick_isa(F fma_fn, F base_fn) {
  static const bool fma = TS_CPU_HAS_FMA();
  return fma ? fma_fn : base_fn;
}

template <class T>
Operands<T> operands(int m, int k, int n, const launch::In<T>& A, const launch::In<T>& B,
                     const launch::Out<T>& C) {
  return {launch::device_arg(A), launch::device_arg(B), launch::device_arg(C), m, k, n};
}

}  // namespace

// The CPU launchers of the four GPU kernels: naive is the textbook loop;
// tiled and register_blocked are the GPUs' ways of staging operands, which on
// a CPU its caches do; both run the one blocked loop nest.
template <class T>
void naive_product(int m, int k, int n, const launch::In<T>& A, const launch::In<T>& B,
                   const launch::Out<T>& C) {
  const Operands<T> g = operands(m, k, n, A, B, C);
  auto rows = pick_isa(naive_rows_fma<T>, naive_rows_base<T>);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < g.m; ++i) rows(g, i, i + 1);
}

template <class T>
void blocked_product(int m, int k, int n, const launch::In<T>& A, const launch::In<T>& B,
                     const launch::Out<T>& C) {
  const Operands<T> g = operands(m, k, n, A, B, C);
  auto blk = pick_isa(block_fma<T>, block_base<T>);
  const std::ptrdiff_t bm = (g.m + MB - 1) / MB, bn = (g.n + NB - 1) / NB;
#pragma omp parallel for schedule(dynamic)
  for (std::ptrdiff_t t = 0; t < bm * bn; ++t) blk(g, (t / bn) * MB, (t % bn) * NB);
}

#define TS_MATMUL_CPU(K, PRODUCT)           \
  template <class ts_value>                 \
  TS_LAUNCHER_SIGNATURE(CpuTag, group, K) { \
    PRODUCT<ts_value>(m, k, n, A, B, C);    \
  }                                         \
  TS_INSTANTIATE_LAUNCHER(CpuTag, group, K)
TS_MATMUL_CPU(matmul_naive, naive_product)
TS_MATMUL_CPU(matmul_tiled, blocked_product)
TS_MATMUL_CPU(matmul_rb_vec, blocked_product)
TS_MATMUL_CPU(matmul_rb_any, blocked_product)
#undef TS_MATMUL_CPU

}  // namespace tessera::dense::kernels
