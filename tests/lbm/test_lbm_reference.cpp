// The esoteric-pull solver against an independent textbook implementation:
// two lattices (A-B), unshifted double populations, pull streaming with
// halfway bounce-back (Krueger et al. eq. 5.26 for the moving wall), BGK/TRT
// with Guo forcing, equilibrium inlet/outlet. The populations the solver's
// next step reads must equal the reference's post-streaming populations.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "core/registry.hpp"
#include "lbm/solver.hpp"
#include "lbm_test_util.hpp"

namespace tessera::lbm {
namespace {

// The velocity sets written out independently of lbm_point.h (same order:
// opposite pairs i odd, i+1).
struct Set {
  int q;
  std::vector<std::array<int, 3>> c;
  std::vector<double> w;
};
Set d2q9() {
  return {9,
          {{0, 0, 0},
           {1, 0, 0},
           {-1, 0, 0},
           {0, 1, 0},
           {0, -1, 0},
           {1, 1, 0},
           {-1, -1, 0},
           {1, -1, 0},
           {-1, 1, 0}},
          {4. / 9, 1. / 9, 1. / 9, 1. / 9, 1. / 9, 1. / 36, 1. / 36, 1. / 36, 1. / 36}};
}
Set d3q19() {
  Set s{19, {{0, 0, 0}}, {1. / 3}};
  const int pairs[9][3] = {{1, 0, 0}, {0, 1, 0},  {0, 0, 1},  {1, 1, 0}, {1, 0, 1},
                           {0, 1, 1}, {1, -1, 0}, {1, 0, -1}, {0, 1, -1}};
  for (auto& p : pairs) {
    const double w = std::abs(p[0]) + std::abs(p[1]) + std::abs(p[2]) == 1 ? 1. / 18 : 1. / 36;
    s.c.push_back({p[0], p[1], p[2]});
    s.c.push_back({-p[0], -p[1], -p[2]});
    s.w.push_back(w);
    s.w.push_back(w);
  }
  return s;
}
Set d3q27() {
  Set s = d3q19();
  s.q = 27;
  s.w = {8. / 27};
  for (int i = 1; i < 19; ++i) s.w.push_back(i < 7 ? 2. / 27 : 1. / 54);
  const int pairs[4][3] = {{1, 1, 1}, {1, 1, -1}, {1, -1, 1}, {-1, 1, 1}};
  for (auto& p : pairs) {
    s.c.push_back({p[0], p[1], p[2]});
    s.c.push_back({-p[0], -p[1], -p[2]});
    s.w.push_back(1. / 216);
    s.w.push_back(1. / 216);
  }
  return s;
}

struct Reference {
  Set s;
  Grid g;
  Config cfg;
  std::vector<std::uint8_t> flags;
  std::vector<double> post;  // post-collision populations, unshifted

  long idx(long x, long y, long z) const {
    return ((x + g.nx) % g.nx) + g.nx * (((y + g.ny) % g.ny) + g.ny * ((z + g.nz) % g.nz));
  }
  int type(long n) const { return flags[n] & TS_LBM_TYPE_MASK; }
  bool wall(long n) const { return type(n) == TS_LBM_WALL || type(n) == TS_LBM_MOVING; }
  double feq(int i, double rho, const double* u) const {
    const double cu = s.c[i][0] * u[0] + s.c[i][1] * u[1] + s.c[i][2] * u[2];
    const double uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    return s.w[i] * rho * (1 + 3 * cu + 4.5 * cu * cu - 1.5 * uu);
  }
  int opp(int i) const { return i == 0 ? 0 : (i & 1) ? i + 1 : i - 1; }

