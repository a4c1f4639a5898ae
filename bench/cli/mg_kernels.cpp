// `tessera bench mg-kernels`: per-kernel time of a 3D FP64 red-black V(1,1).
#include "apps/tessera/commands.hpp"
#include "bench/mg_kernels_suite.hpp"

namespace tessera::app {

namespace {
bench::DeviceReport run(const std::shared_ptr<Device>& dev, const BenchArgs& a) {
  bench::MgKernelsOptions o;
  if (a.size)
    o.n = static_cast<long>(a.size);
  else if (dev->backend() == Backend::cpu)
    o.n = 255;  // 16.6 M points, 133 MB an array: beyond the caches, minutes not hours
  o.timing = a.timing;
  o.rows = a.param("rows");
  return bench::run_mg_kernels(dev, o);
}
const RegisterBenchSuite registered{
    "mg-kernels",
    "multigrid: each kernel of a 3D FP64 V(1,1) against its byte model (511^3; the CPU 255^3); "
    "--param rows=REGEX times only the rows whose names it finds",
    run};
}  // namespace

}  // namespace tessera::app
