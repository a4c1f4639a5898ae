// Host <-> device transfers of the streaming thesis mode: the four paths the
// thesis measured (§5.2.2), Q queues used round-robin, and host arrays that
// are pageable or pinned as the path requires.
//
//   rect        rectangular copies from pageable host memory
//               (clEnqueue{Write,Read}BufferRect / cudaMemcpy2DAsync);
//   contiguous  plain copies from pageable memory, one per row unless the
//               rectangle is contiguous on both sides (Queue::write/read);
//   pinned      the whole problem in pinned host memory, rectangular copies
//               (asynchronous DMA);
//   staged      the thesis's final scheme: the host copies the rectangle
//               into a self-managed pinned staging buffer, one contiguous
//               asynchronous copy moves it (and the reverse for reads).
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/buffer.hpp"

namespace tessera::mg::stream {

enum class TransferPath { rect, contiguous, pinned, staged };
std::string to_string(TransferPath p);
/// "rect", "contiguous", "pinned" or "staged"; UsageError otherwise.
TransferPath parse_transfer_path(const std::string& s);

/// A host array: pageable (std::vector) or pinned (for the pinned path).
template <class T>
class HostArray {
 public:
  HostArray() = default;
  HostArray(const std::shared_ptr<Device>& dev, std::size_t n, bool pinned);
  T* data() { return pinned_.size() ? pinned_.data() : pageable_.data(); }
  const T* data() const { return pinned_.size() ? pinned_.data() : pageable_.data(); }
  std::size_t size() const { return pinned_.size() ? pinned_.size() : pageable_.size(); }

 private:
  std::vector<T> pageable_;
  PinnedBuffer<T> pinned_;
};

/// `rows` rows of `width` elements: host rows start every host_pitch elements
/// from host_off, device rows every dev_pitch elements from dev_off.
struct Rect {
  std::size_t host_off = 0, host_pitch = 0, dev_off = 0, dev_pitch = 0, width = 0, rows = 0;
  std::size_t elems() const { return width * rows; }
};

/// One queue's working set (the thesis's `slice`): three device blocks and,
/// for the staged path, a pinned staging buffer. A slot runs one tile at a time.
template <class T>
struct Slot {
  std::unique_ptr<Queue> queue;
  Buffer<T> block[3];
  PinnedBuffer<T> staging;
  std::size_t staged_up = 0, staged_down = 0;  // staging elements in use this tile
  std::vector<std::function<void()>> after;    // host copies once the queue is idle
};

/// Transfer statistics (elements moved), for the reports.
struct TransferCounts {
  double up_bytes = 0, down_bytes = 0;
};

template <class T>
class Streamer {
 public:
  /// Q slots of three device blocks of `block_elems` elements each. Blocks
  /// (and staging) start as NaN so that a read of anything not uploaded or
  /// computed shows up in the results.
  Streamer(std::shared_ptr<Device> dev, int queues, std::size_t block_elems, TransferPath path);
  ~Streamer();
  Streamer(const Streamer&) = delete;
  Streamer& operator=(const Streamer&) = delete;

  /// The next slot, round-robin; waits for its previous tile and finishes
  /// that tile's staged downloads first.
  Slot<T>& next();
  void upload(Slot<T>& s, const T* host, const Rect& r, int block);
  void download(Slot<T>& s, int block, const Rect& r, T* host);
  /// Every slot idle and every download landed in host memory.
  void drain();

  TransferPath path() const { return path_; }
  int queues() const { return static_cast<int>(slots_.size()); }
  std::size_t block_elems() const { return block_elems_; }
  Device& device() const { return *dev_; }
  const TransferCounts& counts() const { return counts_; }

 private:
  void finish(Slot<T>& s);
  void submit_last();
  /// upload (Up, host a const T*) or download (host a T*): one body for both.
  template <bool Up, class HostPtr>
  void transfer(Slot<T>& s, int block, const Rect& r, HostPtr host);
  std::shared_ptr<Device> dev_;
  TransferPath path_;
  std::size_t block_elems_;
  std::vector<Slot<T>> slots_;
  std::size_t next_ = 0;
  Slot<T>* last_ = nullptr;  // the slot whose tile is being enqueued
  TransferCounts counts_;
};

}  // namespace tessera::mg::stream
