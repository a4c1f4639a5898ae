// Probe: one red-black Gauss-Seidel sweep of the 3D 7-point Poisson problem
// (FP64, 512^3 points with a Dirichlet boundary layer), two kernels (one per
// colour), in two storage layouts:
//   natural: x and b as one n^3 array each; a colour's kernel touches every
//            sector of x and b (48 B per point and sweep, mg.md's accounting);
//   split:   the red and the black points of x and b in separate arrays
//            (n/2 per row); a colour reads its own b, the other colour's x,
//            and writes its own x: 24 B per point and sweep, model E's count.
// How fast is each against the copy? (mg's fused sweep: 24 B/pt at 58%.)
// Build: nvcc -O3 -arch=sm_90 -o rb_sweep_layout rb_sweep_layout.cu
#include "probe.cuh"

constexpr int N = 512;  // points per axis, boundary included
constexpr int H = N / 2;

// natural layout: thread per point of colour c in row (j, k) (compact index m)
__global__ void __launch_bounds__(256)
    sweep_natural(int c, double* __restrict__ x, const double* __restrict__ b) {
  const int m = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y, k = blockIdx.z;
  if (j == 0 || j == N - 1 || k == 0 || k == N - 1) return;
  const int i = 2 * m + ((c + j + k) & 1);
  if (i == 0 || i >= N - 1) return;
  const size_t p = (size_t(k) * N + j) * N + i;
  x[p] = (b[p] + x[p - 1] + x[p + 1] + x[p - N] + x[p + N] + x[p - size_t(N) * N] +
          x[p + size_t(N) * N]) /
         6.0;
}

// split layout: xc, bc the points of colour c, xo the other colour's x; row
// (j, k) holds H points of each colour; point m of colour c in that row is
// i = 2m + s, s = (c + j + k) & 1; its x-neighbours i-1, i+1 are the other
// colour's points m - 1 + s and m + s of the same row, its y and z neighbours
// the other colour's point m of rows j +- 1 and planes k +- 1.
__global__ void __launch_bounds__(256)
    sweep_split(int c, double* __restrict__ xc, const double* __restrict__ bc,
                const double* __restrict__ xo) {
  const int m = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y, k = blockIdx.z;
  if (j == 0 || j == N - 1 || k == 0 || k == N - 1 || m >= H) return;
  const int s = (c + j + k) & 1, i = 2 * m + s;
  if (i == 0 || i >= N - 1) return;
  const size_t row = (size_t(k) * N + j) * H, p = row + m;
  xc[p] = (bc[p] + xo[row + m - 1 + s] + xo[row + m + s] + xo[p - H] + xo[p + H] +
           xo[p - size_t(N) * H] + xo[p + size_t(N) * H]) /
          6.0;
}

int main() {
  const size_t pts = size_t(N) * N * N;
  double *x, *b, *xs[2], *bs[2];
  CK(cudaMalloc(&x, pts * 8));
  CK(cudaMalloc(&b, pts * 8));
  for (int c = 0; c < 2; ++c) {
    CK(cudaMalloc(&xs[c], pts / 2 * 8));
    CK(cudaMalloc(&bs[c], pts / 2 * 8));
  }
  CK(cudaMemset(x, 0, pts * 8));
  CK(cudaMemset(b, 0, pts * 8));
  for (int c = 0; c < 2; ++c) {
    CK(cudaMemset(xs[c], 0, pts / 2 * 8));
    CK(cudaMemset(bs[c], 0, pts / 2 * 8));
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  const double copy_ms =
      median_ms([&] { CK(cudaMemcpyAsync(b, x, pts * 8, cudaMemcpyDeviceToDevice)); });
  const double copy_tbs = 2.0 * pts * 8 / copy_ms / 1e9;
  std::printf("%s, %d^3 FP64, copy %.2f TB/s\n", prop.name, N, copy_tbs);
  const double inner = double(N - 2) * (N - 2) * (N - 2);
  auto report = [&](const char* name, double ms, double bpt) {
    const double tbs = inner * bpt / ms / 1e9;
    std::printf("%-44s %8.3f ms  %5.1f B/pt  %6.2f TB/s  %5.1f%% of copy\n", name, ms, bpt, tbs,
                100 * tbs / copy_tbs);
  };
  for (int block : {128, 256}) {
    const dim3 g((H + block - 1) / block, N, N);
    const double nat = median_ms([&] {
      sweep_natural<<<g, block>>>(0, x, b);
      sweep_natural<<<g, block>>>(1, x, b);
    });
    const double spl = median_ms([&] {
      sweep_split<<<g, block>>>(0, xs[0], bs[0], xs[1]);
      sweep_split<<<g, block>>>(1, xs[1], bs[1], xs[0]);
    });
    std::printf("block %d\n", block);
    report("natural layout, two colour kernels (48 B/pt)", nat, 48);
    report("split layout, two colour kernels (24 B/pt)", spl, 24);
  }
  return 0;
}
