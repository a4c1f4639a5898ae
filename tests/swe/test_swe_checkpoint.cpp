// Checkpoint/restart of the shallow-water solvers: a run saved at some step,
// restored into a fresh solver (built from a different case, so that nothing
// of the state may come from the constructor) and continued equals the
// uninterrupted run BITWISE (fields, bed, time, dt, rates, step count). The
// state goes through the checkpoint byte format each time. Physical model:
// both orders, float and double, four boundary sets, every device; thesis:
// every race-free variant, restored into another variant; distributed: saved
// from 2 parts, restored into 1 and 3 parts and into the single-device solver.
#include <cstring>
#include <map>

#include "core/error.hpp"
#include "core/registry.hpp"
#include "skeleton/team.hpp"
#include "swe/checkpoint_format.hpp"
#include "swe/distributed.hpp"
#include "swe_distributed_cases.hpp"
#include "test_support.hpp"

namespace tessera::swe {
namespace {

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

template <class T>
void expect_same_state(const PhysSolverState<T>& a, const PhysSolverState<T>& b) {
  ASSERT_EQ(a.nx, b.nx);
  ASSERT_EQ(a.ny, b.ny);
  EXPECT_TRUE(same_bits(a.h, b.h));
  EXPECT_TRUE(same_bits(a.hu, b.hu));
  EXPECT_TRUE(same_bits(a.hv, b.hv));
  EXPECT_TRUE(same_bits(a.z, b.z));
  EXPECT_TRUE(same_bits(a.dt, b.dt)) << a.dt << " vs " << b.dt;
  EXPECT_TRUE(same_bits(a.time, b.time)) << a.time << " vs " << b.time;
  EXPECT_TRUE(same_bits(a.target, b.target));
  EXPECT_EQ(a.rate[0], b.rate[0]);
  EXPECT_EQ(a.rate[1], b.rate[1]);
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.bad_cell, b.bad_cell);
  EXPECT_EQ(a.bad_step, b.bad_step);
}

/// Through the file format and back.
template <class S>
S through_bytes(const S& s) {
  SweCheckpoint c;
  c.state = s;
  c.config = {{"k", 1}};
  const std::string bytes = format_swe_checkpoint(c, 0.5);
  const SweCheckpoint back = parse_swe_checkpoint(bytes, "test.ckpt");
  EXPECT_EQ(back.steps(), c.steps());
  EXPECT_EQ(back.config, c.config);
  return std::get<S>(back.state);
}

// Logical devices: three per backend on CPU and OpenCL; CUDA: the GPUs there are.
std::vector<std::shared_ptr<Device>> devices_for(const std::string& id) {
  static std::map<std::string, std::vector<std::shared_ptr<Device>>> cache;
  auto& d = cache[id];
  if (!d.empty()) return d;
  int n = 3;
  if (id.rfind("cuda", 0) == 0) {
    n = 0;
    for (const auto& x : list_devices()) n += x.id.rfind("cuda", 0) == 0;
    n = id == "cuda:0" ? std::min(3, n) : 1;
  }
  skeleton::Team t = skeleton::Team::open(id, n);
  for (int l = 0; l < t.local_parts(); ++l) d.push_back(t.device_ptr(l));
  return d;
}

/// Saves at the `at`-th health check of an advance (as the CLI does).
template <class Solver>
auto save_at_check(Solver& s, double t, int at) {
  decltype(s.save_state()) saved;
  int checks = 0;
  s.advance_to(t, [&](const Health& h) {
    if (++checks == at) {
      ASSERT_FALSE(h.bad);
      ASSERT_LT(h.time, t);  // the advance goes on after this check
      saved = s.save_state();
    }
  });
  EXPECT_GT(checks, at);
  return saved;
}

class SweRestart : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { devs_ = devices_for(GetParam()); }
  bool fp64() const { return devs_[0]->info().fp64; }
  skeleton::Team team(int parts) {
    return skeleton::Team(
        std::vector<std::shared_ptr<Device>>(devs_.begin(), devs_.begin() + parts));
  }

