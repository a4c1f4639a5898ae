// Checkpoint/restart of a production run: the configuration, the time, the
// flags and the raw populations, with a checksum; written atomically.
// Restoring gives a state that continues bitwise identically. One-device runs
// store the esoteric-pull lattice, multi-device runs the gathered pull
// lattice (independent of the part count: restart on any number of devices).
// Both solvers compute the same bits, so either restarts the other's file:
// the populations are permuted into the reader's layout on the way in.
#pragma once
#include <filesystem>
#include <memory>

#include "lbm/checkpoint_format.hpp"
#include "lbm/distributed.hpp"
#include "lbm/solver.hpp"
#include "skeleton/team.hpp"

namespace tessera::lbm {

void write_checkpoint(const std::filesystem::path& path, Solver& s);
/// (Collective over the ranks of an MPI run; rank 0 writes the file.)
void write_checkpoint(const std::filesystem::path& path, DistributedSolver& s);

/// The validated contents of a checkpoint file (Error naming the file and
/// the reason for corrupt, truncated or foreign files: exit code 1).
CheckpointContents read_checkpoint_file(const std::filesystem::path& path);

/// A solver on `device` holding the checkpoint's state (either layout).
std::unique_ptr<Solver> read_checkpoint(const std::filesystem::path& path,
                                        std::shared_ptr<Device> device);

/// A solver over `team` holding the checkpoint's state (either layout, any
/// part count; a 3D lattice, as the distributed solver needs).
DistributedSolver read_distributed_checkpoint(const std::filesystem::path& path,
                                              skeleton::Team team);

/// The raw populations of time t of one layout in the other's: a permutation
/// (every slot moves once), so converting back gives the same bytes.
std::vector<std::uint8_t> convert_layout(const std::vector<std::uint8_t>& raw, const Config& c,
                                         long t, PopulationLayout from);

}  // namespace tessera::lbm
