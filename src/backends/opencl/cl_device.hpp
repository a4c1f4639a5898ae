// The OpenCL backend: platforms and devices through the Khronos C++ bindings,
// run-time compiled programs (cl_program_cache.hpp), profiling queues.
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/opencl/cl_api.hpp"
#include "backends/opencl/cl_program_cache.hpp"
#include "core/device.hpp"

namespace tessera::opencl {

/// Every device of every platform the ICD loader lists (none if there is no
/// loader configuration; never an error).
std::vector<DeviceInfo> discover();
std::shared_ptr<Device> open(int platform, int device);

class ClQueue final : public Queue {
 public:
  ClQueue(const cl::Context& ctx, const cl::Device& dev, std::string device_id);
  void write(void* dst, std::size_t off, const void* src, std::size_t bytes,
             bool blocking) override;
  void read(const void* src, std::size_t off, void* dst, std::size_t bytes, bool blocking) override;
  void copy(const void* src, std::size_t soff, void* dst, std::size_t doff,
            std::size_t bytes) override;
  std::unique_ptr<Event> record() override;
  void synchronize() override;
  cl::CommandQueue& native() noexcept { return queue_; }
  /// Enqueues `k` over `global` (rounded up to a multiple of `local` by the caller).
  void launch(const cl::Kernel& k, const cl::NDRange& global, const cl::NDRange& local,
              const char* what);

 private:
  cl::CommandQueue queue_;
  std::string device_id_;
};

class ClDevice final : public Device {
 public:
  ClDevice(DeviceInfo info, cl::Platform platform, cl::Device device);
  ~ClDevice() override;
  void* allocate(std::size_t bytes) override;
  void deallocate(void* handle) noexcept override;
  void* allocate_pinned(std::size_t bytes) override;
  void deallocate_pinned(void* ptr) noexcept override;
  Queue& queue() override { return *queue_; }
  std::unique_ptr<Queue> create_queue() override;

  const cl::Context& context() const noexcept { return context_; }
  const cl::Device& native() const noexcept { return device_; }
  /// A kernel from an embedded program built with `options` (cached in memory
  /// and on disk).
  cl::Kernel kernel(const std::string& program, const std::string& kernel_name,
                    const std::string& options);
  /// Whether the compiler takes NVIDIA's options (-cl-nv-maxrregcount).
  bool has_nv_compiler_options() const noexcept { return nv_compiler_options_; }

 private:
  cl::Platform platform_;
  cl::Device device_;
  cl::Context context_;
  std::unique_ptr<ClQueue> queue_;
  ProgramCache programs_;
  std::map<std::string, cl::Kernel> kernels_;
  std::mutex pinned_mutex_;
  std::unordered_map<void*, cl::Buffer> pinned_;
  bool nv_compiler_options_ = false;
};

/// The cl_mem behind a buffer handle.
inline cl_mem mem(void* handle) noexcept { return static_cast<cl_mem>(handle); }

/// Sets argument `index` of `k` (value: null for a __local size), checked.
inline void set_arg(const cl::Kernel& k, cl_uint index, std::size_t bytes, const void* value) {
  cl_check(clSetKernelArg(k(), index, bytes, value), "clSetKernelArg",
           "setting argument " + std::to_string(index) + " of a kernel");
}

/// Sets every argument of `k` in order, checking each. (The C++ bindings'
/// setArg would take a cl_mem, a pointer type, for an SVM pointer.)
template <class... Args>
void set_args(const cl::Kernel& k, const Args&... args) {
  cl_uint i = 0;
  auto one = [&](const auto& v) {
    cl_check(clSetKernelArg(k(), i, sizeof(v), &v), "clSetKernelArg",
             "setting argument " + std::to_string(i) + " of a kernel");
    ++i;
  };
  (one(args), ...);
}
ClDevice& device_of(Device& d);
ClQueue& queue_of(Queue& q);

}  // namespace tessera::opencl