  template <class T>
  void physical_restart(const PhysCase& c, const PhysOptions& o, double t) {
    PhysSolver<T> a(devs_[0], c, o);
    const PhysSolverState<T> saved = through_bytes(save_at_check(a, t, 2));
    ASSERT_GT(saved.steps, 2u);
    const PhysSolverState<T> want = a.save_state();
    // the fresh solver starts from another state over another bed
    PhysCase other = dtest::random_case(c.nx, c.ny, 4242, c.bc);
    for (int s = 0; s < 4; ++s) other.bc_value[s] = c.bc_value[s];
    PhysSolver<T> b(devs_[0], other, o);
    b.restore_state(saved);
    expect_same_state(b.save_state(), saved);
    b.advance_to(t);
    expect_same_state(b.save_state(), want);
    EXPECT_EQ(b.mass(), a.mass());
  }

  std::vector<std::shared_ptr<Device>> devs_;
};

TEST_P(SweRestart, PhysicalRestartContinuesBitwise) {
  int seed = 1;
  for (const auto& set : dtest::bc_sets())
    for (Order order : {Order::first, Order::second}) {
      SCOPED_TRACE(set.name + (order == Order::first ? ", first order" : ", second order"));
      const PhysCase c = dtest::random_case(19, 13, 500u + unsigned(seed++), set.bc);
      PhysOptions o;
      o.order = order;
      o.check_every = 3;
      physical_restart<float>(c, o, 0.6);
      if (fp64()) physical_restart<double>(c, o, 0.6);
    }
}

TEST_P(SweRestart, PhysicalRunStepsAndFixedDtRestartBitwise) {
  const PhysCase c = dtest::random_case(17, 14, 88, dtest::bc_sets()[3].bc);
  for (double fixed : {0.0, 0.004}) {
    PhysOptions o;
    o.order = Order::second;
    o.fixed_dt = fixed;
    PhysSolver<float> a(devs_[0], c, o);
    a.run_steps(7);  // odd: the restored run must resume at the right rate slot
    const auto saved = through_bytes(a.save_state());
    a.run_steps(6);
    PhysSolver<float> b(devs_[0], dtest::random_case(17, 14, 3, dtest::bc_sets()[3].bc), o);
    b.restore_state(saved);
    b.run_steps(6);
    expect_same_state(b.save_state(), a.save_state());
  }
}

TEST_P(SweRestart, ThesisRestartContinuesBitwiseInAnyVariant) {
  std::vector<ThesisVariant> race_free;
  for (const auto& v : thesis_variants())
    if (v.buffers != ThesisBuffers::in_place) race_free.push_back(v);
  auto run = [&](auto tag) {
    using T = decltype(tag);
    DamBreak c;
    c.nx = 23;
    c.ny = 17;
    const ThesisState<T> init = thesis_dam_break<T>(c);
    DamBreak other = c;
    other.deep = 3;
    other.shallow = 2;
    const T k = thesis_coefficient<T>(0.3, c.dx());
    for (std::size_t v = 0; v < race_free.size(); ++v) {
      SCOPED_TRACE(race_free[v].name);
      ThesisSolver<T> a(devs_[0], init, k, race_free[v], {});
      a.run(5);
      const ThesisSolverState<T> saved = through_bytes(a.save_state());
      EXPECT_EQ(saved.steps, 5);
      a.run(6);
      // restored into the next variant, from another initial state
      ThesisSolver<T> b(devs_[0], thesis_dam_break<T>(other), k,
                        race_free[(v + 1) % race_free.size()], {});
      b.restore_state(saved);
      b.run(6);
      EXPECT_EQ(b.steps(), 11);
      const ThesisState<T> x = a.state(), y = b.state();
      for (long i = 1; i <= c.nx; ++i)
        for (long j = 1; j <= c.ny; ++j) {
          const long at = x.grid.at(i, j);
          ASSERT_TRUE(same_bits(x.z[at], y.z[at]) && same_bits(x.qx[at], y.qx[at]) &&
                      same_bits(x.qy[at], y.qy[at]))
              << "cell (" << i << ", " << j << ")";
        }
    }
  };
  run(float{});
  if (fp64()) run(double{});
}

