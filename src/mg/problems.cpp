#include "mg/problems.hpp"

#include <cmath>
#include <random>

namespace tessera::mg {

template <class T>
Problem<T> random_problem(const Dims& d, std::uint64_t seed) {
  Problem<T> p;
  p.b.resize(static_cast<std::size_t>(d.points()));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (auto& v : p.b) v = static_cast<T>(u(rng));
  return p;
}

template <class T>
Problem<T> manufactured_problem(const Dims& d) {
  Problem<T> p;
  const double pi = std::acos(-1.0);
  const double hx = 1.0 / double(d.nx + 1), hy = 1.0 / double(d.ny + 1),
               hz = 1.0 / double(d.nz + 1);
  // The unscaled system assumes one h for all axes: use hx (cubic grids).
  const long nz = d.dim == 3 ? d.nz : 1;
  p.b.reserve(static_cast<std::size_t>(d.points()));
  p.exact.reserve(static_cast<std::size_t>(d.points()));
  for (long k = 0; k < nz; ++k)
    for (long j = 0; j < d.ny; ++j)
      for (long i = 0; i < d.nx; ++i) {
        const double u = std::sin(pi * double(i + 1) * hx) * std::sin(pi * double(j + 1) * hy) *
                         (d.dim == 3 ? std::sin(pi * double(k + 1) * hz) : 1.0);
        p.exact.push_back(u);
        p.b.push_back(static_cast<T>(hx * hx * d.dim * pi * pi * u));
      }
  return p;
}

template <class T>
double max_error(const std::vector<T>& x, const std::vector<double>& exact) {
  double e = 0;
  for (std::size_t i = 0; i < x.size() && i < exact.size(); ++i)
    e = std::max(e, std::fabs(static_cast<double>(x[i]) - exact[i]));
  return e;
}

template Problem<float> random_problem<float>(const Dims&, std::uint64_t);
template Problem<double> random_problem<double>(const Dims&, std::uint64_t);
template Problem<float> manufactured_problem<float>(const Dims&);
template Problem<double> manufactured_problem<double>(const Dims&);
template double max_error<float>(const std::vector<float>&, const std::vector<double>&);
template double max_error<double>(const std::vector<double>&, const std::vector<double>&);

}  // namespace tessera::mg
