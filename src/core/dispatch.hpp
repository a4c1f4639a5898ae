// Backend dispatch: a module declares each kernel once per backend tag
// (`void axpy(CpuTag, ...)`, `void axpy(CudaTag, ...)`), and its front end calls
// dispatch(device, [&](auto tag) { kernels::axpy(tag, ...); }). Only the tags
// of backends built in are instantiated.
#pragma once
#include <string>

#include "core/device.hpp"
#include "core/error.hpp"
#include "tessera/config.hpp"

namespace tessera {

struct CpuTag {};
struct OpenCLTag {};
struct CudaTag {};

template <class F>
decltype(auto) dispatch(const Device& device, F&& f) {
  switch (device.backend()) {
    case Backend::cpu:
      return f(CpuTag{});
#if TESSERA_HAVE_OPENCL
    case Backend::opencl:
      return f(OpenCLTag{});
#endif
#if TESSERA_HAVE_CUDA
    case Backend::cuda:
      return f(CudaTag{});
#endif
    default:
      break;
  }
  throw UsageError("backend " + std::string(to_string(device.backend())) + " is not built in");
}

}  // namespace tessera
