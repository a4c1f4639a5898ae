// mapStencil on every device: every boundary mode, radius 1..3 and per axis,
// against the sequential reference bitwise; 1..4 parts (including counts
// that do not divide the extent and 2-D grids of parts, whose corners need
// the axis-by-axis exchange) bitwise equal to one part; bad input.
#include "skeleton_test_support.hpp"

namespace tessera::skeleton {
namespace {

namespace ex = examples;
using test::same_bits;

class SkeletonStencil : public ::testing::TestWithParam<std::string> {};

const BoundaryMode kModes[] = {BoundaryMode::neutral, BoundaryMode::periodic, BoundaryMode::clamp,
                               BoundaryMode::mirror, BoundaryMode::user};
const char* name(BoundaryMode m) {
  static const char* n[] = {"neutral", "periodic", "clamp", "mirror", "user"};
  return n[static_cast<int>(m)];
}

// Runs star-R on a DC of extents e over `parts` parts (grid) and returns the result.
template <class F>
std::vector<float> run_star(const std::string& id, int parts, std::array<int, 3> grid,
                            const Extents& e, const std::vector<float>& in, const F& f,
                            const Stencil& st) {
  Team team = Team::open(id, parts);
  FieldOptions o;
  o.parts = grid;
  DC<float> a(team, e.n[0], e.n[1], e.n[2], o),
      out(team, e.n[0], e.n[1], e.n[2], tessera::test::poison<float>(), o);
  a.scatter(in);
  a.mapStencil(f, out, st, 0.75f, portable(ex::Ramp{}, ex::cl_point("ts_skel_ramp")));
  return out.gather();
}

TEST_P(SkeletonStencil, EveryBoundaryModeAndRadiusMatchesTheReference) {
  const Extents e = extents_3d(9, 8, 7);
  const auto in = tessera::test::random_vector<float>(static_cast<std::size_t>(e.volume()), 21);
  struct Case {
    index_t r;
    Index3 radius;
  };
  for (const BoundaryMode m : kModes)
    for (int r = 1; r <= 4; ++r) {
      Stencil st = Stencil::uniform(r, m);
      if (r == 4) st.radius = {3, 1, 2};
      SCOPED_TRACE(std::string(name(m)) + " radius " + std::to_string(r));
      std::vector<float> got, want;
      const ex::Ramp ramp;
      switch (r) {
        case 1:
          got = run_star(GetParam(), 1, {0, 0, 0}, e, in,
                         portable(ex::Star1{}, ex::cl_stencil("ts_skel_star1")), st);
          want = test::reference_stencil(in, e, st, ex::Star1{}, 0.75f, ramp);
          break;
        case 2:
          got = run_star(GetParam(), 1, {0, 0, 0}, e, in,
                         portable(ex::Star2{}, ex::cl_stencil("ts_skel_star2")), st);
          want = test::reference_stencil(in, e, st, ex::Star2{}, 0.75f, ramp);
          break;
        case 3:
          got = run_star(GetParam(), 1, {0, 0, 0}, e, in,
                         portable(ex::Star3{}, ex::cl_stencil("ts_skel_star3")), st);
          want = test::reference_stencil(in, e, st, ex::Star3{}, 0.75f, ramp);
          break;
        default:
          got = run_star(GetParam(), 1, {0, 0, 0}, e, in,
                         portable(ex::Star312{}, ex::cl_stencil("ts_skel_star312")), st);
          want = test::reference_stencil(in, e, st, ex::Star312{}, 0.75f, ramp);
      }
      EXPECT_TRUE(same_bits(got, want));
    }
}

TEST_P(SkeletonStencil, OneToFourPartsEqualOnePartBitwise) {
  const Extents e = extents_3d(6, 5, 11);  // 11 planes: no part count from 2 to 4 divides them
  const auto in = tessera::test::random_vector<float>(static_cast<std::size_t>(e.volume()), 22);
  const auto f = portable(ex::Star2{}, ex::cl_stencil("ts_skel_star2"));
  for (const BoundaryMode m : kModes) {
    const Stencil st = Stencil::uniform(2, m);
    const auto one = run_star(GetParam(), 1, {0, 0, 0}, e, in, f, st);
    for (int parts = 2; parts <= std::min(4, test::max_parts(GetParam())); ++parts) {
      SCOPED_TRACE(std::string(name(m)) + ", " + std::to_string(parts) + " parts");
      EXPECT_TRUE(same_bits(run_star(GetParam(), parts, {0, 0, 0}, e, in, f, st), one));
    }
  }
}

TEST_P(SkeletonStencil, GridsOfPartsFillEdgesAndCorners) {
  if (test::max_parts(GetParam()) < 4) GTEST_SKIP() << "needs 4 devices";
  const Extents e = extents_3d(9, 7, 5);
  const auto in = tessera::test::random_vector<float>(static_cast<std::size_t>(e.volume()), 23);
  const auto blur = portable(ex::Blur27{}, ex::cl_stencil("ts_skel_blur27"));
  for (const BoundaryMode m :
       {BoundaryMode::neutral, BoundaryMode::periodic, BoundaryMode::mirror}) {
    SCOPED_TRACE(name(m));
    const Stencil st = Stencil::uniform(1, m);
    const auto want = test::reference_stencil(in, e, st, ex::Blur27{}, 0.75f);
    for (auto grid : {std::array<int, 3>{2, 2, 1}, std::array<int, 3>{1, 2, 2},
                      std::array<int, 3>{2, 1, 2}, std::array<int, 3>{4, 1, 1}})
      EXPECT_TRUE(same_bits(run_star(GetParam(), 4, grid, e, in, blur, st), want))
          << grid[0] << "x" << grid[1] << "x" << grid[2];
  }
}

TEST_P(SkeletonStencil, JacobiHeatOnDmInPlaceIteratesLikeTheReference) {
  const int parts = std::min(3, test::max_parts(GetParam()));
  Team team = Team::open(GetParam(), parts);
  const Extents e = extents_2d(17, 10);
  auto ref = tessera::test::random_vector<float>(static_cast<std::size_t>(e.volume()), 24);
  DM<float> u(team, 17, 10);
  u.scatter(ref);
  const Stencil st = Stencil::uniform(1, BoundaryMode::clamp, 2);
  for (int it = 0; it < 5; ++it) {
    u.mapStencilInPlace(portable(ex::Jacobi5{}, ex::cl_stencil("ts_skel_jacobi5")), st, 0.0f);
    ref = test::reference_stencil(ref, e, st, ex::Jacobi5{}, 0.0f);
    EXPECT_EQ(u.field().halo()[1], 1)
        << "after step " << it << ": the swapped-in buffer lost its halo";
  }
  EXPECT_TRUE(same_bits(u.gather(), ref));
}

TEST_P(SkeletonStencil, DoublePrecisionHeat7) {
  const int parts = std::min(2, test::max_parts(GetParam()));
  Team team = Team::open(GetParam(), parts);
  const Extents e = extents_3d(8, 6, 9);
  const auto in = tessera::test::random_vector<double>(static_cast<std::size_t>(e.volume()), 25);
  DC<double> a(team, 8, 6, 9), out(team, 8, 6, 9);
  a.scatter(in);
  const Stencil st = Stencil::uniform(1, BoundaryMode::periodic);
  a.mapStencil(portable(ex::Heat7{}, ex::cl_stencil("ts_skel_heat7")), out, st, 0.0);
  EXPECT_TRUE(same_bits(out.gather(), test::reference_stencil(in, e, st, ex::Heat7{}, 0.0)));
}

// Mixed modes per axis on grids of parts, read at the corners (27 points): a
// periodic axis whose wrap lives in a halo must still give the user function
// (and the axes after it) the wrapped coordinate.
TEST_P(SkeletonStencil, MixedModesOnGridsOfPartsMatchTheReferenceAtTheCorners) {
  if (test::max_parts(GetParam()) < 2) GTEST_SKIP() << "needs 2 devices";
  const Extents e = extents_3d(7, 6, 9);
  const auto in = tessera::test::random_vector<float>(static_cast<std::size_t>(e.volume()), 29);
  using M = BoundaryMode;
  struct Case {
    std::array<int, 3> grid;
    std::array<M, 3> modes;
  };
  for (const Case c : {Case{{1, 2, 1}, {M::clamp, M::periodic, M::user}},
                       Case{{2, 1, 1}, {M::periodic, M::user, M::neutral}},
                       Case{{2, 1, 1}, {M::periodic, M::periodic, M::user}},
                       Case{{1, 1, 2}, {M::user, M::mirror, M::periodic}}}) {
    SCOPED_TRACE(std::string(name(c.modes[0])) + "/" + name(c.modes[1]) + "/" + name(c.modes[2]) +
                 " on " + std::to_string(c.grid[0]) + "x" + std::to_string(c.grid[1]) + "x" +
                 std::to_string(c.grid[2]));
    Stencil st;
    st.mode = c.modes;
    const auto got = run_star(GetParam(), 2, c.grid, e, in,
                              portable(ex::Blur27{}, ex::cl_stencil("ts_skel_blur27")), st);
    EXPECT_TRUE(
        same_bits(got, test::reference_stencil(in, e, st, ex::Blur27{}, 0.75f, ex::Ramp{})));
  }
}

// The ghost layers of neutral boundaries are filled once and remembered; every
// change of what they must hold (another neutral value, another mode, a native
// kernel that wrote the buffer) must refill them.
TEST_P(SkeletonStencil, RememberedGhostLayersAreRefilledWhenTheyMustChange) {
  const Extents e = extents_3d(7, 6, 9);
  const auto in = tessera::test::random_vector<float>(static_cast<std::size_t>(e.volume()), 27);
  for (const int parts : {1, std::min(2, test::max_parts(GetParam()))}) {
    SCOPED_TRACE(std::to_string(parts) + " part(s)");
    Team team = Team::open(GetParam(), parts);
    DC<float> a(team, 7, 6, 9), out(team, 7, 6, 9);
    a.scatter(in);
    const auto heat = portable(ex::Heat7{}, ex::cl_stencil("ts_skel_heat7"));
    const auto ramp = portable(ex::Ramp{}, ex::cl_point("ts_skel_ramp"));
    struct Step {
      BoundaryMode mode;
      float neutral;
    };
    for (const Step st : {Step{BoundaryMode::neutral, 0.0f}, Step{BoundaryMode::neutral, 0.75f},
                          Step{BoundaryMode::periodic, 0.75f}, Step{BoundaryMode::neutral, 0.75f},
                          Step{BoundaryMode::user, 0.75f}, Step{BoundaryMode::neutral, 0.75f},
                          Step{BoundaryMode::neutral, 0.75f}}) {
      SCOPED_TRACE(std::string(name(st.mode)) + " " + std::to_string(st.neutral));
      const Stencil s = Stencil::uniform(1, st.mode);
      a.mapStencil(heat, out, s, st.neutral, ramp);
      EXPECT_TRUE(same_bits(
          out.gather(), test::reference_stencil(in, e, s, ex::Heat7{}, st.neutral, ex::Ramp{})));
    }
    // A native kernel writes the whole buffer (ghosts included) and says so.
    for (int p = 0; p < a.field().parts(); ++p)
      a.field().buffer(p).copy_from_host(
          std::vector<float>(a.field().buffer(p).size(), tessera::test::poison<float>()));
    a.field().mark_device_written();
    a.scatter(in);
    const Stencil s = Stencil::uniform(1, BoundaryMode::neutral);
    a.mapStencil(heat, out, s, 0.75f);
    EXPECT_TRUE(same_bits(out.gather(), test::reference_stencil(in, e, s, ex::Heat7{}, 0.75f)));
  }
}

TEST_P(SkeletonStencil, RadiusLargerThanASubdomainIsAClearError) {
  if (test::max_parts(GetParam()) < 4) GTEST_SKIP() << "needs 4 devices";
  Team team = Team::open(GetParam(), 4);
  DC<float> a(team, 4, 4, 6, 1.0f), out(team, 4, 4, 6);  // planes 2, 2, 1, 1
  try {
    a.mapStencil(portable(ex::Star2{}, ex::cl_stencil("ts_skel_star2")), out,
                 Stencil::uniform(2, BoundaryMode::neutral));
    FAIL() << "no error";
  } catch (const Error& err) {
    EXPECT_NE(std::string(err.what()).find("larger than part"), std::string::npos) << err.what();
  }
  EXPECT_THROW(a.mapStencil(portable(ex::Star1{}, ex::cl_stencil("ts_skel_star1")), out,
                            Stencil::uniform(1, BoundaryMode::user)),
               UsageError);  // user mode without a boundary function
}

TEST_P(SkeletonStencil, OpenClUserFunctionThatDoesNotCompileShowsTheUsersLine) {
  Team team = Team::open(GetParam(), 1);
  if (team.device(0).backend() != Backend::opencl) GTEST_SKIP() << "OpenCL only";
  DC<float> a(team, 4, 4, 4, 1.0f), out(team, 4, 4, 4);
  const ClFunction bad{
      "/* line 1 */\nTS_STENCIL_FN(broken, s) {\n  return TS_AT(s, 0, 0, 0) + undeclared_thing;\n}\n",
      "broken", "my_stencil.cl"};
  try {
    a.mapStencil(bad, out, Stencil::uniform(1, BoundaryMode::neutral));
    FAIL() << "no error";
  } catch (const BuildError& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("my_stencil.cl:3"), std::string::npos) << w;
    EXPECT_NE(w.find("undeclared_thing"), std::string::npos) << w;
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, SkeletonStencil, ::testing::ValuesIn(tessera::test::device_ids()),
                         tessera::test::id_name);

TEST(SkeletonTeam, MoreGpusThanExistIsAUsageError) {
  try {
    Team::open("cuda:0", 999);
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("999"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tessera::skeleton
