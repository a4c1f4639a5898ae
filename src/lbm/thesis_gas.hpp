// The thesis's gas simulation (Dieckmann 2023, `gassimulation_test`),
// reproduced exactly: D3Q19 BGK tau = 0.65, 76-byte AoS cells, two lattices,
// flags in the NaN payload of f_0, 2-cell keep-velocity shell with
// u = (0.1, 0, 0), sphere r = 15 at (50, 50, 8). Frames are raw float[19]
// per cell, x fastest, no header: interchangeable with the thesis's -i/-e.
#pragma once
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/buffer.hpp"
#include "lbm/kernels/lbm_kernels.hpp"
#include "lbm/kernels/thesis_gas_kernels.hpp"

namespace tessera::lbm {

namespace thesis {
constexpr int kQ = 19;
constexpr float kTau = 0.65f;
constexpr float kDeltaT = 1.f;
constexpr std::uint32_t kObstacle = 0x7FC00001u;
constexpr std::uint32_t kKeepVelocity = 0x7FC00002u;
/// Bytes of one cell (array<float, 19>).
constexpr std::size_t kCellBytes = kQ * sizeof(float);

/// A raw frame file of grid g: the size is checked (x*y*z*76 bytes) and a
/// wrong one says what was expected.
std::vector<float> read_frame(const std::filesystem::path& path, const Grid& g);
/// Writes a frame atomically.
void write_frame(const std::filesystem::path& path, const std::vector<float>& cells);
}  // namespace thesis

class ThesisGas {
 public:
  /// Allocates the two lattices (152 B per cell; OutOfMemory says how much).
  /// `layout`: the thesis's 76-byte cells, or the same values as structure of
  /// arrays (the same bits; frames are AoS either way).
  ThesisGas(std::shared_ptr<Device> device, Grid g, ThesisLayout layout = ThesisLayout::aos);

  const Grid& grid() const noexcept { return grid_; }
  ThesisLayout layout() const noexcept { return layout_; }
  long time() const noexcept { return t_; }
  /// The thesis's generate()/Initialize.
  void generate();
  /// One iteration (the native kernel), `n` times.
  void step(long n = 1);

  /// The current lattice as a frame (x fastest, float[19] per cell).
  std::vector<float> frame() const;
  void set_frame(const std::vector<float>& cells);
  /// Raw frame files: reading checks the size (x*y*z*76 bytes) and says what
  /// was expected; writing is atomic.
  void import_frame(const std::filesystem::path& path);
  void export_frame(const std::filesystem::path& path) const;

 private:
  std::shared_ptr<Device> device_;
  Grid grid_;
  ThesisLayout layout_;
  Buffer<float> a_, b_;  // a_ holds the current state
  long t_ = 0;
};

/// The thesis's relaxation rate deltaT / tau, as the float division it does.
float thesis_omega();

/// "aos" or "soa" (UsageError otherwise), and back.
ThesisLayout parse_thesis_layout(const std::string& s);
const char* to_string(ThesisLayout l);

}  // namespace tessera::lbm
