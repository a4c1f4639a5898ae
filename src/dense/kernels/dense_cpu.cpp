// CPU (OpenMP) launchers of the dense kernels. The canonical reduction follows
// portable.h's order exactly, chunk by chunk, so it matches the GPUs bitwise.
#include <omp.h>

#include <algorithm>
#include <array>

#include "backends/cpu/cpu_device.hpp"
#include "dense/kernels/dense_select.hpp"

namespace tessera::dense::kernels {

namespace {

template <class T>
const T* data_or_null(const Buffer<T>* b) {
  return b ? cpu::ptr<T>(b->handle()) : nullptr;
}

// One chunk in canonical order: THREADS strided accumulators, then the tree.
template <class T, class Load, class Comb>
T fold_chunk(std::size_t begin, std::size_t n, Load load, Comb comb) {
  std::array<T, TS_REDUCE_THREADS> s;
  for (std::size_t t = 0; t < TS_REDUCE_THREADS; ++t) {
    T acc = Comb::template identity<T>();
    for (std::size_t k = 0; k < TS_REDUCE_PER_THREAD; ++k) {
      std::size_t i = begin + k * TS_REDUCE_THREADS + t;
      if (i < n) acc = comb(acc, load(i));
    }
    s[t] = acc;
  }
  for (std::size_t h = TS_REDUCE_THREADS / 2; h > 0; h >>= 1)
    for (std::size_t t = 0; t < h; ++t) s[t] = comb(s[t], s[t + h]);
  return s[0];
}

template <class T, class Load, class Comb>
void fold_all_chunks(std::size_t n, Load load, Comb comb, T* out) {
  const auto chunks = static_cast<std::ptrdiff_t>((n + TS_REDUCE_CHUNK - 1) / TS_REDUCE_CHUNK);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t c = 0; c < chunks; ++c)
    out[c] = fold_chunk<T>(static_cast<std::size_t>(c) * TS_REDUCE_CHUNK, n, load, comb);
}

}  // namespace

template <class T>
void elementwise(CpuTag, Queue&, Elementwise op, T s, const Buffer<T>* x, const Buffer<T>* z,
                 Buffer<T>& y) {
  const T* xp = data_or_null(x);
  const T* zp = data_or_null(z);
  T* yp = cpu::ptr<T>(y.handle());
  const auto n = static_cast<std::ptrdiff_t>(y.size());
  select_elementwise(op, [&](auto f) {
    const bool rx = reads_x(op), rz = reads_z(op);
#pragma omp parallel for simd schedule(static)
    for (std::ptrdiff_t i = 0; i < n; ++i) yp[i] = f(s, rx ? xp[i] : T(0), rz ? zp[i] : T(0));
  });
}

template <class T>
void reduce_chunks(CpuTag, Queue&, Term t, Combine c, std::size_t n, const Buffer<T>& x,
                   const Buffer<T>* y, Buffer<T>& partials) {
  const T* xp = cpu::ptr<T>(x.handle());
  const T* yp = y ? cpu::ptr<T>(y->handle()) : xp;
  select_term(t, [&](auto term) {
    select_combine(c, [&](auto comb) {
      fold_all_chunks<T>(n, [&](std::size_t i) { return term(xp[i], yp[i]); }, comb,
                         cpu::ptr<T>(partials.handle()));
    });
  });
}

template <class T>
void combine_chunks(CpuTag, Queue&, Combine c, std::size_t n, const Buffer<T>& in, Buffer<T>& out) {
  const T* ip = cpu::ptr<T>(in.handle());
  select_combine(c, [&](auto comb) {
    fold_all_chunks<T>(n, [&](std::size_t i) { return ip[i]; }, comb, cpu::ptr<T>(out.handle()));
  });
}

// Device order on the CPU: one contiguous block per OpenMP thread (static
// schedule), so the result depends on the thread count but not on timing.
template <class T>
std::size_t reduce_device_order(CpuTag, Queue&, Term t, Combine c, std::size_t n,
                                const Buffer<T>& x, const Buffer<T>* y, Buffer<T>& partials) {
  const T* xp = cpu::ptr<T>(x.handle());
  const T* yp = y ? cpu::ptr<T>(y->handle()) : xp;
  T* out = cpu::ptr<T>(partials.handle());
  std::size_t used = 0;
  select_term(t, [&](auto term) {
    select_combine(c, [&](auto comb) {
      const int threads = std::min(omp_get_max_threads(), static_cast<int>(kMaxDeviceOrderPartials));
#pragma omp parallel num_threads(threads)
      {
        const auto nt = static_cast<std::size_t>(omp_get_num_threads());
        const auto id = static_cast<std::size_t>(omp_get_thread_num());
        const std::size_t per = (n + nt - 1) / nt;
        const std::size_t b = std::min(n, id * per), e = std::min(n, b + per);
        T acc = decltype(comb)::template identity<T>();
        for (std::size_t i = b; i < e; ++i) acc = comb(acc, term(xp[i], yp[i]));
        out[id] = acc;
#pragma omp single
        used = nt;
      }
    });
  });
  return used;
}

#define TS_INSTANTIATE(T)                                                                      \
  template void elementwise<T>(CpuTag, Queue&, Elementwise, T, const Buffer<T>*,              \
                               const Buffer<T>*, Buffer<T>&);                                  \
  template void reduce_chunks<T>(CpuTag, Queue&, Term, Combine, std::size_t, const Buffer<T>&, \
                                 const Buffer<T>*, Buffer<T>&);                                \
  template void combine_chunks<T>(CpuTag, Queue&, Combine, std::size_t, const Buffer<T>&,     \
                                  Buffer<T>&);                                                 \
  template std::size_t reduce_device_order<T>(CpuTag, Queue&, Term, Combine, std::size_t,     \
                                              const Buffer<T>&, const Buffer<T>*, Buffer<T>&);
TS_INSTANTIATE(float)
TS_INSTANTIATE(double)
#undef TS_INSTANTIATE

}  // namespace tessera::dense::kernels
