// Checkpoint/restart of a production run: the configuration, the time, the
// flags and the raw populations, with a checksum; written atomically.
// Restoring gives a state that continues bitwise identically. One-device runs
// store the esoteric-pull lattice, multi-device runs the gathered pull
// lattice (independent of the part count: restart on any number of devices).
#pragma once
#include <filesystem>
#include <memory>

#include "lbm/checkpoint_format.hpp"
#include "lbm/distributed.hpp"
#include "lbm/solver.hpp"
#include "skeleton/team.hpp"

namespace tessera::lbm {

void write_checkpoint(const std::filesystem::path& path, Solver& s);
void write_checkpoint(const std::filesystem::path& path, DistributedSolver& s);

/// The validated contents of a checkpoint file (Error naming the file and
/// the reason for corrupt, truncated or foreign files: exit code 1).
CheckpointContents read_checkpoint_file(const std::filesystem::path& path);

/// A solver on `device` holding the checkpoint's state; a multi-device
/// ("pull") checkpoint is refused with how to restart it.
std::unique_ptr<Solver> read_checkpoint(const std::filesystem::path& path, std::shared_ptr<Device> device);

/// A solver over `team` holding a multi-device checkpoint's state (any part
/// count); a one-device ("esoteric") checkpoint is refused likewise.
DistributedSolver read_distributed_checkpoint(const std::filesystem::path& path, skeleton::Team team);

}  // namespace tessera::lbm
