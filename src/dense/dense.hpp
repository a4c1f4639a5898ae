// Dense vector operations on any device: BLAS-1 basics and STREAM kernels.
// Every operation runs on the device that owns its buffers (all operands on one
// device, sizes equal; violations throw Error).
#pragma once
#include <cstddef>

#include "core/buffer.hpp"

namespace tessera::dense {

/// Summation order of reductions.
///  canonical: the fixed order of core/kernels/portable.h on every backend, so
///             CPU, OpenCL and CUDA results are bitwise identical and repeatable.
///  device:    the order fastest on the device (16-byte loads, grid-stride);
///             repeatable on one device, but differs between backends.
enum class ReduceOrder { canonical, device };

template <class T>
void fill(Buffer<T>& y, T value);
template <class T>
void copy(const Buffer<T>& x, Buffer<T>& y);  ///< y = x
template <class T>
void scale(T a, Buffer<T>& y);  ///< y = a*y
template <class T>
void axpy(T a, const Buffer<T>& x, Buffer<T>& y);  ///< y = a*x + y

/// STREAM kernels (McCalpin's names and operand roles).
template <class T>
void stream_scale(T s, const Buffer<T>& c, Buffer<T>& b);  ///< b = s*c
template <class T>
void stream_add(const Buffer<T>& a, const Buffer<T>& b, Buffer<T>& c);  ///< c = a+b
template <class T>
void stream_triad(T s, const Buffer<T>& b, const Buffer<T>& c, Buffer<T>& a);  ///< a = b + s*c

/// Reductions. Scratch memory for partial results is allocated per call; code
/// that reduces in a loop keeps a Reducer instead.
template <class T>
T dot(const Buffer<T>& x, const Buffer<T>& y, ReduceOrder o = ReduceOrder::canonical);
template <class T>
T nrm2(const Buffer<T>& x, ReduceOrder o = ReduceOrder::canonical);
template <class T>
T sum(const Buffer<T>& x, ReduceOrder o = ReduceOrder::canonical);
template <class T>
T min(const Buffer<T>& x, ReduceOrder o = ReduceOrder::canonical);  ///< +inf if empty
template <class T>
T max(const Buffer<T>& x, ReduceOrder o = ReduceOrder::canonical);  ///< -inf if empty

/// Reductions of vectors of up to `capacity` elements with scratch kept on the device.
template <class T>
class Reducer {
 public:
  Reducer(std::shared_ptr<Device> device, std::size_t capacity);
  T dot(const Buffer<T>& x, const Buffer<T>& y, ReduceOrder o = ReduceOrder::canonical);
  T nrm2(const Buffer<T>& x, ReduceOrder o = ReduceOrder::canonical);
  T sum(const Buffer<T>& x, ReduceOrder o = ReduceOrder::canonical);
  T min(const Buffer<T>& x, ReduceOrder o = ReduceOrder::canonical);
  T max(const Buffer<T>& x, ReduceOrder o = ReduceOrder::canonical);

 private:
  T reduce(int term, int combine, const Buffer<T>& x, const Buffer<T>* y, ReduceOrder o);
  std::shared_ptr<Device> device_;
  std::size_t capacity_;
  Buffer<T> a_, b_;  // ping-pong partials
};

}  // namespace tessera::dense
