#include "skeleton/team.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/registry.hpp"

namespace tessera::skeleton {

Team::Team(std::vector<std::shared_ptr<Device>> devices, std::shared_ptr<Comm> comm)
    : devices_(std::move(devices)), comm_(std::move(comm)) {
  if (devices_.empty()) throw UsageError("a team needs at least one device");
  for (const auto& d : devices_)
    if (!d) throw UsageError("a team's device is null");
  if (comm_) {
    rank_ = comm_->rank();
    ranks_ = comm_->size();
    const int mine = local_parts();
    auto all = comm_->allgather(&mine, sizeof mine);
    for (std::size_t r = 0; r < all.size() / sizeof(int); ++r) {
      int n = 0;
      std::memcpy(&n, all.data() + r * sizeof(int), sizeof n);
      if (n != mine)
        throw UsageError(
            fmt::format("every rank must hold the same number of devices: rank {} has "
                        "{}, rank {} has {}",
                        rank_, mine, r, n));
    }
  }
}

Team Team::open(std::string_view id, int count, std::shared_ptr<Comm> comm) {
  if (count < 1) throw UsageError(fmt::format("--gpus {}: need at least one device", count));
  std::vector<std::shared_ptr<Device>> devs;
  const std::string sid = (id.empty() || id == "best") ? best_device_id() : std::string(id);
  if (sid.rfind("cuda:", 0) == 0) {
    const int first = std::stoi(sid.substr(5));
    int present = 0;
    for (const auto& d : list_devices())
      if (d.backend == Backend::cuda) ++present;
    if (first + count > present)
      throw UsageError(
          fmt::format("{} GPUs requested from {} on, but this machine has {} CUDA "
                      "device(s) (cuda:0 .. cuda:{})",
                      count, sid, present, present - 1));
    for (int i = 0; i < count; ++i) devs.push_back(open_device(fmt::format("cuda:{}", first + i)));
  } else {
    for (int i = 0; i < count; ++i) devs.push_back(open_device(sid));
  }
  return Team(std::move(devs), std::move(comm));
}

}  // namespace tessera::skeleton

namespace tessera::skeleton {

int Team::max_over_ranks(int v) const {
  if (!comm_) return v;
  const auto all = comm_->allgather(&v, sizeof v);
  for (std::size_t k = 0; k + sizeof v <= all.size(); k += sizeof v) {
    int w;
    std::memcpy(&w, all.data() + k, sizeof w);
    v = std::max(v, w);
  }
  return v;
}

}  // namespace tessera::skeleton
