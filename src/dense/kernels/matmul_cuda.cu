// CUDA launchers of the matrix product C = A*B, row-major A (m x k), B (k x n),
// C (m x n). The arithmetic is matmul_point.h's ts_mm_mac; these kernels only
// move operands. They are the algorithms of matmul.cl with the same blocking
// and thread mapping, so the OpenCL/CUDA comparison measures the toolchains.
// Offsets are computed in size_t: m*k may exceed 2^31.
#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "dense/kernels/matmul_kernels.hpp"

namespace tessera::dense::kernels {

namespace {

using point::ts_mm_mac;

// naive: thread (x, y) computes C[y][x] from global memory; x runs along the
// rows of B and C, so neighbouring threads read neighbouring words.
template <class T>
__global__ void __launch_bounds__(kMatmulNaiveGroup * kMatmulNaiveGroup)
    matmul_naive_kernel(int m, int k, int n, const T* __restrict__ A, const T* __restrict__ B,
                        T* __restrict__ C) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  const T* a = A + std::size_t(row) * k;
  T acc = T(0);
  for (int p = 0; p < k; ++p) acc = ts_mm_mac(acc, a[p], B[std::size_t(p) * n + col]);
  C[std::size_t(row) * n + col] = acc;
}

// tiled (the lecture's): the block stages a TILE x TILE tile of A and of B in
// shared memory, so each global element is read once per tile instead of once
// per thread. Past the edges the tiles hold zeros.
template <class T, int TILE>
__global__ void __launch_bounds__(TILE * TILE)
    matmul_tiled_kernel(int m, int k, int n, const T* __restrict__ A, const T* __restrict__ B,
                        T* __restrict__ C) {
  __shared__ T As[TILE][TILE];
  __shared__ T Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int col = blockIdx.x * TILE + tx, row = blockIdx.y * TILE + ty;
  T acc = T(0);
  for (int p0 = 0; p0 < k; p0 += TILE) {
    As[ty][tx] = (row < m && p0 + tx < k) ? A[std::size_t(row) * k + p0 + tx] : T(0);
    Bs[ty][tx] = (p0 + ty < k && col < n) ? B[std::size_t(p0 + ty) * n + col] : T(0);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < TILE; ++p) acc = ts_mm_mac(acc, As[ty][p], Bs[p][tx]);
    __syncthreads();  // before the next tile overwrites this one
  }
  if (row < m && col < n) C[std::size_t(row) * n + col] = acc;
}

// register_blocked: see the constants in matmul_point.h and the description in
// matmul.cl. Pack<T> is 16 bytes, moved with one 128-bit access.
template <class T>
struct alignas(16) Pack {
  static constexpr int size = 16 / sizeof(T);
  T v[size];
};

constexpr int BM = TS_MM_BM, BN = TS_MM_BN, BK = TS_MM_BK, TM = TS_MM_TM, TN = TS_MM_TN;
constexpr int kThreads = TS_MM_THREADS;
constexpr int H = 4;  // rows (columns) per half of a thread's block
static_assert(TM == 2 * H && TN == 2 * H, "a thread's block is two halves of H rows/columns");
static_assert(kThreads == (BM / TM) * (BN / TN), "one thread per TM x TN block");

template <class T>
struct Blocking {
  static constexpr int P = Pack<T>::size;
  static constexpr int AP = BM + P;                    // padded row of the transposed A slice
  static constexpr int LA = BM * BK / (kThreads * P);  // A packs per thread per slice
  static constexpr int LB = BK * BN / (kThreads * P);  // B packs per thread per slice
  static_assert(LA >= 1 && LB >= 1 && H % P == 0, "blocking must divide into packs");
};

// The pack M[row][col .. col+P) of a rows x cols matrix, zeros outside.
// Vec: cols % P == 0, so a pack is wholly inside or outside and 16-byte aligned.
template <class T, bool Vec>
__device__ __forceinline__ Pack<T> load_pack(const T* __restrict__ M, int rows, int cols, int row,
                                             int col) {
  constexpr int P = Pack<T>::size;
  const T* src = M + std::size_t(row) * cols + col;
  Pack<T> p;
  if (Vec) {
    if (row < rows && col < cols) return *reinterpret_cast<const Pack<T>*>(src);
#pragma unroll
    for (int j = 0; j < P; ++j) p.v[j] = T(0);
  } else {
#pragma unroll
    for (int j = 0; j < P; ++j) p.v[j] = (row < rows && col + j < cols) ? src[j] : T(0);
  }
  return p;
}

