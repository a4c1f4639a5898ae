// Rows per work-item of the GPU first-order updates (swe_kernels.hpp).
#include "core/env.hpp"
#include "swe/kernels/swe_kernels.hpp"
#include "swe/kernels/swe_point.hpp"

namespace tessera::swe::kernels {

long phys_strip_rows(const PhysGrid& g) {
  return g.nx * g.ny >= TS_SWE_STRIP_LONG_CELLS ? TS_SWE_STRIP_LONG : TS_SWE_STRIP_SHORT;
}

int phys_prefetch_rows() {
  static const int rows =
      static_cast<int>(env_int("TESSERA_SWE_PREFETCH", TS_SWE_PREFETCH_ROWS, 0, 64));
  return rows;
}

}  // namespace tessera::swe::kernels
