// Case files of `tessera lbm --config` (issue 43): the tables build the same
// case as the built-in one where they describe it, physical units convert as
// written out by hand here, bodies' forces add up to the total, and bad input
// is refused with file:line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "core/registry.hpp"
#include "io/case_file.hpp"
#include "io/vti.hpp"
#include "io/vti_read.hpp"
#include "lbm/case_file.hpp"
#include "lbm/kernels/lbm_flags.h"
#include "lbm/series.hpp"
#include "lbm/solver.hpp"
#include "test_support.hpp"
#include "voxel_meshes.hpp"

namespace tessera::lbm {
namespace {

namespace fs = std::filesystem;

fs::path write_case(const std::string& name, const std::string& text) {
  const fs::path d = fs::temp_directory_path() / ("tessera_lbm_case_" + std::to_string(::getpid()));
  fs::create_directories(d);
  const auto p = d / name;
  std::ofstream(p) << text;
  return p;
}

CaseFromFile load(const std::string& name, const std::string& text, Lattice l = Lattice::d2q9) {
  const auto p = write_case(name, text);
  return case_from_file(p.string(), io::read_case_file(p.string(), {true, true}), l);
}

const char* kChannel =
    "lattice = \"D2Q9\"\n"  // a top-level key: the command's option, skipped here
    "[domain]\n"
    "cells = [200, 50, 1]\n"
    "[flow]\n"
    "velocity = 0.1\n"
    "reynolds = 100\n"
    "length = 10\n"
    "[boundary]\n"
    "x-min = \"inlet\"\n"
    "x-max = \"outlet\"\n"
    "y-min = \"wall\"\n"
    "y-max = \"wall\"\n"
    "[[body]]\n"
    "name = \"cylinder\"\n"
    "shape = \"cylinder\"\n"
    "centre = [50, 24.5, 0]\n"
    "diameter = 10\n";

TEST(LbmCaseFile, DescribesTheBuiltInCylinderExactly) {
  const CaseFromFile f = load("channel.toml", kChannel);
  const Case ref = cylinder(Lattice::d2q9, Grid{200, 50, 1}, 10, 100, 0.1);
  EXPECT_EQ(f.c.flags, ref.flags);  // walls, inlet, outlet, the body with its force bit
  EXPECT_EQ(f.c.config.tau, ref.config.tau);
  EXPECT_EQ(f.c.config.u_in, ref.config.u_in);
  EXPECT_EQ(f.c.config.trt_magic, ref.config.trt_magic);
  EXPECT_EQ(f.c.config.rho_out, 1.0);
  EXPECT_EQ(f.c.u0, ref.u0);
  ASSERT_EQ(f.c.bodies.size(), 1u);
  EXPECT_EQ(f.c.bodies[0].name, "cylinder");
  EXPECT_EQ(f.c.bodies[0].area, 10.0);  // diameter x 1 cell of depth
  EXPECT_FALSE(f.units.physical);
  EXPECT_EQ(f.steps, -1);
}

TEST(LbmCaseFile, PhysicalUnitsConvertAsWrittenOut) {
  // water-like, 0.1 m/s past a sphere of 10 cells, dx = 1/1024 m (binary
  // fractions throughout, so the centre lands exactly on cell 20), U = 0.05
  // in lattice units
  const CaseFromFile f =
      load("water.toml",
           "[domain]\ncells = [60, 30, 30]\n"
           "[units]\ncell-size = 0.0009765625\ndensity = 1000\nlattice-velocity = 0.05\n"
           "[flow]\nvelocity = 0.1\nviscosity = 1e-5\nlength = 0.009765625\n"
           "[boundary]\nx-min = \"inlet\"\nx-max = \"outlet\"\n"
           "y-min = \"wall\"\ny-max = \"wall\"\nz-min = \"wall\"\nz-max = \"wall\"\n"
           "[[body]]\nshape = \"sphere\"\ncentre = [0.02001953125, 0.01513671875, 0.01513671875]\n"
           "diameter = 0.009765625\n"
           "[[probe]]\nat = [0.03955078125, 0.01513671875, 0.01513671875]\n"
           "[run]\ntime = 0.5\noutput-interval = 0.05\n",
           Lattice::d3q19);
  const Units& u = f.units;
  EXPECT_TRUE(u.physical);
  const double dx = 1.0 / 1024, dt = 0.05 * dx / 0.1;  // dt = 1/2048 s
  EXPECT_DOUBLE_EQ(u.dt, 1.0 / 2048);
  EXPECT_DOUBLE_EQ(u.viscosity, 1e-5 * dt / (dx * dx));  // 1e-5 x 512 in lattice units
  EXPECT_NEAR(u.viscosity, 0.00512, 1e-15);
  EXPECT_DOUBLE_EQ(f.c.config.tau, 3 * u.viscosity + 0.5);
  EXPECT_DOUBLE_EQ(u.length, 10.0);  // cells
  EXPECT_DOUBLE_EQ(f.c.config.u_in[0], 0.05);
  EXPECT_EQ(f.steps, 1024);  // 0.5 s at 2048 steps per second
  EXPECT_EQ(f.every, 102);   // 0.05 s = 102.4 steps, rounded
  // the centre 20.5 dx is cell 20 (centres at (i + 1/2) dx); diameter 10 cells
  const Grid g = f.c.config.grid;
  auto flag = [&](long x, long y, long z) {
    return f.c.flags[std::size_t(x + g.nx * (y + g.ny * z))];
  };
  EXPECT_EQ(flag(20, 15, 15), TS_LBM_WALL | TS_LBM_BODY);
  EXPECT_EQ(flag(25, 15, 15),
            TS_LBM_WALL | TS_LBM_BODY);  // on the surface: 5 cells from the centre
  EXPECT_EQ(flag(26, 15, 15), TS_LBM_FLUID);
  EXPECT_EQ(flag(0, 15, 15), TS_LBM_INLET);
  EXPECT_EQ(flag(0, 0, 15), TS_LBM_WALL);  // where faces meet, the wall
  ASSERT_EQ(f.c.probes.size(), 1u);
  EXPECT_EQ(f.c.probes[0].cell, 40 + 60 * (15 + 30 * 15));
  EXPECT_NEAR(f.c.bodies[0].area, 3.14159265358979 * 25, 1e-9);
  // a sphere of radius 5 cells holds the cells within 5 of the centre
  long count = 0;
  for (long z = 0; z < g.nz; ++z)
    for (long y = 0; y < g.ny; ++y)
      for (long x = 0; x < g.nx; ++x)
        count += f.c.body_of[std::size_t(x + g.nx * (y + g.ny * z))] == 1;
  long want = 0;
  for (long dz = -5; dz <= 5; ++dz)
    for (long dy = -5; dy <= 5; ++dy)
      for (long dx = -5; dx <= 5; ++dx) want += dx * dx + dy * dy + dz * dz <= 25;
  EXPECT_EQ(count, want);
}

TEST(LbmCaseFile, ForcesOfTwoBodiesAddUpToTheTotal) {
  const CaseFromFile f =
      load("two.toml",
           "[domain]\ncells = [120, 48, 1]\n"
           "[flow]\nvelocity = 0.05\nviscosity = 0.02\n"
           "[boundary]\nx-min = \"inlet\"\nx-max = \"outlet\"\n"
           "y-min = \"wall\"\ny-max = \"wall\"\n"
           "[[body]]\nname = \"front\"\nshape = \"cylinder\"\ncentre = [30, 23.5, 0]\n"
           "diameter = 8\n"
           "[[body]]\nname = \"back\"\nshape = \"box\"\ncentre = [60, 20, 0]\n"
           "size = [6, 10, 0]\n");
  Solver s(open_device("cpu"), f.c.config);
  f.c.apply(s);
  s.step(300);
  const auto in = s.incoming();
  const auto per = body_forces_of(in, s.flags(), f.c.body_of, 2, s.grid(), Lattice::d2q9);
  const auto total = body_force_of(in, s.flags(), s.grid(), Lattice::d2q9);
  for (int a = 0; a < 3; ++a)
    EXPECT_NEAR(per[0][std::size_t(a)] + per[1][std::size_t(a)], total[std::size_t(a)],
                1e-12 * (1 + std::fabs(total[std::size_t(a)])));
  EXPECT_GT(per[0][0], 0);  // both are pushed downstream
  EXPECT_GT(per[1][0], 0);
  EXPECT_EQ(f.c.bodies[1].area, 10.0);  // the box's frontal height x 1 cell
}

// An STL sphere (an icosphere written as binary STL) placed where the
// built-in sphere is: the same cells wherever no cell centre lies within the
// facets' sagitta of the sphere (checked: the radius is chosen so), hence the
// same flags and the same forces.
void write_binary_stl(const fs::path& p, const geometry::Triangles& m) {
  std::ofstream out(p, std::ios::binary);
  const char header[80] = "solid icosphere (tessera test)";
  out.write(header, 80);
  const auto n = static_cast<std::uint32_t>(m.size());
  out.write(reinterpret_cast<const char*>(&n), 4);
  for (std::size_t t = 0; t < m.size(); ++t) {
    float v[12] = {0, 0, 0};  // the normal (unused), then a, b, c
    for (int k = 0; k < 9; ++k) v[3 + k] = float(m.xyz[9 * t + std::size_t(k)]);
    out.write(reinterpret_cast<const char*>(v), sizeof v);
    const std::uint16_t attr = 0;
    out.write(reinterpret_cast<const char*>(&attr), 2);
  }
}

TEST(LbmCaseFile, StlSphereHasTheBuiltInSpheresCellsAndForce) {
  // level 5: edges subtend 1.107 / 32 = 0.035 rad (x1.3 for the subdivision's
  // unevenness), a facet's circumradius less: every facet lies within
  // r (1 - cos 0.05) of the sphere; the voxelizer's rounding adds 7e-4 cells
  const double r = 6.3, sagitta = r * (1 - std::cos(0.05)) + 7e-4;
  double gap = 1e300;
  for (long z = -8; z <= 8; ++z)
    for (long y = -8; y <= 8; ++y)
      for (long x = -8; x <= 8; ++x)
        gap = std::min(gap, std::fabs(std::sqrt(double(x * x + y * y + z * z)) - r));
  ASSERT_GT(gap, 1.5 * sagitta) << "choose another radius";
  const auto stl = write_case("ball.stl", "");
  write_binary_stl(stl, test::icosphere({0, 0, 0}, r, 5));
  const std::string head =
      "[domain]\ncells = [40, 24, 24]\n[flow]\nvelocity = 0.05\nviscosity = 0.02\n"
      "[boundary]\nx-min = \"inlet\"\nx-max = \"outlet\"\n";
  const CaseFromFile mesh = load("stl_ball.toml",
                                 head +
                                     "[[body]]\nshape = \"stl\"\nfile = \"ball.stl\"\n"
                                     "centre = [14, 11.5, 11.5]\n",
                                 Lattice::d3q19);
  const CaseFromFile ball = load("ball.toml",
                                 head +
                                     "[[body]]\nshape = \"sphere\"\ncentre = [14, 11.5, 11.5]\n"
                                     "diameter = 12.6\n",
                                 Lattice::d3q19);
  EXPECT_EQ(mesh.c.flags, ball.c.flags);
  EXPECT_EQ(mesh.c.body_of, ball.c.body_of);
  long cells = 0;
  for (auto b : mesh.c.body_of) cells += b;
  EXPECT_GT(cells, 900);  // 4/3 pi 6.3^3 = 1047
  // the frontal area counted from the cells: the (y, z) cell centres, at
  // half-integer offsets from the centre, within r of it (the built-in
  // sphere takes pi r^2 = 124.7)
  long shadow = 0;
  for (int j = -8; j < 8; ++j)
    for (int k = -8; k < 8; ++k) shadow += (j + 0.5) * (j + 0.5) + (k + 0.5) * (k + 0.5) <= r * r;
  EXPECT_EQ(mesh.c.bodies[0].area, double(shadow));
}

// bounce-back = "interpolated": every link from a fluid cell into the
// cylinder, and only those, with the fraction where the segment between the
// cell centres meets the circle (the quadratic's smaller root); the other
// body keeps halfway bounce-back.
TEST(LbmCaseFile, InterpolatedBodiesGetTheirSurfacesLinks) {
  const CaseFromFile f =
      load("interpolated.toml",
           "[domain]\ncells = [60, 30, 1]\n[flow]\nvelocity = 0.05\n"
           "viscosity = 0.02\n[boundary]\nx-min = \"inlet\"\n"
           "x-max = \"outlet\"\ny-min = \"wall\"\ny-max = \"wall\"\n"
           "[[body]]\nshape = \"cylinder\"\ncentre = [20.3, 14.6, 0]\n"
           "diameter = 9.1\nbounce-back = \"interpolated\"\n"
           "[[body]]\nshape = \"box\"\ncentre = [45, 15, 0]\nsize = [4, 4, 0]\n");
  const Grid g = f.c.config.grid;
  const double cx = 20.3, cy = 14.6, r = 4.55;
  const int c[9][2] = {{0, 0}, {1, 0},   {-1, 0}, {0, 1}, {0, -1},
                       {1, 1}, {-1, -1}, {1, -1}, {-1, 1}};
  long expected = 0;
  for (long y = 0; y < g.ny; ++y)
    for (long x = 0; x < g.nx; ++x) {
      if (f.c.flags[std::size_t(x + g.nx * y)] != TS_LBM_FLUID) continue;
      for (int i = 1; i < 9; ++i)
        expected += f.c.body_of[std::size_t(x + c[i][0] + g.nx * (y + c[i][1]))] == 1;
    }
  ASSERT_EQ(long(f.c.links.size()), expected);
  EXPECT_GT(expected, 60);
  for (const WallLink& l : f.c.links) {
    const double px = double(l.cell % g.nx) - cx, py = double(l.cell / g.nx) - cy;
    const double dx = c[l.dir][0], dy = c[l.dir][1];
    const double A = dx * dx + dy * dy, B = 2 * (px * dx + py * dy), C = px * px + py * py - r * r;
    EXPECT_GT(C, 0) << "the link starts outside";
    EXPECT_NEAR(l.q, (-B - std::sqrt(B * B - 4 * A * C)) / (2 * A), 1e-11)
        << l.cell << " " << l.dir;
    EXPECT_EQ(f.c.body_of[std::size_t(l.cell + c[l.dir][0] + g.nx * c[l.dir][1])], 1);
  }
}

// With interpolated bounce-back the STL sphere's links are the built-in
// sphere's (the same cells), their q within the facets' sagitta along the
// link, and the drag after 300 steps within 0.1% of the built-in one.
TEST(LbmCaseFile, InterpolatedStlSphereMatchesTheBuiltInSphere) {
  const double r = 6.3;
  const auto stl = write_case("ball_i.stl", "");
  write_binary_stl(stl, test::icosphere({0, 0, 0}, r, 5));
  const std::string head =
      "[domain]\ncells = [40, 24, 24]\n[flow]\nvelocity = 0.05\nviscosity = 0.02\n"
      "[boundary]\nx-min = \"inlet\"\nx-max = \"outlet\"\n[[body]]\n"
      "bounce-back = \"interpolated\"\ncentre = [14, 11.5, 11.5]\n";
  const CaseFromFile mesh =
      load("stl_ball_i.toml", head + "shape = \"stl\"\nfile = \"ball_i.stl\"\n", Lattice::d3q19);
  const CaseFromFile ball =
      load("ball_i.toml", head + "shape = \"sphere\"\ndiameter = 12.6\n", Lattice::d3q19);
  ASSERT_EQ(mesh.c.flags, ball.c.flags);
  ASSERT_EQ(mesh.c.links.size(), ball.c.links.size());
  double worst = 0;
  for (std::size_t k = 0; k < ball.c.links.size(); ++k) {
    ASSERT_EQ(mesh.c.links[k].cell, ball.c.links[k].cell);
    ASSERT_EQ(mesh.c.links[k].dir, ball.c.links[k].dir);
    worst = std::max(worst, std::fabs(mesh.c.links[k].q - ball.c.links[k].q));
  }
  EXPECT_LT(worst, 0.02);  // sagitta r (1 - cos 0.05) = 0.008 cells, over links of length >= 1
  EXPECT_GT(worst, 0.0);   // (the mesh is not the sphere)
  auto drag = [](const CaseFromFile& f) {
    Solver s(open_device("cpu"), f.c.config);
    f.c.apply(s);
    s.step(300);
    return s.body_forces(f.c.body_of, 1)[0][0];
  };
  const double a = drag(mesh), b = drag(ball);
  EXPECT_GT(b, 0);
  EXPECT_NEAR(a, b, 0.001 * b);  // measured: 0.02%
}

// An STL with holes: its cells decided by the rays along y and z (the
// closed sphere's), with a warning naming the file's line; refused with
// interpolated bounce-back, whose links through the holes would find no
// surface. A body sticking out of a periodic face is refused, not cut.
TEST(LbmCaseFile, OpenAndPeriodicallyCutStlBodies) {
  const double r = 6.3;
  geometry::Triangles ball = test::icosphere({0, 0, 0}, r, 3);
  const auto closed = write_case("closed.stl", ""), open = write_case("open.stl", "");
  write_binary_stl(closed, ball);
  geometry::Triangles capless;  // the facets around x = -r gone: a hole the x rays pass
  for (std::size_t t = 0; t < ball.size(); ++t)
    if (ball.xyz[9 * t] + ball.xyz[9 * t + 3] + ball.xyz[9 * t + 6] > -3 * 5.0)
      capless.xyz.insert(capless.xyz.end(), ball.xyz.begin() + 9 * std::ptrdiff_t(t),
                         ball.xyz.begin() + 9 * std::ptrdiff_t(t + 1));
  ASSERT_LT(capless.size(), ball.size());
  write_binary_stl(open, capless);
  const std::string head =
      "[domain]\ncells = [40, 24, 24]\n[flow]\nvelocity = 0.05\nviscosity = 0.02\n"
      "[boundary]\nx-min = \"inlet\"\nx-max = \"outlet\"\n[[body]]\nshape = \"stl\"\n";
  const CaseFromFile whole = load(
      "closed.toml", head + "file = \"closed.stl\"\ncentre = [14, 11.5, 11.5]\n", Lattice::d3q19);
  EXPECT_TRUE(whole.warnings.empty());
  const CaseFromFile holes =
      load("open.toml", head + "file = \"open.stl\"\ncentre = [14, 11.5, 11.5]\n", Lattice::d3q19);
  auto solid = [](const CaseFromFile& f) {
    return std::count(f.c.body_of.begin(), f.c.body_of.end(), std::uint8_t(1));
  };
  EXPECT_GT(solid(holes), solid(whole) * 9 / 10) << "the votes keep the body whole but its cap";
  EXPECT_LE(solid(holes), solid(whole));
  ASSERT_EQ(holes.warnings.size(), 1u);
  EXPECT_NE(holes.warnings[0].find("open.toml:11: the mesh is not closed"), std::string::npos)
      << holes.warnings[0];
  try {
    load("open_i.toml",
         head + "file = \"open.stl\"\ncentre = [14, 11.5, 11.5]\nbounce-back = \"interpolated\"\n",
         Lattice::d3q19);
    ADD_FAILURE() << "an open mesh with interpolated bounce-back was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("interpolated bounce-back needs the whole surface"),
              std::string::npos)
        << e.what();
  }
  // y and z are periodic here: centred at z = 20 the ball reaches z = 26.3
  try {
    load("poke.toml", head + "file = \"closed.stl\"\ncentre = [14, 11.5, 20]\n", Lattice::d3q19);
    ADD_FAILURE() << "a body through a periodic face was cut";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("beyond the periodic z faces"), std::string::npos)
        << e.what();
  }
}

