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
template <bool Up, class HostPtr>
void Streamer<T>::transfer(Slot<T>& s, int block, const Rect& r, HostPtr host) {
  if (!r.elems()) return;
  Queue& q = *s.queue;
  void* dev = s.block[block].handle();
  if (r.dev_off + span_elems(r) > block_elems_)
    throw Error(std::string("streaming ") + (Up ? "upload" : "download") +
                " exceeds its device block (internal tiling error)");
  (Up ? counts_.up_bytes : counts_.down_bytes) += double(r.elems() * sizeof(T));
  const HostPtr h = host + r.host_off;
  const std::size_t E = sizeof(T);
  // elems elements between device element dev_off and hp, in this direction
  auto copy = [&](std::size_t dev_off, HostPtr hp, std::size_t elems) {
    if constexpr (Up)
      q.write(dev, dev_off * E, hp, elems * E, false);
    else
      q.read(dev, dev_off * E, hp, elems * E, false);
  };
  switch (path_) {
    case TransferPath::rect:
    case TransferPath::pinned:
      dispatch(*dev_, [&](auto tag) {
        if constexpr (Up)
          kernels::write_rect(tag, *dev_, q, dev, r.dev_off * E, r.dev_pitch * E, h,
                              r.host_pitch * E, r.width * E, r.rows);
        else
          kernels::read_rect(tag, *dev_, q, dev, r.dev_off * E, r.dev_pitch * E, h,
                             r.host_pitch * E, r.width * E, r.rows);
      });
      break;
    case TransferPath::contiguous:
      if (r.rows == 1 || (r.width == r.host_pitch && r.width == r.dev_pitch)) {
        copy(r.dev_off, h, r.elems());
      } else {
        for (std::size_t row = 0; row < r.rows; ++row)
          copy(r.dev_off + row * r.dev_pitch, h + row * r.host_pitch, r.width);
      }
      break;
    case TransferPath::staged: {
      const std::size_t n = span_elems(r);
      std::size_t& staged = Up ? s.staged_up : s.staged_down;
      if (staged + n > s.staging.size())
        throw Error("streaming staging buffer overflow (internal)");
      T* stage = s.staging.data() + staged;
      if constexpr (Up) {
        // pack in the device's row layout, then one contiguous copy; the gaps
        // between rows carry staging contents into columns the kernels never
        // read (the ring of b arrays)
        copy_rows(stage, r.dev_pitch, h, r.host_pitch, r.width, r.rows);
        copy(r.dev_off, stage, n);
      } else {
        // the tile's uploads precede this read on the in-order queue, so the
        // staging area is reused from its start
        copy(r.dev_off, stage, n);
        s.after.push_back(
            [stage, h, r] { copy_rows(h, r.host_pitch, stage, r.dev_pitch, r.width, r.rows); });
      }
      staged += n;
      break;
    }
  }
}

template <class T>
void Streamer<T>::upload(Slot<T>& s, const T* host, const Rect& r, int block) {
  transfer<true>(s, block, r, host);
}

template <class T>
void Streamer<T>::download(Slot<T>& s, int block, const Rect& r, T* host) {
  transfer<false>(s, block, r, host);
}

template class HostArray<float>;
template class HostArray<double>;
template class Streamer<float>;
template class Streamer<double>;

}  // namespace tessera::mg::stream
