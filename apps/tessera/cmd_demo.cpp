// `tessera demo [--device ID] [--quick] --out DIR`: one checked case per
// module, with pictures, and DIR/index.html. Exit 0 when every section is
// correct, 1 when one is wrong, 2 for usage errors.
#include <memory>

#include "apps/tessera/commands.hpp"
#include "demo/demo.hpp"

namespace tessera::app {

Command add_demo_command(CLI::App& app) {
  auto a = std::make_shared<demo::DemoOptions>();
  auto* cmd = app.add_subcommand(
      "demo", "Show every module working: one checked case each, pictures, DIR/index.html");
  cmd->add_option("--device,-d", a->device, "Device id (cpu, opencl:P:D, cuda:N, best)");
  cmd->add_flag("--quick", a->quick, "Small sizes (a CPU finishes in about two minutes)");
  cmd->add_option("--out,-o", a->out, "Folder for the pictures and index.html")->required();
  return {cmd, [a] { return demo::run_demo(*a); }};
}

namespace {
const RegisterCommand registered{5, add_demo_command};
}  // namespace

}  // namespace tessera::app
