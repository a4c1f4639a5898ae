// Discovery and selection: the one place that knows every backend.
#include "core/registry.hpp"

#include <charconv>

#include <fmt/format.h>

#include "backends/cpu/cpu_device.hpp"
#include "core/error.hpp"
#include "tessera/config.hpp"
#if TESSERA_HAVE_OPENCL
#include "backends/opencl/cl_device.hpp"
#endif
#if TESSERA_HAVE_CUDA
#include "backends/cuda/cuda_device.hpp"
#endif

namespace tessera {

namespace {

bool parse_int(std::string_view s, int& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && out >= 0;
}

[[noreturn]] void bad_id(std::string_view id) {
  throw UsageError(
      fmt::format("unknown device id '{}': expected 'best', 'cpu', 'opencl:P:D' or 'cuda:N' "
                  "(`tessera devices` lists them)",
                  id));
}

[[noreturn, maybe_unused]] void not_built(std::string_view backend) {
  throw UsageError(fmt::format(
      "the {} backend is not built into this tessera (reconfigure where its SDK is installed; "
      "see README, 'Building')",
      backend));
}

}  // namespace

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> out{cpu::describe_cpu()};
#if TESSERA_HAVE_OPENCL
  for (auto& d : opencl::discover()) out.push_back(std::move(d));
#endif
#if TESSERA_HAVE_CUDA
  for (auto& d : cuda::discover()) out.push_back(std::move(d));
#endif
  return out;
}

std::string best_device_id() {
  auto all = list_devices();
  for (const auto& d : all)
    if (d.backend == Backend::cuda) return d.id;
  for (const auto& d : all)
    if (d.backend == Backend::opencl && d.is_gpu) return d.id;
  return "cpu";
}

std::shared_ptr<Device> open_device(std::string_view id) {
  if (id.empty() || id == "best") return open_device(best_device_id());
  if (id == "cpu") return cpu::open_cpu();
  if (id.rfind("opencl:", 0) == 0) {
    auto rest = id.substr(7);
    auto colon = rest.find(':');
    int p = 0, d = 0;
    if (colon == std::string_view::npos || !parse_int(rest.substr(0, colon), p) ||
        !parse_int(rest.substr(colon + 1), d))
      bad_id(id);
#if TESSERA_HAVE_OPENCL
    return opencl::open(p, d);
#else
    not_built("OpenCL");
#endif
  }
  if (id.rfind("cuda:", 0) == 0) {
    int n = 0;
    if (!parse_int(id.substr(5), n)) bad_id(id);
#if TESSERA_HAVE_CUDA
    return cuda::open(n);
#else
    not_built("CUDA");
#endif
  }
  bad_id(id);
}

}  // namespace tessera
