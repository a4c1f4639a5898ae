// Devices, queues and events: the backend-independent face of the runtime.
// A backend (src/backends/*) implements these interfaces; numerical modules use
// them to allocate, copy and time, and downcast only inside their own backend
// launchers (see docs/ARCHITECTURE.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace tessera {

enum class Backend { cpu, opencl, cuda };
std::string_view to_string(Backend b) noexcept;

/// What `tessera devices` shows, and what every benchmark record carries.
struct DeviceInfo {
  std::string id;  ///< stable id: "cpu", "opencl:P:D", "cuda:N"
  Backend backend = Backend::cpu;
  std::string name;
  std::string vendor;
  std::string platform;        ///< OpenCL platform name; backend name otherwise
  std::string driver_version;  ///< driver / runtime version string
  bool is_gpu = false;
  bool fp64 = true;
  int compute_units = 0;
  std::uint64_t global_mem_bytes = 0;
  std::uint64_t max_alloc_bytes = 0;
  std::uint64_t cache_bytes = 0;  ///< last-level cache (L2 on GPUs), 0 if unknown
  double memory_gbps = 0;         ///< peak DRAM bandwidth in GB/s, 0 if unknown
};

/// A point in a queue's command stream; two events of the same queue give the
/// device-measured time between them.
class Event {
 public:
  virtual ~Event() = default;
  /// Milliseconds from `earlier` to this event. Both must have completed.
  virtual double ms_since(const Event& earlier) const = 0;
  /// Blocks until the device has reached this point of its queue (and done
  /// everything before it, such as an asynchronous read into host memory).
  virtual void wait() const = 0;
};

/// An in-order command queue (OpenCL command queue, CUDA stream, or the CPU's
/// synchronous stand-in). Device memory is addressed by opaque handles.
class Queue {
 public:
  virtual ~Queue() = default;
  virtual void write(void* dst, std::size_t dst_offset, const void* src, std::size_t bytes,
                     bool blocking) = 0;
  virtual void read(const void* src, std::size_t src_offset, void* dst, std::size_t bytes,
                    bool blocking) = 0;
  virtual void copy(const void* src, std::size_t src_offset, void* dst, std::size_t dst_offset,
                    std::size_t bytes) = 0;
  virtual std::unique_ptr<Event> record() = 0;
  virtual void synchronize() = 0;
};

/// One compute device. Shared (std::shared_ptr) by every buffer allocated on it,
/// so it outlives them.
class Device : public std::enable_shared_from_this<Device> {
 public:
  explicit Device(DeviceInfo info) : info_(std::move(info)) {}
  virtual ~Device() = default;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceInfo& info() const noexcept { return info_; }
  Backend backend() const noexcept { return info_.backend; }
  const std::string& id() const noexcept { return info_.id; }

  /// Device memory; throws OutOfMemory (with the size) when it cannot fit.
  virtual void* allocate(std::size_t bytes) = 0;
  virtual void deallocate(void* handle) noexcept = 0;
  /// Page-locked host memory for fast and asynchronous transfers.
  virtual void* allocate_pinned(std::size_t bytes) = 0;
  virtual void deallocate_pinned(void* ptr) noexcept = 0;

  /// The queue every operation uses unless given another.
  virtual Queue& queue() = 0;
  virtual std::unique_ptr<Queue> create_queue() = 0;
  void synchronize() { queue().synchronize(); }

 protected:
  /// Throws OutOfMemory when `bytes` exceeds what the device reports it has.
  void check_fits(std::size_t bytes) const;

 private:
  DeviceInfo info_;
};

}  // namespace tessera
