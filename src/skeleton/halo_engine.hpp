// Internal: what the exchange engines share (not part of the public API).
#pragma once
#include <vector>

#include "skeleton/halo_exchange.hpp"
#include "skeleton/kernels/transfer_kernels.hpp"

namespace tessera::skeleton::detail {

/// Component c of box b (local coordinates) of a part, as a byte rectangle.
kernels::Rect rect_of(const PartLayout& L, const Box& b, int c, std::size_t elem_bytes);

/// Bytes of one transfer (all its components).
inline std::size_t transfer_bytes(const Transfer& t, std::size_t eb) {
  return static_cast<std::size_t>(t.src_box.volume()) * t.components.size() * eb;
}

/// The part storage of global part g if it is on this rank, else null.
inline PartStorage* local_storage(const Team& team, std::vector<PartStorage>& parts, int g) {
  const int l = g - team.first_part();
  return l >= 0 && l < team.local_parts() ? &parts[static_cast<std::size_t>(l)] : nullptr;
}

/// MPI staging of one round: posts the receives, packs and sends the faces
/// leaving this rank (`pack` fills a host buffer from a transfer), and after
/// finish() unpacks what arrived (`unpack`).
class RemoteRound {
 public:
  template <class Pack>
  void post(const Team& team, std::vector<PartStorage>& parts, const std::vector<Transfer>& ts,
            std::size_t eb, Pack&& pack, ExchangeStats& stats) {
    Comm* comm = team.comm();
    if (!comm) return;
    const int L = team.local_parts();
    for (const Transfer& t : ts) {
      const bool src_here = local_storage(team, parts, t.src_part) != nullptr;
      const bool dst_here = local_storage(team, parts, t.dst_part) != nullptr;
      if (src_here == dst_here) continue;
      const std::size_t bytes = transfer_bytes(t, eb);
      // A tag names the destination part on its rank and the face.
      const int tag = (t.dst_part % L) * 8 + t.tag;
      if (dst_here) {
        in_.push_back({&t, std::vector<std::byte>(bytes)});
        comm->irecv(in_.back().data.data(), bytes, t.src_part / L, tag);
      } else {
        out_.push_back({&t, std::vector<std::byte>(bytes)});
        pack(t, out_.back().data.data());
        comm->isend(out_.back().data.data(), bytes, t.dst_part / L, tag);
        stats.mpi_bytes += bytes;
      }
    }
  }
  template <class Unpack>
  void finish(const Team& team, Unpack&& unpack) {
    if (team.comm() && (!in_.empty() || !out_.empty())) team.comm()->wait_all();
    for (auto& m : in_) unpack(*m.t, m.data.data());
    in_.clear();
    out_.clear();
  }

 private:
  struct Message {
    const Transfer* t;
    std::vector<std::byte> data;
  };
  std::vector<Message> in_, out_;  // vectors of vectors: element buffers never move
};

}  // namespace tessera::skeleton::detail
