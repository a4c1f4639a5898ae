#include "backends/cuda/cuda_device.hpp"

#include <fmt/format.h>

#include "backends/backend_cast.hpp"
#include "backends/cuda/cuda_check.hpp"
#include "core/env.hpp"
#include "core/error.hpp"
#include "core/fault_injection.hpp"

namespace tessera::cuda {

void throw_cuda_error(cudaError_t code, const char* call, std::string_view what) {
  throw BackendError("CUDA", call, static_cast<std::int64_t>(code), cudaGetErrorName(code),
                     std::string(what));
}

void check_launch(const char* kernel_name) {
  const cudaError_t launched = cudaGetLastError();
  cuda_check(fault::inject(fault::Point::cuda_launch) ? cudaErrorLaunchFailure : launched,
             "kernel launch", std::string("launching ") + kernel_name);
  static const bool sync = env_flag("TESSERA_CUDA_SYNC", false);
  if (sync)
    cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize",
               std::string("running ") + kernel_name);
}

namespace {

class CudaEvent final : public Event {
 public:
  explicit CudaEvent(cudaStream_t s) {
    cuda_check(cudaEventCreate(&event_), "cudaEventCreate", "creating a timing event");
    cuda_check(cudaEventRecord(event_, s), "cudaEventRecord", "recording a timing event");
  }
  ~CudaEvent() override { cudaEventDestroy(event_); }
  double ms_since(const Event& earlier) const override {
    auto& e = dynamic_cast<const CudaEvent&>(earlier);
    cuda_check(cudaEventSynchronize(event_), "cudaEventSynchronize", "waiting for a timing event");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, e.event_, event_), "cudaEventElapsedTime",
               "reading a timing event");
    return ms;
  }
  void wait() const override {
    cuda_check(cudaEventSynchronize(event_), "cudaEventSynchronize", "waiting for an event");
  }

 private:
  cudaEvent_t event_ = nullptr;
};

DeviceInfo describe(int ordinal, cudaDeviceProp& props) {
  cuda_check(cudaGetDeviceProperties(&props, ordinal), "cudaGetDeviceProperties",
             fmt::format("describing cuda:{}", ordinal));
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  DeviceInfo d;
  d.id = fmt::format("cuda:{}", ordinal);
  d.backend = Backend::cuda;
  d.name = props.name;
  d.vendor = "NVIDIA";
  d.platform = fmt::format("CUDA (sm_{}{})", props.major, props.minor);
  d.driver_version = fmt::format("driver {}.{}, runtime {}.{}", driver / 1000, (driver % 1000) / 10,
                                 runtime / 1000, (runtime % 1000) / 10);
  d.is_gpu = true;
  d.fp64 = true;
  d.compute_units = props.multiProcessorCount;
  d.global_mem_bytes = props.totalGlobalMem;
  d.max_alloc_bytes = props.totalGlobalMem;
  d.cache_bytes = static_cast<std::uint64_t>(props.l2CacheSize);
  // peak DRAM bandwidth: double data rate x bus width (the clock is an
  // attribute only since CUDA 13; querying it costs about a millisecond,
  // so it is done here once per device). Not knowing it is no reason to
  // lose the device: memory_gbps stays 0 ("unknown", DeviceInfo).
  int khz = 0, bits = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, ordinal) == cudaSuccess &&
      cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, ordinal) == cudaSuccess)
    d.memory_gbps = 2.0 * khz * 1e3 * (bits / 8.0) / 1e9;
  else
    cudaGetLastError();  // clear the failed query's error
  return d;
}

}  // namespace

std::vector<DeviceInfo> discover() {
  int n = 0;
  // No driver / no GPU means no CUDA devices, not an error.
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return {};
  }
  std::vector<DeviceInfo> out;
  for (int i = 0; i < n; ++i) {
    cudaDeviceProp props{};
    out.push_back(describe(i, props));
  }
  return out;
}

std::shared_ptr<Device> open(int ordinal) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    n = 0;
  }
  if (ordinal < 0 || ordinal >= n)
    throw UsageError(fmt::format("no CUDA device {} (this machine has {})", ordinal, n));
  cudaDeviceProp props{};
  auto info = describe(ordinal, props);
  return std::make_shared<CudaDevice>(std::move(info), ordinal);
}

DeviceGuard::DeviceGuard(int ordinal) {
  cuda_check(cudaGetDevice(&previous_), "cudaGetDevice", "saving the current device");
  if (previous_ != ordinal)
    cuda_check(cudaSetDevice(ordinal), "cudaSetDevice", fmt::format("selecting cuda:{}", ordinal));
}

