// The distributed physical model (x-slabs over a skeleton team) equals the
// single-device PhysSolver on the same device kind BITWISE (h, hu, hv, steps,
// time, dt, mass) for 1, 2 and 3 parts, first and second order, four
// boundary sets, a random wet/dry state over a random bed, odd sizes, slabs
// of the minimum 2 rows; the first bad cell is reported in global (i, j).
#include <algorithm>
#include <cstring>
#include <map>

#include "core/error.hpp"
#include "core/registry.hpp"
#include "skeleton/team.hpp"
#include "swe/cases.hpp"
#include "swe/distributed.hpp"
#include "swe_distributed_cases.hpp"
#include "test_support.hpp"

namespace tessera::swe {
namespace {

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Logical devices: several per backend on CPU and OpenCL (one context each);
// CUDA: as many GPUs as there are, from cuda:0.
std::vector<std::shared_ptr<Device>> devices_for(const std::string& id, int want) {
  int n = want;
  if (id.rfind("cuda", 0) == 0) {
    n = 0;
    for (const auto& d : list_devices()) n += d.id.rfind("cuda", 0) == 0;
    n = id == "cuda:0" ? std::min(want, n) : 1;
  }
  skeleton::Team t = skeleton::Team::open(id, n);
  std::vector<std::shared_ptr<Device>> out;
  for (int l = 0; l < t.local_parts(); ++l) out.push_back(t.device_ptr(l));
  return out;
}

class SweDistributed : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    // one set of logical devices per id for the whole suite (OpenCL compiles once per context)
    static std::map<std::string, std::vector<std::shared_ptr<Device>>> cache;
    auto& d = cache[GetParam()];
    if (d.empty()) d = devices_for(GetParam(), 3);
    devs_ = d;
  }
  skeleton::Team team(int parts) {
    return skeleton::Team(
        std::vector<std::shared_ptr<Device>>(devs_.begin(), devs_.begin() + parts));
  }
  bool fp64() const { return devs_[0]->info().fp64; }

  template <class T>
  void expect_equal(const PhysCase& c, const PhysOptions& o, double t, int max_parts,
                    const std::string& what) {
    PhysSolver<T> single(devs_[0], c, o);
    const Health want = single.advance_to(t);
    const HostFields ref = single.state();
    ASSERT_GT(want.steps, 2) << what;
    for (int parts = 1; parts <= std::min<int>(max_parts, int(devs_.size())); ++parts) {
      SCOPED_TRACE(what + ", " + std::to_string(parts) + " parts");
      DistributedPhysSolver<T> d(team(parts), c, o);
      const Health got = d.advance_to(t);
      const HostFields s = d.state();
      EXPECT_TRUE(same_bits(s.h, ref.h));
      EXPECT_TRUE(same_bits(s.hu, ref.hu));
      EXPECT_TRUE(same_bits(s.hv, ref.hv));
      EXPECT_EQ(got.steps, want.steps);
      EXPECT_EQ(got.time, want.time);
      EXPECT_EQ(got.dt, want.dt);
      EXPECT_EQ(got.bad, want.bad);
      EXPECT_EQ(d.mass(), single.mass());
    }
  }

  std::vector<std::shared_ptr<Device>> devs_;
};

TEST_P(SweDistributed, EqualsTheSingleDeviceSolverBitwise) {
  int seed = 1;
  for (const auto& set : dtest::bc_sets())
    for (Order order : {Order::first, Order::second}) {
      const PhysCase c = dtest::random_case(37, 29, 1000u + unsigned(seed++), set.bc);
      PhysOptions o;
      o.order = order;
      o.check_every = 7;
      const std::string what =
          set.name + (order == Order::first ? ", first order" : ", second order");
      expect_equal<float>(c, o, 0.15, 3, what + ", float");
      if (fp64()) expect_equal<double>(c, o, 0.15, 3, what + ", double");
    }
}

