// The identity of a run for machine output (--json): the build (version,
// commit, type), the date and host, and a device's description.
#pragma once
#include <nlohmann/json.hpp>

#include "core/device.hpp"

namespace tessera {

/// Identity of the build and the run (version, commit, date, host).
nlohmann::json run_metadata();
/// A device as the results files describe it.
nlohmann::json to_json(const DeviceInfo& d);

}  // namespace tessera
