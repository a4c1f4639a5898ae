// The thesis's gas simulation: constants and geometry as specified, the
// native kernel equal bitwise to an independent transcription of the
// thesis's Muesli functor (Listing 3.14) on every backend, frame files.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstring>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/registry.hpp"
#include "lbm/thesis_gas.hpp"
#include "lbm/thesis_gas_parts.hpp"
#include "lbm/thesis_gas_stencil.hpp"
#include "skeleton/team.hpp"
#include "test_support.hpp"

namespace tessera::lbm {
namespace {

// ---- Listing 3.14 / 3.15 transcribed with std::array, std::bit_cast ----
using cell_t = std::array<float, 19>;
struct vec3f {
  float x, y, z;
};
vec3f operator*(vec3f a, float s) { return {a.x * s, a.y * s, a.z * s}; }
float operator*(vec3f a, vec3f b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
const std::array<vec3f, 19> offsets = {{{0, 0, 0},
                                        {-1, 0, 0},
                                        {1, 0, 0},
                                        {0, -1, 0},
                                        {0, 1, 0},
                                        {0, 0, -1},
                                        {0, 0, 1},
                                        {-1, -1, 0},
                                        {-1, 1, 0},
                                        {1, -1, 0},
                                        {1, 1, 0},
                                        {-1, 0, -1},
                                        {-1, 0, 1},
                                        {1, 0, -1},
                                        {1, 0, 1},
                                        {0, -1, -1},
                                        {0, -1, 1},
                                        {0, 1, -1},
                                        {0, 1, 1}}};
const std::array<float, 19> wis = {1.f / 3,  1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18,
                                   1.f / 18, 1.f / 18, 1.f / 36, 1.f / 36, 1.f / 36,
                                   1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36,
                                   1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36};
const std::array<unsigned char, 19> opposite = {0, 2,  1,  4,  3,  6,  5,  10, 9, 8,
                                                7, 14, 13, 12, 11, 18, 17, 16, 15};
float feq(std::size_t i, float p, const vec3f& v) {
  float wi = wis[i];
  float c = 1.f;
  float dot = offsets[i] * c * v;
  return wi * p *
         (1 + (1 / (c * c)) * (3 * dot + (9 / (2 * c * c)) * dot * dot - (3.f / 2) * (v * v)));
}
bool special(float f0) { return ((std::bit_cast<std::uint32_t>(f0) >> 23) & 0xff) == 255; }
std::uint32_t mantissa(float f0) { return std::bit_cast<std::uint32_t>(f0) & 0x7fffff; }

struct Muesli {
  long nx, ny, nz;
  std::vector<cell_t> cells;
  cell_t at(long x, long y, long z) const {  // PLCube with neutral value {}
    if (x < 0 || y < 0 || z < 0 || x >= nx || y >= ny || z >= nz) return cell_t{};
    return cells[std::size_t((z * ny + y) * nx + x)];
  }
  cell_t update(long x, long y, long z, float deltaT, float tau) const {
    cell_t cell = at(x, y, z);
    if (special(cell[0]) && (mantissa(cell[0]) & 2)) return cell;
    for (int i = 1; i < 19; i++)
      cell[i] = at(x + long(offsets[i].x), y + long(offsets[i].y), z + long(offsets[i].z))[i];
    if (special(cell[0])) {
      if (mantissa(cell[0]) & 1) {
        cell_t cell2 = cell;
        for (std::size_t i = 1; i < 19; i++) cell[i] = cell2[opposite[i]];
      }
      return cell;
    }
    float p = 0;
    vec3f vp{0, 0, 0};
    for (std::size_t i = 0; i < 19; i++) {
      p += cell[i];
      vec3f d = offsets[i] * 1.f * cell[i];
      vp = {vp.x + d.x, vp.y + d.y, vp.z + d.z};
    }
    vec3f v = p == 0 ? vp : vp * (1 / p);
    for (std::size_t i = 0; i < 19; i++)
      cell[i] = cell[i] + deltaT / tau * (feq(i, p, v) - cell[i]);
    return cell;
  }
  void step() {
    volatile float deltaT = 1.f, tau = 0.65f;
    std::vector<cell_t> next(cells.size());
    for (long z = 0; z < nz; ++z)
      for (long y = 0; y < ny; ++y)
        for (long x = 0; x < nx; ++x)
          next[std::size_t((z * ny + y) * nx + x)] = update(x, y, z, deltaT, tau);
    cells = std::move(next);
  }
};

std::vector<float> flat(const std::vector<cell_t>& c) {
  std::vector<float> f;
  for (const auto& cell : c) f.insert(f.end(), cell.begin(), cell.end());
  return f;
}
bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(LbmThesis, GeometryAndInitialState) {
  const Grid g{100, 100, 40};
  ThesisGas sim(open_device("cpu"), g);
  sim.generate();
  const auto f = sim.frame();
  long keep = 0, obstacle = 0, want_obstacle = 0;
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x) {
        const std::size_t c = std::size_t((z * g.ny + y) * g.nx + x) * 19;
        const auto b = std::bit_cast<std::uint32_t>(f[c]);
        const bool shell =
            x <= 1 || y <= 1 || z <= 1 || x >= g.nx - 2 || y >= g.ny - 2 || z >= g.nz - 2;
        const bool ball = (x - 50) * (x - 50) + (y - 50) * (y - 50) + (z - 8) * (z - 8) <= 225;
        want_obstacle += !shell && ball;
        keep += b == thesis::kKeepVelocity;
        obstacle += b == thesis::kObstacle;
        if (shell) {
          ASSERT_EQ(b, thesis::kKeepVelocity) << x << " " << y << " " << z;
        }
        // populations 1..18 are feq(i, 1, (0.1, 0, 0)) everywhere
        for (int i = 1; i < 19; ++i) ASSERT_EQ(f[c + i], feq(std::size_t(i), 1.f, {.1f, 0, 0}));
      }
  EXPECT_EQ(keep, g.cells() - (g.nx - 4) * (g.ny - 4) * (g.nz - 4));
  EXPECT_EQ(obstacle, want_obstacle);
  EXPECT_GT(obstacle, 1000);
  // the thesis's constants: weights sum to one, feq of rest has rho = 1 and u = (0.1, 0, 0)
  double s = 0, m = 0;
  for (int i = 0; i < 19; ++i) {
    s += feq(std::size_t(i), 1.f, {.1f, 0, 0});
    m += offsets[i].x * feq(std::size_t(i), 1.f, {.1f, 0, 0});
    EXPECT_EQ(offsets[opposite[i]].x, -offsets[i].x);
  }
  EXPECT_NEAR(s, 1.0, 1e-6);
  EXPECT_NEAR(m, 0.1, 1e-6);
}

class LbmThesisBackends : public ::testing::TestWithParam<std::string> {};

// The native kernel in `layout` against a transcription of the thesis's
// Muesli functor, 12 steps from generate(), bit for bit.
void native_equals_muesli(const std::string& device, ThesisLayout layout) {
  const Grid g{67, 61, 23};  // the sphere cut by the z <= 1 shell; x not a multiple of 64
  ThesisGas sim(open_device(device), g, layout);
  sim.generate();
  Muesli ref{g.nx, g.ny, g.nz, {}};
  const auto f0 = sim.frame();
  ThesisGas cpu_aos(open_device("cpu"), g);  // generate() in either layout gives the same frame
  cpu_aos.generate();
  EXPECT_TRUE(same_bits(f0, cpu_aos.frame()));
  for (std::size_t c = 0; c < f0.size() / 19; ++c) {
    cell_t cell;
    std::copy_n(f0.begin() + std::ptrdiff_t(c * 19), 19, cell.begin());
    ref.cells.push_back(cell);
  }
  for (int step = 0; step < 12; ++step) {
    sim.step();
    ref.step();
  }
  const auto got = sim.frame(), want = flat(ref.cells);
  EXPECT_TRUE(same_bits(got, want));
  // the flow has developed: the sphere has deflected the stream
  double vy = 0;
  for (std::size_t c = 0; c < got.size(); c += 19)
    if (!special(got[c])) vy += std::fabs(double(got[c + 3]) - double(got[c + 4]));
  EXPECT_GT(vy, 1e-3);
}

TEST_P(LbmThesisBackends, NativeKernelEqualsTheMuesliFunctorBitwise) {
  for (const ThesisLayout layout : {ThesisLayout::aos, ThesisLayout::soa}) {
    SCOPED_TRACE(to_string(layout));
    native_equals_muesli(GetParam(), layout);
  }
}

TEST_P(LbmThesisBackends, FramesRoundTripAndBadFramesAreRejected) {
  const Grid g{20, 18, 16};
  const auto dir = std::filesystem::temp_directory_path() /
                   ("tessera_lbm_frames_" + tessera::test::id_name({GetParam(), 0}));
  std::filesystem::create_directories(dir);
  ThesisGas a(open_device(GetParam()), g);
  a.generate();
  a.step(3);
  a.export_frame(dir / "f.raw");
  EXPECT_EQ(std::filesystem::file_size(dir / "f.raw"), std::uintmax_t(g.cells()) * 76);
  ThesisGas b(open_device("cpu"), g,
              ThesisLayout::soa);  // an AoS frame into the other layout and back
  b.import_frame(dir / "f.raw");
  EXPECT_TRUE(same_bits(a.frame(), b.frame()));
  a.step(2);
  b.step(2);
  EXPECT_TRUE(same_bits(a.frame(), b.frame()));
  ThesisGas wrong(open_device("cpu"), Grid{20, 18, 15});
  try {
    wrong.import_frame(dir / "f.raw");
    FAIL() << "a frame of the wrong size was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("has 437760 bytes"), std::string::npos) << e.what();
  }
  EXPECT_THROW(wrong.import_frame(dir / "missing.raw"), Error);
  std::filesystem::remove_all(dir);
}

// The one-device native frame after `steps` iterations against ThesisGasParts
// in `impl` on 1, 2 and 3 parts of 23 layers (CUDA: one GPU), its iterations
// run in two calls (an odd count: the A/B swap).
void parts_equal_one_device(const std::string& id, ThesisGasImpl impl, long steps) {
  const Grid g{67, 61, 23};
  ThesisGas one(open_device("cpu"), g);
  one.generate();
  one.step(steps);
  const auto want = one.frame();
  const int max_parts = id.rfind("cuda", 0) == 0 ? 1 : 3;
  for (int parts = 1; parts <= max_parts; ++parts) {
    ThesisGasParts sim(skeleton::Team::open(id, parts), g, impl);
    EXPECT_EQ(sim.impl(), impl);
    sim.generate();
    sim.step(2);
    sim.step(steps - 2);
    EXPECT_EQ(sim.time(), steps);
    EXPECT_TRUE(same_bits(sim.frame(), want)) << parts << " parts, " << to_string(impl);
    EXPECT_GT(sim.total_seconds(), 0.0);
  }
}

// Thesis §5.8-1: Muesli's times jump where the GPU count does not divide the
// side; here every split (1, 2, 3 slabs of 23 layers) gives the 1-GPU bits.
TEST_P(LbmThesisBackends, SlabsOnSeveralDevicesGiveTheOneDeviceFrame) {
  parts_equal_one_device(GetParam(), ThesisGasImpl::native, 7);
}

// The thesis's Muesli program: its user function through the skeleton's
// mapStencil (halo exchanged while the inner layers compute, the zero cell
// outside) gives the native kernel's frame bit for bit.
TEST_P(LbmThesisBackends, MapStencilProgramGivesTheNativeFrame) {
  parts_equal_one_device(GetParam(), ThesisGasImpl::map_stencil, 5);
}

TEST(LbmThesis, MapStencilOmegaIsTheThesisDivision) {
  EXPECT_EQ(std::bit_cast<std::uint32_t>(TS_THESIS_OMEGA),
            std::bit_cast<std::uint32_t>(thesis_omega()));
  EXPECT_EQ(parse_thesis_impl("mapstencil"), ThesisGasImpl::map_stencil);
  EXPECT_EQ(parse_thesis_impl("native"), ThesisGasImpl::native);
  EXPECT_THROW(parse_thesis_impl("muesli"), UsageError);
}

INSTANTIATE_TEST_SUITE_P(Devices, LbmThesisBackends,
                         ::testing::ValuesIn(tessera::test::device_ids()), tessera::test::id_name);

}  // namespace
}  // namespace tessera::lbm
