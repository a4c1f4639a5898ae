// Probe: how fast can a read-only streaming kernel go against the device copy
// on this GPU? (Sets the ceiling for the Krylov dots, which only read.)
// Build: nvcc -O3 -arch=sm_90 -o read_ceiling read_ceiling.cu ; run: ./read_ceiling
// Prints one line per variant: median time of 30 runs and TB/s, and the ratio
// to cudaMemcpy device-to-device (read + write bytes) measured in the same run.
#include "probe.cuh"

// canonical-order chunk: 256 threads x PER elements of type V (float2: 8-byte
// loads, float4: 16-byte), thread t takes c*chunk + p*256 + t
__device__ void add(float2 v, float& s, float& u) { s += v.x, u += v.y; }
__device__ void add(float4 v, float& s, float& u) { s += v.x + v.z, u += v.y + v.w; }
template <class V, int PER, int BATCH>
__global__ void __launch_bounds__(256) sum_chunk(const V* __restrict__ a, float* out) {
  const size_t base = (size_t)blockIdx.x * 256 * PER + threadIdx.x;
  float s = 0, u = 0;
  for (int p0 = 0; p0 < PER; p0 += BATCH) {
    V v[BATCH];
#pragma unroll
    for (int q = 0; q < BATCH; ++q) v[q] = a[base + (size_t)(p0 + q) * 256];
#pragma unroll
    for (int q = 0; q < BATCH; ++q) add(v[q], s, u);
  }
  if (s + u == 1.2345f) out[blockIdx.x] = s;  // keep the loads
}
// 16-byte loads, then a warp shuffle back to the canonical 8-byte order:
// lanes 0-15 load pairs of row p, lanes 16-31 pairs of row p+1
template <int PER>
__global__ void __launch_bounds__(256) sum_f4_shuffled(const float2* __restrict__ a, float* out) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const size_t chunk = (size_t)blockIdx.x * 256 * PER;
  float s = 0, u = 0;
#pragma unroll
  for (int p = 0; p < PER; p += 2) {
    const int row = p + (lane >> 4);
    const float4 v = *reinterpret_cast<const float4*>(a + chunk + (size_t)row * 256 + warp * 32 +
                                                      2 * (lane & 15));
    // element l of row p is in lane l/2 (half l%2); of row p+1 in lane 16 + l/2
    const int src0 = lane >> 1, src1 = 16 + (lane >> 1);
    const float ax = __shfl_sync(~0u, v.x, src0), ay = __shfl_sync(~0u, v.y, src0);
    const float az = __shfl_sync(~0u, v.z, src0), aw = __shfl_sync(~0u, v.w, src0);
    const float bx = __shfl_sync(~0u, v.x, src1), by = __shfl_sync(~0u, v.y, src1);
    const float bz = __shfl_sync(~0u, v.z, src1), bw = __shfl_sync(~0u, v.w, src1);
    const bool odd = lane & 1;
    s += odd ? az : ax;
    u += odd ? aw : ay;
    s += odd ? bz : bx;
    u += odd ? bw : by;
  }
  if (s + u == 1.2345f) out[blockIdx.x] = s;
}
__global__ void copy_f4(const float4* __restrict__ a, float4* __restrict__ b, size_t n4) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4;
       i += (size_t)gridDim.x * blockDim.x)
    b[i] = a[i];
}

int main() {
  const size_t bytes = size_t(2) << 30;  // 2 GiB, 40x the L2
  char *a, *b;
  float* out;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMalloc(&out, 1 << 24));
  CK(cudaMemset(a, 1, bytes));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount,
              prop.l2CacheSize >> 20);
  const double copy_ms =
      median_ms([&] { CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); });
  const double copy_tbs = 2.0 * bytes / copy_ms / 1e9;
  std::printf("%-28s %8.3f ms %6.2f TB/s %5.3fx copy\n", "cudaMemcpy D2D (r+w)", copy_ms, copy_tbs,
              1.0);
  auto report = [&](const char* name, double ms, double moved) {
    const double tbs = moved / ms / 1e9;
    std::printf("%-28s %8.3f ms %6.2f TB/s %5.3fx copy\n", name, ms, tbs, tbs / copy_tbs);
  };
  const size_t n4 = bytes / 16;
  report("copy kernel float4",
         median_ms([&] { copy_f4<<<132 * 8, 256>>>((float4*)a, (float4*)b, n4); }), 2.0 * bytes);
  const size_t n2 = bytes / 8;
  report("read f2 chunk16 batch4",
         median_ms([&] { sum_chunk<float2, 16, 4><<<n2 / 4096, 256>>>((float2*)a, out); }), bytes);
  report("read f2 chunk16 batch8",
         median_ms([&] { sum_chunk<float2, 16, 8><<<n2 / 4096, 256>>>((float2*)a, out); }), bytes);
  report("read f2 chunk16 batch16",
         median_ms([&] { sum_chunk<float2, 16, 16><<<n2 / 4096, 256>>>((float2*)a, out); }), bytes);
  report("read f4 chunk8 batch4",
         median_ms([&] { sum_chunk<float4, 8, 4><<<n4 / 2048, 256>>>((float4*)a, out); }), bytes);
  report("read f4 chunk8 batch8",
         median_ms([&] { sum_chunk<float4, 8, 8><<<n4 / 2048, 256>>>((float4*)a, out); }), bytes);
  report("read f4 chunk16 batch8",
         median_ms([&] { sum_chunk<float4, 16, 8><<<n4 / 4096, 256>>>((float4*)a, out); }), bytes);
  report("read f4->f2 shuffled chunk16",
         median_ms([&] { sum_f4_shuffled<16><<<n2 / 4096, 256>>>((float2*)a, out); }), bytes);
  return 0;
}
