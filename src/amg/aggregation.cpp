// Strength graph and MIS(2) aggregation (aggregation.hpp). Every step is a
// pass over the nodes reading only the previous pass's state, the form a
// device kernel takes; the host runs the passes one after another.
#include "amg/aggregation.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace tessera::amg {

std::uint32_t node_hash(std::uint32_t i) {
  // Wang's 32-bit integer hash: neighbours get unrelated priorities
  i = (i ^ 61u) ^ (i >> 16);
  i *= 9u;
  i ^= i >> 4;
  i *= 0x27d4eb2du;
  i ^= i >> 15;
  return i;
}

NodeGraph strength_graph(const NodeGraph& g, Strength measure, double theta) {
  const auto n = static_cast<std::size_t>(g.nodes);
  std::vector<double> diag(n, 0), row_max(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (index_t p = g.row_ptr[i]; p < g.row_ptr[i + 1]; ++p) {
      if (static_cast<std::size_t>(g.col[p]) == i)
        diag[i] = g.weight[p];
      else
        row_max[i] = std::max(row_max[i], g.weight[p]);
    }
  auto strong = [&](std::size_t i, std::size_t j, double w) {
    if (i == j || !(w > 0)) return false;
    return measure == Strength::symmetric ? w >= theta * std::sqrt(diag[i] * diag[j])
                                          : w >= theta * row_max[i];
  };
  // directed strong edges, then their union with the transpose
  std::vector<std::vector<index_t>> adj(n);
  for (std::size_t i = 0; i < n; ++i)
    for (index_t p = g.row_ptr[i]; p < g.row_ptr[i + 1]; ++p) {
      const auto j = static_cast<std::size_t>(g.col[p]);
      if (strong(i, j, g.weight[p])) {
        adj[i].push_back(static_cast<index_t>(j));
        adj[j].push_back(static_cast<index_t>(i));
      }
    }
  NodeGraph s;
  s.nodes = g.nodes;
  s.row_ptr.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    auto& a = adj[i];
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
    s.col.insert(s.col.end(), a.begin(), a.end());
    s.row_ptr[i + 1] = static_cast<index_t>(s.col.size());
  }
  s.weight.assign(s.col.size(), 1.0);
  return s;
}

namespace {
enum : int { kOut = 0, kUndecided = 1, kIn = 2 };
// The order of MIS(2): state first (selected nodes dominate, removed ones
// never do), then the hash, then the index (ties of the hash).
using Key = std::tuple<int, std::uint32_t, index_t>;
}  // namespace

std::vector<index_t> aggregate_mis2(const NodeGraph& s, index_t& count) {
  const auto n = static_cast<std::size_t>(s.nodes);
  std::vector<int> state(n);
  for (std::size_t i = 0; i < n; ++i)
    state[i] = s.row_ptr[i + 1] > s.row_ptr[i] ? kUndecided : kOut;  // isolated: no aggregate
  std::vector<Key> key(n), next(n);
  for (;;) {
    bool undecided = false;
    for (std::size_t i = 0; i < n; ++i)
      key[i] = {state[i], node_hash(static_cast<std::uint32_t>(i)), static_cast<index_t>(i)};
    for (int round = 0; round < 2; ++round) {  // the largest key within distance 2
      for (std::size_t i = 0; i < n; ++i) {
        Key m = key[i];
        for (index_t p = s.row_ptr[i]; p < s.row_ptr[i + 1]; ++p) m = std::max(m, key[s.col[p]]);
        next[i] = m;
      }
      key.swap(next);
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (state[i] != kUndecided) continue;
      if (std::get<2>(key[i]) == static_cast<index_t>(i))
        state[i] = kIn;
      else if (std::get<0>(key[i]) == kIn)
        state[i] = kOut;
      else
        undecided = true;
    }
    if (!undecided) break;
  }
  // Isolated nodes were kOut from the start; the dominated ones too. Roots
  // numbered in index order.
  std::vector<index_t> agg(n, -1);
  count = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (state[i] == kIn) agg[i] = count++;
  // Pass 1: neighbours of roots join the largest adjacent root.
  std::vector<index_t> first = agg;
  for (std::size_t i = 0; i < n; ++i) {
    if (agg[i] >= 0 || s.row_ptr[i + 1] == s.row_ptr[i]) continue;
    Key best{-1, 0, -1};
    for (index_t p = s.row_ptr[i]; p < s.row_ptr[i + 1]; ++p) {
      const index_t j = s.col[p];
      if (agg[j] >= 0) best = std::max(best, Key{1, node_hash(static_cast<std::uint32_t>(j)), j});
    }
    if (std::get<2>(best) >= 0) first[i] = agg[std::get<2>(best)];
  }
  // Pass 2: the rest (distance 2 from a root) join their largest neighbour
  // that has an aggregate after pass 1.
  std::vector<index_t> out = first;
  for (std::size_t i = 0; i < n; ++i) {
    if (first[i] >= 0 || s.row_ptr[i + 1] == s.row_ptr[i]) continue;
    Key best{-1, 0, -1};
    for (index_t p = s.row_ptr[i]; p < s.row_ptr[i + 1]; ++p) {
      const index_t j = s.col[p];
      if (first[j] >= 0) best = std::max(best, Key{1, node_hash(static_cast<std::uint32_t>(j)), j});
    }
    if (std::get<2>(best) >= 0) out[i] = first[std::get<2>(best)];
  }
  return out;
}

}  // namespace tessera::amg
