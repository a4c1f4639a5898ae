// Checking every CUDA runtime call and kernel launch.
#pragma once
#include <cuda_runtime_api.h>

#include <string>
#include <string_view>

namespace tessera::cuda {

[[noreturn]] void throw_cuda_error(cudaError_t code, const char* call, std::string_view what);

/// Throws BackendError("CUDA", call, code, what) unless code == cudaSuccess.
inline void cuda_check(cudaError_t code, const char* call, std::string_view what) {
  if (code != cudaSuccess) [[unlikely]]
    throw_cuda_error(code, call, what);
}

/// After a <<<>>> launch: reports launch errors; with TESSERA_CUDA_SYNC=1 it
/// also synchronizes so that asynchronous faults are blamed on the right kernel.
void check_launch(const char* kernel_name);

}  // namespace tessera::cuda
