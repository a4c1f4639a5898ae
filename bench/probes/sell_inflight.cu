// Is tessera's SELL SpMV short of memory-level parallelism? At 10 M nonzeros
// in FP64 on an H100 its `sell` kernel (one thread per row of SELL-32,
// ts_spmv_gather in src/sparse/kernels/spmv_point.h) reaches about 80% of the
// copy bandwidth, cuSPARSE's SELL about 95% (docs/sparse.md). The gather
// issues 4 entries' loads before their products and pays two dependent
// latencies per group (col, then x[col]). This times, on the same SELL-32
// matrices in FP64 and FP32: the gather as tessera runs it (slice height and
// stride read at run time: a 64-bit division per thread, and nvcc leaves the
// group loop rolled); the same with C = 32 known at compile time (v4, as all
// the variants below); 8 entries per group (v8); a software pipeline (the
// next group's col and val loaded before this group's x is used); v4 with
// cache hints (x by ld.global.nc, val and col by ld.global.cs, evict-first);
// two rows per thread (row l of slices 2q and 2q+1: two independent chains,
// half the threads). Under __launch_bounds__(256) alone, as tessera's, ptxas
// keeps most of these at 32 registers (full occupancy) by interleaving a
// group's loads with its products, whatever the source's grouping; so the
// variants also run under __launch_bounds__(256, 4) (up to 64 registers),
// v4 under (256, 2); the kernels table gives each one's registers. Every
// variant adds a row's terms in the same order: y must equal the first's bit
// for bit (and the first's the host's). Against, in the same run, a kernel
// streaming the matrix's bytes and writing y's, and cudaMemcpy device to device.
// Build: nvcc -O3 -arch=sm_90 -std=c++17 -o sell_inflight sell_inflight.cu
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "probe.cuh"

constexpr int kC = 32;  // SELL slice height, tessera's default

// acc + a*x with the product rounded, as tessera (built with contraction
// off); the intrinsics keep it so whatever nvcc's --fmad says.
__device__ __forceinline__ double madd(double acc, double a, double x) {
  return __dadd_rn(acc, __dmul_rn(a, x));
}
__device__ __forceinline__ float madd(float acc, float a, float x) {
  return __fadd_rn(acc, __fmul_rn(a, x));
}

// Load paths. H false: through const __restrict__ pointers, as tessera's
// kernels (nvcc already takes the read-only path). H true: val and col read
// once (ld.global.cs, evict-first), x by ld.global.nc (reused across rows).
template <bool H, class U>
__device__ U once(const U* p) {
  return H ? __ldcs(p) : *p;
}
template <bool H, class U>
__device__ U reused(const U* p) {
  return H ? __ldg(p) : *p;
}

// ts_spmv_gather: entries p, p+step, ... < end, a group's four val and x[col]
// loads before its four products, the additions in entry order.
template <bool H, class T>
__device__ T gather4(T acc, const int* __restrict__ col, const T* __restrict__ val,
                     const T* __restrict__ x, long p, long end, long step) {
  for (; p + 3 * step < end; p += 4 * step) {
    const T a0 = once<H>(val + p), a1 = once<H>(val + p + step), a2 = once<H>(val + p + 2 * step),
            a3 = once<H>(val + p + 3 * step);
    const T x0 = reused<H>(x + once<H>(col + p)), x1 = reused<H>(x + once<H>(col + p + step)),
            x2 = reused<H>(x + once<H>(col + p + 2 * step)),
            x3 = reused<H>(x + once<H>(col + p + 3 * step));
    acc = madd(acc, a0, x0);
    acc = madd(acc, a1, x1);
    acc = madd(acc, a2, x2);
    acc = madd(acc, a3, x3);
  }
  for (; p < end; p += step) acc = madd(acc, once<H>(val + p), reused<H>(x + once<H>(col + p)));
  return acc;
}