TEST(LbmCaseFile, MaskBodyFromNpy) {
  // a 2D mask: a 4 x 3 block of solid cells, written by the test as .npy (uint8)
  const auto npy = write_case("block.npy", "");
  std::vector<std::uint8_t> m(20 * 40, 0);
  for (long y = 8; y < 11; ++y)
    for (long x = 10; x < 14; ++x) m[std::size_t(x + 40 * y)] = 1;
  std::ofstream(npy, std::ios::binary)
      << ::tessera::test::npy_v1("{'descr': '|u1', 'fortran_order': False, 'shape': (20, 40), }",
                                 std::string(m.begin(), m.end()));
  const CaseFromFile f =
      load("mask.toml",
           "[domain]\ncells = [40, 20, 1]\n[flow]\nvelocity = 0.05\n"
           "viscosity = 0.02\n[boundary]\nx-min = \"inlet\"\nx-max = \"outlet\"\n"
           "[[body]]\nname = \"block\"\nshape = \"mask\"\nfile = \"block.npy\"\n");
  for (std::size_t n = 0; n < m.size(); ++n) {
    ASSERT_EQ(f.c.body_of[n], m[n]) << n;
    if (m[n]) {
      EXPECT_EQ(f.c.flags[n], TS_LBM_WALL | TS_LBM_BODY);
    }
  }
  EXPECT_EQ(f.c.bodies[0].area, 3.0);    // 3 rows face the flow
  EXPECT_EQ(f.c.bodies[0].length, 3.0);  // its height
  // the wrong shape is refused with both shapes
  const auto bad =
      write_case("mask_bad.toml",
                 "[domain]\ncells = [40, 21, 1]\n[flow]\nvelocity = 0.05\n"
                 "viscosity = 0.02\n[[body]]\nshape = \"mask\"\nfile = \"block.npy\"\n");
  try {
    case_from_file(bad.string(), io::read_case_file(bad.string(), {true, true}), Lattice::d2q9);
    ADD_FAILURE() << "a mask of another shape was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "the mask's shape (20, 40) is not the domain's (nz, ny, nx) = (1, 21, 40)"),
              std::string::npos)
        << e.what();
  }
}

