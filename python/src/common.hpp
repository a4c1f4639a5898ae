// Helpers shared by the binding files: device lookup, NumPy arrays in and out.
#pragma once
#include <complex>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/complex.h>

#include "core/device.hpp"
#include "core/error.hpp"

namespace tessera::py {

namespace nb = nanobind;

/// An untyped, C-contiguous host array (any dtype; callers check it).
using AnyArray = nb::ndarray<nb::c_contig, nb::device::cpu>;

/// Opens a device by id once per process and keeps it open (opening an
/// OpenCL or CUDA context per call costs milliseconds to seconds). Accepts a
/// str id or a tessera.Device.
std::shared_ptr<Device> device_from(nb::handle id);
std::shared_ptr<Device> device_by_id(const std::string& id);

template <class T>
const char* np_name() {
  if constexpr (std::is_same_v<T, float>)
    return "float32";
  else if constexpr (std::is_same_v<T, double>)
    return "float64";
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return "complex64";
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return "complex128";
  else if constexpr (std::is_same_v<T, std::int32_t>)
    return "int32";
  else
    return "other";
}

template <class T>
bool is_dtype(const AnyArray& a) {
  return a.dtype() == nb::dtype<T>();
}
std::string dtype_name(const AnyArray& a);

/// The elements of a 1-D (or any-D, flattened) array as T; UsageError
/// naming `what` when the dtype is not T.
template <class T>
std::vector<T> to_vector(const AnyArray& a, const char* what) {
  if (!is_dtype<T>(a))
    throw UsageError(std::string(what) + ": expected an array of " + np_name<T>() + ", got " +
                     dtype_name(a));
  std::vector<T> v(a.size());
  if (!v.empty()) std::memcpy(v.data(), a.data(), v.size() * sizeof(T));
  return v;
}

/// A NumPy array that owns `v` (no copy).
template <class T>
nb::object to_numpy(std::vector<T>&& v, std::vector<std::size_t> shape) {
  auto* owned = new std::vector<T>(std::move(v));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::cast(nb::ndarray<nb::numpy, T>(owned->data(), shape.size(), shape.data(), owner));
}
template <class T>
nb::object to_numpy(std::vector<T>&& v) {
  const std::size_t n = v.size();
  return to_numpy(std::move(v), {n});
}

/// Parses a JSON text with Python's json module (results go out as dicts).
nb::object json_to_python(const std::string& text);

void bind_core(nb::module_& m);
void bind_mg(nb::module_& m);
void bind_sparse(nb::module_& m);
void bind_krylov(nb::module_& m);
void bind_swe(nb::module_& m);
void bind_skeleton(nb::module_& m);
void bind_lbm(nb::module_& m);

}  // namespace tessera::py