// A discharge into a dry domain: the steps follow the discharge ghost's
// rate floor, which only the first slab's side holds; every part takes the
// whole case's floor, so the steps and bits are the single device's.
TEST_P(SweDistributed, DischargeIntoDryCellsOnEveryPartCount) {
  const PhysCase c = dtest::dry_channel(24, 9, 0.4);
  expect_equal<float>(c, PhysOptions{}, 6.0, 3, "discharge into dry cells, float");
}

TEST_P(SweDistributed, SlabsOfTwoRowsAndFixedDt) {
  const dtest::BcSet set = dtest::bc_sets()[2];  // periodic x: the wrap crosses parts too
  const PhysCase c = dtest::random_case(6, 11, 77, set.bc);
  for (Order order : {Order::first, Order::second}) {
    PhysOptions o;
    o.order = order;
    expect_equal<float>(c, o, 0.1, 3, "6 rows");
    o.fixed_dt = 0.01;  // no rate reduction: the kernels' own dt
    expect_equal<float>(c, o, 0.1, 3, "6 rows, fixed dt");
  }
}

TEST_P(SweDistributed, FirstBadCellInGlobalCoordinates) {
  // a fixed dt far beyond the CFL limit: cells go negative/NaN in the first steps
  const PhysCase c = dtest::random_case(23, 17, 5, dtest::bc_sets()[0].bc);
  PhysOptions o;
  o.fixed_dt = 2.0;
  o.check_every = 1;
  PhysSolver<float> single(devs_[0], c, o);
  const Health want = single.advance_to(50.0);
  ASSERT_TRUE(want.bad);
  for (int parts = 2; parts <= int(devs_.size()); ++parts) {
    DistributedPhysSolver<float> d(team(parts), c, o);
    const Health got = d.advance_to(50.0);
    EXPECT_TRUE(got.bad);
    EXPECT_EQ(got.bad_step, want.bad_step) << parts;
    EXPECT_EQ(got.bad_i, want.bad_i) << parts;
    EXPECT_EQ(got.bad_j, want.bad_j) << parts;
    EXPECT_EQ(got.steps, want.steps) << parts;
  }
}

TEST_P(SweDistributed, RunStepsEqualsAndReportsExchange) {
  const PhysCase c = dtest::random_case(40, 33, 9, dtest::bc_sets()[1].bc);
  PhysSolver<float> single(devs_[0], c, PhysOptions{});
  single.run_steps(12);
  DistributedPhysSolver<float> d(team(int(devs_.size())), c, PhysOptions{});
  d.run_steps(12);
  EXPECT_TRUE(same_bits(d.state().h, single.state().h));
  EXPECT_EQ(d.health().steps, 12);
  if (devs_.size() > 1) {
    const auto& x = d.last_exchange();
    EXPECT_GT(x.peer_bytes + x.local_bytes + x.mpi_bytes, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, SweDistributed, ::testing::ValuesIn(test::device_ids()),
                         test::id_name);

TEST(SweDistributedInput, TooFewRowsPerPartIsAUsageError) {
  const PhysCase c = dtest::random_case(5, 8, 3, dtest::bc_sets()[0].bc);
  try {
    DistributedPhysSolver<float> d(skeleton::Team::open("cpu", 3), c, PhysOptions{});
    FAIL() << "5 rows over 3 parts accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("at least 2 rows"), std::string::npos) << e.what();
  }
  PhysCase x = c;
  x.bc[x_lo] = Bc::exchange;
  EXPECT_THROW(DistributedPhysSolver<float>(skeleton::Team::open("cpu", 2), x, PhysOptions{}),
               UsageError);
}

TEST(SweDistributedInput, SlabsFollowTheSkeletonDecomposition) {
  const PhysCase c = dtest::random_case(37, 8, 3, dtest::bc_sets()[0].bc);
  DistributedPhysSolver<double> d(skeleton::Team::open("cpu", 3), c, PhysOptions{});
  EXPECT_EQ(d.parts(), 3);
  EXPECT_EQ(d.rows(0), 13);  // the first nx % parts slabs get one more row
  EXPECT_EQ(d.rows(1), 12);
  EXPECT_EQ(d.rows(2), 12);
  EXPECT_EQ(d.first_row(2), 25);
}

}  // namespace
}  // namespace tessera::swe