// The same block as a .vti mask: cell data written by tessera's own writer
// (another array beside it: the mask's is named), and the same block as
// point data of a VTK-written fixture layout; a mask of another extent or
// with three components is refused with the key's line.
TEST(LbmCaseFile, MaskBodyFromVti) {
  if (!io::vti_reading_available()) GTEST_SKIP() << "built without expat";
  std::vector<std::uint8_t> m(20 * 40, 0);
  for (long y = 8; y < 11; ++y)
    for (long x = 10; x < 14; ++x) m[std::size_t(x + 40 * y)] = 1;
  io::VtiImage im;
  im.extent = {40, 20, 0};
  im.cell_data = true;
  io::VtiArray solid, other, vec;
  solid.name = "obstacle";
  other.name = "rho";
  vec.name = "u";
  vec.components = 3;
  solid.f32.assign(m.begin(), m.end());
  other.f32.assign(m.size(), 1.0f);
  vec.f32.assign(3 * m.size(), 0.5f);
  im.arrays = {other, solid, vec};
  const auto vti = write_case("block.vti", "");
  io::write_vti(vti, im);
  const std::string head =
      "[domain]\ncells = [40, 20, 1]\n[flow]\nvelocity = 0.05\nviscosity = 0.02\n[boundary]\n"
      "x-min = \"inlet\"\nx-max = \"outlet\"\n[[body]]\nname = \"block\"\nshape = \"mask\"\n"
      "file = \"block.vti\"\n";
  const CaseFromFile f = load("mask_vti.toml", head + "array = \"obstacle\"\n");
  for (std::size_t n = 0; n < m.size(); ++n) ASSERT_EQ(f.c.body_of[n], m[n]) << n;
  EXPECT_EQ(f.c.bodies[0].area, 3.0);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {head, ":12: [[body]] #1 file: "},  // below: three arrays, none named solid
      {head, "3 arrays (rho, obstacle, u): name the one to read"},
      {head + "array = \"u\"\n", "array 'u' has 3 components (a mask has one)"},
      {head + "array = \"p\"\n", "no array 'p' (the file has: rho, obstacle, u)"},
  };
  for (std::size_t k = 0; k < bad.size(); ++k) {
    const auto p = write_case("mask_vti_bad.toml", bad[k].first);
    try {
      case_from_file(p.string(), io::read_case_file(p.string(), {true, true}), Lattice::d2q9);
      ADD_FAILURE() << "accepted: " << bad[k].first;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(bad[k].second), std::string::npos) << e.what();
    }
  }
  const auto wide = write_case("mask_vti_wide.toml", [&] {
    std::string s = head + "array = \"obstacle\"\n";
    return s.replace(s.find("[40, 20, 1]"), 11, "[40, 21, 1]");
  }());
  try {
    case_from_file(wide.string(), io::read_case_file(wide.string(), {true, true}), Lattice::d2q9);
    ADD_FAILURE() << "a mask of another extent was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("array 'obstacle' holds 40 x 20 x 1 cells (x, y, z), "
                                         "the domain has 40 x 21 x 1 cells"),
              std::string::npos)
        << e.what();
  }
}

