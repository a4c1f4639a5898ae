#include "backends/cpu/cpu_device.hpp"

#include <omp.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <new>

#include "core/error.hpp"
#include "core/fault_injection.hpp"

namespace tessera::cpu {

namespace {

constexpr std::size_t kAlignment = 64;  // cache line; also 16-byte vector alignment

class CpuEvent final : public Event {
 public:
  CpuEvent() : t_(std::chrono::steady_clock::now()) {}
  double ms_since(const Event& earlier) const override {
    auto& e = dynamic_cast<const CpuEvent&>(earlier);
    return std::chrono::duration<double, std::milli>(t_ - e.t_).count();
  }
  void wait() const override {}  // the CPU queue completes every command before returning

 private:
  std::chrono::steady_clock::time_point t_;
};

// Work on the CPU completes before the call returns, so the queue is trivial;
// copies are parallel so that a device-to-device copy measures memory bandwidth.
class CpuQueue final : public Queue {
 public:
  void write(void* dst, std::size_t off, const void* src, std::size_t bytes, bool) override {
    parallel_copy(static_cast<char*>(dst) + off, src, bytes);
  }
  void read(const void* src, std::size_t off, void* dst, std::size_t bytes, bool) override {
    parallel_copy(dst, static_cast<const char*>(src) + off, bytes);
  }
  void copy(const void* src, std::size_t soff, void* dst, std::size_t doff,
            std::size_t bytes) override {
    parallel_copy(static_cast<char*>(dst) + doff, static_cast<const char*>(src) + soff, bytes);
  }
  std::unique_ptr<Event> record() override { return std::make_unique<CpuEvent>(); }
  void synchronize() override {}

 private:
  static void parallel_copy(void* dst, const void* src, std::size_t bytes) {
    constexpr std::size_t kBlock = 1 << 20;
    const std::ptrdiff_t blocks = static_cast<std::ptrdiff_t>((bytes + kBlock - 1) / kBlock);
#pragma omp parallel for schedule(static) if (blocks > 1)
    for (std::ptrdiff_t b = 0; b < blocks; ++b) {
      std::size_t begin = static_cast<std::size_t>(b) * kBlock;
      std::size_t n = std::min(kBlock, bytes - begin);
      std::memcpy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin, n);
    }
  }
};

class CpuDevice final : public Device {
 public:
  CpuDevice() : Device(describe_cpu()) {}
  void* allocate(std::size_t bytes) override {
    check_fits(bytes);
    void* p = fault::inject(fault::Point::device_alloc)
                  ? nullptr
                  : ::operator new(bytes, std::align_val_t(kAlignment), std::nothrow);
    if (!p) throw OutOfMemory(id(), bytes, info().global_mem_bytes);
    return p;
  }
  void deallocate(void* p) noexcept override { ::operator delete(p, std::align_val_t(kAlignment)); }
  void* allocate_pinned(std::size_t bytes) override {
    if (fault::inject(fault::Point::host_alloc))
      throw OutOfMemory(id() + " (pinned host memory)", bytes, 0);
    return allocate(bytes);
  }
  void deallocate_pinned(void* p) noexcept override { deallocate(p); }
  Queue& queue() override { return queue_; }
  std::unique_ptr<Queue> create_queue() override { return std::make_unique<CpuQueue>(); }

 private:
  CpuQueue queue_;
};

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
  return "host CPU";
}

}  // namespace

DeviceInfo describe_cpu() {
  DeviceInfo d;
  d.id = "cpu";
  d.backend = Backend::cpu;
  d.name = cpu_model_name();
  d.vendor = "host";
  d.platform = "OpenMP";
  d.driver_version = "OpenMP " + std::to_string(_OPENMP);
  d.compute_units = omp_get_max_threads();
  d.global_mem_bytes = static_cast<std::uint64_t>(::sysconf(_SC_PHYS_PAGES)) *
                       static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  d.max_alloc_bytes = d.global_mem_bytes;
  long l3 = ::sysconf(_SC_LEVEL3_CACHE_SIZE);
  d.cache_bytes = l3 > 0 ? static_cast<std::uint64_t>(l3) : 0;
  return d;
}

std::shared_ptr<Device> open_cpu() { return std::make_shared<CpuDevice>(); }

}  // namespace tessera::cpu
