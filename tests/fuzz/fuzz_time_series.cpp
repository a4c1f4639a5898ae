// Time-series CSV reader (rain hyetographs and inflow hydrographs of
// `tessera swe`), both readings; the first byte picks step or linear.
#include <cmath>
#include <cstdint>

#include "core/error.hpp"
#include "fuzz_support.hpp"
#include "io/time_series.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto file = tessera::fuzz::scratch_file(".csv");
  if (size == 0) return 0;
  const auto between = data[0] & 1 ? tessera::io::Between::step : tessera::io::Between::linear;
  tessera::fuzz::put_file(file, data + 1, size - 1);
  try {
    const auto s = tessera::io::read_time_series(file.string(), "value", between, 0.0);
    // What the reader promises: at least two rows, times strictly increasing
    // and finite, values finite and >= 0, a line per row; integrals finite.
    if (s.t.size() < 2 || s.v.size() != s.t.size() || s.line.size() != s.t.size()) __builtin_trap();
    for (std::size_t k = 0; k < s.t.size(); ++k) {
      if (!std::isfinite(s.t[k]) || !std::isfinite(s.v[k]) || s.v[k] < 0) __builtin_trap();
      if (k > 0 && !(s.t[k] > s.t[k - 1])) __builtin_trap();
    }
    const double whole = s.integral(s.t.front(), s.t.back());
    if (std::isnan(whole) || whole < 0) __builtin_trap();
  } catch (const tessera::Error&) {
  }
  return 0;
}