TEST(LbmSeries, StrouhalFromASampledOscillation) {
  // Cl = 0.3 + sin(2 pi t / 400) + a start-up drift in the first half, sampled
  // every 10 steps: f = 1/400 per step, St = f L / U
  std::vector<long> step;
  std::vector<double> cl;
  for (long t = 10; t <= 8000; t += 10) {
    step.push_back(t);
    cl.push_back(0.3 + std::sin(2 * 3.14159265358979 * double(t) / 400.0) +
                 (t < 4000 ? 1e-3 * double(4000 - t) : 0));
  }
  EXPECT_NEAR(strouhal(step, cl, 20, 0.1), 20.0 / (400.0 * 0.1), 1e-3);
  // too few periods in the second half: none
  std::vector<long> s2(step.begin(), step.begin() + 60);
  std::vector<double> c2(cl.begin(), cl.begin() + 60);
  EXPECT_TRUE(std::isnan(strouhal(s2, c2, 20, 0.1)));
  EXPECT_TRUE(std::isnan(strouhal(step, std::vector<double>(step.size(), 1.0), 20, 0.1)));
}

TEST(LbmCaseFile, ALatticeTheHostCannotHoldIsRefusedBeforeAllocating) {
  // 2^60 cells: refused by the host-memory check, not a bad_alloc or the OOM killer
  const auto p = write_case("huge.toml",
                            "[domain]\ncells = [1048576, 1048576, 1048576]\n[flow]\n"
                            "velocity = 0.05\nviscosity = 0.02\n");
  try {
    case_from_file(p.string(), io::read_case_file(p.string(), {true, true}), Lattice::d3q19);
    ADD_FAILURE() << "a 2^60-cell lattice was accepted";
  } catch (const OutOfMemory& e) {
    EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
  }
}

