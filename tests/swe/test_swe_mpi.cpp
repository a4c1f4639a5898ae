// Run with mpirun -np 2 / -np 3: the physical shallow-water model over M ranks
// x L local parts (argv[1], default 1) equals the single-device PhysSolver run
// in this process bitwise (h, hu, hv, steps, time, dt), first and second
// order, float and double, every boundary set of the in-process test, odd
// sizes; the first bad cell is the same global (step, i, j). Exit 0 only if
// all agree on every rank.
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/interrupt.hpp"
#include "core/registry.hpp"
#include "skeleton/mpi_comm.hpp"
#include "swe/distributed.hpp"
#include "swe_distributed_cases.hpp"

namespace {

using namespace tessera;
using namespace tessera::swe;

int failures = 0;
int rank_ = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "rank %d: FAILED: %s\n", rank_, what.c_str());
  }
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

template <class T>
void compare(const skeleton::Team& team, const PhysCase& c, const PhysOptions& o, double t,
             const std::string& what) {
  PhysSolver<T> single(open_device("cpu"), c, o);
  const Health want = single.advance_to(t);
  const HostFields ref = single.state();
  DistributedPhysSolver<T> d(team, c, o);
  const Health got = d.advance_to(t);
  const HostFields s = d.state();
  check(same_bits(s.h, ref.h) && same_bits(s.hu, ref.hu) && same_bits(s.hv, ref.hv),
        what + ": fields differ");
  check(got.steps == want.steps && got.time == want.time && got.dt == want.dt,
        what + ": steps/time differ (" + std::to_string(got.steps) + " vs " +
            std::to_string(want.steps) + ")");
  check(got.bad == want.bad && got.bad_step == want.bad_step && got.bad_i == want.bad_i &&
            got.bad_j == want.bad_j,
        what + ": health differs");
}

template <class T>
bool same_state(const PhysSolverState<T>& a, const PhysSolverState<T>& b) {
  auto same = [](const std::vector<T>& x, const std::vector<T>& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
  };
  return a.nx == b.nx && a.ny == b.ny && same(a.h, b.h) && same(a.hu, b.hu) && same(a.hv, b.hv) &&
         same(a.z, b.z) && std::memcmp(&a.dt, &b.dt, sizeof(T)) == 0 &&
         std::memcmp(&a.time, &b.time, sizeof(T)) == 0 && a.rate[0] == b.rate[0] &&
         a.rate[1] == b.rate[1] && a.steps == b.steps && a.bad_cell == b.bad_cell;
}

// Checkpoint/restart across ranks: the state saved (collectively) at the 2nd
// health check equals the single device's at that check; restored into a
// fresh MPI solver built from another case, the run ends bitwise where the
// single device ends.
template <class T>
void compare_restart(const skeleton::Team& team, const PhysCase& c, const PhysOptions& o, double t,
                     const std::string& what) {
  auto save_at_second_check = [&](auto& s) {
    decltype(s.save_state()) saved;
    int checks = 0;
    s.advance_to(t, [&](const Health&) {
      if (++checks == 2) saved = s.save_state();
    });
    return saved;
  };
  PhysSolver<T> single(open_device("cpu"), c, o);
  const PhysSolverState<T> at_check = save_at_second_check(single), want = single.save_state();
  DistributedPhysSolver<T> d(team, c, o);
  const PhysSolverState<T> saved = save_at_second_check(d);
  check(at_check.steps > 0 && same_state(saved, at_check),
        what + ": saved state differs from the single device's");
  PhysCase other = dtest::random_case(c.nx, c.ny, 99, c.bc);
  DistributedPhysSolver<T> r(team, other, o);
  r.restore_state(saved);
  r.advance_to(t);
  check(same_state(r.save_state(), want), what + ": restarted run differs");
}

// Interruption under MPI: mpirun hands a signal to the ranks at different
// moments (here only the last rank gets one, during its 2nd health check).
// The next health check must tell every rank, so that all of them stop, and
// save collectively, at the same check; the other ranks' own flag stays clear.
void signal_agreement(const skeleton::Team& team, int ranks) {
  install_interrupt_handlers();
  reset_interrupted();
  const PhysCase c =
      dtest::random_case(2L * team.total_parts() + 7, 11, 21, dtest::bc_sets()[0].bc);
  PhysOptions o;
  o.check_every = 1;
  DistributedPhysSolver<float> d(team, c, o);
  int checks = 0, first_seen = 0, sig = 0;
  d.advance_to(1.0, [&](const Health& h) {
    ++checks;
    if (h.signal && !first_seen) {
      first_seen = checks;
      sig = h.signal;
    }
    if (checks == 2 && rank_ == ranks - 1) std::raise(SIGINT);
  });
  check(checks >= 3,
        "signal agreement: the run needs 3 health checks, it had " + std::to_string(checks));
  check(first_seen == 3 && sig == SIGINT, "signal agreement: SIGINT seen first at check " +
                                              std::to_string(first_seen) + " (want 3), signal " +
                                              std::to_string(sig));
  check(rank_ == ranks - 1 || interrupted() == 0,
        "signal agreement: a rank that got no signal has its flag set");
  reset_interrupted();
}

}  // namespace

int main(int argc, char** argv) {
  skeleton::MpiSession mpi(&argc, &argv);
  auto world = mpi.world();
  rank_ = world->rank();
  const int local = argc > 1 ? std::stoi(argv[1]) : 1;
  try {
    const skeleton::Team team = skeleton::Team::open("cpu", local, world);
    const long nx = 2L * team.total_parts() + 31;  // odd, uneven slabs
    int seed = 11;
    for (const auto& set : dtest::bc_sets())
      for (Order order : {Order::first, Order::second}) {
        const PhysCase c = dtest::random_case(nx, 29, unsigned(seed++), set.bc);
        PhysOptions o;
        o.order = order;
        o.check_every = 5;
        const std::string what = set.name + (order == Order::first ? " first" : " second");
        compare<float>(team, c, o, 0.12, what + " float");
        compare<double>(team, c, o, 0.12, what + " double");
        compare_restart<float>(team, c, o, 0.3, what + " float restart");
      }
    {  // minimum slabs of 2 rows
      const PhysCase c = dtest::random_case(2L * team.total_parts(), 9, 3, dtest::bc_sets()[2].bc);
      compare<double>(team, c, PhysOptions{}, 0.1, "2-row slabs");
    }
    {  // a blow-up: the first bad cell in global coordinates
      const PhysCase c = dtest::random_case(nx, 17, 5, dtest::bc_sets()[0].bc);
      PhysOptions o;
      o.fixed_dt = 2.0;
      o.check_every = 1;
      compare<float>(team, c, o, 50.0, "bad cell");
    }
    signal_agreement(team, world->size());
  } catch (const std::exception& e) {
    ++failures;
    std::fprintf(stderr, "rank %d: error: %s\n", rank_, e.what());
  }
  int total = 0;
  const auto all = world->allgather(&failures, sizeof failures);
  for (std::size_t k = 0; k < all.size(); k += sizeof(int)) {
    int v;
    std::memcpy(&v, all.data() + k, sizeof v);
    total += v;
  }
  if (rank_ == 0)
    std::printf("swe mpi: %d ranks x %d parts: %s\n", world->size(), local,
                total ? "FAILED" : "all bitwise equal");
  return total ? 1 : 0;
}
