// Cases for the distributed shallow-water tests (in-process and MPI): a
// random wet/dry state over a random bed, and the boundary sets they run.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <algorithm>

#include "swe/cases.hpp"
#include "swe/physical.hpp"

namespace tessera::swe::dtest {

/// A flat dry channel of nx x ny cells closed by walls, with a unit
/// discharge q [m^2/s] into it through the x_lo side.
inline PhysCase dry_channel(long nx, long ny, double q) {
  PhysCase c = make_case("radial-dam", nx, ny);
  for (auto* v : {&c.z, &c.h, &c.hu, &c.hv}) std::fill(v->begin(), v->end(), 0.0);
  for (auto& b : c.bc) b = Bc::wall;
  c.bc[x_lo] = Bc::discharge;
  c.bc_value[x_lo] = q;
  return c;
}

/// Uniform in [0, 1) from a linear congruential stream (same on every rank).
inline double uniform(std::uint64_t& s) {
  s = s * 6364136223846793005ull + 1442695040888963407ull;
  return double(s >> 11) / double(1ull << 53);
}

/// Random bed in [-1, 0.2], water surface 0.1 + small noise, so that high
/// bed cells are dry (h = 0) and the rest wet; random momenta on wet cells.
inline PhysCase random_case(long nx, long ny, std::uint64_t seed, const Bc (&bc)[4]) {
  PhysCase c;
  c.name = "random";
  c.nx = nx;
  c.ny = ny;
  c.dx = 0.5;
  c.dy = 0.4;
  c.manning = 0.02;
  c.t_end = 1;
  const std::size_t n = static_cast<std::size_t>(nx * ny);
  c.z.resize(n);
  c.h.resize(n);
  c.hu.resize(n);
  c.hv.resize(n);
  std::uint64_t s = seed;
  for (std::size_t k = 0; k < n; ++k) {
    c.z[k] = -1.0 + 1.2 * uniform(s);
    const double eta = 0.1 + 0.3 * uniform(s);
    c.h[k] = eta > c.z[k] ? eta - c.z[k] : 0.0;
    const double u = uniform(s) - 0.5, v = uniform(s) - 0.5;
    c.hu[k] = c.h[k] > 0 ? c.h[k] * u : 0.0;
    c.hv[k] = c.h[k] > 0 ? c.h[k] * v : 0.0;
  }
  for (int k = 0; k < 4; ++k) c.bc[k] = bc[k];
  c.bc_value[x_lo] = 0.3;  // used when x_lo is a level side
  c.bc_value[x_hi] = 0.2;  // used when x_hi is a discharge side
  return c;
}

struct BcSet {
  std::string name;
  Bc bc[4];
};

/// Walls; periodic y with transmissive x; periodic x with walls in y (the
/// first and last slab exchange); level in and discharge out.
inline std::vector<BcSet> bc_sets() {
  return {{"walls", {Bc::wall, Bc::wall, Bc::wall, Bc::wall}},
          {"transmissive-x periodic-y",
           {Bc::transmissive, Bc::transmissive, Bc::periodic, Bc::periodic}},
          {"periodic-x walls-y", {Bc::periodic, Bc::periodic, Bc::wall, Bc::wall}},
          {"level-discharge", {Bc::level, Bc::discharge, Bc::transmissive, Bc::wall}}};
}

}  // namespace tessera::swe::dtest