TEST(LbmCaseFile, BadInputIsRefusedWithFileAndLine) {
  const std::string base =
      "[domain]\ncells = [40, 20, 1]\n[flow]\nvelocity = 0.05\nviscosity = 0.02\n";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"[domains]\ncells = [4, 4, 1]\n", ":2: unknown table [domains]"},
      {base + "[flow2]\nx = 1\n", ":7: unknown table [flow2]"},
      {"[domain]\ncells = [40, 20, 1]\nsize = 3\n", ":3: unknown key 'size' in [domain]"},
      {"[domain]\ncells = [40, 20]\n", ":2: [domain] cells: expected 3 numbers, found 2"},
      {"[domain]\ncells = [40, 20.5, 1]\n", "20.5 is not a cell count"},
      {"[domain]\ncells = [40, 20, 2]\n[flow]\nvelocity = 0.05\nviscosity = 0.02\n",
       "D2Q9 takes nz = 1"},
      {"[domain]\ncells = [40, 20, 1]\n[flow]\nviscosity = 0.02\n",
       "[flow] needs the key 'velocity'"},
      {"[domain]\ncells = [40, 20, 1]\n[flow]\nvelocity = 0.05\n",
       "[flow] needs exactly one of 'viscosity' and 'reynolds'"},
      {"[domain]\ncells = [40, 20, 1]\n[flow]\nvelocity = 0.05\nreynolds = 10\n",
       "[flow] needs the key 'length'"},
      {"[domain]\ncells = [40, 20, 1]\n[flow]\nvelocity = \"fast\"\nviscosity = 0.02\n",
       ":4: [flow] velocity: expected a number, found 'fast'"},
      {"[domain]\ncells = [40, 20, 1]\n[flow]\nvelocity = 0.3\nviscosity = 0.02\n", "Mach"},
      {"[domain]\ncells = [40, 20, 1]\n[flow]\nvelocity = 0.05\nviscosity = -1\n",
       ":5: [flow] viscosity: must be > 0"},
      {base + "[boundary]\nx-min = \"door\"\n", ":7: [boundary] x-min: 'door' is not a face type"},
      {base + "[boundary]\nx-min = \"wall\"\n", "a periodic face needs a periodic opposite face"},
      {base + "[boundary]\nx-min = \"wall\"\nx-max = \"wall\"\nwall-velocity = [0.1, 0, 0]\n",
       ":9: [boundary] wall-velocity: no face is a moving-wall"},
      {base + "[boundary]\ny-min = \"moving-wall\"\ny-max = \"wall\"\n",
       "[boundary] needs the key 'wall-velocity'"},
      {base + "[units]\ndensity = 1000\n", "[units] needs 'cell-size'"},
      {base + "[body]\nshape = \"cylinder\"\n", ":7: [body] is an array of tables: write [[body]]"},
      {base + "[[run]]\ntime = 3\n", ":7: [run] is one table: write [run]"},
      {base + "[[body]]\nshape = \"cone\"\ncentre = [20, 10, 0]\n",
       ":7: [[body]] #1 shape: 'cone' is not a shape"},
      {base + "[[body]]\nshape = \"cylinder\"\ndiameter = 4\n",
       "[[body]] #1 needs the key 'centre'"},
      {base + "[[body]]\nshape = \"cylinder\"\ncentre = [38, 10, 0]\ndiameter = 4\n",
       "outside the fluid cells 1..38"},
      {base + "[[body]]\nshape = \"cylinder\"\ncentre = [20, 10, 0]\ndiameter = 1.5\n",
       "1.5 cells: a body needs at least 2 cells across"},
      {base + "[[body]]\nshape = \"sphere\"\ncentre = [20, 10, 0]\ndiameter = 4\n",
       "a sphere needs a 3D lattice"},
      {base + "[[body]]\nname = \"a\"\nshape = \"cylinder\"\ncentre = [20, 10, 0]\ndiameter = 6\n"
              "[[body]]\nshape = \"cylinder\"\ncentre = [22, 10, 0]\ndiameter = 6\n",
       "[[body]] #2 centre: it overlaps 'a'"},
      {base + "[[probe]]\nat = [50, 10, 0]\n", "[[probe]] #1 at: 50 is outside the domain along x"},
      {base + "[[body]]\nshape = \"box\"\ncentre = [20, 10, 0]\nsize = [4, 4, 0]\n"
              "[[probe]]\nat = [20, 10, 0]\n",
       "cell (20, 10, 0) is not a fluid cell"},
      {base + "[run]\ntime = 0\n", ":7: [run] time: must be > 0"},
      {base + "[run]\ntime = 1e300\n", ":7: [run] time: 1e+300 steps of 1: more than 2^40"},
      {base + "[[probe]]\nat = [1e300, 10, 0]\n",
       "[[probe]] #1 at: 1e+300 is outside the domain along x"},
      {base + "[[body]]\nshape = \"cylinder\"\ncentre = [20, 10, 0]\ndiameter = 6\n"
              "bounce-back = \"curved\"\n",
       ":10: [[body]] #1 bounce-back: 'curved' is not a bounce-back (halfway, interpolated)"},
      {base + "[[body]]\nshape = \"mask\"\nfile = \"m.npy\"\nbounce-back = \"interpolated\"\n",
       ":9: [[body]] #1 bounce-back: a mask has no surface to interpolate"},

  };
  for (const auto& [text, message] : bad) {
    const auto p = write_case("bad.toml", text);
    try {
      case_from_file(p.string(), io::read_case_file(p.string(), {true, true}), Lattice::d2q9);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(p.string() + ":"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos)
          << "for '" << text << "': " << e.what();
    }
  }
}

}  // namespace
}  // namespace tessera::lbm
