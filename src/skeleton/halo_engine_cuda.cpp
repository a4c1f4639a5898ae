// The CUDA exchange engine: faces between GPUs of this process go peer to
// peer (cudaMemcpyPeerAsync, peer access enabled once per pair) on one
// communication stream per GPU; faces to other ranks go through pinned host
// buffers and MPI. Ordering uses events only: a GPU's communication stream
// waits until the data it reads and the halo it writes are free, the inner
// hooks run on the compute streams meanwhile, and each compute stream waits
// for its incoming faces before the outer hook.
#include <algorithm>
#include <map>
#include <mutex>
#include <set>

#include <fmt/format.h>

#include <cuda_runtime.h>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_device.hpp"
#include "skeleton/halo_engine.hpp"
#include "skeleton/kernels/transfer_cuda.hpp"

namespace tessera::skeleton::detail {

namespace {

using cuda::cuda_check;

// Peer access belongs to the process (one switch per ordered pair of GPUs),
// not to an engine: each pair is enabled once, so no later field's engine asks
// again and gets cudaErrorPeerAccessAlreadyEnabled (which compute-sanitizer
// reports as an API error even when it is cleared).
void enable_peer_access_once(int from, int to) {
  static std::mutex mutex;
  static std::set<std::pair<int, int>> done;
  std::lock_guard<std::mutex> lock(mutex);
  if (!done.insert({from, to}).second) return;
  int can = 0;
  cuda_check(cudaDeviceCanAccessPeer(&can, from, to), "cudaDeviceCanAccessPeer", "peer check");
  if (!can) return;
  cuda::DeviceGuard guard(from);
  const cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
  if (e == cudaErrorPeerAccessAlreadyEnabled)
    (void)cudaGetLastError();  // enabled outside tessera (the application itself): fine
  else
    cuda_check(e, "cudaDeviceEnablePeerAccess", fmt::format("cuda:{} -> cuda:{}", from, to));
}

struct PerGpu {
  int ordinal = 0;
  cudaStream_t comm = nullptr;
  cudaEvent_t ready = nullptr, sent = nullptr, arrived = nullptr;
};

class CudaEngine final : public ExchangeEngine {
 public:
  explicit CudaEngine(const Team& team) {
    for (int p = 0; p < team.local_parts(); ++p) {
      PerGpu g;
      g.ordinal = cuda::device_of(team.device(p)).ordinal();
      cuda::DeviceGuard guard(g.ordinal);
      int lo = 0, hi = 0;
      cuda_check(cudaDeviceGetStreamPriorityRange(&lo, &hi), "cudaDeviceGetStreamPriorityRange",
                 "halo stream");
      cuda_check(cudaStreamCreateWithPriority(&g.comm, cudaStreamNonBlocking, hi),
                 "cudaStreamCreateWithPriority", "creating the halo stream");
      for (cudaEvent_t* e : {&g.ready, &g.sent, &g.arrived})
        cuda_check(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "cudaEventCreateWithFlags",
                   "halo events");
      gpus_.push_back(g);
    }
    for (auto& a : gpus_)
      for (auto& b : gpus_)
        if (a.ordinal != b.ordinal) enable_peer_access_once(a.ordinal, b.ordinal);
  }
  ~CudaEngine() override {
    for (auto& g : gpus_) {
      cuda::DeviceGuard guard(g.ordinal);
      cudaEventDestroy(g.ready);
      cudaEventDestroy(g.sent);
      cudaEventDestroy(g.arrived);
      cudaStreamDestroy(g.comm);
    }
    for (auto& [bytes, ptrs] : pinned_)
      for (void* p : ptrs) cudaFreeHost(p);
  }

