// Jones-Plassmann colouring (coloring.hpp), each round a pass over the nodes
// (OpenMP on the host; the result does not depend on the thread count).
#include "amg/coloring.hpp"

#include <algorithm>
#include <utility>

namespace tessera::amg {

std::vector<index_t> color_graph(const NodeGraph& g, int& colors) {
  const auto n = static_cast<std::size_t>(g.nodes);
  // every stored off-diagonal entry an edge, both ways
  std::vector<index_t> ptr(n + 1, 0), col;
  for (std::size_t i = 0; i < n; ++i) {
    for (index_t p = g.row_ptr[i]; p < g.row_ptr[i + 1]; ++p)
      if (static_cast<std::size_t>(g.col[p]) != i) col.push_back(g.col[p]);
    ptr[i + 1] = static_cast<index_t>(col.size());
  }
  const NodeGraph s = symmetric_union(g.nodes, ptr, col);
  auto key = [](std::size_t i) {
    return std::pair{node_hash(static_cast<std::uint32_t>(i)), static_cast<index_t>(i)};
  };
  std::vector<index_t> color(n, -1), next(n);
  int used_colors = 0;
  for (bool left = n > 0; left;) {
    left = false;
#pragma omp parallel for schedule(static) reduction(max : used_colors) reduction(|| : left)
    for (std::size_t i = 0; i < n; ++i) {
      next[i] = color[i];
      if (color[i] >= 0) continue;
      bool top = true;
      for (index_t p = s.row_ptr[i]; p < s.row_ptr[i + 1] && top; ++p)
        top = !(color[s.col[p]] < 0 && key(static_cast<std::size_t>(s.col[p])) > key(i));
      if (!top) {
        left = true;
        continue;
      }
      // the smallest colour no coloured neighbour has (at most degree + 1)
      index_t c = 0;
      for (bool taken = true; taken; c += taken) {
        taken = false;
        for (index_t p = s.row_ptr[i]; p < s.row_ptr[i + 1] && !taken; ++p)
          taken = color[s.col[p]] == c;
      }
      next[i] = c;
      used_colors = std::max(used_colors, static_cast<int>(c) + 1);
    }
    color.swap(next);
  }
  colors = used_colors;
  return color;
}

}  // namespace tessera::amg
