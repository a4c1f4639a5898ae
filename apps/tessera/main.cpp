// tessera: the command-line program. Exit codes: 0 success, 1 runtime error,
// 2 usage error (bad options, unknown device, backend not built in).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "apps/tessera/commands.hpp"
#include "apps/tessera/host_memory.hpp"
#include "apps/tessera/option_checks.hpp"
#include "core/env.hpp"
#include "core/error.hpp"
#include "tessera/config.hpp"

namespace {

// OpenMP threads that wait for work spin by default (libgomp: 300 000 spins
// before sleeping). When other processes share the cores, a spinning thread
// takes the time slice of the one that holds the work, and every parallel
// region waits for it: on an H100 host with its 16 cores busy, `mg --n 255`
// took 3020 ms. A short spin (1000, libgomp's own count when it knows the
// threads outnumber the cores) took 123 ms there and is as fast as the long
// one on an idle machine (2.5 ms); passive waiting took 100 ms busy but 12 ms
// idle (docs/backends.md, scripts/omp-busy-bench.sh). libgomp reads the count
// once, when it is loaded, before main(): so it is set here and the program
// started again, once. An OMP_WAIT_POLICY or GOMP_SPINCOUNT of the user's is
// kept; TESSERA_NO_REEXEC=1 keeps libgomp's default without one.
bool same_file(const char* a, const char* b) {
  struct stat x {
  }, y{};
  return ::stat(a, &x) == 0 && ::stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

void short_spin_by_default(char** argv) {
  if (tessera::env_flag("TESSERA_NO_REEXEC", false) || tessera::env_string("OMP_WAIT_POLICY") ||
      tessera::env_string("GOMP_SPINCOUNT"))
    return;
  // Only the program itself is started again: under valgrind, or a loader
  // started by hand (ld.so tessera ...), /proc/self/exe is another program.
  const auto* execfn = reinterpret_cast<const char*>(::getauxval(AT_EXECFN));
  if (!execfn || !same_file("/proc/self/exe", execfn)) return;
  char self[4096];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return;
  self[n] = '\0';
  const char* base = std::strrchr(self, '/');
  if (std::strncmp(base ? base + 1 : self, "ld-", 3) == 0) return;
  if (::setenv("GOMP_SPINCOUNT", "1000", 1) != 0) return;
  ::execv("/proc/self/exe", argv);  // returns only if it failed: go on with libgomp's default
  ::unsetenv("GOMP_SPINCOUNT");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    short_spin_by_default(argv);
  } catch (const tessera::Error& e) {  // a malformed TESSERA_NO_REEXEC
    std::fprintf(stderr, "tessera: error: %s\n", e.what());
    return e.exit_code();
  }
  CLI::App app{
      "tessera — GPU numerical simulation: multigrid, shallow water, sparse/Krylov, "
      "skeletons, lattice Boltzmann on CPU, OpenCL and CUDA"};
  app.set_version_flag("--version",
                       std::string("tessera ") + TESSERA_VERSION + " (" + TESSERA_GIT_COMMIT + ")");
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
    const std::string size = need > 0 ? fmt::format("an allocation of {:.0f} bytes ({:.3g} GiB)",
                                                    need, need / (1ull << 30))
                                      : std::string("a host allocation (size unknown)");
    std::fprintf(
        stderr,
        "tessera: error: out of host memory: %s failed; reduce the problem size or run on a machine with "
        "more memory\n",
        size.c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera: error: %s\n", e.what());
    return 1;
  }
}
