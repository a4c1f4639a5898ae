// MPI ranks for a Team (only when TESSERA_HAVE_MPI). One rank per GPU is the
// normal deployment: Team::open(fmt::format("cuda:{}", local_rank), 1, world).
#pragma once
#include <cstddef>
#include <memory>

#include "skeleton/team.hpp"

namespace tessera::skeleton {

/// Initialises MPI (unless already initialised) for the lifetime of the
/// object and finalises it at the end if it initialised it.
class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  /// Largest MPI message piece: MPI counts are ints, so longer byte messages
  /// (halos, gathers of fields over 2 GiB) travel in pieces of this size.
  static constexpr std::size_t kMaxMessage = std::size_t(1) << 30;
  /// MPI_COMM_WORLD as a Comm; `max_message` (tests: tiny, to split every
  /// message) bounds the pieces.
  std::shared_ptr<Comm> world(std::size_t max_message = kMaxMessage) const;
  /// The rank among the ranks of this host (to pick a GPU).
  int local_rank() const;
  /// Ends every rank of the job with `code` (MPI_Abort): for an error one
  /// rank met alone (rank 0's file output), where finalizing would leave the
  /// others waiting in a collective.
  [[noreturn]] static void abort_all(int code);

 private:
  bool finalize_ = false;
};

}  // namespace tessera::skeleton
