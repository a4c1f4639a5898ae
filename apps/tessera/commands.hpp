// Sub-commands of the `tessera` program; each module adds its own here.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace tessera::app {

/// A registered sub-command and what runs when it was given.
struct Command {
  CLI::App* app;
  std::function<int()> action;
};
Command add_devices_command(CLI::App& app);
Command add_bench_command(CLI::App& app);
Command add_mg_command(CLI::App& app);
Command add_sparse_command(CLI::App& app);

}  // namespace tessera::app
