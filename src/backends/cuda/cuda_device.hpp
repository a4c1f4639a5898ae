// The CUDA backend: runtime API devices, streams and events.
#pragma once
#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

#include "core/device.hpp"

namespace tessera::cuda {

/// Every CUDA device (none when there is no driver or no GPU; never an error).
std::vector<DeviceInfo> discover();
std::shared_ptr<Device> open(int ordinal);

class CudaQueue final : public Queue {
 public:
  CudaQueue(int ordinal, std::string device_id);
  ~CudaQueue() override;
  void write(void* dst, std::size_t off, const void* src, std::size_t bytes,
             bool blocking) override;
  void read(const void* src, std::size_t off, void* dst, std::size_t bytes, bool blocking) override;
  void copy(const void* src, std::size_t soff, void* dst, std::size_t doff,
            std::size_t bytes) override;
  std::unique_ptr<Event> record() override;
  void synchronize() override;
  cudaStream_t native() const noexcept { return stream_; }
  int ordinal() const noexcept { return ordinal_; }

 private:
  int ordinal_;
  std::string device_id_;
  cudaStream_t stream_ = nullptr;
};

class CudaDevice final : public Device {
 public:
  CudaDevice(DeviceInfo info, int ordinal);
  void* allocate(std::size_t bytes) override;
  void deallocate(void* handle) noexcept override;
  void* allocate_pinned(std::size_t bytes) override;
  void deallocate_pinned(void* ptr) noexcept override;
  Queue& queue() override { return *queue_; }
  std::unique_ptr<Queue> create_queue() override;
  int ordinal() const noexcept { return ordinal_; }
  const cudaDeviceProp& properties() const noexcept { return props_; }

 private:
  int ordinal_;
  cudaDeviceProp props_{};
  std::unique_ptr<CudaQueue> queue_;
};

/// Makes `ordinal` current for the lifetime of the guard (several GPUs per process).
class DeviceGuard {
 public:
  explicit DeviceGuard(int ordinal);
  ~DeviceGuard();

 private:
  int previous_ = 0;
};

template <class T>
T* ptr(void* handle) noexcept {
  return static_cast<T*>(handle);
}
CudaDevice& device_of(Device& d);
CudaQueue& queue_of(Queue& q);

}  // namespace tessera::cuda
