// `tessera skel-demo NAME`: the skeleton library's examples on N devices
// (--gpus) of one kind (--device), optionally across MPI ranks (--mpi):
//   da      the thesis's DA example (Muesli listing 2.2): mapIndex + zipInPlace
//   heat2d  2-D 5-point Jacobi heat equation (DM, mapStencilInPlace, fold)
//   blur3d  3-D mean blur, 27 points (DC, mapStencilInPlace, fold; the IJPP example)
// --check reruns on one part and reports whether the result is bitwise equal.
// --checkpoint FILE saves the field after the last step; --restart FILE starts
// from one (any part count, device or rank count: skeleton/checkpoint.hpp).
// SIGINT/SIGTERM stop heat2d/blur3d at a step boundary with a checkpoint
// (--checkpoint, else skel_<step>.ckpt) and exit 130/143.
#include <chrono>
#include <cstring>
#include <cstdio>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/tessera/commands.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/fault_injection.hpp"
#include "core/interrupt.hpp"
#include "skeleton/examples.hpp"
#include "skeleton/skeleton.hpp"
#include "tessera/config.hpp"
#if TESSERA_HAVE_MPI
#include "skeleton/mpi_comm.hpp"
#endif

namespace tessera::app {

namespace {

namespace sk = tessera::skeleton;
namespace ex = tessera::skeleton::examples;

struct SkelArgs {
  std::string name, device = "best", precision = "float", json, checkpoint, restart;
  int gpus = 1, steps = 100;
  long size = 0;
  bool check = false, mpi = false;
};

void print_da(const char* label, const std::vector<int>& v) {
  std::printf("%s: [", label);
  for (std::size_t i = 0; i < v.size(); ++i) std::printf("%s%d", i ? ", " : "", v[i]);
  std::printf("]\n");
}

int run_da(const sk::Team& team, nlohmann::json& j) {
  sk::DA<int> da1(team, 4, 3), da2(team, 4);
  print_da("da1", da1.gather());
  da1.mapIndex(sk::portable(ex::DaSum{}, ex::cl_da("ts_skel_da_sum")), da2);
  print_da("da1.mapIndex(sum, da2)    -> da2", da2.gather());
  da1.zipInPlace(da2, sk::portable(ex::DaProduct{}, ex::cl_da("ts_skel_da_product")));
  const auto r = da1.gather();
  print_da("da1.zipInPlace(da2, product) -> da1", r);
  j["da1"] = r;
  return r == std::vector<int>{9, 12, 15, 18} ? 0 : 1;
}

// Where a run starts and what it keeps: --restart and --checkpoint.
struct Persist {
  std::string restart, checkpoint;
  bool interruptible =
      true;  ///< false for the --check rerun (the first run already stopped for a signal)
  std::uint64_t step0 = 0;  ///< the step the run started from (restored with the field)
};

/// The container's first values: `init`, or the --restart checkpoint's.
template <class T, class Container>
void start(Container& c, const std::vector<T>& init, Persist& p) {
  if (p.restart.empty()) {
    c.scatter(init);
    return;
  }
  p.step0 = sk::load_checkpoint(c, p.restart);
  if (c.field().team().rank() == 0)
    std::printf("restarted from %s at step %llu\n", p.restart.c_str(),
                static_cast<unsigned long long>(p.step0));
}

// The first signal any rank received (every rank must stop at the same step:
// the next one exchanges halos), polled every kPoll steps; 0 if none.
constexpr int kPoll = 16;
int agreed_signal(const sk::Team& team) {
  int sig = interrupted();
  if (sk::Comm* comm = team.comm()) {
    const auto all = comm->allgather(&sig, sizeof sig);
    sig = 0;
    for (std::size_t i = 0; i + sizeof(int) <= all.size() && !sig; i += sizeof(int))
      std::memcpy(&sig, &all[i], sizeof sig);
  }
  return sig;
}

// Runs a stencil demo on `team` and returns the final field (all ranks).
template <class T, class Container, class Fn>
std::vector<T> iterate(Container& c, const Fn& f, const sk::Stencil& st, int steps, double& seconds,
                       const Persist& p) {
  if (p.interruptible) install_interrupt_handlers();
  const auto t0 = std::chrono::steady_clock::now();
  for (int s = 0; s < steps; ++s) {
    c.mapStencilInPlace(f, st, T(0));
    if (!p.interruptible) continue;
    fault::at_step_boundary();  // test-only: TESSERA_FAULT=sigint_at_step:N
    if ((s + 1) % kPoll != 0 || s + 1 == steps) continue;  // (a finished run just finishes)
    // the devices finish these steps before the next are queued: a signal
    // waits for at most kPoll steps, not for all the host has queued ahead
    const sk::Team& team = c.field().team();
    for (int d = 0; d < team.local_parts(); ++d) team.device(d).synchronize();
    if (const int sig = agreed_signal(team)) {
      const std::uint64_t step = p.step0 + static_cast<std::uint64_t>(s + 1);
      const std::string file =
          !p.checkpoint.empty() ? p.checkpoint : fmt::format("skel_{:08d}.ckpt", step);
      sk::save_checkpoint(c, file, step);
      throw Interrupted(
          sig,
          fmt::format("interrupted by {} after step {}: checkpoint {} (continue with --restart {} "
                      "--steps {})",
                      signal_name(sig), step, file, file, steps - (s + 1)));
    }
  }
  auto out = c.gather();  // synchronises every device
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!p.checkpoint.empty()) {
    const std::uint64_t step = p.step0 + static_cast<std::uint64_t>(steps);
    sk::save_checkpoint(c, p.checkpoint, step);
    if (c.field().team().rank() == 0)
      std::printf("checkpoint: %s (step %llu)\n", p.checkpoint.c_str(),
                  static_cast<unsigned long long>(step));
  }
  return out;
}

template <class T>
std::vector<T> heat2d(const sk::Team& team, long n, int steps, double& seconds, T& total,
                      Persist p) {
  sk::DM<T> u(team, n, n, T(0));
  std::vector<T> init(static_cast<std::size_t>(n * n), T(0));
  for (long y = n / 4; y < n / 2; ++y)
    for (long x = n / 4; x < n / 2; ++x)
      init[static_cast<std::size_t>(y * n + x)] = T(1);  // a hot square
  start(u, init, p);
  const auto jacobi = sk::portable(ex::Jacobi5{}, ex::cl_stencil("ts_skel_jacobi5"));
  auto out =
      iterate<T>(u, jacobi, sk::Stencil::uniform(1, sk::BoundaryMode::clamp, 2), steps, seconds, p);
  total = u.fold(sk::portable(ex::Add{}, ex::cl_point("ts_skel_add")));
  return out;
}

template <class T>
std::vector<T> blur3d(const sk::Team& team, long n, int steps, double& seconds, T& total,
                      Persist p) {
  sk::DC<T> c(team, n, n, n);
  std::vector<T> init(static_cast<std::size_t>(n * n * n));
  for (std::size_t i = 0; i < init.size(); ++i) init[i] = T((i * 2654435761u) % 1000) * T(0.001);
  start(c, init, p);
  const auto blur = sk::portable(ex::Blur27{}, ex::cl_stencil("ts_skel_blur27"));
  auto out =
      iterate<T>(c, blur, sk::Stencil::uniform(1, sk::BoundaryMode::mirror), steps, seconds, p);
  total = c.fold(sk::portable(ex::Add{}, ex::cl_point("ts_skel_add")));
  return out;
}

template <class T>
int run_stencil_demo(const SkelArgs& a, const sk::Team& team, nlohmann::json& j) {
  const bool two_d = a.name == "heat2d";
  const long n = a.size ? a.size : (two_d ? 1024 : 128);
  double seconds = 0;
  T total{};
  auto run = [&](const sk::Team& t, double& s, T& tot, const Persist& p) {
    return two_d ? heat2d<T>(t, n, a.steps, s, tot, p) : blur3d<T>(t, n, a.steps, s, tot, p);
  };
  const auto result = run(team, seconds, total, {a.restart, a.checkpoint});
  const double cells = two_d ? double(n) * n : double(n) * n * n;
  if (team.rank() == 0) {
    std::printf(
        "%s %ld^%d, %d steps on %d part(s) x %d rank(s) of %s (%s): %.3f s, %.1f Mcells/s, sum %.9g\n",
        a.name.c_str(), n, two_d ? 2 : 3, a.steps, team.local_parts(), team.ranks(),
        team.device(0).id().c_str(), a.precision.c_str(), seconds, cells * a.steps / seconds * 1e-6,
        double(total));
  }
  j["size"] = n;
  j["seconds"] = seconds;
  j["mcells_per_s"] = cells * a.steps / seconds * 1e-6;
  j["sum"] = double(total);
  if (!a.check) return 0;
  // a signal in the last steps let the run finish; it still stops the rerun
  if (const int sig = agreed_signal(team))
    throw Interrupted(
        sig, fmt::format("interrupted by {} after the last step: the --check rerun was not started",
                         signal_name(sig)));
  double s1 = 0;
  T t1{};
  const auto single = run(sk::Team::open(team.device(0).id(), 1), s1, t1, {a.restart, "", false});
  const bool same = single.size() == result.size() &&
                    std::memcmp(single.data(), result.data(), result.size() * sizeof(T)) == 0;
  if (team.rank() == 0)
    std::printf("check: %s the one-part result\n", same ? "bitwise identical to" : "DIFFERS from");
  j["identical_to_one_part"] = same;
  return same ? 0 : 1;
}

}  // namespace

