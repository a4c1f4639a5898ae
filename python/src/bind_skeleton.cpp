// tessera.skeleton: map / zip / fold / mapStencil on a NumPy array held in a
// skeleton field (one device). The user function is a built-in (the C++
// functors of skeleton/examples.hpp paired with their OpenCL C text, so they
// run on every backend) or OpenCL C
// source text (OpenCL devices: the library generates the kernel around it).
// Arrays of 1-3 dimensions map to fields of extents (nx, ny, nz) with x
// fastest, i.e. NumPy shape (nz, ny, nx).
#include <optional>

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "common.hpp"
#include "skeleton/examples.hpp"
#include "skeleton/skeleton.hpp"

namespace tessera::py {

namespace {
namespace sk = tessera::skeleton;
namespace ex = tessera::skeleton::examples;

/// A user function: a built-in name, or source text with the name of the
/// function to call.
struct UserFunction {
  std::string builtin;
  std::optional<sk::ClFunction> source;
};

UserFunction user_function(nb::handle fn) {
  if (nb::isinstance<nb::str>(fn)) return {nb::cast<std::string>(fn), std::nullopt};
  if (nb::hasattr(fn, "source") && nb::hasattr(fn, "name")) {
    sk::ClFunction f{
        nb::cast<std::string>(fn.attr("source")), nb::cast<std::string>(fn.attr("name")),
        nb::hasattr(fn, "origin") ? nb::cast<std::string>(fn.attr("origin")) : "user function"};
    return {"", f};
  }
  throw UsageError(
      "skeleton: the function must be a built-in name or tessera.skeleton.Source(source, name)");
}

template <class T>
struct HostField {
  sk::index_t nx = 1, ny = 1, nz = 1;
  std::vector<std::size_t> shape;
  std::vector<T> values;
};

template <class T>
HostField<T> host_field(const AnyArray& a, const char* what) {
  if (a.ndim() < 1 || a.ndim() > 3)
    throw UsageError(std::string(what) + ": arrays of 1 to 3 dimensions (got " +
                     std::to_string(a.ndim()) + ")");
  HostField<T> h;
  for (std::size_t i = 0; i < a.ndim(); ++i) h.shape.push_back(a.shape(i));
  const std::size_t d = a.ndim();
  h.nx = static_cast<sk::index_t>(a.shape(d - 1));
  if (d > 1) h.ny = static_cast<sk::index_t>(a.shape(d - 2));
  if (d > 2) h.nz = static_cast<sk::index_t>(a.shape(0));
  h.values = to_vector<T>(a, what);
  return h;
}

template <class T>
std::unique_ptr<sk::DC<T>> upload(const std::shared_ptr<Device>& dev, const HostField<T>& h) {
  auto f = std::make_unique<sk::DC<T>>(sk::Team({dev}), h.nx, h.ny, h.nz);
  f->scatter(h.values);
  return f;
}

/// Calls g(functor) with the built-in or the source text.
template <class G>
auto with_map_fn(const UserFunction& u, G&& g) {
  if (u.source) return g(*u.source);
  if (u.builtin == "affine") return g(sk::portable(ex::Affine{}, ex::cl_point("ts_skel_affine")));
  if (u.builtin == "increment") {
    sk::ClFunction cl = ex::cl_point("ts_py_increment");
    cl.source += "\nTS_FN ts_real ts_py_increment(ts_real v) { return v + (ts_real)1; }\n";
    return g(sk::portable(ex::Increment{}, cl));
  }
  throw UsageError(
      "skeleton.map: built-ins are 'affine' (2.5 v - 1) and 'increment' (v + 1); got '" +
      u.builtin + "'");
}
template <class G>
auto with_zip_fn(const UserFunction& u, G&& g) {
  if (u.source) return g(*u.source);
  if (u.builtin == "axpy") return g(sk::portable(ex::Axpy{}, ex::cl_point("ts_skel_axpy")));
  if (u.builtin == "add") return g(sk::portable(ex::Add{}, ex::cl_point("ts_skel_add")));
  if (u.builtin == "max") return g(sk::portable(ex::Max{}, ex::cl_point("ts_skel_max")));
  throw UsageError(
      "skeleton.zip/fold: built-ins are 'add', 'max' and (zip only) 'axpy' (0.5 a + b); got '" +
      u.builtin + "'");
}
template <class G>
auto with_stencil_fn(const UserFunction& u, G&& g) {
  if (u.source) return g(*u.source);
  if (u.builtin == "jacobi5")
    return g(sk::portable(ex::Jacobi5{}, ex::cl_stencil("ts_skel_jacobi5")));
  if (u.builtin == "heat7") return g(sk::portable(ex::Heat7{}, ex::cl_stencil("ts_skel_heat7")));
  if (u.builtin == "blur27") return g(sk::portable(ex::Blur27{}, ex::cl_stencil("ts_skel_blur27")));
  throw UsageError("skeleton.map_stencil: built-ins are 'jacobi5', 'heat7' and 'blur27'; got '" +
                   u.builtin + "'");
}

sk::BoundaryMode parse_boundary(const std::string& s) {
  if (s == "neutral") return sk::BoundaryMode::neutral;
  if (s == "periodic") return sk::BoundaryMode::periodic;
  if (s == "clamp") return sk::BoundaryMode::clamp;
  if (s == "mirror") return sk::BoundaryMode::mirror;
  throw UsageError(
      "skeleton.map_stencil: boundary must be neutral, periodic, clamp or mirror (got '" + s +
      "')");
}

template <class T>
nb::object map(const std::shared_ptr<Device>& dev, const AnyArray& a, const UserFunction& u) {
  auto h = host_field<T>(a, "skeleton.map");
  std::vector<T> r;
  {
    nb::gil_scoped_release release;
    auto in = upload(dev, h);
    sk::DC<T> out(sk::Team({dev}), h.nx, h.ny, h.nz);
    with_map_fn(u, [&](const auto& f) {
      in->map(f, out);
      return 0;
    });
    r = out.gather();
  }
  return to_numpy(std::move(r), h.shape);
}

template <class T>
nb::object zip(const std::shared_ptr<Device>& dev, const AnyArray& a, const AnyArray& b,
               const UserFunction& u) {
  auto ha = host_field<T>(a, "skeleton.zip: a");
  auto hb = host_field<T>(b, "skeleton.zip: b (the dtype of a)");
  if (ha.shape != hb.shape) throw UsageError("skeleton.zip: a and b must have the same shape");
  std::vector<T> r;
  {
    nb::gil_scoped_release release;
    auto fa = upload(dev, ha);
    auto fb = upload(dev, hb);
    sk::DC<T> out(sk::Team({dev}), ha.nx, ha.ny, ha.nz);
    with_zip_fn(u, [&](const auto& f) {
      fa->zip(*fb, f, out);
      return 0;
    });
    r = out.gather();
  }
  return to_numpy(std::move(r), ha.shape);
}

template <class T>
double fold(const std::shared_ptr<Device>& dev, const AnyArray& a, const UserFunction& u) {
  auto h = host_field<T>(a, "skeleton.fold");
  nb::gil_scoped_release release;
  auto f = upload(dev, h);
  return with_zip_fn(u, [&](const auto& fn) { return static_cast<double>(f->fold(fn)); });
}

template <class T>
nb::object map_stencil(const std::shared_ptr<Device>& dev, const AnyArray& a, const UserFunction& u,
                       std::vector<long> radius, const std::string& boundary, double neutral) {
  auto h = host_field<T>(a, "skeleton.map_stencil");
  sk::Stencil st;
  if (radius.size() != 3)
    throw UsageError("skeleton.map_stencil: radius has three entries (x, y, z)");
  for (int i = 0; i < 3; ++i) {
    if (radius[i] < 0) throw UsageError("skeleton.map_stencil: negative radius");
    st.radius[i] = radius[i];
    st.mode[i] = parse_boundary(boundary);
  }
  std::vector<T> r;
  {
    nb::gil_scoped_release release;
    auto in = upload(dev, h);
    sk::DC<T> out(sk::Team({dev}), h.nx, h.ny, h.nz);
    with_stencil_fn(u, [&](const auto& f) {
      in->mapStencil(f, out, st, static_cast<T>(neutral));
      return 0;
    });
    r = out.gather();
  }
  return to_numpy(std::move(r), h.shape);
}

template <class F>
auto by_dtype(const AnyArray& a, const char* what, F&& f) {
  if (is_dtype<float>(a)) return f.template operator()<float>();
  if (is_dtype<double>(a)) return f.template operator()<double>();
  throw UsageError(std::string(what) + ": float32 or float64 arrays, got " + dtype_name(a));
}
}  // namespace

void bind_skeleton(nb::module_& m) {
  m.def("_map", [](nb::handle dev, AnyArray a, nb::handle fn) {
    auto d = device_from(dev);
    const auto u = user_function(fn);
    return by_dtype(a, "skeleton.map", [&]<class T>() { return map<T>(d, a, u); });
  });
  m.def("_zip", [](nb::handle dev, AnyArray a, AnyArray b, nb::handle fn) {
    auto d = device_from(dev);
    const auto u = user_function(fn);
    return by_dtype(a, "skeleton.zip", [&]<class T>() { return zip<T>(d, a, b, u); });
  });
  m.def("_fold", [](nb::handle dev, AnyArray a, nb::handle fn) {
    auto d = device_from(dev);
    const auto u = user_function(fn);
    return by_dtype(a, "skeleton.fold", [&]<class T>() { return fold<T>(d, a, u); });
  });
  m.def("_map_stencil", [](nb::handle dev, AnyArray a, nb::handle fn, std::vector<long> radius,
                           std::string boundary, double neutral) {
    auto d = device_from(dev);
    const auto u = user_function(fn);
    return by_dtype(a, "skeleton.map_stencil",
                    [&]<class T>() { return map_stencil<T>(d, a, u, radius, boundary, neutral); });
  });
}

}  // namespace tessera::py
