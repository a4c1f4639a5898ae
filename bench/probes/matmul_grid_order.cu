// Does the naive matrix product care how its tiles are numbered? Issue 41's
// before/after (session 30, H100) found matmul_naive in double at 8192 1.24x
// slower on CUDA and OpenCL alike after its move onto the launcher, with the
// same PTX loop and 32 registers on both sides; the one change left is the
// grid: a 2D grid of 16 x 16 blocks (blockIdx.x a column tile) before, a 1D
// grid of 256-thread groups decoded as group % tiles, group / tiles after.
// This times the same loop under both numberings, and under a 1D grid that
// walks the tiles column-major, in float and double.
#include <cstdio>
#include <vector>

#include "probe.cuh"

constexpr int kTile = 16;

template <class T>
__device__ void product(int row, int col, int m, int k, int n, const T* __restrict__ A,
                        const T* __restrict__ B, T* __restrict__ C) {
  if (row >= m || col >= n) return;
  const T* a = A + std::size_t(row) * k;
  T acc = 0;
  for (int p = 0; p < k; ++p) acc = fma(a[p], B[std::size_t(p) * n + col], acc);
  C[std::size_t(row) * n + col] = acc;
}

template <class T>
__global__ void __launch_bounds__(256) grid2d(int m, int k, int n, const T* __restrict__ A,
                                              const T* __restrict__ B, T* __restrict__ C) {
  product(blockIdx.y * kTile + threadIdx.y, blockIdx.x * kTile + threadIdx.x, m, k, n, A, B, C);
}

// order 0: group % tiles is the column tile (tessera's numbering); 1: the row tile.
template <class T, int order>
__global__ void __launch_bounds__(256) grid1d(int m, int k, int n, const T* __restrict__ A,
                                              const T* __restrict__ B, T* __restrict__ C) {
  const int col_tiles = (n + kTile - 1) / kTile, row_tiles = (m + kTile - 1) / kTile;
  const int g = blockIdx.x;
  const int ct = order == 0 ? g % col_tiles : g / row_tiles;
  const int rt = order == 0 ? g / col_tiles : g % row_tiles;
  product(rt * kTile + int(threadIdx.x / kTile), ct * kTile + int(threadIdx.x % kTile), m, k, n, A,
          B, C);
}

template <class T>
void run(const char* type, int n) {
  const std::size_t count = std::size_t(n) * n;
  T *A, *B, *C;
  CK(cudaMalloc(&A, count * sizeof(T)));
  CK(cudaMalloc(&B, count * sizeof(T)));
  CK(cudaMalloc(&C, count * sizeof(T)));
  std::vector<T> h(count);
  for (std::size_t i = 0; i < count; ++i) h[i] = T((i * 2654435761u) % 1000) / T(1000);
  CK(cudaMemcpy(A, h.data(), count * sizeof(T), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(B, h.data(), count * sizeof(T), cudaMemcpyHostToDevice));
  const int tiles = (n + kTile - 1) / kTile, reps = n > 4096 ? 5 : 30;
  const double flop = 2.0 * n * double(n) * n;
  const double t2 = median_ms(
      [&] { grid2d<T><<<dim3(tiles, tiles), dim3(kTile, kTile)>>>(n, n, n, A, B, C); }, reps);
  const double t1 =
      median_ms([&] { grid1d<T, 0><<<tiles * tiles, 256>>>(n, n, n, A, B, C); }, reps);
  const double t1c =
      median_ms([&] { grid1d<T, 1><<<tiles * tiles, 256>>>(n, n, n, A, B, C); }, reps);
  std::printf("| %s | %d | %.3f | %.3f | %.3f | %.3f | %.0f |\n", type, n, t2, t1, t1c, t1 / t2,
              flop / t2 * 1e-6);
  CK(cudaFree(A));
  CK(cudaFree(B));
  CK(cudaFree(C));
}

int main() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf(
      "%s\n\n| type | n | 2D grid ms | 1D row-major ms | 1D column-major ms | 1D/2D | "
      "2D GFLOP/s |\n|---|---:|---:|---:|---:|---:|---:|\n",
      p.name);
  for (int n : {1024, 8192}) {
    run<float>("float", n);
    run<double>("double", n);
  }
}
