// The devices a distributed container lives on: several devices of this
// process (several CUDA GPUs, or several logical CPU devices so that
// multi-device decompositions can be tested anywhere) and, optionally, MPI
// ranks (one rank per GPU is the normal deployment). Every rank must hold the
// same number of local devices; global part p lives on rank p / local_parts()
// as local part p % local_parts().
#pragma once
#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

#include "core/device.hpp"

namespace tessera::skeleton {

/// Point-to-point and collective byte transport between ranks. The MPI
/// implementation (mpi_comm.hpp) exists when TESSERA_HAVE_MPI; the library
/// itself never includes mpi.h in a public header.
class Comm {
 public:
  virtual ~Comm() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Non-blocking send/receive of raw bytes; completed by wait_all().
  virtual void isend(const void* data, std::size_t bytes, int dest, int tag) = 0;
  virtual void irecv(void* data, std::size_t bytes, int source, int tag) = 0;
  virtual void wait_all() = 0;
  /// Every rank contributes `mine` (sizes may differ per rank); every rank
  /// receives the concatenation in rank order.
  virtual std::vector<std::byte> allgather(const void* mine, std::size_t bytes) = 0;
  virtual void barrier() = 0;
};

class Team {
 public:
  /// `devices`: this process's devices (at least one); `comm`: null for a
  /// single process.
  explicit Team(std::vector<std::shared_ptr<Device>> devices, std::shared_ptr<Comm> comm = nullptr);

  /// `count` devices from one id: "cpu" gives `count` logical CPU devices,
  /// "opencl:P:D" `count` logical instances of that device (separate contexts),
  /// "cuda:N" the GPUs N .. N+count-1 (UsageError if they do not exist).
  static Team open(std::string_view device_id, int count, std::shared_ptr<Comm> comm = nullptr);

  int local_parts() const noexcept { return static_cast<int>(devices_.size()); }
  int rank() const noexcept { return rank_; }
  int ranks() const noexcept { return ranks_; }
  int total_parts() const noexcept { return ranks_ * local_parts(); }
  /// The first global part of this rank.
  int first_part() const noexcept { return rank_ * local_parts(); }
  Device& device(int local) const { return *devices_.at(static_cast<std::size_t>(local)); }
  const std::shared_ptr<Device>& device_ptr(int local) const {
    return devices_.at(static_cast<std::size_t>(local));
  }
  Comm* comm() const noexcept { return comm_.get(); }
  /// The largest of every rank's `v` (collective with a comm; else v).
  int max_over_ranks(int v) const;
  const std::shared_ptr<Comm>& comm_ptr() const noexcept { return comm_; }

 private:
  std::vector<std::shared_ptr<Device>> devices_;
  std::shared_ptr<Comm> comm_;
  int rank_ = 0, ranks_ = 1;
};

}  // namespace tessera::skeleton
