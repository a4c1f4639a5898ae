// Comm over MPI: non-blocking byte messages and a variable-size allgather.
#include "skeleton/mpi_comm.hpp"

#include <cstdlib>

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::skeleton {

namespace {

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, msg, &len);
  throw BackendError("MPI", call, code, std::string(msg, static_cast<std::size_t>(len)),
                     "skeleton communication");
}

// MPI counts are ints: byte messages travel in pieces of at most `max_`
// bytes (1 GiB by default), posted in order with the same tag, which MPI
// matches in order; large allgathers become one broadcast per rank and piece.
class MpiComm final : public Comm {
 public:
  MpiComm(MPI_Comm c, std::size_t max_message) : comm_(c), max_(max_message) {
    if (max_ < 1 || max_ > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw UsageError(fmt::format("MPI message pieces of {} bytes: 1 .. 2^31-1", max_));
    check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void isend(const void* data, std::size_t bytes, int dest, int tag) override {
    pieces(bytes, [&](std::size_t off, int n) {
      requests_.emplace_back();
      check(MPI_Isend(static_cast<const std::byte*>(data) + off, n, MPI_BYTE, dest, tag, comm_,
                      &requests_.back()),
            "MPI_Isend");
    });
  }
  void irecv(void* data, std::size_t bytes, int source, int tag) override {
    pieces(bytes, [&](std::size_t off, int n) {
      requests_.emplace_back();
      check(MPI_Irecv(static_cast<std::byte*>(data) + off, n, MPI_BYTE, source, tag, comm_,
                      &requests_.back()),
            "MPI_Irecv");
    });
  }
  void wait_all() override {
    if (requests_.empty()) return;
    check(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE),
          "MPI_Waitall");
    requests_.clear();
  }
  std::vector<std::byte> allgather(const void* mine, std::size_t bytes) override {
    const long long n = static_cast<long long>(bytes);
    std::vector<long long> sizes(static_cast<std::size_t>(size_));
    check(MPI_Allgather(&n, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, comm_),
          "MPI_Allgather");
    std::vector<int> counts(sizes.size()), displs(sizes.size());
    std::size_t total = 0;
    for (long long s : sizes) total += static_cast<std::size_t>(s);
    std::vector<std::byte> out(total);
    if (total <= max_) {
      for (std::size_t r = 0, at = 0; r < sizes.size();
           at += static_cast<std::size_t>(sizes[r]), ++r) {
        counts[r] = static_cast<int>(sizes[r]);
        displs[r] = static_cast<int>(at);
      }
      check(MPI_Allgatherv(mine, static_cast<int>(bytes), MPI_BYTE, out.data(), counts.data(),
                           displs.data(), MPI_BYTE, comm_),
            "MPI_Allgatherv");
      return out;
    }
    std::size_t at = 0;
    for (int r = 0; r < size_; ++r) {
      const auto n = static_cast<std::size_t>(sizes[static_cast<std::size_t>(r)]);
      if (r == rank_ && n) std::memcpy(out.data() + at, mine, n);
      pieces(n, [&](std::size_t off, int len) {
        check(MPI_Bcast(out.data() + at + off, len, MPI_BYTE, r, comm_), "MPI_Bcast");
      });
      at += n;
    }
    return out;
  }
  void barrier() override { check(MPI_Barrier(comm_), "MPI_Barrier"); }

 private:
  // f(offset, length) for each piece of a message; an empty message is one empty piece.
  template <class F>
  void pieces(std::size_t bytes, F&& f) const {
    std::size_t off = 0;
    do {
      const std::size_t n = std::min(max_, bytes - off);
      f(off, static_cast<int>(n));
      off += n;
    } while (off < bytes);
  }
  MPI_Comm comm_;
  std::size_t max_;
  int rank_ = 0, size_ = 1;
  std::vector<MPI_Request> requests_;
};

}  // namespace

MpiSession::MpiSession(int* argc, char*** argv) {
  int initialised = 0;
  check(MPI_Initialized(&initialised), "MPI_Initialized");
  if (!initialised) {
    int provided = 0;
    check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    finalize_ = true;
  }
}

MpiSession::~MpiSession() {
  if (finalize_) MPI_Finalize();
}

void MpiSession::abort_all(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();  // (MPI_Abort does not return)
}

std::shared_ptr<Comm> MpiSession::world(std::size_t max_message) const {
  return std::make_shared<MpiComm>(MPI_COMM_WORLD, max_message);
}

int MpiSession::local_rank() const {
  MPI_Comm local;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local),
        "MPI_Comm_split_type");
  int r = 0;
  MPI_Comm_rank(local, &r);
  MPI_Comm_free(&local);
  return r;
}

}  // namespace tessera::skeleton