template <class T, bool Vec>
__global__ void __launch_bounds__(kThreads, sizeof(T) == 4 ? 2 : 1)
    matmul_rb_kernel(int m, int k, int n, const T* __restrict__ A, const T* __restrict__ B,
                     T* __restrict__ C) {
  using Bl = Blocking<T>;
  constexpr int P = Bl::P, AP = Bl::AP, LA = Bl::LA, LB = Bl::LB;
  // Two buffers: slice t+1 is fetched into registers while slice t is used,
  // then stored into the other buffer, so one barrier per slice suffices.
  __shared__ __align__(16) T As[2][BK][AP];  // A slice transposed: As[p][row]
  __shared__ __align__(16) T Bs[2][BK][BN];
  const int tid = threadIdx.x;
  const int tx = tid % (BN / TN), ty = tid / (BN / TN);
  const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  const int slices = (k + BK - 1) / BK;

  T acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = T(0);
  Pack<T> ra[LA], rb[LB];

  auto fetch = [&](int p0) {
#pragma unroll
    for (int l = 0; l < LA; ++l) {
      const int e = tid + l * kThreads, r = e / (BK / P), c = (e % (BK / P)) * P;
      ra[l] = load_pack<T, Vec>(A, m, k, bm + r, p0 + c);
    }
#pragma unroll
    for (int l = 0; l < LB; ++l) {
      const int e = tid + l * kThreads, r = e / (BN / P), c = (e % (BN / P)) * P;
      rb[l] = load_pack<T, Vec>(B, k, n, p0 + r, bn + c);
    }
  };
  auto store = [&](int buf) {
#pragma unroll
    for (int l = 0; l < LA; ++l) {
      const int e = tid + l * kThreads, r = e / (BK / P), c = (e % (BK / P)) * P;
#pragma unroll
      for (int j = 0; j < P; ++j) As[buf][c + j][r] = ra[l].v[j];
    }
#pragma unroll
    for (int l = 0; l < LB; ++l) {
      const int e = tid + l * kThreads, r = e / (BN / P), c = (e % (BN / P)) * P;
      *reinterpret_cast<Pack<T>*>(&Bs[buf][r][c]) = rb[l];
    }
  };

  fetch(0);
  store(0);
  __syncthreads();
  for (int t = 0; t < slices; ++t) {
    const int cur = t & 1;
    if (t + 1 < slices) fetch((t + 1) * BK);
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      T a[TM], b[TN];
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int q = 0; q < H; q += P) {
          const Pack<T> va =
              *reinterpret_cast<const Pack<T>*>(&As[cur][kk][h * (BM / 2) + ty * H + q]);
          const Pack<T> vb =
              *reinterpret_cast<const Pack<T>*>(&Bs[cur][kk][h * (BN / 2) + tx * H + q]);
#pragma unroll
          for (int j = 0; j < P; ++j) {
            a[h * H + q + j] = va.v[j];
            b[h * H + q + j] = vb.v[j];
          }
        }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = ts_mm_mac(acc[i][j], a[i], b[j]);
    }
    // The other buffer was last read in slice t-1, before the barrier below it.
    if (t + 1 < slices) store(cur ^ 1);
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = bm + (i / H) * (BM / 2) + ty * H + i % H;
    if (row >= m) continue;
    T* crow = C + std::size_t(row) * n;
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
      for (int q = 0; q < H; q += P) {
        const int col = bn + h * (BN / 2) + tx * H + q;
        Pack<T> out;
#pragma unroll
        for (int j = 0; j < P; ++j) out.v[j] = acc[i][h * H + q + j];
        if (Vec) {
          if (col < n) *reinterpret_cast<Pack<T>*>(crow + col) = out;
        } else {
#pragma unroll
          for (int j = 0; j < P; ++j)
            if (col + j < n) crow[col + j] = out.v[j];
        }
      }
  }
}

unsigned blocks_for(int extent, int per_block) {
  return static_cast<unsigned>((extent + per_block - 1) / per_block);
}

}  // namespace

template <class T>
void matmul(CudaTag, Queue& q, MatmulVariant v, const Buffer<T>& A, const Buffer<T>& B,
            Buffer<T>& C, MatmulShape s) {
  if (v == MatmulVariant::vendor)
    throw Error("internal: dense::matmul vendor reached the CUDA kernels");
  auto& cq = cuda::queue_of(q);
  cuda::DeviceGuard guard(cq.ordinal());
  // Every variant has this signature: pick kernel and geometry, launch once.
  void (*kernel)(int, int, int, const T*, const T*, T*) = nullptr;
  dim3 grid, block;
  const char* name = nullptr;
  if (v == MatmulVariant::register_blocked) {
    // 16-byte accesses need every row of A, B and C to start on a pack.
    const bool vec = s.k % Pack<T>::size == 0 && s.n % Pack<T>::size == 0;
    kernel = vec ? matmul_rb_kernel<T, true> : matmul_rb_kernel<T, false>;
    name = vec ? "matmul_rb_vec" : "matmul_rb_any";
    grid = dim3(blocks_for(s.n, BN), blocks_for(s.m, BM));
    block = dim3(kThreads);
  } else {
    const bool naive = v == MatmulVariant::naive;
    const int g = naive ? kMatmulNaiveGroup : kMatmulTile;
    kernel = naive ? matmul_naive_kernel<T> : matmul_tiled_kernel<T, kMatmulTile>;
    name = naive ? "matmul_naive" : "matmul_tiled";
    grid = dim3(blocks_for(s.n, g), blocks_for(s.m, g));
    block = dim3(g, g);
  }
  if (grid.y > 65535u)
    throw Error(std::string("dense::matmul: ") + std::to_string(s.m) +
                " rows exceed the CUDA grid of " + name);
  kernel<<<grid, block, 0, cq.native()>>>(s.m, s.k, s.n, cuda::ptr<T>(A.handle()),
                                          cuda::ptr<T>(B.handle()), cuda::ptr<T>(C.handle()));
  cuda::check_launch(name);
}

#define TS_INSTANTIATE(T)                                                                     \
  template void matmul<T>(CudaTag, Queue&, MatmulVariant, const Buffer<T>&, const Buffer<T>&, \
                          Buffer<T>&, MatmulShape);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::dense::kernels
