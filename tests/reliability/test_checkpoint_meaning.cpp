// Issue 40, item 5: forged but well-formed checkpoints. Every file here has a
// valid checksum and a well-formed header; what it says is impossible (a time
// of 2^62, flags outside lbm_flags.h's set, non-finite populations, a step
// counter no run reaches). The readers must refuse each with an Error (exit
// 1) naming the file, the field and the offending value or cell.
//
// CheckpointMeaningCli.Forge is a helper of the CLI tests in
// tests/reliability/tests.cmake (restart.forged_*): with TESSERA_FORGE_IN/
// OUT/FIELD/VALUE set it rewrites one header field of a real checkpoint and
// re-seals it; without them it is skipped.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/registry.hpp"
#include "io/checkpoint_container.hpp"
#include "lbm/checkpoint.hpp"
#include "lbm/checkpoint_format.hpp"
#include "lbm/kernels/lbm_flags.h"
#include "skeleton/checkpoint_format.hpp"

namespace tessera {
namespace {

/// Runs f, expects a tessera::Error (not a UsageError: the file is bad, exit 1)
/// whose message contains every part.
template <class F>
void expect_bad_file(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "accepted; expected an error mentioning '" << *parts.begin() << "'";
  } catch (const UsageError& e) {
    ADD_FAILURE() << "a UsageError (exit 2) for a bad file: " << e.what();
  } catch (const Error& e) {
    for (const auto& part : parts)
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

// ---------------------------------------------------------------- LBM

/// A small legitimate D2Q9 lattice: flags of every type, populations the
/// equilibrium weights (finite), in `precision`.
struct LbmState {
  lbm::Config config;
  std::string flags, pops;
  int store_bytes = 4;
};

LbmState lbm_state(lbm::Precision p, long nx = 5, long ny = 4) {
  LbmState s;
  s.config.lattice = lbm::Lattice::d2q9;
  s.config.precision = p;
  s.config.grid = {nx, ny, 1};
  const long n = nx * ny;
  s.flags.assign(std::size_t(n), char(TS_LBM_FLUID));
  const unsigned char kinds[] = {TS_LBM_WALL,
                                 TS_LBM_MOVING,
                                 TS_LBM_INLET,
                                 TS_LBM_OUTLET,
                                 TS_LBM_SLIP_Y,
                                 TS_LBM_WALL | TS_LBM_BODY,
                                 TS_LBM_FLUID | TS_LBM_NEAR_WALL};
  for (std::size_t k = 0; k < std::size(kinds); ++k) s.flags[k] = char(kinds[k]);
  s.store_bytes = p == lbm::Precision::fp16s ? 2 : p == lbm::Precision::fp64 ? 8 : 4;
  s.pops.assign(std::size_t(n) * 9 * std::size_t(s.store_bytes),
                '\0');                                    // 0: finite in every storage
  for (std::size_t k = 0; k < std::size_t(n) * 9; ++k) {  // and some other finite values
    if (s.store_bytes == 4) {
      const float v = 0.1f * float(k % 7);
      std::memcpy(&s.pops[k * 4], &v, 4);
    } else if (s.store_bytes == 8) {
      const double v = 0.01 * double(k % 5);
      std::memcpy(&s.pops[k * 8], &v, 8);
    } else {
      const std::uint16_t v = std::uint16_t(0x3c00 + k % 13);  // 1.0 .. (half bits)
      std::memcpy(&s.pops[k * 2], &v, 2);
    }
  }
  return s;
}

/// A non-finite value in the storage of `bytes` bytes: 0 NaN, 1 +inf, 2 -inf.
std::string non_finite(int bytes, int which) {
  std::string out(std::size_t(bytes), '\0');
  if (bytes == 2) {
    const std::uint16_t v[] = {0x7e00, 0x7c00, 0xfc00};
    std::memcpy(out.data(), &v[which], 2);
  } else if (bytes == 4) {
    const float v[] = {std::numeric_limits<float>::quiet_NaN(),
                       std::numeric_limits<float>::infinity(),
                       -std::numeric_limits<float>::infinity()};
    std::memcpy(out.data(), &v[which], 4);
  } else {
    const double v[] = {std::numeric_limits<double>::quiet_NaN(),
                        std::numeric_limits<double>::infinity(),
                        -std::numeric_limits<double>::infinity()};
    std::memcpy(out.data(), &v[which], 8);
  }
  return out;
}

/// The bytes of `file` with header field `key` set to the JSON text `value`,
/// re-sealed (a valid checksum over the forged contents).
std::string with_field(const std::string& file, std::string_view magic, const std::string& key,
                       const std::string& value) {
  const io::ContainerContents c = io::parse_container(file, magic, "checkpoint", "forge");
  nlohmann::json h = c.header;
  h[nlohmann::json::json_pointer(key)] = nlohmann::json::parse(value);
  return io::format_container(magic, h, {c.payload});
}

TEST(CheckpointMeaning, LbmLegitimateStatesAreAccepted) {
  for (auto p : {lbm::Precision::fp32, lbm::Precision::fp64, lbm::Precision::fp16s}) {
    const LbmState s = lbm_state(p);
    for (auto layout : {lbm::PopulationLayout::esoteric, lbm::PopulationLayout::pull}) {
      const auto c = lbm::parse_checkpoint(
          lbm::format_checkpoint(s.config, 7, s.flags, s.pops, layout), "ok.ckpt");
      EXPECT_EQ(c.time, 7);
      EXPECT_EQ(std::string(c.flags.begin(), c.flags.end()), s.flags);
      EXPECT_EQ(std::string(c.populations.begin(), c.populations.end()), s.pops);
    }
  }
  // the largest time a checkpoint may hold (2^53) still reads
  const LbmState s = lbm_state(lbm::Precision::fp32);
  EXPECT_EQ(lbm::parse_checkpoint(
                lbm::format_checkpoint(s.config, 9007199254740992L, s.flags, s.pops), "ok")
                .time,
            9007199254740992L);
}

// A time of 2^62 was restored and ran (files named
// cavity_4611686018427388004.vti); a negative one was already refused.
TEST(CheckpointMeaning, LbmTimeOutsideZeroTo2Pow53IsRefused) {
  const LbmState s = lbm_state(lbm::Precision::fp32);
  const std::string good = lbm::format_checkpoint(s.config, 3, s.flags, s.pops);
  for (const char* t :
       {"4611686018427388004", "9007199254740993", "9223372036854775807", "18446744073709551615"})
    expect_bad_file(
        [&] { lbm::parse_checkpoint(with_field(good, "TSLBMCK1", "/time", t), "t.ckpt"); },
        {"t.ckpt", std::string("header: 'time' = ") + t + " is outside 0..2^53"});
  expect_bad_file(
      [&] { lbm::parse_checkpoint(with_field(good, "TSLBMCK1", "/time", "-1"), "t.ckpt"); },
      {"t.ckpt", "'time' = -1 is outside 0..2^53"});
}

TEST(CheckpointMeaning, LbmFlagsOutsideTheDefinedSetAreRefused) {
  const LbmState s = lbm_state(lbm::Precision::fp32);  // 5 x 4 cells
  const struct {
    unsigned char flag;
    const char* why;
  } bad[] = {{TS_LBM_WALL | 0x08, "undefined bits 0x08"},
             {0x20, "undefined bits 0x20"},
             {0xff, "undefined bits 0x38"},
             {TS_LBM_SLIP_Z | 0x10, "undefined bits 0x10"}};
  for (const auto& b : bad) {
    std::string flags = s.flags;
    flags[13] = char(b.flag);  // cell (3, 2, 0)
    expect_bad_file(
        [&] {
          lbm::parse_checkpoint(lbm::format_checkpoint(s.config, 2, flags, s.pops), "f.ckpt");
        },
        {"f.ckpt", "flags: cell (3, 2, 0)", b.why});
  }
}

// NaN and infinite populations were restored and ran (NaN everywhere after
// one step); every storage precision, both layouts, named by cell and
// direction. The esoteric slot is placed through convert_layout (the pull
// layout's slot i * cells + n is plain arithmetic), so the reported cell is
// checked against a second computation of the permutation.
TEST(CheckpointMeaning, LbmNonFinitePopulationsAreRefusedWithCellAndDirection) {
  for (auto p : {lbm::Precision::fp32, lbm::Precision::fp64, lbm::Precision::fp16s}) {
    const LbmState s = lbm_state(p);
    const long cells = 20, n = 2 + 5 * 3, dir = 6;  // cell (2, 3, 0), direction 6
    for (int which = 0; which < 3; ++which) {
      std::string pull = s.pops;
      pull.replace(std::size_t(dir * cells + n) * std::size_t(s.store_bytes),
                   std::size_t(s.store_bytes), non_finite(s.store_bytes, which));
      expect_bad_file(
          [&] {
            lbm::parse_checkpoint(
                lbm::format_checkpoint(s.config, 5, s.flags, pull, lbm::PopulationLayout::pull),
                "p.ckpt");
          },
          {"p.ckpt", "populations: non-finite value at cell (2, 3, 0), direction 6"});
      for (long t : {4L, 5L}) {  // both parities of the esoteric layout
        // the esoteric slot k that holds (n, dir): the one convert_layout
        // (esoteric -> pull, a permutation) moves to pull slot dir * cells + n
        const std::size_t b = std::size_t(s.store_bytes), target = std::size_t(dir * cells + n) * b;
        std::size_t found = s.pops.size();
        for (std::size_t k = 0; k < s.pops.size() / b && found == s.pops.size(); ++k) {
          std::vector<std::uint8_t> probe(s.pops.size(), 0);
          probe[k * b] = 1;
          if (lbm::convert_layout(probe, s.config, t, lbm::PopulationLayout::esoteric)[target] == 1)
            found = k * b;
        }
        ASSERT_LT(found, s.pops.size());
        std::string esoteric = s.pops;
        esoteric.replace(found, b, non_finite(s.store_bytes, which));
        expect_bad_file(
            [&] {
              lbm::parse_checkpoint(lbm::format_checkpoint(s.config, t, s.flags, esoteric),
                                    "e.ckpt");
            },
            {"e.ckpt", "populations: non-finite value at cell (2, 3, 0), direction 6", "esoteric"});
      }
    }
  }
}

// A header that parses but describes no run LBM can make (checked before
// this issue too, by Config::validate: kept as coverage of the header path).
TEST(CheckpointMeaning, LbmImpossibleHeaderValuesAreRefused) {
  const LbmState s = lbm_state(lbm::Precision::fp32);
  const std::string good = lbm::format_checkpoint(s.config, 3, s.flags, s.pops);
  const struct {
    const char *key, *value, *part;
  } cases[] = {{"/tau", "0.5", "tau = 0.5 is unstable"},
               {"/tau", "-1e308", "tau = "},
               {"/rho_out", "0", "outlet density must be > 0"},
               {"/u_wall/0", "1e300", "wall velocity"},
               {"/layout", "\"sideways\"", "'layout' is 'sideways'"},
               {"/force/1", "\"x\"", "'force' is not a number"}};
  for (const auto& c : cases)
    expect_bad_file(
        [&] { lbm::parse_checkpoint(with_field(good, "TSLBMCK1", c.key, c.value), "h.ckpt"); },
        {"h.ckpt", "header: ", c.part});
}

std::filesystem::path scratch(const std::string& name) {
  const auto d =
      std::filesystem::temp_directory_path() / ("tessera_meaning_" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d / name;
}

// The file readers (one device, and the distributed solver's) refuse a
// forged file before building a solver, naming the file.
TEST(CheckpointMeaning, LbmFileReadersOfBothSolversRefuseForgedFiles) {
  LbmState s = lbm_state(lbm::Precision::fp32, 4, 4);
  s.config.lattice = lbm::Lattice::d3q19;
  s.config.grid = {4, 4, 4};
  s.flags.assign(64, char(TS_LBM_FLUID));
  s.pops.assign(64 * 19 * 4, '\0');
  std::string nan_pops = s.pops;
  nan_pops.replace(4 * 100, 4, non_finite(4, 0));
  const auto path = scratch("forged.ckpt");
  for (const std::string& bytes :
       {with_field(lbm::format_checkpoint(s.config, 1, s.flags, s.pops), "TSLBMCK1", "/time",
                   "4611686018427387904"),
        lbm::format_checkpoint(s.config, 1, s.flags, nan_pops, lbm::PopulationLayout::pull)}) {
    std::ofstream(path, std::ios::binary) << bytes;
    expect_bad_file([&] { lbm::read_checkpoint(path, open_device("cpu")); }, {path.string()});
    expect_bad_file([&] { lbm::read_distributed_checkpoint(path, skeleton::Team::open("cpu", 2)); },
                    {path.string()});
  }
  std::filesystem::remove_all(path.parent_path());
}

// ---------------------------------------------------------------- skeleton

TEST(CheckpointMeaning, SkeletonStepAndElementMustMakeSense) {
  const skeleton::FieldCheckpointHeader h{skeleton::extents_3d(3, 2, 1), 1, "float32", 4, 9};
  const std::string values(6 * 4, '\0');
  const std::string good = skeleton::format_field_checkpoint(h, values);
  EXPECT_EQ(skeleton::parse_field_checkpoint(
                with_field(good, "TSSKLCK1", "/step", "9007199254740992"), "s")
                .header.step,
            9007199254740992u);
  expect_bad_file(
      [&] {
        skeleton::parse_field_checkpoint(
            with_field(good, "TSSKLCK1", "/step", "4611686018427387904"), "s.ckpt");
      },
      {"s.ckpt", "'step' = 4611686018427387904 is outside 0..2^53"});
  // the writer refuses what the reader would
  skeleton::FieldCheckpointHeader late = h;
  late.step = (std::uint64_t(1) << 53) + 1;
  EXPECT_THROW(skeleton::format_field_checkpoint(late, values), Error);
  // an element name that contradicts its size
  expect_bad_file(
      [&] {
        skeleton::parse_field_checkpoint(with_field(good, "TSSKLCK1", "/element", "\"float64\""),
                                         "s.ckpt");
      },
      {"s.ckpt", "'element' is 'float64' with 'element_bytes' 4"});
  expect_bad_file(
      [&] {
        skeleton::parse_field_checkpoint(with_field(good, "TSSKLCK1", "/element", "\"quaternion\""),
                                         "s.ckpt");
      },
      {"s.ckpt", "'element' is 'quaternion'"});
  for (const char* ok : {"\"int32\"", "\"uint32\"", "\"bytes4\""})
    EXPECT_NO_THROW(
        skeleton::parse_field_checkpoint(with_field(good, "TSSKLCK1", "/element", ok), "s"))
        << ok;
  expect_bad_file(
      [&] {
        skeleton::parse_field_checkpoint(with_field(good, "TSSKLCK1", "/order", "\"x-major\""),
                                         "s.ckpt");
      },
      {"s.ckpt", "'order' is 'x-major'"});
}

// ---------------------------------------------------------------- CLI helper

TEST(CheckpointMeaningCli, Forge) {
  const char* in = std::getenv("TESSERA_FORGE_IN");
  const char* out = std::getenv("TESSERA_FORGE_OUT");
  const char* field = std::getenv("TESSERA_FORGE_FIELD");
  const char* value = std::getenv("TESSERA_FORGE_VALUE");
  if (!in || !out || !field || !value) GTEST_SKIP() << "a helper of the restart.forged_* CLI tests";
  std::ifstream f(in, std::ios::binary);
  ASSERT_TRUE(f) << in;
  const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  ASSERT_GE(bytes.size(), 8u);
  const std::string forged = with_field(bytes, std::string_view(bytes).substr(0, 8), field, value);
  std::ofstream(out, std::ios::binary) << forged;
}

}  // namespace
}  // namespace tessera
