// The distributed solver (skeleton field, z-slabs, crossing populations only)
// equals the single-device solver bitwise for 1, 2 and 3 parts, including
// part counts that do not divide nz, on every backend's logical devices.
#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

#include "core/registry.hpp"
#include "lbm/checkpoint.hpp"
#include "lbm/distributed.hpp"
#include "lbm/solver.hpp"
#include "lbm_test_util.hpp"
#include "skeleton/team.hpp"
#include "test_support.hpp"

namespace tessera::lbm {
namespace {

Config mixed(Precision p, Collision c, Lattice l = Lattice::d3q19) {
  Config cfg;
  cfg.lattice = l;
  cfg.precision = p;
  cfg.collision = c;
  cfg.grid = {13, 9, 7};
  cfg.tau = 0.63;
  cfg.force = {2e-5, 0, -1e-5};
  cfg.u_wall = {0.06, 0, 0.01};
  cfg.u_in = {0.04, 0, 0};
  cfg.rho_out = 0.998;
  // a parabola across z (the decomposed axis: each part's global z) and the
  // inlet's density from the fluid
  cfg.inlet.normal = 1;
  cfg.inlet.axes = 4;
  cfg.inlet.lo[2] = 0.5;
  cfg.inlet.hi[2] = double(cfg.grid.nz) - 1.5;
  return cfg;
}

// the lid and the bottom wall are y-faces, the free-slip walls z-faces:
// z-slabs cut through walls, inlet, outlet, the body and the fluid, and the
// first and last parts hold the free-slip walls
std::vector<double> single(const Config& cfg, int steps) {
  Solver s(open_device("cpu"), cfg);
  s.set_flags(test::mixed_flags(cfg.grid, true));
  s.initialize(test::random_fields(cfg.grid, 0.03, 21));
  s.step(steps);
  return s.incoming();
}

class LbmDistributed : public ::testing::TestWithParam<std::string> {};

TEST_P(LbmDistributed, EqualsTheSingleDeviceSolverBitwise) {
  const std::string id = GetParam();
  const int max_parts =
      id.rfind("cuda", 0) == 0 ? 1 : 3;  // logical CPU/OpenCL devices; one GPU each
  for (Precision p : {Precision::fp32, Precision::fp16s, Precision::fp64})
    for (Collision c : {Collision::bgk, Collision::trt}) {
      const Config cfg = mixed(p, c);
      const auto want = single(cfg, 6);
      for (int parts = 1; parts <= max_parts; ++parts) {
        SCOPED_TRACE(to_string(p) + " " + to_string(c) + " parts " + std::to_string(parts));
        DistributedSolver d(skeleton::Team::open(id, parts), cfg);
        d.set_flags(test::mixed_flags(cfg.grid, true));
        d.initialize(test::random_fields(cfg.grid, 0.03, 21));
        d.step(6);
        EXPECT_EQ(d.incoming(), want);
        EXPECT_EQ(d.time(), 6);
      }
    }
}

TEST_P(LbmDistributed, D3Q27AndMassAgree) {
  const Config cfg = mixed(Precision::fp64, Collision::bgk, Lattice::d3q27);
  const int parts = GetParam().rfind("cuda", 0) == 0 ? 1 : 2;
  DistributedSolver d(skeleton::Team::open(GetParam(), parts), cfg);
  d.set_flags(test::mixed_flags(cfg.grid, true));
  d.initialize(test::random_fields(cfg.grid, 0.03, 21));
  d.step(5);
  EXPECT_EQ(d.incoming(), single(cfg, 5));
  Solver s(open_device("cpu"), cfg);
  s.set_flags(test::mixed_flags(cfg.grid, true));
  s.initialize(test::random_fields(cfg.grid, 0.03, 21));
  s.step(5);
  EXPECT_EQ(d.mass(), s.mass());
  EXPECT_EQ(d.fields().ux, s.fields().ux);
  EXPECT_EQ(d.body_force(), s.body_force());
  EXPECT_NE(d.body_force()[0], 0.0);  // the mixed flags hold a body the flow pushes
}

std::filesystem::path scratch(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() /
           ("tessera_lbm_dist_" + name + "_" + std::to_string(getpid()));
  std::filesystem::create_directories(d);
  return d;
}

// A checkpoint of a multi-part run holds the gathered lattice: restored on 1
// part or on another count it continues bitwise, and equals the one-device
// solver's uninterrupted run.
TEST_P(LbmDistributed, CheckpointRestartsBitwiseOnAnotherPartCount) {
  const std::string id = GetParam();
  const int max_parts = id.rfind("cuda", 0) == 0 ? 1 : 3;
  const auto dir = scratch(GetParam());
  for (Precision p : {Precision::fp32, Precision::fp16s, Precision::fp64}) {
    const Config cfg = mixed(p, Collision::trt);
    DistributedSolver a(skeleton::Team::open(id, std::min(2, max_parts)), cfg);
    a.set_flags(test::mixed_flags(cfg.grid, true));
    a.initialize(test::random_fields(cfg.grid, 0.03, 21));
    a.step(5);
    write_checkpoint(dir / "a.ckpt", a);
    a.step(4);
    const auto want = a.incoming();
    EXPECT_EQ(want, single(cfg, 9));
    for (int parts : {1, max_parts}) {
      SCOPED_TRACE(to_string(p) + " restarted on " + std::to_string(parts) + " parts");
      DistributedSolver b =
          read_distributed_checkpoint(dir / "a.ckpt", skeleton::Team::open(id, parts));
      EXPECT_EQ(b.time(), 5);
      EXPECT_EQ(b.flags(), a.flags());
      b.step(4);
      EXPECT_EQ(b.incoming(), want);
    }
  }
  std::filesystem::remove_all(dir);
}

// A checkpoint names the lattice layout it holds, and either solver restarts
// the other's file: one-device (esoteric) -> 2 parts and 2 parts (pull) -> one
// device continue bitwise like the uninterrupted runs, at both step parities.
TEST(LbmDistributedInput, CheckpointsRestartOnTheOtherSolver) {
  const auto dir = scratch("layouts");
  for (Precision p : {Precision::fp32, Precision::fp16s}) {
    const Config cfg = mixed(p, Collision::trt);
    for (long t0 : {4L, 5L}) {
      SCOPED_TRACE(to_string(p) + ", checkpoint at step " + std::to_string(t0));
      const std::vector<double> want = single(cfg, static_cast<int>(t0 + 3));
      Solver s(open_device("cpu"), cfg);
      s.set_flags(test::mixed_flags(cfg.grid, true));
      s.initialize(test::random_fields(cfg.grid, 0.03, 21));
      s.step(t0);
      write_checkpoint(dir / "esoteric.ckpt", s);
      DistributedSolver d(skeleton::Team::open("cpu", 2), cfg);
      d.set_flags(test::mixed_flags(cfg.grid, true));
      d.initialize(test::random_fields(cfg.grid, 0.03, 21));
      d.step(t0);
      write_checkpoint(dir / "pull.ckpt", d);
      EXPECT_EQ(read_checkpoint_file(dir / "pull.ckpt").layout, PopulationLayout::pull);
      EXPECT_EQ(read_checkpoint_file(dir / "esoteric.ckpt").layout, PopulationLayout::esoteric);

      DistributedSolver from_one =
          read_distributed_checkpoint(dir / "esoteric.ckpt", skeleton::Team::open("cpu", 2));
      EXPECT_EQ(from_one.time(), t0);
      EXPECT_EQ(from_one.incoming(), s.incoming())
          << "the same incoming populations right after the restore";
      from_one.step(3);
      EXPECT_EQ(from_one.incoming(), want);

      auto from_parts = read_checkpoint(dir / "pull.ckpt", open_device("cpu"));
      EXPECT_EQ(from_parts->time(), t0);
      from_parts->step(3);
      EXPECT_EQ(from_parts->incoming(), want);

      // a permutation: there and back gives the file's bytes
      const auto raw = s.raw_populations();
      const auto pull = convert_layout(raw, cfg, t0, PopulationLayout::esoteric);
      EXPECT_NE(pull, raw);
      EXPECT_EQ(convert_layout(pull, cfg, t0, PopulationLayout::pull), raw);
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(LbmDistributedInput, BadDecompositionsAreRejected) {
  Config cfg = mixed(Precision::fp32, Collision::bgk);
  cfg.grid.nz = 2;
  EXPECT_THROW(DistributedSolver(skeleton::Team::open("cpu", 3), cfg), UsageError);
  Config flat = cfg;
  flat.lattice = Lattice::d2q9;
  flat.grid.nz = 1;
  EXPECT_THROW(DistributedSolver(skeleton::Team::open("cpu", 1), flat), UsageError);
}

INSTANTIATE_TEST_SUITE_P(Devices, LbmDistributed, ::testing::ValuesIn(tessera::test::device_ids()),
                         tessera::test::id_name);

}  // namespace
}  // namespace tessera::lbm