// Groups of 8; the rest (up to 7 entries) as v4 does it.
template <class T>
__device__ T gather8(const int* __restrict__ col, const T* __restrict__ val,
                     const T* __restrict__ x, long p, long end) {
  T acc = 0;
  for (; p + 7 * kC < end; p += 8 * kC) {
    T a[8], v[8];
    int c[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) a[k] = val[p + k * kC], c[k] = col[p + k * kC];
#pragma unroll
    for (int k = 0; k < 8; ++k) v[k] = x[c[k]];
#pragma unroll
    for (int k = 0; k < 8; ++k) acc = madd(acc, a[k], v[k]);
  }
  return gather4<false>(acc, col, val, x, p, end, kC);
}

// Groups of 4, the next group's val and col in flight while this group's x
// loads wait: one dependent latency per group instead of two.
template <class T>
__device__ T gather_pipelined(const int* __restrict__ col, const T* __restrict__ val,
                              const T* __restrict__ x, long p, long end) {
  T acc = 0;
  if (p + 3 * kC < end) {
    T a[4];
    int c[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) a[k] = val[p + k * kC], c[k] = col[p + k * kC];
    for (;;) {
      T v[4], an[4];
      int cn[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) v[k] = x[c[k]];
      p += 4 * kC;
      const bool more = p + 3 * kC < end;  // the same for every row of a slice
      if (more) {
#pragma unroll
        for (int k = 0; k < 4; ++k) an[k] = val[p + k * kC], cn[k] = col[p + k * kC];
      }
#pragma unroll
      for (int k = 0; k < 4; ++k) acc = madd(acc, a[k], v[k]);
      if (!more) break;
#pragma unroll
      for (int k = 0; k < 4; ++k) a[k] = an[k], c[k] = cn[k];
    }
  }
  for (; p < end; p += kC) acc = madd(acc, val[p], x[col[p]]);
  return acc;
}

// One signature for all (slice: the slice height, read at run time by
// tessera's form only); one thread per row unless said otherwise. B: the
// minimum blocks per SM of __launch_bounds__, 0 for none (as tessera's).
#define SELL_ARGS                                                               \
  int rows, int slice, const int *__restrict__ sp, const int *__restrict__ col, \
      const T *__restrict__ val, const T *__restrict__ x, T *__restrict__ y

template <class T, bool H, bool kRuntimeC, int B>
__global__ void __launch_bounds__(256, B) sell_v4(SELL_ARGS) {
  const long r = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const long C = kRuntimeC ? slice : kC, s = r / C;
  y[r] = gather4<H>(T(0), col, val, x, sp[s] + r % C, sp[s + 1], C);
}

template <class T, int B>
__global__ void __launch_bounds__(256, B) sell_v8(SELL_ARGS) {
  const long r = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < rows) y[r] = gather8(col, val, x, sp[r / kC] + r % kC, sp[r / kC + 1]);
}

template <class T, int B>
__global__ void __launch_bounds__(256, B) sell_pipelined(SELL_ARGS) {
  const long r = long(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < rows) y[r] = gather_pipelined(col, val, x, sp[r / kC] + r % kC, sp[r / kC + 1]);
}

// Lane l of warp q takes row l of slices 2q and 2q+1 (rows 64q + l and
// 64q + 32 + l) on the same SELL-32 storage: the two rows' groups of 4
// interleaved while both have one, then each row's rest as v4.
template <class T, int B>
__global__ void __launch_bounds__(256, B) sell_pair(SELL_ARGS) {
  const long t = long(blockIdx.x) * blockDim.x + threadIdx.x, lane = t % kC, s = t / kC * 2;
  const long r = s * kC + lane;
  if (r >= rows) return;
  long p0 = sp[s] + lane, e0 = sp[s + 1];
  if (r + kC >= rows) {  // no partner row in the last slice
    y[r] = gather4<false>(T(0), col, val, x, p0, e0, kC);
    return;
  }
  long p1 = sp[s + 1] + lane, e1 = sp[s + 2];
  T acc0 = 0, acc1 = 0;
  for (; p0 + 3 * kC < e0 && p1 + 3 * kC < e1; p0 += 4 * kC, p1 += 4 * kC) {
    T a[8], v[8];
    int c[8];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      a[k] = val[p0 + k * kC], c[k] = col[p0 + k * kC];
      a[4 + k] = val[p1 + k * kC], c[4 + k] = col[p1 + k * kC];
    }
#pragma unroll
    for (int k = 0; k < 8; ++k) v[k] = x[c[k]];
#pragma unroll
    for (int k = 0; k < 4; ++k)
      acc0 = madd(acc0, a[k], v[k]), acc1 = madd(acc1, a[4 + k], v[4 + k]);
  }
  y[r] = gather4<false>(acc0, col, val, x, p0, e0, kC);
  y[r + kC] = gather4<false>(acc1, col, val, x, p1, e1, kC);
}