  void init(const Fields& f) {
    const long N = g.cells();
    post.assign(std::size_t(s.q * N), 0.0);
    for (long n = 0; n < N; ++n) {
      const double u[3] = {f.ux[n], f.uy[n], f.uz[n]};
      for (int i = 0; i < s.q; ++i) post[i * N + n] = feq(i, f.rho[n], u);
    }
  }
  // populations arriving at every non-wall cell
  std::vector<double> stream() const {
    const long N = g.cells();
    std::vector<double> in(std::size_t(s.q * N), 0.0);
    for (long z = 0; z < g.nz; ++z)
      for (long y = 0; y < g.ny; ++y)
        for (long x = 0; x < g.nx; ++x) {
          const long n = idx(x, y, z);
          if (wall(n)) continue;
          for (int i = 0; i < s.q; ++i) {
            const long from = idx(x - s.c[i][0], y - s.c[i][1], z - s.c[i][2]);
            if (!wall(from)) {
              in[i * N + n] = post[i * N + from];
              continue;
            }
            // halfway bounce-back of the population this cell sent towards the wall
            const int o = opp(i);
            double v = post[o * N + n];
            if (type(from) == TS_LBM_MOVING) {
              const double cu =
                  s.c[o][0] * cfg.u_wall[0] + s.c[o][1] * cfg.u_wall[1] + s.c[o][2] * cfg.u_wall[2];
              v -= 6 * s.w[o] * cu;
            }
            in[i * N + n] = v;
          }
        }
    return in;
  }
  void step() {
    const long N = g.cells();
    const auto in = stream();
    const StepParams p = cfg.step_params();
    for (long n = 0; n < N; ++n) {
      if (wall(n)) continue;
      double rho = 0, j[3] = {0, 0, 0};
      for (int i = 0; i < s.q; ++i) {
        rho += in[i * N + n];
        for (int a = 0; a < 3; ++a) j[a] += s.c[i][a] * in[i * N + n];
      }
      if (type(n) == TS_LBM_INLET) {
        for (int i = 0; i < s.q; ++i) post[i * N + n] = feq(i, rho, cfg.u_in.data());
        continue;
      }
      if (type(n) == TS_LBM_OUTLET) {
        const double u[3] = {j[0] / rho, j[1] / rho, j[2] / rho};
        for (int i = 0; i < s.q; ++i) post[i * N + n] = feq(i, cfg.rho_out, u);
        continue;
      }
      double u[3];
      for (int a = 0; a < 3; ++a) u[a] = (j[a] + 0.5 * p.force[a]) / rho;
      std::vector<double> fe(s.q), S(s.q);
      for (int i = 0; i < s.q; ++i) {
        fe[i] = feq(i, rho, u);
        double cu = 0, cF = 0, uF = 0;
        for (int a = 0; a < 3; ++a) {
          cu += s.c[i][a] * u[a];
          cF += s.c[i][a] * p.force[a];
          uF += u[a] * p.force[a];
        }
        S[i] = s.w[i] * (3 * (cF - uF) + 9 * cu * cF);
      }
      for (int i = 0; i < s.q; ++i) {
        const double f = in[i * N + n];
        if (!p.trt) {
          post[i * N + n] = f - p.omega_p * (f - fe[i]) + (1 - 0.5 * p.omega_p) * S[i];
        } else {
          const int o = opp(i);
          const double fb = in[o * N + n];
          const double fp = 0.5 * (f + fb), fm = 0.5 * (f - fb);
          const double ep = 0.5 * (fe[i] + fe[o]), em = 0.5 * (fe[i] - fe[o]);
          const double sp = 0.5 * (S[i] + S[o]), sm = 0.5 * (S[i] - S[o]);
          post[i * N + n] = f - p.omega_p * (fp - ep) - p.omega_m * (fm - em) +
                            (1 - 0.5 * p.omega_p) * sp + (1 - 0.5 * p.omega_m) * sm;
        }
      }
    }
  }
};

struct Variant {
  Lattice lattice;
  Collision collision;
};

class LbmReference : public ::testing::TestWithParam<Variant> {};

TEST_P(LbmReference, EsotericPullEqualsTwoLatticePullStreaming) {
  const auto v = GetParam();
  Config cfg;
  cfg.lattice = v.lattice;
  cfg.collision = v.collision;
  cfg.precision = Precision::fp64;
  cfg.grid = v.lattice == Lattice::d2q9 ? Grid{13, 11, 1} : Grid{9, 8, 5};
  cfg.tau = 0.73;
  cfg.force = {1e-4, -2e-4, v.lattice == Lattice::d2q9 ? 0 : 3e-5};
  cfg.u_wall = {0.05, 0, v.lattice == Lattice::d2q9 ? 0 : 0.02};
  cfg.u_in = {0.04, 0.01, 0};
  cfg.rho_out = 0.99;
  const auto flags = test::mixed_flags(cfg.grid);
  const auto init = test::random_fields(cfg.grid, 0.03, 11, v.lattice != Lattice::d2q9);

  Solver s(open_device("cpu"), cfg);
  s.set_flags(flags);
  s.initialize(init);
  Reference ref{v.lattice == Lattice::d2q9    ? d2q9()
                : v.lattice == Lattice::d3q19 ? d3q19()
                                              : d3q27(),
                cfg.grid,
                cfg,
                s.flags(),
                {}};
  ref.init(init);
  const long N = cfg.grid.cells();
  for (int step = 0; step <= 12; ++step) {
    const auto got = s.incoming();
    const auto want = ref.stream();
    double worst = 0;
    for (long n = 0; n < N; ++n) {
      if (ref.wall(n)) continue;
      for (int i = 0; i < ref.s.q; ++i)
        worst = std::max(worst, std::fabs(got[i * N + n] + ref.s.w[i] - want[i * N + n]));
    }
    // same model, different rounding (shifted populations): 1e-14 per value
    ASSERT_LT(worst, 1e-13) << "after " << step << " steps";
    s.step();
    ref.step();
  }
}

INSTANTIATE_TEST_SUITE_P(Lattices, LbmReference,
                         ::testing::Values(Variant{Lattice::d2q9, Collision::bgk},
                                           Variant{Lattice::d2q9, Collision::trt},
                                           Variant{Lattice::d3q19, Collision::bgk},
                                           Variant{Lattice::d3q19, Collision::trt},
                                           Variant{Lattice::d3q27, Collision::bgk}),
                         [](const auto& info) {
                           return to_string(info.param.lattice) + "_" +
                                  to_string(info.param.collision);
                         });

}  // namespace
}  // namespace tessera::lbm
