// `tessera devices [--json [FILE]]`: every device of every built-in backend.
#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/tessera/commands.hpp"
#include "bench/harness.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/registry.hpp"

namespace tessera::app {

Command add_devices_command(CLI::App& app) {
  auto* cmd =
      app.add_subcommand("devices", "List compute devices (id, backend, name, memory, units)");
  auto json = std::make_shared<std::string>();
  add_json_option(cmd, *json, "Write the devices");
  return {cmd, [json] {
            auto devices = list_devices();
            if (!json->empty()) {
              nlohmann::json j = nlohmann::json::array();
              for (const auto& d : devices) j.push_back(bench::to_json(d));
              write_output(*json, j.dump(2) + "\n");
              if (*json == "-") return 0;
            }
            std::printf("%-14s %-7s %-44s %10s %5s  %s\n", "id", "backend", "name", "memory",
                        "units", "platform / driver");
            for (const auto& d : devices)
              std::printf("%-14s %-7s %-44.44s %10s %5d  %s / %s\n", d.id.c_str(),
                          std::string(to_string(d.backend)).c_str(), d.name.c_str(),
                          format_bytes(d.global_mem_bytes).c_str(), d.compute_units,
                          d.platform.c_str(), d.driver_version.c_str());
            std::printf("best available: %s\n", best_device_id().c_str());
            return 0;
          }};
}

namespace {
const RegisterCommand registered{10, add_devices_command};
}  // namespace

}  // namespace tessera::app
