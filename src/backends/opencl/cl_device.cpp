#include "backends/opencl/cl_device.hpp"

#include <fmt/format.h>

#include "backends/backend_cast.hpp"
#include "core/error.hpp"
#include "core/fault_injection.hpp"

namespace tessera::opencl {

namespace {

class ClEvent final : public Event {
 public:
  explicit ClEvent(cl::Event e) : event_(std::move(e)) {}
  double ms_since(const Event& earlier) const override {
    auto& e = dynamic_cast<const ClEvent&>(earlier);
    return static_cast<double>(end_ns() - e.end_ns()) * 1e-6;
  }
  void wait() const override { cl_check(event_.wait(), "clWaitForEvents", "waiting for a marker"); }

 private:
  cl_ulong end_ns() const {
    cl_check(event_.wait(), "clWaitForEvents", "waiting for a timing marker");
    cl_ulong t = 0;
    cl_check(event_.getProfilingInfo(CL_PROFILING_COMMAND_END, &t), "clGetEventProfilingInfo",
             "reading a timing marker");
    return t;
  }
  cl::Event event_;
};

std::vector<cl::Platform> platforms() {
  std::vector<cl::Platform> ps;
  // No ICD, or an ICD loader with no vendors, is "no OpenCL devices", not an error.
  if (cl::Platform::get(&ps) != CL_SUCCESS) return {};
  return ps;
}

std::vector<cl::Device> devices_of(const cl::Platform& p) {
  std::vector<cl::Device> ds;
  if (p.getDevices(CL_DEVICE_TYPE_ALL, &ds) != CL_SUCCESS) return {};
  return ds;
}

DeviceInfo describe(const cl::Platform& p, const cl::Device& d, int pi, int di) {
  DeviceInfo info;
  info.id = fmt::format("opencl:{}:{}", pi, di);
  info.backend = Backend::opencl;
  info.name = d.getInfo<CL_DEVICE_NAME>();
  info.vendor = d.getInfo<CL_DEVICE_VENDOR>();
  info.platform = p.getInfo<CL_PLATFORM_NAME>();
  info.driver_version =
      d.getInfo<CL_DRIVER_VERSION>() + " (" + d.getInfo<CL_DEVICE_VERSION>() + ")";
  info.is_gpu = (d.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU) != 0;
  info.fp64 = d.getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() != 0;
  info.compute_units = static_cast<int>(d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>());
  info.global_mem_bytes = d.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
  info.max_alloc_bytes = d.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
  info.cache_bytes = d.getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>();
  // Driver-side strings carry trailing NULs in some implementations.
  for (auto* s : {&info.name, &info.vendor, &info.platform, &info.driver_version})
    while (!s->empty() && s->back() == '\0') s->pop_back();
  return info;
}

cl::Context make_context(const cl::Device& d, const std::string& id) {
  cl_int err = CL_SUCCESS;
  cl::Context ctx(d, nullptr, nullptr, nullptr, &err);
  cl_check(err, "clCreateContext", "opening " + id);
  return ctx;
}

}  // namespace

std::vector<DeviceInfo> discover() {
  std::vector<DeviceInfo> out;
  auto ps = platforms();
  for (int pi = 0; pi < static_cast<int>(ps.size()); ++pi) {
    auto ds = devices_of(ps[static_cast<std::size_t>(pi)]);
    for (int di = 0; di < static_cast<int>(ds.size()); ++di)
      out.push_back(
          describe(ps[static_cast<std::size_t>(pi)], ds[static_cast<std::size_t>(di)], pi, di));
  }
  return out;
}

std::shared_ptr<Device> open(int pi, int di) {
  auto ps = platforms();
  if (pi < 0 || pi >= static_cast<int>(ps.size()))
    throw UsageError(fmt::format(
        "no OpenCL platform {} (found {}); `tessera devices` lists what exists{}", pi, ps.size(),
        ps.empty() ? " — is an ICD installed? For NVIDIA see OCL_ICD_VENDORS in the README" : ""));
  auto ds = devices_of(ps[static_cast<std::size_t>(pi)]);
  if (di < 0 || di >= static_cast<int>(ds.size()))
    throw UsageError(
        fmt::format("OpenCL platform {} has no device {} (it has {})", pi, di, ds.size()));
  const auto& p = ps[static_cast<std::size_t>(pi)];
  const auto& d = ds[static_cast<std::size_t>(di)];
  return std::make_shared<ClDevice>(describe(p, d, pi, di), p, d);
}

ClQueue::ClQueue(const cl::Context& ctx, const cl::Device& dev, std::string device_id)
    : device_id_(std::move(device_id)) {
  cl_int err = CL_SUCCESS;
  queue_ = cl::CommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  cl_check(err, "clCreateCommandQueue", "creating a queue on " + device_id_);
}

void ClQueue::write(void* dst, std::size_t off, const void* src, std::size_t bytes, bool blocking) {
  cl_check(clEnqueueWriteBuffer(queue_(), mem(dst), blocking ? CL_TRUE : CL_FALSE, off, bytes, src,
                                0, nullptr, nullptr),
           "clEnqueueWriteBuffer", fmt::format("writing {} bytes to {}", bytes, device_id_));
}

void ClQueue::read(const void* src, std::size_t off, void* dst, std::size_t bytes, bool blocking) {
  cl_check(clEnqueueReadBuffer(queue_(), mem(const_cast<void*>(src)), blocking ? CL_TRUE : CL_FALSE,
                               off, bytes, dst, 0, nullptr, nullptr),
           "clEnqueueReadBuffer", fmt::format("reading {} bytes from {}", bytes, device_id_));
}

void ClQueue::copy(const void* src, std::size_t soff, void* dst, std::size_t doff,
                   std::size_t bytes) {
  cl_check(clEnqueueCopyBuffer(queue_(), mem(const_cast<void*>(src)), mem(dst), soff, doff, bytes,
                               0, nullptr, nullptr),
           "clEnqueueCopyBuffer", fmt::format("copying {} bytes on {}", bytes, device_id_));
}

std::unique_ptr<Event> ClQueue::record() {
  cl::Event e;
  cl_check(queue_.enqueueMarkerWithWaitList(nullptr, &e), "clEnqueueMarkerWithWaitList",
           "recording a timing marker on " + device_id_);
  // submitted now, like a CUDA event: an unflushed marker (and the work
  // before it) would wait for the next flush, so host time spent meanwhile
  // would land in a timed phase, and a host waiting on the marker would
  // start the work late. Also on the fused GMRES path (one marker per step);
  // measured with it: 68.4 ms fused on NVIDIA OpenCL (bench/results, s15)
  cl_check(queue_.flush(), "clFlush", "submitting a timing marker on " + device_id_);
  return std::make_unique<ClEvent>(std::move(e));
}

void ClQueue::synchronize() {
  cl_check(queue_.finish(), "clFinish", "synchronizing " + device_id_);
}

void ClQueue::launch(const cl::Kernel& k, const cl::NDRange& global, const cl::NDRange& local,
                     const char* what) {
  cl_check(queue_.enqueueNDRangeKernel(k, cl::NullRange, global, local), "clEnqueueNDRangeKernel",
           fmt::format("launching {} on {}", what, device_id_));
}

ClDevice::ClDevice(DeviceInfo info, cl::Platform platform, cl::Device device)
    : Device(std::move(info)),
      platform_(std::move(platform)),
      device_(std::move(device)),
      context_(make_context(device_, id())),
      queue_(std::make_unique<ClQueue>(context_, device_, id())),
      programs_(
          context_, device_,
          this->info().platform + '|' + this->info().name + '|' + this->info().driver_version) {
  nv_compiler_options_ =
      device_.getInfo<CL_DEVICE_EXTENSIONS>().find("cl_nv_compiler_options") != std::string::npos;
}

ClDevice::~ClDevice() {
  if (queue_) queue_->native().finish();
}

void* ClDevice::allocate(std::size_t bytes) {
  check_fits(bytes);
  cl_int err = CL_SUCCESS;
  cl_mem m = fault::inject(fault::Point::device_alloc)
                 ? (err = CL_MEM_OBJECT_ALLOCATION_FAILURE, nullptr)
                 : clCreateBuffer(context_(), CL_MEM_READ_WRITE, bytes, nullptr, &err);
  if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
      err == CL_OUT_OF_HOST_MEMORY)
    throw OutOfMemory(id(), bytes, info().global_mem_bytes);
  cl_check(err, "clCreateBuffer", fmt::format("allocating {} bytes on {}", bytes, id()));
  return m;
}

