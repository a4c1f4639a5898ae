// The host-ordered exchange engine (CPU devices, OpenCL devices, mixed teams):
// faces between parts on one device are device copies, between devices of
// this process they go through host memory, between ranks through MPI. The
// inner hooks run while the MPI messages of the last round are in flight.
#include <cstring>

#include "core/dispatch.hpp"
#include "skeleton/halo_engine.hpp"
#include "tessera/config.hpp"

namespace tessera::skeleton::detail {

#if TESSERA_HAVE_CUDA
std::unique_ptr<ExchangeEngine> make_cuda_engine(const Team& team);
#endif

namespace {

void pack(PartStorage& s, const Transfer& t, std::size_t eb, std::byte* out, bool src_side) {
  const Box& b = src_side ? t.src_box : t.dst_box;
  const std::size_t face = static_cast<std::size_t>(b.volume()) * eb;
  for (std::size_t i = 0; i < t.components.size(); ++i) {
    const kernels::Rect r = rect_of(s.layout, b, t.components[i], eb);
    dispatch(*s.device, [&](auto tag) {
      if (src_side)
        kernels::read_rect(tag, s.device->queue(), s.handle, r, out + i * face, true);
      else
        kernels::write_rect(tag, s.device->queue(), s.handle, r, out + i * face, true);
    });
  }
}

class HostEngine final : public ExchangeEngine {
 public:
  void run(const Team& team, std::vector<PartStorage>& parts, std::size_t eb,
           const std::array<std::vector<Transfer>, 3>& rounds, const PartHook* inner,
           const PartHook* outer, ExchangeStats& stats) override {
    for (auto& p : parts) p.device->queue().synchronize();
    int last = -1;
    for (int a = 0; a < 3; ++a)
      if (!rounds[a].empty()) last = a;
    for (int a = 0; a < 3; ++a) {
      RemoteRound remote;
      remote.post(
          team, parts, rounds[a], eb,
          [&](const Transfer& t, std::byte* out) {
            pack(*local_storage(team, parts, t.src_part), t, eb, out, true);
          },
          stats);
      for (const Transfer& t : rounds[a]) local_copy(team, parts, t, eb, stats);
      if (a == last && inner) run_hooks(parts, *inner);
      remote.finish(team, [&](const Transfer& t, std::byte* in) {
        pack(*local_storage(team, parts, t.dst_part), t, eb, in, false);
      });
    }
    if (last < 0 && inner) run_hooks(parts, *inner);
    if (outer) run_hooks(parts, *outer);
  }

 private:
  static void run_hooks(std::vector<PartStorage>& parts, const PartHook& h) {
    for (std::size_t p = 0; p < parts.size(); ++p) h(static_cast<int>(p), parts[p].device->queue());
  }
  void local_copy(const Team& team, std::vector<PartStorage>& parts, const Transfer& t,
                  std::size_t eb, ExchangeStats& stats) {
    PartStorage* s = local_storage(team, parts, t.src_part);
    PartStorage* d = local_storage(team, parts, t.dst_part);
    if (!s || !d) return;
    if (s->device == d->device) {
      for (int c : t.components) {
        const kernels::Rect rs = rect_of(s->layout, t.src_box, c, eb),
                            rd = rect_of(d->layout, t.dst_box, c, eb);
        dispatch(*s->device, [&](auto tag) {
          kernels::copy_rect(tag, s->device->queue(), s->handle, rs, d->handle, rd);
        });
      }
      stats.local_bytes += transfer_bytes(t, eb);
      return;
    }
    staging_.resize(transfer_bytes(t, eb));
    pack(*s, t, eb, staging_.data(), true);
    pack(*d, t, eb, staging_.data(), false);
    stats.peer_bytes += transfer_bytes(t, eb);
  }
  std::vector<std::byte> staging_;
};

}  // namespace

std::unique_ptr<ExchangeEngine> make_engine(
    [[maybe_unused]] const Team& team) {  // (used with CUDA)
#if TESSERA_HAVE_CUDA
  bool all_cuda = true;
  for (int p = 0; p < team.local_parts(); ++p)
    all_cuda = all_cuda && team.device(p).backend() == Backend::cuda;
  if (all_cuda) return make_cuda_engine(team);
#endif
  return std::make_unique<HostEngine>();
}

}  // namespace tessera::skeleton::detail
