// Rows per work-item of the GPU first-order updates (swe_kernels.hpp).
#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "swe/kernels/swe_kernels.hpp"
#include "swe/kernels/swe_point.hpp"

namespace tessera::swe::kernels {

long phys_strip_rows(const PhysGrid& g) {
  static const long forced = [] {
    const char* e = std::getenv("TESSERA_SWE_STRIP");
    if (!e || !*e) return 0L;
    char* end = nullptr;
    const long n = std::strtol(e, &end, 10);
    if (*end != '\0' || n < 4 || n % 4 != 0 || n > (1L << 20))
      throw UsageError(std::string("TESSERA_SWE_STRIP=") + e + ": expected a multiple of 4 from 4 to 2^20");
    return n;
  }();
  if (forced) return forced;
  return g.nx * g.ny >= TS_SWE_STRIP_LONG_CELLS ? TS_SWE_STRIP_LONG : TS_SWE_STRIP_SHORT;
}

int phys_prefetch_rows() {
  static const int rows = [] {
    const char* e = std::getenv("TESSERA_SWE_PREFETCH");
    if (!e || !*e) return TS_SWE_PREFETCH_ROWS;
    char* end = nullptr;
    const long n = std::strtol(e, &end, 10);
    if (*end != '\0' || n < 0 || n > 64)
      throw UsageError(std::string("TESSERA_SWE_PREFETCH=") + e + ": expected rows ahead from 0 to 64");
    return static_cast<int>(n);
  }();
  return rows;
}

}  // namespace tessera::swe::kernels