void ClDevice::deallocate(void* handle) noexcept { clReleaseMemObject(mem(handle)); }

void* ClDevice::allocate_pinned(std::size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl::Buffer buf;
  if (fault::inject(fault::Point::host_alloc))
    err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
  else
    buf = cl::Buffer(context_, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &err);
  if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_HOST_MEMORY)
    throw OutOfMemory(id() + " (pinned host memory)", bytes, 0);
  cl_check(err, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)", "allocating pinned host memory");
  void* p = queue_->native().enqueueMapBuffer(buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes,
                                              nullptr, nullptr, &err);
  cl_check(err, "clEnqueueMapBuffer", "mapping pinned host memory");
  std::lock_guard lock(pinned_mutex_);
  pinned_.emplace(p, std::move(buf));
  return p;
}

void ClDevice::deallocate_pinned(void* ptr) noexcept {
  std::lock_guard lock(pinned_mutex_);
  auto it = pinned_.find(ptr);
  if (it == pinned_.end()) return;
  queue_->native().enqueueUnmapMemObject(it->second, ptr);
  queue_->native().finish();
  pinned_.erase(it);
}

std::unique_ptr<Queue> ClDevice::create_queue() {
  return std::make_unique<ClQueue>(context_, device_, id());
}

cl::Kernel ClDevice::kernel(const std::string& program, const std::string& kernel_name,
                            const std::string& options) {
  const std::string key = program + '\n' + options + '\n' + kernel_name;
  if (auto it = kernels_.find(key); it != kernels_.end()) return it->second;
  const cl::Program& p = programs_.get(program, options);
  cl_int err = CL_SUCCESS;
  cl::Kernel k(p, kernel_name.c_str(), &err);
  cl_check(err, "clCreateKernel", "creating kernel " + kernel_name + " of " + program);
  return kernels_.emplace(key, k).first->second;
}

ClDevice& device_of(Device& d) { return backend_cast<ClDevice>(d, "an OpenCL device"); }
ClQueue& queue_of(Queue& q) { return backend_cast<ClQueue>(q, "an OpenCL queue"); }

}  // namespace tessera::opencl
