// Halo exchange of a distributed field: what to send, and the engine that
// sends it. Faces go directly between devices of one process (CUDA: peer
// copies, cudaMemcpyPeerAsync with peer access enabled; others: same-device
// copies or host staging) and through MPI between ranks (pinned host staging;
// one message per neighbour and face, only the requested components packed).
// Axes are exchanged in order x, y, z, each face spanning the halos of the
// axes already exchanged, so edges and corners arrive too (27-point stencils).
#pragma once
#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "core/device.hpp"
#include "skeleton/decomposition.hpp"
#include "skeleton/layout.hpp"
#include "skeleton/team.hpp"

namespace tessera::skeleton {

/// What one exchange moves. Components are indices into the field's
/// components. "to_upper" along axis a are the components a part sends from
/// its upper owned layers into the lower halo of its upper neighbour (for
/// pull-streaming LBM: the populations with c_a > 0); "to_lower" the reverse.
struct ExchangeRequest {
  std::vector<int> components;  ///< every face, when per_face is false; empty = all
  bool per_face = false;
  std::array<std::vector<int>, 3> to_lower{}, to_upper{};  ///< used when per_face
  std::array<bool, 3> periodic{false, false, false};       ///< wrap at the domain ends
  Index3 width{-1, -1, -1};  ///< layers per axis; -1 = the field's whole halo width, 0 = none

  static ExchangeRequest all() { return {}; }
  static ExchangeRequest only(std::vector<int> c) {
    ExchangeRequest r;
    r.components = std::move(c);
    return r;
  }
};

/// A per-part callback that enqueues work on the part's queue (the default
/// queue of its device); `local` is the part's index on this rank.
using PartHook = std::function<void(int local, Queue& queue)>;

/// What the last exchange cost (host wall clock; device copies are
/// asynchronous on CUDA, so `seconds` covers posting and waiting).
struct ExchangeStats {
  double seconds = 0;           ///< from start to halos available (host view)
  std::size_t peer_bytes = 0;   ///< between devices of this process
  std::size_t local_bytes = 0;  ///< within one device (periodic self-wrap)
  std::size_t mpi_bytes = 0;    ///< sent to other ranks
};

namespace detail {

/// One part's storage as the engine sees it (type-erased).
struct PartStorage {
  Device* device = nullptr;
  void* handle = nullptr;  ///< the Buffer's handle
  PartLayout layout;
};

/// One face copy: a box of cells (local coordinates of the source and of the
/// destination part, same shape) for a list of components.
struct Transfer {
  int src_part = 0, dst_part = 0;  ///< global part ids
  Box src_box, dst_box;            ///< local coordinates (may be negative: halo)
  std::vector<int> components;
  int tag = 0;  ///< unique per (axis, direction) for MPI matching
};

/// The transfers of one exchange, one vector per axis round (x, y, z).
std::array<std::vector<Transfer>, 3> plan_exchange(const Decomposition& d,
                                                   const std::vector<PartLayout>& all_layouts,
                                                   const ExchangeRequest& r);

class ExchangeEngine {
 public:
  virtual ~ExchangeEngine() = default;
  /// Moves the halos of `parts` (this rank's) per `rounds`; calls inner(p) for
  /// every part once the traffic is posted and outer(p) once p's halos arrived.
  virtual void run(const Team& team, std::vector<PartStorage>& parts, std::size_t elem_bytes,
                   const std::array<std::vector<Transfer>, 3>& rounds, const PartHook* inner,
                   const PartHook* outer, ExchangeStats& stats) = 0;
};

/// The engine for a team: CUDA (peer copies, events, overlap) when every
/// device is a CUDA GPU, otherwise the host-ordered one.
std::unique_ptr<ExchangeEngine> make_engine(const Team& team);

/// Global layouts of every part (all ranks), from the decomposition.
std::vector<PartLayout> make_layouts(const Decomposition& d, const Team& team, int components,
                                     const Index3& halo);

}  // namespace detail
}  // namespace tessera::skeleton