DeviceGuard::~DeviceGuard() { cudaSetDevice(previous_); }

CudaQueue::CudaQueue(int ordinal, std::string device_id)
    : ordinal_(ordinal), device_id_(std::move(device_id)) {
  DeviceGuard g(ordinal_);
  cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate",
             "creating a stream on " + device_id_);
}

CudaQueue::~CudaQueue() {
  if (stream_) {
    cudaStreamSynchronize(stream_);
    cudaStreamDestroy(stream_);
  }
}

void CudaQueue::write(void* dst, std::size_t off, const void* src, std::size_t bytes,
                      bool blocking) {
  DeviceGuard g(ordinal_);
  cuda_check(
      cudaMemcpyAsync(static_cast<char*>(dst) + off, src, bytes, cudaMemcpyHostToDevice, stream_),
      "cudaMemcpyAsync(HostToDevice)", fmt::format("writing {} bytes to {}", bytes, device_id_));
  if (blocking) synchronize();
}

void CudaQueue::read(const void* src, std::size_t off, void* dst, std::size_t bytes,
                     bool blocking) {
  DeviceGuard g(ordinal_);
  cuda_check(cudaMemcpyAsync(dst, static_cast<const char*>(src) + off, bytes,
                             cudaMemcpyDeviceToHost, stream_),
             "cudaMemcpyAsync(DeviceToHost)",
             fmt::format("reading {} bytes from {}", bytes, device_id_));
  if (blocking) synchronize();
}

void CudaQueue::copy(const void* src, std::size_t soff, void* dst, std::size_t doff,
                     std::size_t bytes) {
  DeviceGuard g(ordinal_);
  cuda_check(cudaMemcpyAsync(static_cast<char*>(dst) + doff, static_cast<const char*>(src) + soff,
                             bytes, cudaMemcpyDeviceToDevice, stream_),
             "cudaMemcpyAsync(DeviceToDevice)",
             fmt::format("copying {} bytes on {}", bytes, device_id_));
}

std::unique_ptr<Event> CudaQueue::record() {
  DeviceGuard g(ordinal_);
  return std::make_unique<CudaEvent>(stream_);
}

void CudaQueue::synchronize() {
  DeviceGuard g(ordinal_);
  cuda_check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize",
             "synchronizing " + device_id_);
}

CudaDevice::CudaDevice(DeviceInfo info, int ordinal)
    : Device(std::move(info)),
      ordinal_(ordinal),
      queue_(std::make_unique<CudaQueue>(ordinal, id())) {
  cuda_check(cudaGetDeviceProperties(&props_, ordinal_), "cudaGetDeviceProperties", id());
}

void* CudaDevice::allocate(std::size_t bytes) {
  check_fits(bytes);
  DeviceGuard g(ordinal_);
  void* p = nullptr;
  cudaError_t err =
      fault::inject(fault::Point::device_alloc) ? cudaErrorMemoryAllocation : cudaMalloc(&p, bytes);
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    std::size_t free = 0, total = 0;
    cudaMemGetInfo(&free, &total);
    throw OutOfMemory(id(), bytes, free);
  }
  cuda_check(err, "cudaMalloc", fmt::format("allocating {} bytes on {}", bytes, id()));
  return p;
}

void CudaDevice::deallocate(void* handle) noexcept {
  DeviceGuard g(ordinal_);
  cudaFree(handle);
}

void* CudaDevice::allocate_pinned(std::size_t bytes) {
  DeviceGuard g(ordinal_);
  void* p = nullptr;
  cudaError_t err = fault::inject(fault::Point::host_alloc) ? cudaErrorMemoryAllocation
                                                            : cudaMallocHost(&p, bytes);
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    throw OutOfMemory("host (pinned, for " + id() + ")", bytes, 0);
  }
  cuda_check(err, "cudaMallocHost", fmt::format("allocating {} pinned bytes", bytes));
  return p;
}

void CudaDevice::deallocate_pinned(void* p) noexcept { cudaFreeHost(p); }

std::unique_ptr<Queue> CudaDevice::create_queue() {
  return std::make_unique<CudaQueue>(ordinal_, id());
}

CudaDevice& device_of(Device& d) { return backend_cast<CudaDevice>(d, "a CUDA device"); }
CudaQueue& queue_of(Queue& q) { return backend_cast<CudaQueue>(q, "a CUDA stream"); }

}  // namespace tessera::cuda
