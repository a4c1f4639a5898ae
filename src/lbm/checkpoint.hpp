// Checkpoint/restart of a production run: the configuration, the time, the
// flags and the raw populations, with a checksum; written atomically.
// Restoring gives a state that continues bitwise identically.
#pragma once
#include <filesystem>
#include <memory>

#include "lbm/solver.hpp"

namespace tessera::lbm {

void write_checkpoint(const std::filesystem::path& path, Solver& s);

/// A solver on `device` holding the checkpoint's state. Corrupt, truncated or
/// foreign files are rejected with the reason (Error, exit code 1).
std::unique_ptr<Solver> read_checkpoint(const std::filesystem::path& path, std::shared_ptr<Device> device);

}  // namespace tessera::lbm
