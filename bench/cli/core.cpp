// The foundation's and the first modules' benchmark suites: stream, dense, mg.
#include "apps/tessera/commands.hpp"
#include "bench/dense_suite.hpp"
#include "bench/mg_suite.hpp"
#include "bench/stream.hpp"

namespace tessera::app {

namespace {
bench::DeviceReport run_stream(const std::shared_ptr<Device>& dev, const BenchArgs& a) {
  bench::StreamOptions opt;
  opt.size = a.size;
  opt.run_float = a.run_float();
  opt.run_double = a.run_double();
  opt.timing = a.timing;
  return bench::run_stream(dev, opt);
}

bench::DeviceReport run_dense(const std::shared_ptr<Device>& dev, const BenchArgs& a) {
  bench::DenseOptions opt;
  opt.size = a.size;
  opt.run_float = a.run_float();
  opt.run_double = a.run_double();
  opt.timing = a.timing;
  return bench::run_dense(dev, opt);
}

// --size sets the 2D side (and the 3D side unless --param n3d=N);
// --param streaming=0 leaves out the streaming rows and the transfer table
// (the report does on small grids, whose minimal tile does not fit the
// budget; on the GPU they are the slow rows).
bench::DeviceReport run_mg(const std::shared_ptr<Device>& dev, const BenchArgs& a) {
  bench::MgBenchOptions mo;
  if (a.size) mo.n2d = mo.n3d = static_cast<long>(a.size);
  mo.n3d = a.param_int("n3d", std::to_string(mo.n3d), 1);
  mo.streaming = a.param_flag("streaming", true);
  mo.quick = a.quick;
  mo.timing = {a.timing.warmup, std::min(a.timing.reps, 10)};
  return bench::run_mg(dev, mo);
}

const RegisterBenchSuite stream{"stream", "copy/scale/add/triad/dot at the bandwidth limit",
                                run_stream};
const RegisterBenchSuite dense{
    "dense", "vector add and matrix multiply (naive/tiled/blocked/vendor)", run_dense};
const RegisterBenchSuite mg{
    "mg",
    "multigrid: thesis tables, resident V-cycles and FMG, streaming; --param n3d=N, "
    "streaming=0",
    run_mg};
}  // namespace

}  // namespace tessera::app
