#include "mg/streaming_transfer.hpp"

#include <cstring>
#include <limits>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "mg/kernels/mg_stream_kernels.hpp"

namespace tessera::mg::stream {

namespace {
constexpr std::array<std::string_view, 4> kPaths{"rect", "contiguous", "pinned", "staged"};
static_assert(kPaths.size() == std::size_t(TransferPath::staged) + 1);
}  // namespace

std::string to_string(TransferPath p) { return std::string(enum_name(p, kPaths)); }

TransferPath parse_transfer_path(const std::string& s) {
  return enum_parse<TransferPath>(s, kPaths, "transfer path");
}

template <class T>
HostArray<T>::HostArray(const std::shared_ptr<Device>& dev, std::size_t n, bool pinned) {
  if (pinned) {
    pinned_ = PinnedBuffer<T>(dev, n);
    std::memset(static_cast<void*>(pinned_.data()), 0, n * sizeof(T));
  } else {
    pageable_.assign(n, T(0));
  }
}

template <class T>
Streamer<T>::Streamer(std::shared_ptr<Device> dev, int queues, std::size_t block_elems,
                      TransferPath path)
    : dev_(std::move(dev)), path_(path), block_elems_(block_elems) {
  if (queues < 1) throw UsageError("the streaming mode needs at least one queue");
  const std::vector<T> nan(block_elems, std::numeric_limits<T>::quiet_NaN());
  slots_.resize(static_cast<std::size_t>(queues));
  for (auto& s : slots_) {
    s.queue = dev_->create_queue();
    for (auto& b : s.block) {
      b = Buffer<T>(dev_, block_elems);
      b.copy_from_host(nan);
    }
    if (path_ == TransferPath::staged) {
      s.staging = PinnedBuffer<T>(dev_, 3 * block_elems);
      for (std::size_t i = 0; i < s.staging.size(); ++i) s.staging[i] = nan[0];
    }
  }
}

template <class T>
Streamer<T>::~Streamer() {
  for (auto& s : slots_) try {
      if (s.queue) s.queue->synchronize();
    } catch (...) {  // a destructor must not throw; the error was reported by the failing call
    }
}

template <class T>
void Streamer<T>::finish(Slot<T>& s) {
  s.queue->synchronize();
  for (auto& f : s.after) f();
  s.after.clear();
  s.staged_up = s.staged_down = 0;
}

template <class T>
void Streamer<T>::submit_last() {
  if (!last_) return;
  dispatch(*dev_, [&](auto tag) { kernels::flush(tag, *last_->queue); });
  last_ = nullptr;
}

template <class T>
Slot<T>& Streamer<T>::next() {
  submit_last();  // the previous tile runs while this one is prepared
  Slot<T>& s = slots_[next_];
  next_ = (next_ + 1) % slots_.size();
  finish(s);
  last_ = &s;
  return s;
}

template <class T>
void Streamer<T>::drain() {
  submit_last();
  for (auto& s : slots_) finish(s);
  next_ = 0;
}

namespace {
// Host copy of a rectangle between pitched arrays (the staged path's own
// memcpy; the thesis's host did it on one core, here large rectangles use
// every core so the copy keeps up with the bus).
template <class T>
void copy_rows(T* dst, std::size_t dpitch, const T* src, std::size_t spitch, std::size_t width,
               std::size_t rows) {
  const long n = static_cast<long>(rows);
#pragma omp parallel for schedule(static) if (rows * width >= (std::size_t(1) << 16))
  for (long row = 0; row < n; ++row)
    std::memcpy(dst + std::size_t(row) * dpitch, src + std::size_t(row) * spitch,
                width * sizeof(T));
}

// Elements from the first to the last element of a device rectangle.
std::size_t span_elems(const Rect& r) { return r.rows ? (r.rows - 1) * r.dev_pitch + r.width : 0; }
}  // namespace

template <class T>
void Streamer<T>::upload(Slot<T>& s, const T* host, const Rect& r, int block) {
  if (!r.elems()) return;
  Queue& q = *s.queue;
  void* dst = s.block[block].handle();
  if (r.dev_off + span_elems(r) > block_elems_)
    throw Error("streaming upload exceeds its device block (internal tiling error)");
  counts_.up_bytes += double(r.elems() * sizeof(T));
  const T* src = host + r.host_off;
  const std::size_t E = sizeof(T);
  switch (path_) {
    case TransferPath::rect:
    case TransferPath::pinned:
      dispatch(*dev_, [&](auto tag) {
        kernels::write_rect(tag, *dev_, q, dst, r.dev_off * E, r.dev_pitch * E, src,
                            r.host_pitch * E, r.width * E, r.rows);
      });
      break;
    case TransferPath::contiguous:
      if (r.rows == 1 || (r.width == r.host_pitch && r.width == r.dev_pitch)) {
        q.write(dst, r.dev_off * E, src, r.elems() * E, false);
      } else {
        for (std::size_t row = 0; row < r.rows; ++row)
          q.write(dst, (r.dev_off + row * r.dev_pitch) * E, src + row * r.host_pitch, r.width * E,
                  false);
      }
      break;
    case TransferPath::staged: {
      // pack in the device's row layout, then one contiguous copy; the gaps
      // between rows carry staging contents into columns the kernels never
      // read (the ring of b arrays)
      const std::size_t n = span_elems(r);
      if (s.staged_up + n > s.staging.size())
        throw Error("streaming staging buffer overflow (internal)");
      T* stage = s.staging.data() + s.staged_up;
      copy_rows(stage, r.dev_pitch, src, r.host_pitch, r.width, r.rows);
      q.write(dst, r.dev_off * E, stage, n * E, false);
      s.staged_up += n;
      break;
    }
  }
}

template <class T>
void Streamer<T>::download(Slot<T>& s, int block, const Rect& r, T* host) {
  if (!r.elems()) return;
  Queue& q = *s.queue;
  const void* src = s.block[block].handle();
  if (r.dev_off + span_elems(r) > block_elems_)
    throw Error("streaming download exceeds its device block (internal tiling error)");
  counts_.down_bytes += double(r.elems() * sizeof(T));
  T* dst = host + r.host_off;
  const std::size_t E = sizeof(T);
  switch (path_) {
    case TransferPath::rect:
    case TransferPath::pinned:
      dispatch(*dev_, [&](auto tag) {
        kernels::read_rect(tag, *dev_, q, src, r.dev_off * E, r.dev_pitch * E, dst,
                           r.host_pitch * E, r.width * E, r.rows);
      });
      break;
    case TransferPath::contiguous:
      if (r.rows == 1 || (r.width == r.host_pitch && r.width == r.dev_pitch)) {
        q.read(src, r.dev_off * E, dst, r.elems() * E, false);
      } else {
        for (std::size_t row = 0; row < r.rows; ++row)
          q.read(src, (r.dev_off + row * r.dev_pitch) * E, dst + row * r.host_pitch, r.width * E,
                 false);
      }
      break;
    case TransferPath::staged: {
      // the tile's uploads precede this read on the in-order queue, so the
      // staging area is reused from its start
      const std::size_t n = span_elems(r);
      if (s.staged_down + n > s.staging.size())
        throw Error("streaming staging buffer overflow (internal)");
      T* stage = s.staging.data() + s.staged_down;
      q.read(src, r.dev_off * E, stage, n * E, false);
      s.staged_down += n;
      s.after.push_back(
          [stage, dst, r] { copy_rows(dst, r.host_pitch, stage, r.dev_pitch, r.width, r.rows); });
      break;
    }
  }
}

template class HostArray<float>;
template class HostArray<double>;
template class Streamer<float>;
template class Streamer<double>;

}  // namespace tessera::mg::stream