// The copy: reads n_in 16-byte words (the matrix's bytes), four in flight per
// thread, and writes n_out words (y's bytes) that depend on them, so that no
// load is dropped.
__device__ unsigned fold(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }
__global__ void __launch_bounds__(256)
    stream_copy(const uint4* __restrict__ in, long n_in, unsigned* __restrict__ out, long n_out) {
  const long stride = long(gridDim.x) * blockDim.x, t = long(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned acc = 0;
  long i = t;
  for (; i + 3 * stride < n_in; i += 4 * stride)
    acc ^= fold(in[i]) ^ fold(in[i + stride]) ^ fold(in[i + 2 * stride]) ^ fold(in[i + 3 * stride]);
  for (; i < n_in; i += stride) acc ^= fold(in[i]);
  for (long j = t; j < n_out; j += stride) out[j] = acc ^ unsigned(j);
}

// ---- host: SELL-32 matrices, rows in natural order, no sorting ----
uint32_t mix(uint32_t h) {
  h ^= h >> 16, h *= 0x7feb352du, h ^= h >> 15, h *= 0x846ca68bu, h ^= h >> 16;
  return h;
}
// In [0.5, 1.5) on a 2^-23 grid: the same number in float and double.
double value(uint32_t a, uint32_t b) {
  return 0.5 + (mix(a * 0x9e3779b9u ^ mix(b)) >> 9) * 0x1p-23;
}

struct Sell {
  std::string name;
  int rows = 0, slices = 0;
  long nnz = 0;
  std::vector<int> sp, col;  // slot k of row q of slice s at sp[s] + k*kC + q
  std::vector<double> val;   // padding: value 0, column min(row, rows-1) as tessera's
};

// cols(r, c) sets c to row r's columns in increasing order (CSR order).
template <class Cols>
Sell build(const char* name, int rows, Cols cols) {
  Sell m;
  m.name = name, m.rows = rows, m.slices = (rows + kC - 1) / kC;
  m.sp.assign(m.slices + 1, 0);
  std::vector<int> c;
  for (int s = 0; s < m.slices; ++s) {
    std::size_t width = 0;
    for (int r = s * kC; r < std::min(rows, (s + 1) * kC); ++r)
      cols(r, c), width = std::max(width, c.size());
    m.sp[s + 1] = m.sp[s] + int(width) * kC;
  }
  m.col.assign(m.sp.back(), 0);
  m.val.assign(m.sp.back(), 0.0);
  for (int s = 0; s < m.slices; ++s)
    for (int q = 0, r = s * kC; q < kC; ++q, ++r) {
      c.clear();
      if (r < rows) cols(r, c);
      m.nnz += long(c.size());
      for (int k = 0, at = m.sp[s] + q; at < m.sp[s + 1]; ++k, at += kC) {
        const bool real = k < int(c.size());
        m.col[at] = real ? c[k] : std::min(r, rows - 1);
        m.val[at] = real ? value(uint32_t(r), uint32_t(c[k])) : 0.0;
      }
    }
  return m;
}

std::vector<std::string> table, kernels;
bool failed = false;

template <class T>
void run(const Sell& m, const char* type, bool first_matrix) {
  const long stored = m.sp.back(), rows = m.rows;
  std::vector<T> hval(m.val.begin(), m.val.end()), hx(rows), ref(rows), hy(rows), y0(rows);
  for (long i = 0; i < rows; ++i) hx[i] = T(value(uint32_t(i), 0x5eedu));
  for (long r = 0; r < rows; ++r) {  // the host's sum, in storage order
    T acc = 0;
    for (long p = m.sp[r / kC] + r % kC; p < m.sp[r / kC + 1]; p += kC) {
      volatile T prod = hval[p] * hx[m.col[p]];  // rounded on any host: no contraction
      acc = acc + prod;
    }
    ref[r] = acc;
  }
  int *sp, *col;
  T *val, *x, *y;
  CK(cudaMalloc(&sp, m.sp.size() * sizeof(int)));
  CK(cudaMalloc(&col, stored * sizeof(int)));
  CK(cudaMalloc(&val, stored * sizeof(T)));
  CK(cudaMalloc(&x, rows * sizeof(T)));
  CK(cudaMalloc(&y, rows * sizeof(T)));
  CK(cudaMemcpy(sp, m.sp.data(), m.sp.size() * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(col, m.col.data(), stored * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(val, hval.data(), stored * sizeof(T), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(x, hx.data(), rows * sizeof(T), cudaMemcpyHostToDevice));

  auto add_row = [&](const char* variant, double ms, double gbs, double copy_gbs,
                     const char* check) {
    char line[256];
    std::snprintf(line, sizeof line, "| %s | %s | %s | %.4f | %.0f | %.1f | %s |", m.name.c_str(),
                  type, variant, ms, gbs, 100.0 * gbs / copy_gbs, check);
    table.push_back(line);
  };

  // The copy: the bytes the SELL kernels stream (val and col as stored), and y's.
  const long n_in = (stored * long(sizeof(T) + 4) + 15) / 16, n_out = rows * long(sizeof(T)) / 4;
  uint4 *in, *dst;
  CK(cudaMalloc(&in, n_in * 16));
  CK(cudaMalloc(&dst, n_in * 16));
  CK(cudaMemset(in, 1, n_in * 16));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  const int copy_blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / 256);
  const double copy_ms = median_ms(
      [&] { stream_copy<<<copy_blocks, 256>>>(in, n_in, reinterpret_cast<unsigned*>(y), n_out); });
  const double copy_gbs = (16.0 * n_in + 4.0 * n_out) / copy_ms * 1e-6;
  add_row("copy kernel", copy_ms, copy_gbs, copy_gbs, "-");
  const double memcpy_ms =
      median_ms([&] { CK(cudaMemcpyAsync(dst, in, n_in * 16, cudaMemcpyDeviceToDevice)); });
  add_row("cudaMemcpy D2D (r+w)", memcpy_ms, 32.0 * n_in / memcpy_ms * 1e-6, copy_gbs, "-");
  CK(cudaFree(in));
  CK(cudaFree(dst));

  using Kernel = void (*)(int, int, const int*, const int*, const T*, const T*, T*);
  struct Variant {
    const char* name;
    Kernel k;
    long threads;
  };
  const long pairs = (m.slices + 1) / 2 * long(kC);
  const Variant variants[] = {
      {"v4, run-time C (tessera's)", sell_v4<T, false, true, 0>, rows},
      {"v4", sell_v4<T, false, false, 0>, rows},
      {"v8", sell_v8<T, 0>, rows},
      {"pipelined", sell_pipelined<T, 0>, rows},
      {"v4 ldg x, ldcs val/col", sell_v4<T, true, false, 0>, rows},
      {"two rows per thread", sell_pair<T, 0>, pairs},
      {"v4, bounds (256,4)", sell_v4<T, false, false, 4>, rows},
      {"v8, bounds (256,4)", sell_v8<T, 4>, rows},
      {"pipelined, bounds (256,4)", sell_pipelined<T, 4>, rows},
      {"v4 ldg x, ldcs val/col, bounds (256,4)", sell_v4<T, true, false, 4>, rows},
      {"two rows per thread, bounds (256,4)", sell_pair<T, 4>, pairs},
      {"v4, bounds (256,2)", sell_v4<T, false, false, 2>, rows},
  };
  const double bytes =
      stored * double(sizeof(T) + 4) + rows * 2.0 * sizeof(T) + (m.slices + 1) * 4.0;
  for (const Variant& v : variants) {
    if (first_matrix) {
      cudaFuncAttributes a;
      int blocks;
      CK(cudaFuncGetAttributes(&a, v.k));
      CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, v.k, 256, 0));
      kernels.push_back("| " + std::string(v.name) + " | " + type + " | " +
                        std::to_string(a.numRegs) + " | " + std::to_string(a.localSizeBytes) +
                        " | " + std::to_string(blocks) + " |");
    }
    CK(cudaMemset(y, 0xff, rows * sizeof(T)));  // NaN: a row left unwritten cannot pass
    const double ms = median_ms(
        [&] { v.k<<<unsigned((v.threads + 255) / 256), 256>>>(m.rows, kC, sp, col, val, x, y); });
    CK(cudaMemcpy(hy.data(), y, rows * sizeof(T), cudaMemcpyDeviceToHost));
    // tessera's form (the first) against the host's sum, the others against it
    const bool first = &v == variants;
    if (first) y0 = hy;
    const bool pass = std::memcmp(hy.data(), (first ? ref : y0).data(), rows * sizeof(T)) == 0;
    failed |= !pass;
    add_row(v.name, ms, bytes / ms * 1e-6, copy_gbs,
            pass ? (first ? "PASS (= host)" : "PASS") : "FAIL");
  }
  for (void* q : {(void*)sp, (void*)col, (void*)val, (void*)x, (void*)y}) CK(cudaFree(q));
}

int main() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("%s, %d SMs, L2 %d MB\n\n", p.name, p.multiProcessorCount, p.l2CacheSize >> 20);
  const int g3 = 72, nb = 667000, g2 = 1415;
  const Sell matrices[] = {
      build("27-point 72^3", g3 * g3 * g3,
            [&](int r, std::vector<int>& c) {
              c.clear();
              const int i = r % g3, j = r / g3 % g3, k = r / (g3 * g3);
              for (int dk = -1; dk <= 1; ++dk)
                for (int dj = -1; dj <= 1; ++dj)
                  for (int di = -1; di <= 1; ++di)
                    if (unsigned(i + di) < unsigned(g3) && unsigned(j + dj) < unsigned(g3) &&
                        unsigned(k + dk) < unsigned(g3))
                      c.push_back(r + di + g3 * (dj + g3 * dk));
            }),
      build("banded, width 15", nb,
            [&](int r, std::vector<int>& c) {
              c.clear();
              for (int j = std::max(0, r - 7); j <= std::min(nb - 1, r + 7); ++j) c.push_back(j);
            }),
      build("2D 5-point 1415^2", g2 * g2,
            [&](int r, std::vector<int>& c) {
              c.clear();
              const int i = r % g2, j = r / g2;
              if (j > 0) c.push_back(r - g2);
              if (i > 0) c.push_back(r - 1);
              c.push_back(r);
              if (i < g2 - 1) c.push_back(r + 1);
              if (j < g2 - 1) c.push_back(r + g2);
            }),
  };
  for (const Sell& m : matrices)
    std::printf("%s: %d rows, %ld nonzeros, %d stored in SELL-32, %d slices\n", m.name.c_str(),
                m.rows, m.nnz, m.sp.back(), m.slices);
  for (const Sell& m : matrices) {
    run<double>(m, "FP64", &m == matrices);
    run<float>(m, "FP32", &m == matrices);
  }
  std::printf(
      "\n| kernel | type | registers | local bytes | blocks of 256 per SM |\n"
      "|---|---|---:|---:|---:|\n");
  for (const std::string& row : kernels) std::printf("%s\n", row.c_str());
  std::printf(
      "\nGB/s under stored*(sizeof(T)+4) + rows*2*sizeof(T) + (slices+1)*4 bytes; the copy "
      "kernel reads stored*(sizeof(T)+4) bytes and writes rows*sizeof(T)\n\n"
      "| matrix | type | variant | ms | GB/s | %% of copy | check |\n"
      "|---|---|---|---:|---:|---:|---|\n");
  for (const std::string& row : table) std::printf("%s\n", row.c_str());
  std::printf("\n%s\n", failed ? "FAIL: some variant's y differs" : "all variants PASS");
  return failed ? 1 : 0;
}
