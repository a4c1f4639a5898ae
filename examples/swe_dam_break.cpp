// Shallow water: the thesis's dam break with the physical model (HLL, FP64)
// on 100 x 100 cells for 5 simulated seconds; mass must be conserved.
// Usage: swe_dam_break [DEVICE]
#include <cmath>
#include <cstdio>

#include "core/registry.hpp"
#include "swe/cases.hpp"
#include "swe/physical.hpp"

int main(int argc, char** argv) {
  using namespace tessera;
  auto device = open_device(argc > 1 ? argv[1] : "cpu");
  const swe::PhysCase c = swe::make_case("thesis-dam", 100, 100);
  swe::PhysSolver<double> s(device, c, swe::PhysOptions{});
  const double m0 = s.mass();
  const swe::Health h = s.advance_to(5.0);
  const double drift = (s.mass() - m0) / m0;
  std::printf("swe on %s: t = %.2f s after %ld steps, relative mass drift %.1e%s\n",
              device->id().c_str(), h.time, h.steps, drift, h.bad ? " (solution went bad)" : "");
  return !h.bad && std::fabs(drift) < 1e-12 ? 0 : 1;
}
