// Probe: DCGS2's two-output combine (krylov_point.h ts_kry_combine2_at):
// y = a w + sum_{k<K} c_k v_k and, in place, v_{K-1} = a2 v_{K-1} + sum_{k<K-1}
// c2_k v_k, complex single, n = 1.28 M. Variants of where the coefficients
// come from, how many elements a thread takes and how far the loop unrolls.
// Build: nvcc -O3 -arch=sm_90 -o combine_anatomy combine_anatomy.cu
#include "probe.cuh"

constexpr int KMAX = 128;

// SMEM: coefficients staged in shared memory; E elements per thread (block
// tile E * blockDim); U: unroll of the basis loop
template <int SMEM, int E, int U, int REV = 0>
__global__ void combine(size_t n, int k, const float* __restrict__ coef,
                        const float* __restrict__ coef2, const float2* w, float2* v, size_t ld,
                        float2* y) {
  __shared__ float2 sc[KMAX + 1], sc2[KMAX + 1];
  if (SMEM) {
    for (int q = threadIdx.x; q <= k; q += blockDim.x) {
      sc[q] = make_float2(coef[2 * q], coef[2 * q + 1]);
      sc2[q] = make_float2(coef2[2 * q], coef2[2 * q + 1]);
    }
    __syncthreads();
  }
  auto c1 = [&](int q) { return SMEM ? sc[q] : make_float2(coef[2 * q], coef[2 * q + 1]); };
  auto c2 = [&](int q) { return SMEM ? sc2[q] : make_float2(coef2[2 * q], coef2[2 * q + 1]); };
  const size_t b = REV ? gridDim.x - 1 - blockIdx.x : blockIdx.x;  // REV: last tile first
  const size_t i0 = b * blockDim.x * E + threadIdx.x;
  float ar[E], ai[E], br[E], bi[E];
  const float2 a = c1(0), a2 = c2(0);
  float2* vj = v + size_t(k - 1) * ld;
#pragma unroll
  for (int e = 0; e < E; ++e) {
    const size_t i = i0 + size_t(e) * blockDim.x;
    ar[e] = ai[e] = br[e] = bi[e] = 0;
    if (i < n) {
      const float2 x = w[i], x2 = vj[i];
      ar[e] = a.x * x.x - a.y * x.y;
      ai[e] = a.x * x.y + a.y * x.x;
      br[e] = a2.x * x2.x - a2.y * x2.y;
      bi[e] = a2.x * x2.y + a2.y * x2.x;
    }
  }
#pragma unroll U
  for (int kk = 0; kk < k; ++kk) {
    const float2 c = c1(1 + kk), d = c2(1 + kk);
#pragma unroll
    for (int e = 0; e < E; ++e) {
      const size_t i = i0 + size_t(e) * blockDim.x;
      if (i < n) {
        const float2 vv = v[size_t(kk) * ld + i];
        ar[e] += c.x * vv.x - c.y * vv.y;
        ai[e] += c.x * vv.y + c.y * vv.x;
        if (kk < k - 1) {
          br[e] += d.x * vv.x - d.y * vv.y;
          bi[e] += d.x * vv.y + d.y * vv.x;
        }
      }
    }
  }
#pragma unroll
  for (int e = 0; e < E; ++e) {
    const size_t i = i0 + size_t(e) * blockDim.x;
    if (i < n) {
      y[i] = make_float2(ar[e], ai[e]);
      vj[i] = make_float2(br[e], bi[e]);
    }
  }
}

// tessera's dots pattern: block (vector kk = b % k, 4096-element chunk c = b / k)
__global__ void __launch_bounds__(256)
    dots(size_t n, size_t k, const float2* __restrict__ v, size_t ld, const float2* __restrict__ w,
         float* partials) {
  __shared__ float s[2 * 256];
  const size_t kk = blockIdx.x % k, c = blockIdx.x / k;
  const unsigned t = threadIdx.x;
  float a0 = 0, a1 = 0;
#pragma unroll 1
  for (int p0 = 0; p0 < 16; p0 += 4) {
    float2 vv[4], ww[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const size_t i = c * 4096 + size_t(p0 + q) * 256 + t;
      vv[q] = i < n ? v[kk * ld + i] : make_float2(0, 0);
      ww[q] = i < n ? w[i] : make_float2(0, 0);
    }
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      a0 += vv[q].x * ww[q].x + vv[q].y * ww[q].y;
      a1 += vv[q].x * ww[q].y - vv[q].y * ww[q].x;
    }
  }
  s[t] = a0;
  s[256 + t] = a1;
  __syncthreads();
  for (unsigned h = 128; h > 0; h >>= 1) {
    if (t < h) s[t] += s[t + h], s[256 + t] += s[256 + t + h];
    __syncthreads();
  }
  if (t == 0) partials[2 * blockIdx.x] = s[0], partials[2 * blockIdx.x + 1] = s[256];
}

