// Runs a skeleton operation with a C++ functor on a part's device, through
// the one launcher: the CPU inline (skel_cpu.hpp); CUDA through the templates
// of skel_cuda.cuh, which must be instantiated in a .cu file for that functor
// (declared here, defined there); OpenCL cannot run C++ and says so (use an
// OpenCL C source function).
#pragma once
#include <string>
#include <typeinfo>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "skeleton/kernels/skel_cpu.hpp"
#include "skeleton/kernels/skel_ops.hpp"

namespace tessera::skeleton::kernels {

template <class Op>
void cuda_for_boxes(Device& d, Queue& q, const BoxList& boxes, const Op& op);
template <class F, class T>
void cuda_reduce_rows(Queue& q, const RowsReduce<F, T>& op, index_t rows);

[[noreturn]] void no_cxx_on_opencl(const char* skeleton);
[[noreturn]] void not_instantiated_for_cuda(const char* skeleton, const char* functor);

template <class Op>
constexpr bool cuda_ready() {
  if constexpr (requires { typename Op::boundary; })
    return CudaEnabled<typename Op::functor>::value &&
           (std::is_same_v<typename Op::boundary, NoBoundaryFunction> ||
            CudaEnabled<typename Op::boundary>::value);
  else
    return CudaEnabled<typename Op::functor>::value;
}

/// Runs cpu() on the CPU and cuda(0) on CUDA where the functor was
/// instantiated for it (a generic lambda: never instantiated otherwise);
/// OpenCL cannot run C++.
template <bool CudaReady, class Cpu, class Cuda>
void run_cxx(Device& device, const char* skeleton, [[maybe_unused]] const char* functor,
             const Cpu& cpu, [[maybe_unused]] const Cuda& cuda) {
  switch (device.backend()) {
    case Backend::cpu:
      cpu();
      return;
    case Backend::cuda:
#if TESSERA_HAVE_CUDA
      if constexpr (CudaReady)
        cuda(0);
      else
        not_instantiated_for_cuda(skeleton, functor);
      return;
#else
      break;
#endif
    case Backend::opencl:
      no_cxx_on_opencl(skeleton);
  }
  throw UsageError(std::string(skeleton) + ": backend not built in");
}

template <class Op>
void run_boxes(Device& device, Queue& q, const BoxList& boxes, const Op& op, const char* skeleton) {
  run_cxx<cuda_ready<Op>()>(
      device, skeleton, typeid(typename Op::functor).name(), [&] { cpu_for_boxes(boxes, op); },
      [&](auto) { cuda_for_boxes(device, q, boxes, op); });
}

template <class F, class T>
void run_reduce_rows(Device& device, Queue& q, const RowsReduce<F, T>& op, index_t rows) {
  run_cxx<CudaEnabled<F>::value>(
      device, "fold", typeid(F).name(), [&] { cpu_reduce_rows(op, rows); },
      [&](auto) { cuda_reduce_rows(q, op, rows); });
}

}  // namespace tessera::skeleton::kernels
