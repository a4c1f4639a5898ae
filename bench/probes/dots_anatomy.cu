// Probe: where does the Krylov dots kernel (krylov_point.h ts_kry_dots_group,
// one 256-thread block per (basis vector, 4096-element chunk)) lose against a
// plain read of the same bytes? Complex single, n = 1.28 M (TRACE 10x40x80),
// k basis vectors. Variants add one feature at a time.
// Build: nvcc -O3 -arch=sm_90 -o dots_anatomy dots_anatomy.cu
#include "probe.cuh"

constexpr int T = 256, PER = 16, CH = T * PER, B = 4;

// W: 0 none, 2 = w and w2 (from L2). TAIL: 0 none, 1 smem tree, 2 smem to 32 + shuffles.
// ORDER 0: kk = b % k (chunk-major, as tessera), 1: kk = b / nch (vector-major)
template <int W, int TAIL, int ORDER, int MINB>
__global__ void __launch_bounds__(T, MINB)
    dots(size_t n, size_t nch, size_t k, const float2* __restrict__ v, size_t ld,
         const float2* __restrict__ w, const float2* __restrict__ w2, float* partials) {
  __shared__ float s[4 * T];
  const size_t kk = ORDER == 0 ? blockIdx.x % k : blockIdx.x / nch;
  const size_t c = ORDER == 0 ? blockIdx.x / k : blockIdx.x % nch;
  const unsigned t = threadIdx.x;
  const float2* vk = v + kk * ld;
  float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
#pragma unroll 1
  for (int p0 = 0; p0 < PER; p0 += B) {
    float2 vv[B], ww[B], xx[B];
#pragma unroll
    for (int q = 0; q < B; ++q) {
      const size_t i = c * CH + size_t(p0 + q) * T + t;
      vv[q] = vk[i];
      if (W) {
        ww[q] = w[i];
        xx[q] = w2[i];
      }
    }
#pragma unroll
    for (int q = 0; q < B; ++q) {
      if (W) {
        a0 += vv[q].x * ww[q].x + vv[q].y * ww[q].y;
        a1 += vv[q].x * ww[q].y - vv[q].y * ww[q].x;
        a2 += vv[q].x * xx[q].x + vv[q].y * xx[q].y;
        a3 += vv[q].x * xx[q].y - vv[q].y * xx[q].x;
      } else {
        a0 += vv[q].x;
        a1 += vv[q].y;
      }
    }
  }
  const size_t job = kk * nch + c;
  if (TAIL == 0) {
    if (a0 + a1 + a2 + a3 == 1.2345f) partials[job] = a0;
    return;
  }
  s[t] = a0;
  s[T + t] = a1;
  s[2 * T + t] = a2;
  s[3 * T + t] = a3;
  __syncthreads();
  for (unsigned h = T / 2; h >= (TAIL == 2 ? 32u : 1u); h >>= 1) {
    if (t < h)
      for (int q = 0; q < 4; ++q) s[q * T + t] += s[q * T + t + h];
    __syncthreads();
  }
  if (TAIL == 2 && t < 32) {
    float r[4];
    for (int q = 0; q < 4; ++q) r[q] = s[q * T + t];
    for (unsigned h = 16; h > 0; h >>= 1)
      for (int q = 0; q < 4; ++q) r[q] += __shfl_down_sync(~0u, r[q], h);
    if (t == 0)
      for (int q = 0; q < 4; ++q) s[q * T] = r[q];
  }
  if (t == 0) {
    partials[2 * job] = s[0];
    partials[2 * job + 1] = s[T];
    partials[2 * nch * k + 2 * job] = s[2 * T];
    partials[2 * nch * k + 2 * job + 1] = s[3 * T];
  }
}

int main() {
  const size_t n = 1280000, nch = (n + CH - 1) / CH, ld = nch * CH;  // whole chunks only here
  const size_t kmax = 101;
  float2 *v, *w, *w2, *flush;
  float* partials;
  CK(cudaMalloc(&v, kmax * ld * sizeof(float2)));
  CK(cudaMalloc(&w, ld * sizeof(float2)));
  CK(cudaMalloc(&w2, ld * sizeof(float2)));
  CK(cudaMalloc(&flush, size_t(256) << 20));
  CK(cudaMalloc(&partials, 4 * nch * kmax * sizeof(float)));
  CK(cudaMemset(v, 0x3c, kmax * ld * sizeof(float2)));
  CK(cudaMemset(w, 0x3c, ld * sizeof(float2)));
  CK(cudaMemset(w2, 0x3c, ld * sizeof(float2)));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, n %zu, chunks %zu\n", prop.name, n, nch);
  const size_t half = kmax * ld / 2;  // elements: copy one half of v onto the other
  const double copy_ms =
      median_ms([&] { CK(cudaMemcpyAsync(v + half, v, half * 8, cudaMemcpyDeviceToDevice)); });
  const double copy_tbs = 2.0 * half * 8 / copy_ms / 1e9;
  std::printf("copy %.2f TB/s\n", copy_tbs);
  std::printf("%-40s %5s %9s %7s %7s\n", "variant", "k", "us", "TB/s", "x copy");
  for (size_t k : {21, 51, 100}) {
    const double bytes = double(k + 2) * n * 8;  // v's k vectors + w + w2 once from DRAM
    auto run = [&](const char* name, auto kern) {
      // clear L2 of w, w2 between runs? no: tessera's w is fresh from the operator
      const double ms = median_ms([&] {
        CK(cudaMemsetAsync(flush, 0,
                           size_t(256) << 20));  // evict L2 (not timed separately; subtract below)
        kern<<<unsigned(nch * k), T>>>(n, nch, k, v, ld, w, w2, partials);
      });
      const double flush_ms = median_ms([&] { CK(cudaMemsetAsync(flush, 0, size_t(256) << 20)); });
      const double kms = ms - flush_ms;
      std::printf("%-40s %5zu %9.1f %7.2f %7.3f\n", name, k, kms * 1e3, bytes / kms / 1e9,
                  bytes / kms / 1e9 / copy_tbs);
    };
    run("v only, no tail", dots<0, 0, 0, 1>);
    run("v+w+w2, no tail", dots<2, 0, 0, 1>);
    run("v+w+w2, smem tree (tessera)", dots<2, 1, 0, 1>);
    run("v+w+w2, smem tree, minblocks 6", dots<2, 1, 0, 6>);
    run("v+w+w2, smem+shuffle tail", dots<2, 2, 0, 1>);
    run("v+w+w2, smem+shuffle tail, minb 6", dots<2, 2, 0, 6>);
    run("v+w+w2, tree, vector-major order", dots<2, 1, 1, 1>);
  }
  return 0;
}
