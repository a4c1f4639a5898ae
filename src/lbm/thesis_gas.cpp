#include "lbm/thesis_gas.hpp"

#include <fstream>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "lbm/kernels/thesis_gas_kernels.hpp"

namespace tessera::lbm {

float thesis_omega() {
  volatile float dt = thesis::kDeltaT,
                 tau = thesis::kTau;  // the division the thesis does at run time
  return dt / tau;
}

ThesisLayout parse_thesis_layout(const std::string& s) {
  if (s == "aos") return ThesisLayout::aos;
  if (s == "soa") return ThesisLayout::soa;
  throw UsageError("thesis-gas layout '" + s +
                   "': expected aos (the thesis's 76-byte cells) or soa");
}
const char* to_string(ThesisLayout l) { return l == ThesisLayout::aos ? "aos" : "soa"; }

ThesisGas::ThesisGas(std::shared_ptr<Device> device, Grid g, ThesisLayout layout)
    : device_(std::move(device)), grid_(g), layout_(layout) {
  if (g.nx < 1 || g.ny < 1 || g.nz < 1)
    throw UsageError(
        fmt::format("thesis-gas grid {}x{}x{}: every side must be at least 1", g.nx, g.ny, g.nz));
  const std::uint64_t need = 2ull * std::uint64_t(g.cells()) * thesis::kCellBytes;
  const std::uint64_t have = device_->info().global_mem_bytes;
  if (have && need > have)
    throw OutOfMemory(
        fmt::format("{} for the thesis's {}x{}x{} gas simulation (2 lattices of 76 B per cell)",
                    device_->id(), g.nx, g.ny, g.nz),
        need, have);
  const std::size_t n = static_cast<std::size_t>(g.cells()) * thesis::kQ;
  a_ = Buffer<float>(device_, n);
  b_ = Buffer<float>(device_, n);
}

void ThesisGas::generate() {
  dispatch(*device_,
           [&](auto tag) { kernels::thesis_generate(tag, device_->queue(), grid_, a_, layout_); });
  t_ = 0;
}

void ThesisGas::step(long n) {
  const float omega = thesis_omega();
  dispatch(*device_, [&](auto tag) {
    for (long s = 0; s < n; ++s, ++t_) {
      kernels::thesis_update(tag, device_->queue(), grid_, a_, b_, omega, layout_);
      std::swap(a_, b_);
    }
  });
}

namespace {
// AoS cells <-> structure of arrays, on the host (frames are AoS)
std::vector<float> transpose(const std::vector<float>& in, std::size_t rows, std::size_t cols) {
  std::vector<float> out(in.size());
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
  return out;
}
}  // namespace

std::vector<float> ThesisGas::frame() const {
  std::vector<float> v = a_.to_vector();
  return layout_ == ThesisLayout::aos ? v : transpose(v, thesis::kQ, std::size_t(grid_.cells()));
}

void ThesisGas::set_frame(const std::vector<float>& cells) {
  if (cells.size() != a_.size())
    throw Error(fmt::format("thesis-gas frame of {} floats given, a {}x{}x{} lattice holds {}",
                            cells.size(), grid_.nx, grid_.ny, grid_.nz, a_.size()));
  a_.copy_from_host(layout_ == ThesisLayout::aos
                        ? cells
                        : transpose(cells, std::size_t(grid_.cells()), thesis::kQ));
  t_ = 0;
}

void ThesisGas::import_frame(const std::filesystem::path& path) {
  set_frame(thesis::read_frame(path, grid_));
}

void ThesisGas::export_frame(const std::filesystem::path& path) const {
  thesis::write_frame(path, frame());
}

namespace thesis {

std::vector<float> read_frame(const std::filesystem::path& path, const Grid& g) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw Error(fmt::format("{}: cannot open the frame file", path.string()));
  const std::uint64_t size = static_cast<std::uint64_t>(in.tellg());
  const std::uint64_t want = std::uint64_t(g.cells()) * kCellBytes;
  if (size != want)
    throw Error(fmt::format(
        "{}: the frame has {} bytes, a {}x{}x{} frame has {} (x*y*z cells of 19 floats, no "
        "header); wrong size or not a frame",
        path.string(), size, g.nx, g.ny, g.nz, want));
  std::vector<float> cells(std::size_t(g.cells()) * kQ);
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(cells.data()), static_cast<std::streamsize>(want)))
    throw Error(
        fmt::format("{}: read failed after {} of {} bytes", path.string(), in.gcount(), want));
  return cells;
}

void write_frame(const std::filesystem::path& path, const std::vector<float>& cells) {
  write_file_atomic(path, std::string_view(reinterpret_cast<const char*>(cells.data()),
                                           cells.size() * sizeof(float)));
}

}  // namespace thesis

}  // namespace tessera::lbm