int main() {
  const size_t n = 1280000, ld = n;
  const size_t kmax = 101;
  float2 *v, *w, *y, *flush;
  float *coef, *coef2;
  CK(cudaMalloc(&v, kmax * ld * sizeof(float2)));
  CK(cudaMalloc(&w, ld * sizeof(float2)));
  CK(cudaMalloc(&y, ld * sizeof(float2)));
  CK(cudaMalloc(&flush, size_t(256) << 20));
  CK(cudaMalloc(&coef, 2 * (KMAX + 1) * sizeof(float)));
  CK(cudaMalloc(&coef2, 2 * (KMAX + 1) * sizeof(float)));
  CK(cudaMemset(v, 0,
                kmax * ld * sizeof(float2)));  // zeros stay zeros: no overflow over repetitions
  CK(cudaMemset(w, 0, ld * sizeof(float2)));
  CK(cudaMemset(coef, 0x3c, 2 * (KMAX + 1) * sizeof(float)));
  CK(cudaMemset(coef2, 0x3c, 2 * (KMAX + 1) * sizeof(float)));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, n %zu\n", prop.name, n);
  const size_t half = kmax * ld / 2;
  const double copy_ms =
      median_ms([&] { CK(cudaMemcpyAsync(v + half, v, half * 8, cudaMemcpyDeviceToDevice)); });
  const double copy_tbs = 2.0 * half * 8 / copy_ms / 1e9;
  std::printf("copy %.2f TB/s\n", copy_tbs);
  std::printf("%-36s %5s %9s %7s %7s\n", "variant", "k", "us", "TB/s", "x copy");
  const double flush_ms = median_ms([&] { CK(cudaMemsetAsync(flush, 0, size_t(256) << 20)); });
  for (int k : {21, 51, 100}) {
    const double bytes =
        double(k + 1 + 2) * n * 8;  // k basis vectors + w read, y and v_{k-1} written
    auto run = [&](const char* name, auto kern, int block, int e) {
      const size_t tile = size_t(block) * e;
      const double ms = median_ms([&] {
        CK(cudaMemsetAsync(flush, 0, size_t(256) << 20));
        kern<<<unsigned((n + tile - 1) / tile), block>>>(n, k, coef, coef2, w, v, ld, y);
      });
      const double kms = ms - flush_ms;
      std::printf("%-36s %5d %9.1f %7.2f %7.3f\n", name, k, kms * 1e3, bytes / kms / 1e9,
                  bytes / kms / 1e9 / copy_tbs);
    };
    run("global coef, E1, U4 (tessera)", combine<0, 1, 4>, 256, 1);
    run("smem coef, E1, U4", combine<1, 1, 4>, 256, 1);
    run("smem coef, E1, U8", combine<1, 1, 8>, 256, 1);
    run("smem coef, E2, U4", combine<1, 2, 4>, 256, 2);
    run("smem coef, E2, U8", combine<1, 2, 8>, 256, 2);
    run("smem coef, E4, U4", combine<1, 4, 4>, 256, 4);
    run("global coef, E2, U4", combine<0, 2, 4>, 256, 2);
    run("global coef, E2, U8", combine<0, 2, 8>, 256, 2);
    run("global coef, E1, U8", combine<0, 1, 8>, 256, 1);
    run("global coef, E2, U16", combine<0, 2, 16>, 256, 2);
    run("smem coef, E2, U4, block 512", combine<1, 2, 4>, 512, 2);
    // dots then combine over the same k vectors: does the combine gain from
    // starting on the chunks the dots left in L2 (REV)?
    const size_t nch = (n + 4095) / 4096;
    const double pair_bytes = bytes + double(k + 1) * n * 8;
    auto pair = [&](const char* name, auto kern) {
      const double ms = median_ms([&] {
        CK(cudaMemsetAsync(flush, 0, size_t(256) << 20));
        dots<<<unsigned(nch * k), 256>>>(n, size_t(k), v, ld, w, (float*)flush);
        kern<<<unsigned((n + 511) / 512), 256>>>(n, k, coef, coef2, w, v, ld, y);
      });
      const double kms = ms - flush_ms;
      std::printf("%-36s %5d %9.1f %7.2f %7.3f\n", name, k, kms * 1e3, pair_bytes / kms / 1e9,
                  pair_bytes / kms / 1e9 / copy_tbs);
    };
    pair("pair dots + combine E2 U8", combine<1, 2, 8, 0>);
    pair("pair dots + combine E2 U8 reversed", combine<1, 2, 8, 1>);
    pair("pair dots + combine global E2 U8 reversed", combine<0, 2, 8, 1>);
  }
  return 0;
}
