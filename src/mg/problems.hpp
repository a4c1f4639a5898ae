// Right-hand sides for the Poisson problems of the CLI, the benchmarks and
// the demo: random, and the manufactured solution sin(pi x) sin(pi y)
// [sin(pi z)] on the unit square/cube (b = h^2 * dim * pi^2 * u, unscaled).
#pragma once
#include <cstdint>
#include <vector>

#include "mg/kernels/mg_kernels.hpp"

namespace tessera::mg {

template <class T>
struct Problem {
  std::vector<T> b;
  std::vector<double> exact;  ///< continuous solution at the vertices (empty for random)
};

template <class T>
Problem<T> random_problem(const Dims& d, std::uint64_t seed);
template <class T>
Problem<T> manufactured_problem(const Dims& d);

/// max |x - exact| over the interior.
template <class T>
double max_error(const std::vector<T>& x, const std::vector<double>& exact);

}  // namespace tessera::mg
