// MPI ranks for a Team (only when TESSERA_HAVE_MPI). One rank per GPU is the
// normal deployment: Team::open(fmt::format("cuda:{}", local_rank), 1, world).
#pragma once
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
  /// MPI_COMM_WORLD as a Comm.
  std::shared_ptr<Comm> world() const;
  /// The rank among the ranks of this host (to pick a GPU).
  int local_rank() const;

 private:
  bool finalize_ = false;
};

}  // namespace tessera::skeleton
