// The thesis's gas simulation on several devices (its -g option): the
// lattice of 76-byte cells as a skeleton Field of one AoS component, split in
// z-slabs (whole layers, the first nz % g parts get one more), and per
// iteration either
//  - native: whole cells in a 1-layer halo exchanged as the thesis's native
//    code did, then the native kernel on every part with a bounds check in
//    GLOBAL coordinates; or
//  - map_stencil: the thesis's Muesli program, its user function
//    (thesis_gas_stencil.hpp) through the skeleton's mapStencil, which
//    exchanges the halo while the inner layers compute.
// Frames equal the single-device ones bit for bit for any g and either way.
#pragma once
#include <array>
#include <filesystem>
#include <string>
#include <memory>
#include <vector>

#include "lbm/thesis_gas.hpp"
#include "skeleton/team.hpp"

namespace tessera::lbm {

/// How an iteration is computed (file comment).
enum class ThesisGasImpl { native, map_stencil };
/// "native" or "mapstencil" (UsageError otherwise), and back.
ThesisGasImpl parse_thesis_impl(const std::string& s);
const char* to_string(ThesisGasImpl i);

class ThesisGasParts {
 public:
  ThesisGasParts(skeleton::Team team, Grid g, ThesisGasImpl impl = ThesisGasImpl::native);
  ThesisGasImpl impl() const noexcept { return impl_kind_; }
  ~ThesisGasParts();
  const Grid& grid() const noexcept { return grid_; }
  long time() const noexcept { return t_; }
  int parts() const noexcept;
  void generate();
  void set_frame(const std::vector<float>& cells);
  std::vector<float> frame();
  void import_frame(const std::filesystem::path& path);
  void export_frame(const std::filesystem::path& path);
  /// One iteration; adds the halo exchange and the kernels' wall-clock
  /// seconds to the thesis's "total" and "w/o sync" counters (map_stencil:
  /// the exchange overlaps the computation, so both count the whole call).
  void step(long n = 1);
  double total_seconds() const noexcept { return total_s_; }
  double kernel_seconds() const noexcept { return kernel_s_; }

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  Grid grid_;
  ThesisGasImpl impl_kind_;
  long t_ = 0;
  double total_s_ = 0, kernel_s_ = 0;
};

}  // namespace tessera::lbm
