#include "core/run_info.hpp"

#include <unistd.h>

#include <ctime>
#include <string>

#include "tessera/config.hpp"

namespace tessera {

nlohmann::json to_json(const DeviceInfo& d) {
  return {{"id", d.id},
          {"backend", std::string(to_string(d.backend))},
          {"name", d.name},
          {"vendor", d.vendor},
          {"platform", d.platform},
          {"driver", d.driver_version},
          {"is_gpu", d.is_gpu},
          {"compute_units", d.compute_units},
          {"global_mem_bytes", d.global_mem_bytes},
          {"cache_bytes", d.cache_bytes},
          {"memory_gbps", d.memory_gbps}};
}

nlohmann::json run_metadata() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::time_t now = std::time(nullptr);
  char date[32] = {};
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return {{"tessera_version", TESSERA_VERSION},
          {"git_commit", TESSERA_GIT_COMMIT},
          {"build_type", TESSERA_BUILD_TYPE},
          {"date", date},
          {"host", host}};
}

}  // namespace tessera
