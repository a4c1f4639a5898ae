// Checkpoint/restart continues bitwise; corrupt checkpoints are rejected;
// momentum exchange balances the driving force; .vti/.pvd/.png are written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/registry.hpp"
#include "lbm/cases.hpp"
#include "lbm/checkpoint.hpp"
#include "lbm/kernels/lbm_flags.h"
#include "lbm/output.hpp"
#include "lbm_test_util.hpp"

namespace tessera::lbm {
namespace {

std::filesystem::path temp_dir(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() / ("tessera_lbm_" + name);
  std::filesystem::create_directories(d);
  return d;
}

TEST(LbmCheckpoint, RestartContinuesBitwise) {
  const auto dir = temp_dir("ckpt");
  for (Precision p : {Precision::fp32, Precision::fp16s, Precision::fp64}) {
    Config cfg;
    cfg.precision = p;
    cfg.collision = Collision::trt;
    cfg.grid = {21, 13, 9};
    cfg.tau = 0.7;
    cfg.u_wall = {0.05, 0, 0};
    cfg.u_in = {0.03, 0, 0};
    cfg.force = {1e-5, 0, 0};
    Solver a(open_device("cpu"), cfg);
    a.set_flags(test::mixed_flags(cfg.grid));
    a.initialize(test::random_fields(cfg.grid, 0.03, 9));
    a.step(11);  // odd: the restart must resume at the right parity
    write_checkpoint(dir / "a.ckpt", a);
    a.step(6);
    auto b = read_checkpoint(dir / "a.ckpt", open_device("cpu"));
    EXPECT_EQ(b->time(), 11);
    b->step(6);
    EXPECT_EQ(a.raw_populations(), b->raw_populations()) << to_string(p);
  }
  std::filesystem::remove_all(dir);
}

// The near-wall marks steer the kernel's bounce-back: a restore recomputes
// them instead of trusting the file's (a forged file cannot switch them off).
TEST(LbmCheckpoint, RestoreRecomputesTheNearWallMarks) {
  Config cfg;
  cfg.grid = {12, 9, 5};
  Solver a(open_device("cpu"), cfg);
  a.set_flags(test::mixed_flags(cfg.grid));
  a.initialize(test::random_fields(cfg.grid, 0.03, 4));
  std::vector<std::uint8_t> stripped = a.flags();
  std::size_t marked = 0;
  for (auto& f : stripped) {
    marked += (f & TS_LBM_NEAR_WALL) != 0;
    f = std::uint8_t(f & ~TS_LBM_NEAR_WALL);
  }
  ASSERT_GT(marked, 0u);
  Solver b(open_device("cpu"), cfg);
  b.restore(a.raw_populations(), stripped, a.time());
  EXPECT_EQ(b.flags(), a.flags());
}

TEST(LbmCheckpoint, CorruptAndTruncatedFilesAreRejected) {
  const auto dir = temp_dir("ckpt_bad");
  Config cfg;
  cfg.grid = {8, 7, 6};
  Solver a(open_device("cpu"), cfg);
  a.initialize(1.0, {0.01, 0, 0});
  write_checkpoint(dir / "good.ckpt", a);
  std::ifstream in(dir / "good.ckpt", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto expect_error = [&](const std::string& content, const std::string& needle) {
    std::ofstream(dir / "bad.ckpt", std::ios::binary) << content;
    try {
      read_checkpoint(dir / "bad.ckpt", open_device("cpu"));
      ADD_FAILURE() << "accepted: " << needle;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x10;
  expect_error(flipped, "checksum");
  expect_error(bytes.substr(0, bytes.size() - 100), "checksum");
  expect_error("not a checkpoint at all, really", "signature");
  std::filesystem::remove_all(dir);
}

TEST(LbmForce, MomentumExchangeBalancesTheBodyForce) {
  // steady channel flow: the walls take exactly the force that drives the fluid
  Case c = poiseuille(Lattice::d3q19, 10, 0.8, 0.02, 3, 2);
  for (auto& f : c.flags)
    if ((f & TS_LBM_TYPE_MASK) == TS_LBM_WALL) f |= TS_LBM_BODY;
  c.config.precision = Precision::fp64;
  Solver s(open_device("cpu"), c.config);
  c.apply(s);
  s.step(4000);
  const auto F = s.body_force();
  const double drive = c.config.force[0] * 3 * 10 * 2;  // force density x fluid cells
  EXPECT_NEAR(F[0] / drive, 1.0, 1e-6) << F[0] << " vs " << drive;
  EXPECT_NEAR(F[1] / drive, 0.0, 1e-9);
}

TEST(LbmOutput, VtiPvdAndPngAreWritten) {
  const auto dir = temp_dir("out");
  Case c = cavity(Lattice::d2q9, 30, 100, 0.1);
  Solver s(open_device("cpu"), c.config);
  c.apply(s);
  s.step(200);
  const Fields f = s.fields();
  write_vti(dir / "a.vti", f, s.flags());
  write_pvd(dir / "a.pvd", {{200.0, "a.vti"}});
  const auto size = std::filesystem::file_size(dir / "a.vti");
  EXPECT_GT(size, 32u * 32u * 20u);  // density, velocity (3) and solid, 4 bytes each
  {
    std::ifstream vti(dir / "a.vti", std::ios::binary);
    std::string xml((std::istreambuf_iterator<char>(vti)), std::istreambuf_iterator<char>());
    EXPECT_NE(xml.find("Name=\"solid\""), std::string::npos);  // ParaView shows the walls
  }
  std::ifstream pvd(dir / "a.pvd");
  std::string text((std::istreambuf_iterator<char>(pvd)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("file=\"a.vti\""), std::string::npos);
  if (png_available()) {
    const auto [lo, hi] = write_png_slice(dir / "a.png", f, s.flags(), 0, SliceQuantity::speed);
    EXPECT_GE(lo, 0.0);
    EXPECT_GT(hi, 0.01);
    std::ifstream png(dir / "a.png", std::ios::binary);
    char sig[8];
    png.read(sig, 8);
    EXPECT_EQ(std::string(sig + 1, 3), "PNG");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tessera::lbm
