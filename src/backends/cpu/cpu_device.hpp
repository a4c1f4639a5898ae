// The CPU backend: host memory, OpenMP kernels, a synchronous queue.
#pragma once
#include <memory>

#include "core/device.hpp"

namespace tessera::cpu {

DeviceInfo describe_cpu();
std::shared_ptr<Device> open_cpu();

/// The host pointer behind a CPU buffer handle.
template <class T>
T* ptr(void* handle) noexcept {
  return static_cast<T*>(handle);
}

}  // namespace tessera::cpu
