// Devices, errors and the STREAM benchmark.
#include <map>
#include <mutex>

#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "bench/stream.hpp"
#include "common.hpp"
#include "core/registry.hpp"
#include "tessera/config.hpp"

namespace tessera::py {

namespace {
// Never destroyed: devices stay open for the life of the process (closing a
// CUDA context during interpreter shutdown, after the driver unloaded, crashes).
std::map<std::string, std::shared_ptr<Device>>& open_devices() {
  static auto* m = new std::map<std::string, std::shared_ptr<Device>>();
  return *m;
}
std::mutex& devices_mutex() {
  static auto* m = new std::mutex();
  return *m;
}

nb::dict info_dict(const DeviceInfo& d) {
  nb::dict r;
  r["id"] = d.id;
  r["backend"] = std::string(to_string(d.backend));
  r["name"] = d.name;
  r["vendor"] = d.vendor;
  r["platform"] = d.platform;
  r["driver_version"] = d.driver_version;
  r["is_gpu"] = d.is_gpu;
  r["fp64"] = d.fp64;
  r["compute_units"] = d.compute_units;
  r["global_mem_bytes"] = d.global_mem_bytes;
  r["max_alloc_bytes"] = d.max_alloc_bytes;
  r["cache_bytes"] = d.cache_bytes;
  return r;
}
}  // namespace

std::shared_ptr<Device> device_by_id(const std::string& requested) {
  const std::string id = requested.empty() || requested == "best" ? best_device_id() : requested;
  std::lock_guard<std::mutex> lock(devices_mutex());
  auto& m = open_devices();
  auto it = m.find(id);
  if (it != m.end()) return it->second;
  auto d = open_device(id);
  m.emplace(id, d);
  m.emplace(d->id(), d);  // "cuda:0" and "best" share one context
  return d;
}

std::shared_ptr<Device> device_from(nb::handle h) {
  if (h.is_none()) return device_by_id("best");
  if (nb::isinstance<nb::str>(h)) return device_by_id(nb::cast<std::string>(h));
  return nb::cast<std::shared_ptr<Device>>(h);
}

std::string dtype_name(const AnyArray& a) {
  const auto d = a.dtype();
  const char* code = d.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Float)     ? "float"
                     : d.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Int)     ? "int"
                     : d.code == static_cast<uint8_t>(nb::dlpack::dtype_code::UInt)    ? "uint"
                     : d.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Complex) ? "complex"
                     : d.code == static_cast<uint8_t>(nb::dlpack::dtype_code::Bool)    ? "bool"
                                                                                       : "dtype";
  return std::string(code) + std::to_string(d.bits);
}

nb::object json_to_python(const std::string& text) {
  return nb::module_::import_("json").attr("loads")(text);
}

void bind_core(nb::module_& m) {
  // Python exception types: tessera.Error (RuntimeError) and its subclasses;
  // tessera.UsageError is also a ValueError. Translators are tried newest
  // first, so the most specific ones are registered last.
  static nb::exception<Error> error(m, "Error", PyExc_RuntimeError);
  static nb::exception<UsageError> usage(m, "UsageError",
                                         nb::make_tuple(error, nb::handle(PyExc_ValueError)));
  static nb::exception<BackendError> backend(m, "BackendError", error);
  static nb::exception<BuildError> build(m, "BuildError", error);
  static nb::exception<OutOfMemory> oom(m, "OutOfMemory",
                                        nb::make_tuple(error, nb::handle(PyExc_MemoryError)));

  m.attr("__version__") = TESSERA_VERSION;
  m.attr("git_commit") = TESSERA_GIT_COMMIT;
  nb::list backends;
  backends.append("cpu");
  if (TESSERA_HAVE_OPENCL) backends.append("opencl");
  if (TESSERA_HAVE_CUDA) backends.append("cuda");
  m.attr("backends") = backends;

  nb::class_<Device>(m, "Device", "An open compute device (see tessera.device()).")
      .def_prop_ro("id", [](const Device& d) { return d.id(); })
      .def_prop_ro("backend", [](const Device& d) { return std::string(to_string(d.backend())); })
      .def_prop_ro("name", [](const Device& d) { return d.info().name; })
      .def_prop_ro("info", [](const Device& d) { return info_dict(d.info()); })
      .def("synchronize", &Device::synchronize)
      .def("__repr__", [](const Device& d) {
        return "<tessera.Device " + d.id() + ": " + d.info().name + ">";
      });

  m.def(
      "devices",
      [] {
        nb::list l;
        for (const auto& d : list_devices()) l.append(info_dict(d));
        return l;
      },
      "Every device of every backend built in, as dicts (id, backend, name, memory...).");
  m.def(
      "device", [](const std::string& id) { return device_by_id(id); }, nb::arg("id") = "best",
      "Opens a device by id: 'cpu', 'opencl:P:D', 'cuda:N' or 'best' (kept open).");
  m.def("best_device_id", &best_device_id);

  m.def(
      "_stream",
      [](nb::handle dev, std::size_t size, const std::string& precision, int warmup, int reps) {
        if (precision != "float" && precision != "double" && precision != "both")
          throw UsageError("stream: precision must be float, double or both (got '" + precision +
                           "')");
        auto d = device_from(dev);
        bench::StreamOptions o;
        o.size = size;
        o.run_float = precision != "double";
        o.run_double = precision != "float";
        o.timing = {warmup, reps};
        bench::SuiteReport r{"stream", {}};
        {
          nb::gil_scoped_release release;
          r.devices.push_back(bench::run_stream(d, o));
        }
        return json_to_python(r.to_json().dump());
      },
      nb::arg("device").none() = nb::none(), nb::arg("size") = 0, nb::arg("precision") = "both",
      nb::arg("warmup") = 3, nb::arg("reps") = 20);
}

}  // namespace tessera::py
