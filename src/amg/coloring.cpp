// Jones-Plassmann colouring (coloring.hpp).
#include "amg/coloring.hpp"

#include <algorithm>
#include <utility>

namespace tessera::amg {

std::vector<index_t> color_graph(const NodeGraph& g, int& colors) {
  const auto n = static_cast<std::size_t>(g.nodes);
  std::vector<std::vector<index_t>> adj(n);  // symmetric, no diagonal
  for (std::size_t i = 0; i < n; ++i)
    for (index_t p = g.row_ptr[i]; p < g.row_ptr[i + 1]; ++p) {
      const auto j = static_cast<std::size_t>(g.col[p]);
      if (j == i) continue;
      adj[i].push_back(static_cast<index_t>(j));
      adj[j].push_back(static_cast<index_t>(i));
    }
  for (auto& a : adj) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  auto key = [](std::size_t i) {
    return std::pair{node_hash(static_cast<std::uint32_t>(i)), static_cast<index_t>(i)};
  };
  std::vector<index_t> color(n, -1), next;
  std::vector<char> used;
  colors = 0;
  for (std::size_t left = n; left > 0;) {
    next = color;
    for (std::size_t i = 0; i < n; ++i) {
      if (color[i] >= 0) continue;
      bool top = true;
      for (const index_t j : adj[i])
        if (color[j] < 0 && key(j) > key(i)) {
          top = false;
          break;
        }
      if (!top) continue;
      used.assign(adj[i].size() + 1, 0);
      for (const index_t j : adj[i])
        if (color[j] >= 0 && static_cast<std::size_t>(color[j]) < used.size()) used[color[j]] = 1;
      index_t c = 0;
      while (used[c]) ++c;
      next[i] = c;
      colors = std::max(colors, static_cast<int>(c) + 1);
      --left;
    }
    color.swap(next);
  }
  return color;
}

}  // namespace tessera::amg
