// tessera: the command-line program. Exit codes: 0 success, 1 runtime error,
// 2 usage error (bad options, unknown device, backend not built in).
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "apps/tessera/commands.hpp"
#include "apps/tessera/host_memory.hpp"
#include "apps/tessera/option_checks.hpp"
#include "core/error.hpp"
#include "tessera/config.hpp"

namespace {

// OpenMP threads that wait for work spin by default (libgomp: 300 000 spins
// before sleeping). When another process shares the cores, a spinning thread
// takes the time slice of the one that holds the work, and every parallel
// region waits for it: under load `mg --n 255` took 748 ms instead of 18 ms,
// an LBM run 160x longer than one thread. Passive waiting costs a few
// microseconds per region on an idle machine (docs/backends.md). libgomp reads
// the policy once, when it is loaded, before main(): so it is set here and
// the program started again, once. An explicit OMP_WAIT_POLICY or
// GOMP_SPINCOUNT is the user's and is kept.
void wait_passively_by_default(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT")) return;
  if (::setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
  ::execv("/proc/self/exe", argv);  // returns only if it failed: go on with the default policy
  ::unsetenv("OMP_WAIT_POLICY");
}

}  // namespace

int main(int argc, char** argv) {
  wait_passively_by_default(argv);
  CLI::App app{"tessera — GPU numerical simulation: multigrid, shallow water, sparse/Krylov, "
               "skeletons, lattice Boltzmann on CPU, OpenCL and CUDA"};
  app.set_version_flag("--version", std::string("tessera ") + TESSERA_VERSION + " (" +
                                        TESSERA_GIT_COMMIT + ")");
  app.require_subcommand(1);
  const std::vector<tessera::app::Command> commands = tessera::app::make_commands(app);
  tessera::app::require_finite_everywhere(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  try {
    for (const auto& c : commands)
      if (c.app->parsed()) {
        tessera::app::probe_output_paths(*c.app);
        return c.action();
      }
    return 2;
  } catch (const tessera::Error& e) {
    std::fprintf(stderr, "tessera: error: %s\n", e.what());
    return e.exit_code();
  } catch (const std::bad_alloc&) {
    const double need = double(tessera::app::failed_host_allocation());
    const std::string size = need > 0 ? fmt::format("an allocation of {:.0f} bytes ({:.3g} GiB)", need, need / (1ull << 30))
                                      : std::string("a host allocation (size unknown)");
    std::fprintf(stderr,
                 "tessera: error: out of host memory: %s failed; reduce the problem size or run on a machine with "
                 "more memory\n",
                 size.c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera: error: %s\n", e.what());
    return 1;
  }
}
