// Comm over MPI: non-blocking byte messages and a variable-size allgather.
#include "skeleton/mpi_comm.hpp"

#include <mpi.h>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::skeleton {

namespace {

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, msg, &len);
  throw BackendError("MPI", call, code, std::string(msg, static_cast<std::size_t>(len)), "skeleton communication");
}

class MpiComm final : public Comm {
 public:
  explicit MpiComm(MPI_Comm c) : comm_(c) {
    check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void isend(const void* data, std::size_t bytes, int dest, int tag) override {
    requests_.emplace_back();
    check(MPI_Isend(data, count(bytes), MPI_BYTE, dest, tag, comm_, &requests_.back()), "MPI_Isend");
  }
  void irecv(void* data, std::size_t bytes, int source, int tag) override {
    requests_.emplace_back();
    check(MPI_Irecv(data, count(bytes), MPI_BYTE, source, tag, comm_, &requests_.back()), "MPI_Irecv");
  }
  void wait_all() override {
    if (requests_.empty()) return;
    check(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    requests_.clear();
  }
  std::vector<std::byte> allgather(const void* mine, std::size_t bytes) override {
    const long long n = static_cast<long long>(bytes);
    std::vector<long long> sizes(static_cast<std::size_t>(size_));
    check(MPI_Allgather(&n, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, comm_), "MPI_Allgather");
    std::vector<int> counts(sizes.size()), displs(sizes.size());
    long long total = 0;
    for (std::size_t r = 0; r < sizes.size(); ++r) {
      counts[r] = count(static_cast<std::size_t>(sizes[r]));
      displs[r] = count(static_cast<std::size_t>(total));
      total += sizes[r];
    }
    std::vector<std::byte> out(static_cast<std::size_t>(total));
    check(MPI_Allgatherv(mine, count(bytes), MPI_BYTE, out.data(), counts.data(), displs.data(), MPI_BYTE, comm_),
          "MPI_Allgatherv");
    return out;
  }
  void barrier() override { check(MPI_Barrier(comm_), "MPI_Barrier"); }

 private:
  static int count(std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw Error(fmt::format("an MPI message of {} bytes exceeds the 2 GiB count limit", bytes));
    return static_cast<int>(bytes);
  }
  MPI_Comm comm_;
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

std::shared_ptr<Comm> MpiSession::world() const { return std::make_shared<MpiComm>(MPI_COMM_WORLD); }

int MpiSession::local_rank() const {
  MPI_Comm local;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local), "MPI_Comm_split_type");
  int r = 0;
  MPI_Comm_rank(local, &r);
  MPI_Comm_free(&local);
  return r;
}

}  // namespace tessera::skeleton