Command add_skel_command(CLI::App& app) {
  auto a = std::make_shared<SkelArgs>();
  auto* cmd = app.add_subcommand(
      "skel-demo", "Skeleton library examples: da, heat2d, blur3d (multi-device, MPI)");
  cmd->add_option("name", a->name, "da, heat2d or blur3d")
      ->required()
      ->check(CLI::IsMember({"da", "heat2d", "blur3d"}));
  cmd->add_option("--device,-d", a->device, "Device id (cpu, opencl:P:D, cuda:N, best)");
  cmd->add_option("--gpus,-g", a->gpus,
                  "Devices per process (CUDA: GPUs N..; cpu/OpenCL: logical devices)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--size,-s", a->size, "Cells per side (heat2d: 1024, blur3d: 128)")
      ->check(CLI::Range(3L, 1L << 20));
  cmd->add_option("--steps,-n", a->steps, "Stencil steps")->check(CLI::Range(1, 1000000));
  cmd->add_option("--precision", a->precision, "float or double")
      ->check(CLI::IsMember({"float", "double"}));
  cmd->add_flag("--check", a->check, "Compare with a one-part run (bitwise)");
  cmd->add_flag("--mpi", a->mpi, "Distribute over the MPI ranks this was started on (mpirun)");
  add_json_option(cmd, a->json, "Write the results");
  cmd->add_option("--checkpoint", a->checkpoint,
                  "heat2d/blur3d: save the field after the last step (atomic write)");
  cmd->add_option(
         "--restart", a->restart,
         "heat2d/blur3d: start from a checkpoint (of any part count, device or rank count)")
      ->check(CLI::ExistingFile);
  return {cmd, [a] {
            std::shared_ptr<sk::Comm> comm;
            std::string device = a->device;
#if TESSERA_HAVE_MPI
            std::unique_ptr<sk::MpiSession> mpi;
            if (a->mpi) {
              mpi = std::make_unique<sk::MpiSession>(nullptr, nullptr);
              comm = mpi->world();
              if (device.rfind("cuda:", 0) == 0)  // one rank per GPU set: shift by the local rank
                device = fmt::format("cuda:{}",
                                     std::stoi(device.substr(5)) + mpi->local_rank() * a->gpus);
            }
#else
    if (a->mpi) throw UsageError("--mpi: this tessera was built without MPI");
#endif
            if (a->name == "da" && !(a->checkpoint.empty() && a->restart.empty()))
              throw UsageError("--checkpoint/--restart: for heat2d and blur3d (da has no steps)");
            const sk::Team team = sk::Team::open(device, a->gpus, comm);
            nlohmann::json j = {{"command", "skel-demo"},   {"name", a->name},
                                {"device", device},         {"gpus", a->gpus},
                                {"ranks", team.ranks()},    {"steps", a->steps},
                                {"precision", a->precision}};
            int rc = 0;
            if (a->name == "da")
              rc = run_da(team, j);
            else
              rc = a->precision == "double" ? run_stencil_demo<double>(*a, team, j)
                                            : run_stencil_demo<float>(*a, team, j);
            if (!a->json.empty() && team.rank() == 0) write_output(a->json, j.dump(2) + "\n");
            return rc;
          }};
}

namespace {
const RegisterCommand registered{55, add_skel_command};
}  // namespace

}  // namespace tessera::app
