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

template <class Op>
void run_boxes(Device& device, [[maybe_unused]] Queue& q, const BoxList& boxes, const Op& op,
               const char* skeleton) {
  switch (device.backend()) {
    case Backend::cpu:
      cpu_for_boxes(boxes, op);
      return;
    case Backend::cuda:
#if TESSERA_HAVE_CUDA
      if constexpr (cuda_ready<Op>())
        cuda_for_boxes(device, q, boxes, op);
      else
        not_instantiated_for_cuda(skeleton, typeid(typename Op::functor).name());
      return;
#else
      break;
#endif
    case Backend::opencl:
      no_cxx_on_opencl(skeleton);
  }
  throw UsageError(std::string(skeleton) + ": backend not built in");
}

template <class F, class T>
void run_reduce_rows(Device& device, [[maybe_unused]] Queue& q, const RowsReduce<F, T>& op,
                     index_t rows) {
  switch (device.backend()) {
    case Backend::cpu:
      cpu_reduce_rows(op, rows);
      return;
    case Backend::cuda:
#if TESSERA_HAVE_CUDA
      if constexpr (CudaEnabled<F>::value)
        cuda_reduce_rows(q, op, rows);
      else
        not_instantiated_for_cuda("fold", typeid(F).name());
      return;
#else
      break;
#endif
    case Backend::opencl:
      no_cxx_on_opencl("fold");
  }
  throw UsageError("fold: backend not built in");
}

}  // namespace tessera::skeleton::kernels
