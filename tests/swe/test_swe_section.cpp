// Cross-section discharge lines (swe/section.hpp): a line across a closed
// basin tallies exactly the water that moved from its left to its right
// (the volume on the right changes by the tally, to round-off), reversing the
// line negates the tally bit for bit, every backend tallies the CPU's bits,
// x-slabs give one device's bits, a checkpoint continues them, and bad lines
// are refused naming the value.
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/registry.hpp"
#include "skeleton/team.hpp"
#include "swe/distributed.hpp"
#include "swe/physical.hpp"
#include "swe/series.hpp"
#include "test_support.hpp"

namespace tessera::swe {
namespace {

// A closed basin of nx x ny cells of 2 m x 3 m from (100, 50) on a random
// bed, deep water in the west third, shallow elsewhere, a dry knoll: a dam
// break that sends water east across every line below.
PhysCase dam_basin(long nx, long ny) {
  PhysCase c;
  c.name = "dam-basin";
  c.nx = nx, c.ny = ny, c.dx = 2, c.dy = 3, c.x0 = 100, c.y0 = 50;
  const std::size_t n = std::size_t(nx * ny);
  c.z = test::random_vector<double>(n, 5, 0.0, 0.1);
  c.h.assign(n, 0.0);
  c.hu.assign(n, 0.0);
  c.hv.assign(n, 0.0);
  for (long i = 0; i < nx; ++i)
    for (long j = 0; j < ny; ++j) {
      const std::size_t k = std::size_t(i * ny + j);
      if (i >= 2 * nx / 3 && j < 3) c.z[k] = 0.5;  // the knoll: dry
      c.h[k] = std::max(0.0, (i < nx / 3 ? 0.6 : 0.2) - c.z[k]);
    }
  c.t_end = 10;
  return c;
}

double x_end(const PhysCase& c) { return c.x0 + double(c.nx) * c.dx; }
double y_end(const PhysCase& c) { return c.y0 + double(c.ny) * c.dy; }

// The lines: "mid" south to north along the face between columns i = 10 and
// 11 (eastward positive), "back" the same drawn north to south, "diag" the
// basin's diagonal, "short" part of a line inside the basin.
std::vector<std::string> lines(const PhysCase& c) {
  const double xm = c.x0 + 11 * c.dx;
  return {fmt::format("mid:{}:{}:{}:{}", xm, c.y0, xm, y_end(c)),
          fmt::format("back:{}:{}:{}:{}", xm, y_end(c), xm, c.y0),
          fmt::format("diag:{}:{}:{}:{}", c.x0, c.y0, x_end(c), y_end(c)),
          fmt::format("short:{}:{}:{}:{}", c.x0 + 5.5 * c.dx, c.y0 + 2.2 * c.dy, c.x0 + 14.3 * c.dx,
                      c.y0 + 9.7 * c.dy)};
}

// The water in the cells whose centres lie on the right of the line from
// (ax, ay) to (bx, by) (the test's own geometry, not the section's faces).
template <class T>
double right_volume(const PhysCase& c, const HostFields& f, double ax, double ay, double bx,
                    double by) {
  double v = 0;
  for (long i = 0; i < c.nx; ++i)
    for (long j = 0; j < c.ny; ++j) {
      const double x = c.x0 + (double(i) + 0.5) * c.dx, y = c.y0 + (double(j) + 0.5) * c.dy;
      if (!((bx - ax) * (y - ay) - (by - ay) * (x - ax) > 0))
        v += f.h[std::size_t(i * c.ny + j)] * c.dx * c.dy;
    }
  return v;
}

class SweSection : public ::testing::TestWithParam<std::string> {
 protected:
  bool fp64() { return open_device(GetParam())->info().fp64; }
};

template <class T>
void sections_balance(const std::string& id, Order order) {
  PhysCase c = dam_basin(23, 19);
  add_sections(c, lines(c));
  PhysOptions o;
  o.order = order;
  auto run = [&](const std::string& dev_id) {
    PhysSolver<T> s(open_device(dev_id), c, o);
    const HostFields f0 = s.state();
    EXPECT_FALSE(s.advance_to(4).bad);
    const HostFields f1 = s.state();
    const std::vector<double> v = s.section_volumes();
    const double tol = (sizeof(T) == 8 ? 1e-13 : 1e-5) * s.mass();
    const double xm = c.x0 + 11 * c.dx;
    EXPECT_NEAR(v[0],
                right_volume<T>(c, f1, xm, c.y0, xm, y_end(c)) -
                    right_volume<T>(c, f0, xm, c.y0, xm, y_end(c)),
                tol)
        << dev_id;
    EXPECT_NEAR(v[2],
                right_volume<T>(c, f1, c.x0, c.y0, x_end(c), y_end(c)) -
                    right_volume<T>(c, f0, c.x0, c.y0, x_end(c), y_end(c)),
                tol)
        << dev_id;
    EXPECT_EQ(v[1], -v[0]) << "the same faces, the other sign";
    return v;
  };
  const auto cpu = run("cpu");
  EXPECT_GT(cpu[0], 0.1) << "the dam break sends water east";
  EXPECT_NE(cpu[3], 0.0);
  EXPECT_EQ(run(id), cpu);
}

TEST_P(SweSection, TalliesTheWaterThatCrossesBitForBitWithTheCpu) {
  for (Order order : {Order::first, Order::second}) {
    if (fp64()) sections_balance<double>(GetParam(), order);
    sections_balance<float>(GetParam(), order);
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, SweSection, ::testing::ValuesIn(test::device_ids()),
                         test::id_name);

// Three x-slabs of 10 rows: "edge" runs along the first parts' shared face
// (its first cells in part 0, the others in the ghost rows), "diag" across
// all three: one device's bits; a checkpoint taken halfway continues them.
TEST(SweSectionParts, ThreePartsAndACheckpointGiveOneDevicesBits) {
  PhysCase c = dam_basin(30, 11);
  std::vector<std::string> l = lines(c);
  const double xe = c.x0 + 10 * c.dx;
  l.push_back(fmt::format("edge:{}:{}:{}:{}", xe, c.y0, xe, y_end(c)));
  add_sections(c, l);
  PhysOptions o;
  o.order = Order::second;
  PhysSolver<double> one(open_device("cpu"), c, o);
  DistributedPhysSolver<double> three(skeleton::Team::open("cpu", 3), c, o);
  ASSERT_FALSE(one.advance_to(2).bad);
  ASSERT_FALSE(three.advance_to(2).bad);
  EXPECT_EQ(one.section_volumes(), three.section_volumes());
  const PhysSolverState<double> half = three.save_state();
  EXPECT_EQ(half.section_flow, one.save_state().section_flow);
  ASSERT_FALSE(one.advance_to(4).bad);
  PhysSolver<double> again(open_device("cpu"), c, o);
  again.restore_state(half);
  ASSERT_FALSE(again.advance_to(4).bad);
  const auto v = one.section_volumes();
  EXPECT_EQ(again.section_volumes(), v);
  EXPECT_GT(v[4], 0.0) << "water crosses the parts' face eastward";
  // a state from a run with other lines is refused
  PhysCase fewer = c;
  fewer.sections.pop_back();
  PhysSolver<double> other(open_device("cpu"), fewer, o);
  try {
    other.restore_state(half);
    ADD_FAILURE() << "accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("cross-section faces"), std::string::npos) << e.what();
  }
}

std::string refused(const PhysCase& c, const std::string& spec) {
  PhysCase d = c;
  try {
    add_sections(d, {spec});
  } catch (const UsageError& e) {
    return e.what();
  }
  ADD_FAILURE() << spec << " accepted";
  return {};
}

TEST(SweSectionOptions, LinesAreParsedOrRefusedNamingTheValue) {
  const PhysCase c = dam_basin(23, 19);  // [100, 146] x [50, 107]
  // a line along x = 122 crosses the x-faces of one column, a row each
  const Section s = parse_section("q:122:50:122:107", {c.nx, c.ny, c.dx, c.dy, c.x0, c.y0});
  ASSERT_EQ(s.faces.size(), 19u);
  for (const SectionFace& f : s.faces) {
    EXPECT_EQ(f.i, 10);
    EXPECT_FALSE(f.y);
    EXPECT_EQ(f.sign, 1) << "column 10 lies west: the left of a line drawn north";
  }
  // a horizontal line drawn west to east: the y-faces of one row, south
  // (right) to north (left) negative
  const Section h = parse_section("h:100:59:146:59", {c.nx, c.ny, c.dx, c.dy, c.x0, c.y0});
  ASSERT_EQ(h.faces.size(), 23u);
  for (const SectionFace& f : h.faces) {
    EXPECT_EQ(f.j, 2);
    EXPECT_TRUE(f.y);
    EXPECT_EQ(f.sign, -1);
  }
  EXPECT_NE(refused(c, "q:122:50:122").find("expected NAME:X0:Y0:X1:Y1"), std::string::npos);
  EXPECT_NE(refused(c, "q:122:50:122:1e").find("--section q:122:50:122:1e"), std::string::npos);
  EXPECT_NE(refused(c, "q r:122:50:122:107").find("NAME of letters"), std::string::npos);
  EXPECT_NE(refused(c, "-q:122:50:122:107").find("not starting with '-'"), std::string::npos)
      << "names become NetCDF variables";
  EXPECT_NE(refused(c, "q:122:50:122:nan").find("expected"), std::string::npos);
  EXPECT_NE(refused(c, "q:122:50:122:108").find("(122, 108) lies outside the grid"),
            std::string::npos);
  EXPECT_NE(refused(c, "q:122:60:122:60").find("zero length"), std::string::npos);
  EXPECT_NE(refused(c, "q:100.2:50.3:100.4:50.4").find("separates no two cells"),
            std::string::npos);
  PhysCase d = c;
  add_sections(d, {"q:122:50:122:107"});
  EXPECT_NE(refused(d, "q:110:50:110:107").find("'q' is taken"), std::string::npos);
  // sections need the sampling
  try {
    SweSeries(0, {}, d);
    ADD_FAILURE() << "a section without --series-every accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--section needs --series-every"), std::string::npos);
  }
  const SweSeries series(5, {}, d);
  const auto cols = series.json()["columns"];
  EXPECT_EQ(cols[1], "q_volume_m3");
  EXPECT_EQ(cols[2], "q_discharge_m3_s");
}

}  // namespace
}  // namespace tessera::swe
