// Checkpoint/restart of `tessera swe` runs: files in the format of
// swe/checkpoint_format.hpp, written atomically (core/atomic_file.hpp), and
// the check that a restarted run has the configuration the checkpoint was
// written with.
#pragma once
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "swe/checkpoint_format.hpp"

namespace tessera::swe {

void write_swe_checkpoint(const std::filesystem::path& path, const SweCheckpoint& c,
                          double thesis_dt = 0);

/// Reads and validates a checkpoint, the meaning of its state included
/// (validate_swe_state); Error naming the file and what is wrong.
SweCheckpoint read_swe_checkpoint(const std::filesystem::path& path);

/// What a run is, for comparison with a checkpoint: model, precision, grid
/// and `config` (option name -> effective value, the keys the checkpoint
/// records, in the order they are compared: causes before what derives from
/// them). UsageError "<file>: ..." naming the first field that differs;
/// Error when the checkpoint lacks a field (written by another tessera).
void check_restart_config(const SweCheckpoint& c, const std::string& model,
                          const std::string& precision, long nx, long ny,
                          const nlohmann::ordered_json& config, const std::string& file);

}  // namespace tessera::swe