  void run(const Team& team, std::vector<PartStorage>& parts, std::size_t eb,
           const std::array<std::vector<Transfer>, 3>& rounds, const PartHook* inner,
           const PartHook* outer, ExchangeStats& stats) override {
    int last = -1;
    for (int a = 0; a < 3; ++a)
      if (!rounds[a].empty()) last = a;
    // Staging buffers of the previous exchange may still feed host-to-device
    // copies: wait for them before reusing the buffers.
    if (staged_) {
      for (auto& g : gpus_) sync(g);
      staged_ = false;
    }
    pinned_used_.clear();
    // deps[p]: this GPU and the local GPUs it exchanges faces with.
    std::vector<std::vector<std::size_t>> deps(parts.size());
    for (std::size_t p = 0; p < parts.size(); ++p) deps[p].push_back(p);
    for (const auto& round : rounds)
      for (const Transfer& t : round) {
        PartStorage* s = local_storage(team, parts, t.src_part);
        PartStorage* d = local_storage(team, parts, t.dst_part);
        if (!s || !d) continue;
        const auto a = static_cast<std::size_t>(s->layout.local_part),
                   b = static_cast<std::size_t>(d->layout.local_part);
        for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}})
          if (std::find(deps[x].begin(), deps[x].end(), y) == deps[x].end()) deps[x].push_back(y);
      }
    for (std::size_t p = 0; p < parts.size(); ++p) {
      cuda::DeviceGuard guard(gpus_[p].ordinal);
      cuda_check(cudaEventRecord(gpus_[p].ready, stream(parts[p])), "cudaEventRecord",
                 "halo: data ready");
    }
    for (int a = 0; a < 3; ++a) {
      if (rounds[a].empty()) continue;
      // A communication stream starts once its GPU and the GPUs it sends to
      // finished earlier work (faces written, halos no longer read).
      for (std::size_t p = 0; p < parts.size(); ++p) {
        cuda::DeviceGuard guard(gpus_[p].ordinal);
        for (std::size_t o : deps[p])
          cuda_check(cudaStreamWaitEvent(gpus_[p].comm, gpus_[o].ready, 0), "cudaStreamWaitEvent",
                     "halo");
      }
      RemoteRound remote;
      for (const Transfer& t : rounds[a]) {
        PartStorage* s = local_storage(team, parts, t.src_part);
        PartStorage* d = local_storage(team, parts, t.dst_part);
        if (s && d) peer_copy(parts, *s, *d, t, eb, stats);
      }
      // Faces for other ranks: device -> pinned host on the source's halo stream.
      remote.post(
          team, parts, rounds[a], eb,
          [&](const Transfer& t, std::byte* out) {
            PartStorage& s = *local_storage(team, parts, t.src_part);
            const std::size_t face = static_cast<std::size_t>(t.src_box.volume()) * eb;
            std::byte* h = pinned(transfer_bytes(t, eb));
            PerGpu& g = gpus_[static_cast<std::size_t>(s.layout.local_part)];
            cuda::DeviceGuard guard(g.ordinal);
            for (std::size_t i = 0; i < t.components.size(); ++i) {
              const kernels::Rect r = rect_of(s.layout, t.src_box, t.components[i], eb);
              kernels::cuda_rect_copy(g.comm, s.handle, r, h + i * face, kernels::compact_rect(r),
                                      "halo face to the host");
            }
            sync(g);
            std::memcpy(out, h, transfer_bytes(t, eb));
          },
          stats);
      for (std::size_t p = 0; p < parts.size(); ++p) {
        cuda::DeviceGuard guard(gpus_[p].ordinal);
        cuda_check(cudaEventRecord(gpus_[p].sent, gpus_[p].comm), "cudaEventRecord",
                   "halo: faces sent");
      }
      if (a == last && inner)
        for (std::size_t p = 0; p < parts.size(); ++p)
          (*inner)(static_cast<int>(p), parts[p].device->queue());
      remote.finish(team, [&](const Transfer& t, std::byte* in) {
        PartStorage& d = *local_storage(team, parts, t.dst_part);
        const std::size_t face = static_cast<std::size_t>(t.dst_box.volume()) * eb;
        std::byte* h = pinned(transfer_bytes(t, eb));
        std::memcpy(h, in, transfer_bytes(t, eb));
        staged_ = true;
        PerGpu& g = gpus_[static_cast<std::size_t>(d.layout.local_part)];
        cuda::DeviceGuard guard(g.ordinal);
        for (std::size_t i = 0; i < t.components.size(); ++i) {
          const kernels::Rect r = rect_of(d.layout, t.dst_box, t.components[i], eb);
          kernels::cuda_rect_copy(g.comm, h + i * face, kernels::compact_rect(r), d.handle, r,
                                  "halo face from the host");
        }
      });
      for (std::size_t p = 0; p < parts.size(); ++p) {
        cuda::DeviceGuard guard(gpus_[p].ordinal);
        cuda_check(cudaEventRecord(gpus_[p].arrived, gpus_[p].comm), "cudaEventRecord",
                   "halo: faces arrived");
      }
      // A later round reads what this one wrote: its streams wait for all.
      if (a != last)
        for (std::size_t p = 0; p < parts.size(); ++p) {
          cuda::DeviceGuard guard(gpus_[p].ordinal);
          for (std::size_t o : deps[p]) {
            cuda_check(cudaStreamWaitEvent(stream(parts[p]), gpus_[o].sent, 0),
                       "cudaStreamWaitEvent", "halo round");
            cuda_check(cudaStreamWaitEvent(stream(parts[p]), gpus_[o].arrived, 0),
                       "cudaStreamWaitEvent", "halo round");
          }
          cuda_check(cudaEventRecord(gpus_[p].ready, stream(parts[p])), "cudaEventRecord",
                     "halo round");
        }
    }
    if (last < 0 && inner)
      for (std::size_t p = 0; p < parts.size(); ++p)
        (*inner)(static_cast<int>(p), parts[p].device->queue());
    // Each compute stream waits for every face that wrote its halo or read its
    // owned cells (peer copies run on the source's stream), then the outer hook.
    if (last >= 0)
      for (std::size_t p = 0; p < parts.size(); ++p) {
        cuda::DeviceGuard guard(gpus_[p].ordinal);
        for (std::size_t o : deps[p])
          cuda_check(cudaStreamWaitEvent(stream(parts[p]), gpus_[o].sent, 0), "cudaStreamWaitEvent",
                     "halo: wait faces");
        cuda_check(cudaStreamWaitEvent(stream(parts[p]), gpus_[p].arrived, 0),
                   "cudaStreamWaitEvent", "halo: wait remote faces");
      }
    if (outer)
      for (std::size_t p = 0; p < parts.size(); ++p)
        (*outer)(static_cast<int>(p), parts[p].device->queue());
  }

 private:
  static cudaStream_t stream(PartStorage& s) { return cuda::queue_of(s.device->queue()).native(); }
  void sync(PerGpu& g) {
    cuda::DeviceGuard guard(g.ordinal);
    cuda_check(cudaStreamSynchronize(g.comm), "cudaStreamSynchronize", "halo: staging to host");
  }
  std::byte* pinned(std::size_t bytes) {
    auto& pool = pinned_[bytes];
    std::size_t& used = pinned_used_[bytes];
    if (used == pool.size()) {
      void* p = nullptr;
      cuda_check(cudaMallocHost(&p, bytes), "cudaMallocHost",
                 fmt::format("{} bytes of halo staging", bytes));
      pool.push_back(p);
    }
    return static_cast<std::byte*>(pool[used++]);
  }
  void peer_copy(std::vector<PartStorage>& parts, PartStorage& s, PartStorage& d, const Transfer& t,
                 std::size_t eb, ExchangeStats& stats) {
    (void)parts;
    PerGpu& gs = gpus_[static_cast<std::size_t>(s.layout.local_part)];
    PerGpu& gd = gpus_[static_cast<std::size_t>(d.layout.local_part)];
    cuda::DeviceGuard guard(gs.ordinal);
    for (int c : t.components) {
      const kernels::Rect rs = rect_of(s.layout, t.src_box, c, eb),
                          rd = rect_of(d.layout, t.dst_box, c, eb);
      const char* src = static_cast<const char*>(s.handle);
      char* dst = static_cast<char*>(d.handle);
      if (rs.contiguous() && rd.contiguous()) {
        cuda_check(cudaMemcpyPeerAsync(dst + rd.offset, gd.ordinal, src + rs.offset, gs.ordinal,
                                       rs.bytes(), gs.comm),
                   "cudaMemcpyPeerAsync",
                   fmt::format("halo face cuda:{} -> cuda:{}", gs.ordinal, gd.ordinal));
      } else {
        cudaMemcpy3DPeerParms p{};
        p.srcDevice = gs.ordinal;
        p.dstDevice = gd.ordinal;
        p.srcPtr = make_cudaPitchedPtr(const_cast<char*>(src), rs.row_pitch, rs.row_pitch,
                                       rs.slice_pitch / rs.row_pitch);
        p.dstPtr =
            make_cudaPitchedPtr(dst, rd.row_pitch, rd.row_pitch, rd.slice_pitch / rd.row_pitch);
        p.srcPos =
            make_cudaPos(rs.offset % rs.slice_pitch % rs.row_pitch,
                         rs.offset % rs.slice_pitch / rs.row_pitch, rs.offset / rs.slice_pitch);
        p.dstPos =
            make_cudaPos(rd.offset % rd.slice_pitch % rd.row_pitch,
                         rd.offset % rd.slice_pitch / rd.row_pitch, rd.offset / rd.slice_pitch);
        p.extent = make_cudaExtent(rs.width, rs.rows, rs.slices);
        cuda_check(cudaMemcpy3DPeerAsync(&p, gs.comm), "cudaMemcpy3DPeerAsync",
                   fmt::format("strided halo face cuda:{} -> cuda:{}", gs.ordinal, gd.ordinal));
      }
    }
    (gs.ordinal == gd.ordinal ? stats.local_bytes : stats.peer_bytes) += transfer_bytes(t, eb);
  }

  std::vector<PerGpu> gpus_;
  std::map<std::size_t, std::vector<void*>> pinned_;
  std::map<std::size_t, std::size_t> pinned_used_;
  bool staged_ = false;  // host-to-device copies from pinned staging may be in flight
};

}  // namespace

std::unique_ptr<ExchangeEngine> make_cuda_engine(const Team& team) {
  return std::make_unique<CudaEngine>(team);
}

}  // namespace tessera::skeleton::detail