TEST_P(SweRestart, DistributedStateIsIndependentOfThePartition) {
  int seed = 7;
  for (const auto& set : dtest::bc_sets())
    for (Order order : {Order::first, Order::second}) {
      SCOPED_TRACE(set.name + (order == Order::first ? ", first order" : ", second order"));
      const PhysCase c = dtest::random_case(23, 11, 900u + unsigned(seed++), set.bc);
      PhysOptions o;
      o.order = order;
      o.check_every = 4;
      const double t = 0.6;
      PhysSolver<float> straight(devs_[0], c, o);
      const PhysSolverState<float> at_check = save_at_check(straight, t, 2);
      const PhysSolverState<float> want = straight.save_state();
      const int saver_parts = std::min<int>(2, int(devs_.size()));
      DistributedPhysSolver<float> d2(team(saver_parts), c, o);
      const PhysSolverState<float> saved = through_bytes(save_at_check(d2, t, 2));
      expect_same_state(saved, at_check);  // gathered: the single device's state
      expect_same_state(d2.save_state(), want);
      const PhysCase other = dtest::random_case(23, 11, 1, set.bc);
      for (int parts = 1; parts <= int(devs_.size()); ++parts) {
        SCOPED_TRACE(std::to_string(parts) + " parts");
        DistributedPhysSolver<float> d(team(parts), other, o);
        d.restore_state(saved);
        d.advance_to(t);
        expect_same_state(d.save_state(), want);
      }
      PhysSolver<float> single(devs_[0], other, o);
      single.restore_state(saved);
      single.advance_to(t);
      expect_same_state(single.save_state(), want);
    }
}

TEST_P(SweRestart, FirstBadCellSurvivesTheRoundTrip) {
  const PhysCase c = dtest::random_case(12, 9, 5, dtest::bc_sets()[0].bc);
  PhysOptions o;
  o.fixed_dt = 2.0;  // far beyond the CFL limit: cells go bad at once
  o.check_every = 1;
  PhysSolver<float> single(devs_[0], c, o);
  ASSERT_TRUE(single.advance_to(50.0).bad);
  const int parts = std::min<int>(3, int(devs_.size()));
  DistributedPhysSolver<float> d(team(parts), c, o);
  ASSERT_TRUE(d.advance_to(50.0).bad);
  const PhysSolverState<float> s = d.save_state(), want = single.save_state();
  EXPECT_EQ(s.bad_cell, want.bad_cell);
  EXPECT_EQ(s.bad_step, want.bad_step);
  DistributedPhysSolver<float> r(team(parts), c, o);
  r.restore_state(through_bytes(s));
  const Health h = r.health(), w = single.health();
  EXPECT_TRUE(h.bad);
  EXPECT_EQ(h.bad_i, w.bad_i);
  EXPECT_EQ(h.bad_j, w.bad_j);
  EXPECT_EQ(h.bad_step, w.bad_step);
}

INSTANTIATE_TEST_SUITE_P(Devices, SweRestart, ::testing::ValuesIn(test::device_ids()),
                         test::id_name);

TEST(SweCheckpointInput, StatesOfAnotherGridOrCoefficientAreRefused) {
  const auto cpu = open_device("cpu");
  const PhysCase c = dtest::random_case(8, 6, 2, dtest::bc_sets()[0].bc);
  PhysSolver<double> a(cpu, c, PhysOptions{});
  PhysSolver<double> b(cpu, dtest::random_case(6, 8, 2, dtest::bc_sets()[0].bc), PhysOptions{});
  EXPECT_THROW(b.restore_state(a.save_state()), UsageError);
  DistributedPhysSolver<double> d(skeleton::Team::open("cpu", 2),
                                  dtest::random_case(9, 6, 2, dtest::bc_sets()[0].bc),
                                  PhysOptions{});
  EXPECT_THROW(d.restore_state(a.save_state()), UsageError);
  DamBreak dam;
  dam.nx = 6;
  dam.ny = 5;
  const auto init = thesis_dam_break<double>(dam);
  ThesisSolver<double> t1(cpu, init, 0.01, thesis_variant("v5-pingpong"), {});
  ThesisSolver<double> t2(cpu, init, 0.02, thesis_variant("v5-pingpong"), {});
  EXPECT_THROW(t2.restore_state(t1.save_state()), UsageError);
  dam.ny = 6;
  ThesisSolver<double> t3(cpu, thesis_dam_break<double>(dam), 0.01, thesis_variant("v5-pingpong"),
                          {});
  EXPECT_THROW(t3.restore_state(t1.save_state()), UsageError);
}

}  // namespace
}  // namespace tessera::swe
