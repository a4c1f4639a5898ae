// Typed, move-only device buffers and pinned host buffers (RAII).
#pragma once
#include <cstddef>
#include <memory>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/device.hpp"
#include "core/error.hpp"

namespace tessera {

namespace detail {
/// Swaps two std::tie's of the same members pairwise: how both buffers move.
template <class... M>
void swap_members(std::tuple<M&...> a, std::tuple<M&...> b) noexcept {
  a.swap(b);
}
}  // namespace detail

/// Page-locked host memory from a device (cudaMallocHost, CL_MEM_ALLOC_HOST_PTR,
/// or plain aligned memory on the CPU backend).
template <class T>
class PinnedBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  PinnedBuffer() = default;
  PinnedBuffer(std::shared_ptr<Device> device, std::size_t n)
      : device_(std::move(device)),
        size_(n),
        data_(n ? static_cast<T*>(device_->allocate_pinned(n * sizeof(T))) : nullptr) {}
  PinnedBuffer(PinnedBuffer&& o) noexcept { swap(o); }
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    PinnedBuffer(std::move(o)).swap(*this);
    return *this;
  }
  ~PinnedBuffer() {
    if (data_) device_->deallocate_pinned(data_);
  }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::span<T> span() noexcept { return {data_, size_}; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }

 private:
  void swap(PinnedBuffer& o) noexcept {
    detail::swap_members(std::tie(device_, size_, data_), std::tie(o.device_, o.size_, o.data_));
  }
  std::shared_ptr<Device> device_;
  std::size_t size_ = 0;
  T* data_ = nullptr;
};

/// n elements of T in a device's memory. The handle is opaque (a pointer on the
/// CPU and CUDA backends, a cl_mem on OpenCL); only backend launchers look inside.
template <class T>
class Buffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  using value_type = T;
  Buffer() = default;
  Buffer(std::shared_ptr<Device> device, std::size_t n)
      : device_(std::move(device)),
        size_(n),
        handle_(n ? device_->allocate(n * sizeof(T)) : nullptr) {}
  Buffer(Buffer&& o) noexcept { swap(o); }
  Buffer& operator=(Buffer&& o) noexcept {
    Buffer(std::move(o)).swap(*this);
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() {
    if (handle_) device_->deallocate(handle_);
  }

  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  bool empty() const noexcept { return size_ == 0; }
  Device& device() const noexcept { return *device_; }
  const std::shared_ptr<Device>& device_ptr() const noexcept { return device_; }
  void* handle() const noexcept { return handle_; }

  /// Blocking upload of host data (sizes must match).
  void copy_from_host(std::span<const T> src) {
    check_size(src.size(), "copy_from_host");
    if (size_) device_->queue().write(handle_, 0, src.data(), bytes(), true);
  }
  /// Blocking download into host memory (sizes must match).
  void copy_to_host(std::span<T> dst) const {
    check_size(dst.size(), "copy_to_host");
    if (size_) device_->queue().read(handle_, 0, dst.data(), bytes(), true);
  }
  std::vector<T> to_vector() const {
    std::vector<T> v(size_);
    copy_to_host(v);
    return v;
  }
  /// Asynchronous transfers on `q`; the pinned buffer must outlive the transfer.
  void write_async(const PinnedBuffer<T>& src, Queue& q) {
    check_size(src.size(), "write_async");
    if (size_) q.write(handle_, 0, src.data(), bytes(), false);
  }
  void read_async(PinnedBuffer<T>& dst, Queue& q) const {
    check_size(dst.size(), "read_async");
    if (size_) q.read(handle_, 0, dst.data(), bytes(), false);
  }
  /// Copies `src` into this buffer: on the device when both live on the same
  /// device; straight between the memories when one of them is the CPU
  /// backend's (its handle is host memory, its queue synchronous); otherwise
  /// through a host copy.
  void copy_from(const Buffer& src) {
    check_size(src.size(), "copy_from");
    if (!size_) return;
    if (&src.device() == device_.get()) {
      device_->queue().copy(src.handle_, 0, handle_, 0, bytes());
    } else if (device_->backend() == Backend::cpu) {
      src.copy_to_host({static_cast<T*>(handle_), size_});
    } else if (src.device().backend() == Backend::cpu) {
      copy_from_host({static_cast<const T*>(src.handle_), size_});
    } else {
      copy_from_host(src.to_vector());
    }
  }

 private:
  void check_size(std::size_t n, const char* what) const {
    if (n != size_)
      throw Error(std::string("Buffer::") + what + ": size mismatch (" + std::to_string(n) +
                  " elements given, buffer holds " + std::to_string(size_) + ")");
  }
  void swap(Buffer& o) noexcept {
    detail::swap_members(std::tie(device_, size_, handle_),
                         std::tie(o.device_, o.size_, o.handle_));
  }
  std::shared_ptr<Device> device_;
  std::size_t size_ = 0;
  void* handle_ = nullptr;
};

}  // namespace tessera
