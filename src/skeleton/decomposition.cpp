#include "skeleton/decomposition.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::skeleton {

std::string Extents::to_string() const {
  if (dims == 1) return fmt::format("{}", n[0]);
  if (dims == 2) return fmt::format("{}x{}", n[0], n[1]);
  return fmt::format("{}x{}x{}", n[0], n[1], n[2]);
}

Decomposition::Decomposition(const Extents& global, int total_parts, std::array<int, 3> grid)
    : global_(global), parts_(total_parts) {
  if (total_parts < 1) throw UsageError("a decomposition needs at least one part");
  for (int a = 0; a < 3; ++a)
    if (global.n[a] < 1)
      throw UsageError(
          fmt::format("extents {}: every extent must be at least 1", global.to_string()));
  const int slowest = global.dims - 1;
  if (grid == std::array<int, 3>{0, 0, 0}) {
    grid = {1, 1, 1};
    grid[slowest] = total_parts;
  }
  for (int a = 0; a < 3; ++a) {
    if (grid[a] < 1 || (a >= global.dims && grid[a] != 1))
      throw UsageError(
          fmt::format("decomposition {}x{}x{} of a {}-D container: every axis needs at "
                      "least one block and only its {} axes may be cut",
                      grid[0], grid[1], grid[2], global.dims, global.dims));
  }
  if (grid[0] * grid[1] * grid[2] != total_parts)
    throw UsageError(fmt::format("decomposition {}x{}x{} has {} blocks, the team has {} parts",
                                 grid[0], grid[1], grid[2], grid[0] * grid[1] * grid[2],
                                 total_parts));
  for (int a = 0; a < 3; ++a) {
    if (grid[a] > global.n[a])
      throw UsageError(
          fmt::format("cannot cut {} cells along axis {} into {} blocks (a block would "
                      "be empty)",
                      global.n[a], "xyz"[a], grid[a]));
    grid_[a] = grid[a];
    decomposed_[a] = grid[a] > 1;
  }
  if (grid_ == std::array<int, 3>{1, 1, 1} || grid_[slowest] > 1) decomposed_[slowest] = true;
}

std::array<int, 3> Decomposition::coords(int part) const {
  return {part % grid_[0], (part / grid_[0]) % grid_[1], part / (grid_[0] * grid_[1])};
}

int Decomposition::part_at(std::array<int, 3> c) const {
  return (c[2] * grid_[1] + c[1]) * grid_[0] + c[0];
}

Box Decomposition::owned(int part) const {
  const auto c = coords(part);
  Box b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = block_begin(global_.n[a], grid_[a], c[a]);
    b.hi[a] = block_begin(global_.n[a], grid_[a], c[a] + 1);
  }
  return b;
}

int Decomposition::neighbour(int part, int axis, int dir, bool periodic) const {
  auto c = coords(part);
  int v = c[axis] + dir;
  if (v < 0 || v >= grid_[axis]) {
    if (!periodic) return -1;
    v = (v + grid_[axis]) % grid_[axis];
  }
  c[axis] = v;
  return part_at(c);
}

}  // namespace tessera::skeleton
