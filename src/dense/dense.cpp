// Front end of the dense operations: argument checks, dispatch to the
// backend's launcher, and the multi-level reduction driver shared by all
// backends.
#include "dense/dense.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/for_each_real.hpp"
#include "dense/kernels/dense_kernels.hpp"

namespace tessera::dense {

using kernels::Combine;
using kernels::Elementwise;
using kernels::Term;

namespace {

template <class T>
void same_device_and_size(const char* op, const Buffer<T>& a, const Buffer<T>& b) {
  if (&a.device() != &b.device())
    throw Error(std::string("dense::") + op + ": operands live on different devices (" +
                a.device().id() + ", " + b.device().id() + ")");
  if (a.size() != b.size())
    throw Error(std::string("dense::") + op + ": size mismatch (" + std::to_string(a.size()) +
                " vs " + std::to_string(b.size()) + ")");
}

// x and z are null where op ignores them; y stands in (never loaded).
template <class T>
void run(Elementwise op, T s, const Buffer<T>* x, const Buffer<T>* z, Buffer<T>& y) {
  if (y.empty()) return;
  const ts_size n = y.size(), pack = launch::pack_width<T>(y.device());
  dispatch(y.device(), [&](auto tag) {
    kernels::ew<T>(tag, y.device().queue(), n / pack + n % pack, ts_ew_params<T>{n, s, int(op)},
                   x ? *x : y, z ? *z : y, y);
  });
}

std::size_t chunks(std::size_t n) { return (n + TS_REDUCE_CHUNK - 1) / TS_REDUCE_CHUNK; }

}  // namespace

template <class T>
void fill(Buffer<T>& y, T value) {
  run<T>(Elementwise::fill, value, nullptr, nullptr, y);
}

template <class T>
void copy(const Buffer<T>& x, Buffer<T>& y) {
  same_device_and_size("copy", x, y);
  run<T>(Elementwise::copy, T(0), &x, nullptr, y);
}

template <class T>
void scale(T a, Buffer<T>& y) {
  run<T>(Elementwise::scale, a, &y, nullptr, y);
}

template <class T>
void axpy(T a, const Buffer<T>& x, Buffer<T>& y) {
  same_device_and_size("axpy", x, y);
  run<T>(Elementwise::axpy, a, &x, &y, y);
}

template <class T>
void stream_scale(T s, const Buffer<T>& c, Buffer<T>& b) {
  same_device_and_size("stream_scale", c, b);
  run<T>(Elementwise::scale, s, &c, nullptr, b);
}

template <class T>
void stream_add(const Buffer<T>& a, const Buffer<T>& b, Buffer<T>& c) {
  same_device_and_size("stream_add", a, c);
  same_device_and_size("stream_add", b, c);
  run<T>(Elementwise::add, T(0), &a, &b, c);
}

template <class T>
void stream_triad(T s, const Buffer<T>& b, const Buffer<T>& c, Buffer<T>& a) {
  same_device_and_size("stream_triad", b, a);
  same_device_and_size("stream_triad", c, a);
  run<T>(Elementwise::triad, s, &b, &c, a);
}

template <class T>
Reducer<T>::Reducer(std::shared_ptr<Device> device, std::size_t capacity)
    : device_(std::move(device)),
      capacity_(capacity),
      a_(device_, std::max<std::size_t>(
                      {chunks(capacity), kernels::kMaxDeviceOrderPartials, std::size_t(1)})),
      b_(device_, std::max<std::size_t>(chunks(a_.size()), 1)) {}

template <class T>
T Reducer<T>::reduce(int term, int combine, const Buffer<T>& x, const Buffer<T>* y, ReduceOrder o) {
  const auto t = static_cast<Term>(term);
  const auto c = static_cast<Combine>(combine);
  if (y) same_device_and_size("reduce", x, *y);
  if (&x.device() != device_.get())
    throw Error("dense::Reducer: vector on " + x.device().id() + ", reducer on " + device_->id());
  if (x.size() > capacity_)
    throw Error("dense::Reducer: vector of " + std::to_string(x.size()) +
                " elements exceeds the reducer's capacity " + std::to_string(capacity_));
  if (x.empty()) {
    return c == Combine::sum   ? T(0)
           : c == Combine::min ? std::numeric_limits<T>::infinity()
                               : -std::numeric_limits<T>::infinity();
  }
  Queue& q = device_->queue();
  std::size_t n = 0;
  Buffer<T>* result = &a_;
  const ts_size size = x.size();
  const Buffer<T>& yy = y ? *y : x;
  dispatch(*device_, [&](auto tag) {
    if (o == ReduceOrder::canonical) {
      n = chunks(size);
      kernels::reduce_chunks<T>(tag, q, n, ts_fold_params<T>{size, int(t), int(c)}, x, yy, a_);
    } else {
      const ts_size packs = size / launch::pack_width<T>(*device_);
      n = std::min<std::size_t>(
          launch::grid_stride_groups(*device_, (packs + TS_REDUCE_THREADS - 1) / TS_REDUCE_THREADS),
          kernels::kMaxDeviceOrderPartials);
      kernels::reduce_device<T>(tag, q, n, ts_fold_params<T>{size, int(t), int(c)}, x, yy, a_);
    }
    Buffer<T>*in = &a_, *out = &b_;
    while (n > 1) {
      const ts_size m = n;
      n = chunks(m);
      kernels::reduce_chunks<T>(tag, q, n, ts_fold_params<T>{m, int(TS_TERM_VALUE), int(c)}, *in,
                                *in, *out);
      std::swap(in, out);
    }
    result = in;
  });
  T value{};
  q.read(result->handle(), 0, &value, sizeof(T), true);
  return value;
}

template <class T>
T Reducer<T>::dot(const Buffer<T>& x, const Buffer<T>& y, ReduceOrder o) {
  return reduce(int(Term::dot), int(Combine::sum), x, &y, o);
}
// sqrt on the host: correctly rounded everywhere (OpenCL's device sqrt need not be).
template <class T>
T Reducer<T>::nrm2(const Buffer<T>& x, ReduceOrder o) {
  return std::sqrt(reduce(int(Term::sumsq), int(Combine::sum), x, nullptr, o));
}
template <class T>
T Reducer<T>::sum(const Buffer<T>& x, ReduceOrder o) {
  return reduce(int(Term::value), int(Combine::sum), x, nullptr, o);
}
template <class T>
T Reducer<T>::min(const Buffer<T>& x, ReduceOrder o) {
  return reduce(int(Term::value), int(Combine::min), x, nullptr, o);
}
template <class T>
T Reducer<T>::max(const Buffer<T>& x, ReduceOrder o) {
  return reduce(int(Term::value), int(Combine::max), x, nullptr, o);
}

template <class T>
T dot(const Buffer<T>& x, const Buffer<T>& y, ReduceOrder o) {
  return Reducer<T>(x.device_ptr(), x.size()).dot(x, y, o);
}
template <class T>
T nrm2(const Buffer<T>& x, ReduceOrder o) {
  return Reducer<T>(x.device_ptr(), x.size()).nrm2(x, o);
}
template <class T>
T sum(const Buffer<T>& x, ReduceOrder o) {
  return Reducer<T>(x.device_ptr(), x.size()).sum(x, o);
}
template <class T>
T min(const Buffer<T>& x, ReduceOrder o) {
  return Reducer<T>(x.device_ptr(), x.size()).min(x, o);
}
template <class T>
T max(const Buffer<T>& x, ReduceOrder o) {
  return Reducer<T>(x.device_ptr(), x.size()).max(x, o);
}

#define TS_INSTANTIATE(T)                                                           \
  template void fill<T>(Buffer<T>&, T);                                             \
  template void copy<T>(const Buffer<T>&, Buffer<T>&);                              \
  template void scale<T>(T, Buffer<T>&);                                            \
  template void axpy<T>(T, const Buffer<T>&, Buffer<T>&);                           \
  template void stream_scale<T>(T, const Buffer<T>&, Buffer<T>&);                   \
  template void stream_add<T>(const Buffer<T>&, const Buffer<T>&, Buffer<T>&);      \
  template void stream_triad<T>(T, const Buffer<T>&, const Buffer<T>&, Buffer<T>&); \
  template T dot<T>(const Buffer<T>&, const Buffer<T>&, ReduceOrder);               \
  template T nrm2<T>(const Buffer<T>&, ReduceOrder);                                \
  template T sum<T>(const Buffer<T>&, ReduceOrder);                                 \
  template T min<T>(const Buffer<T>&, ReduceOrder);                                 \
  template T max<T>(const Buffer<T>&, ReduceOrder);                                 \
  template class Reducer<T>;
TS_FOR_EACH_REAL(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::dense
