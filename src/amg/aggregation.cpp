// Strength graph and MIS(2) aggregation (aggregation.hpp). Every step is a
// pass over the nodes reading only the previous pass's state, the form a
// device kernel takes; the host runs each pass with OpenMP (the result does
// not depend on the thread count).
#include "amg/aggregation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "amg/kernels/aggregation_point.hpp"

namespace tessera::amg {

std::uint32_t node_hash(std::uint32_t i) { return point::ts_amg_node_hash(i); }

NodeGraph symmetric_union(index_t nodes, const std::vector<index_t>& ptr,
                          const std::vector<index_t>& col) {
  // the transpose of the directed edges, then each row's merge with it
  const auto n = static_cast<std::size_t>(nodes);
  std::vector<index_t> tptr(n + 1, 0), tcol(col.size());
  for (const index_t c : col) ++tptr[static_cast<std::size_t>(c) + 1];
  std::partial_sum(tptr.begin(), tptr.end(), tptr.begin());
  {
    std::vector<index_t> next(tptr.begin(), tptr.end() - 1);
    for (std::size_t i = 0; i < n; ++i)
      for (index_t p = ptr[i]; p < ptr[i + 1]; ++p) tcol[next[col[p]]++] = static_cast<index_t>(i);
  }
  NodeGraph s;
  s.nodes = nodes;
  s.row_ptr.assign(n + 1, 0);
  auto merge = [&](std::size_t i, index_t* out) {  // sorted union (aggregation_point.h)
    return point::ts_amg_union_row(col.data(), ptr[i], ptr[i + 1], tcol.data(), tptr[i],
                                   tptr[i + 1], out);
  };
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) s.row_ptr[i + 1] = merge(i, nullptr);
  std::partial_sum(s.row_ptr.begin(), s.row_ptr.end(), s.row_ptr.begin());
  s.col.resize(static_cast<std::size_t>(s.row_ptr[n]));
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) merge(i, s.col.data() + s.row_ptr[i]);
  s.weight.assign(s.col.size(), 1.0);
  return s;
}

NodeGraph strength_graph(const NodeGraph& g, Strength measure, double theta) {
  const auto n = static_cast<std::size_t>(g.nodes);
  std::vector<double> diag(n, 0), row_max(n, 0);
#pragma omp parallel for schedule(static)
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
  // the directed strong edges (columns ascending), then their symmetric union
  std::vector<index_t> ptr(n + 1, 0), col;
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    index_t k = 0;
    for (index_t p = g.row_ptr[i]; p < g.row_ptr[i + 1]; ++p)
      k += strong(i, static_cast<std::size_t>(g.col[p]), g.weight[p]);
    ptr[i + 1] = k;
  }
  std::partial_sum(ptr.begin(), ptr.end(), ptr.begin());
  col.resize(static_cast<std::size_t>(ptr[n]));
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    index_t k = ptr[i];
    for (index_t p = g.row_ptr[i]; p < g.row_ptr[i + 1]; ++p)
      if (strong(i, static_cast<std::size_t>(g.col[p]), g.weight[p])) col[k++] = g.col[p];
  }
  return symmetric_union(g.nodes, ptr, col);
}

namespace {
// The order of MIS(2): the key of the device's passes (aggregation_point.h).
enum : std::uint64_t { kOut = TS_AMG_OUT, kUndecided = TS_AMG_UNDECIDED, kIn = TS_AMG_IN };
std::uint64_t key_of(std::uint64_t state, std::size_t i) {
  return point::ts_amg_key(static_cast<ts_uint>(state), static_cast<long>(i));
}
index_t index_of(std::uint64_t key) { return static_cast<index_t>(point::ts_amg_key_index(key)); }
std::uint64_t state_of(std::uint64_t key) { return point::ts_amg_key_state(key); }

// The MIS(2) of the subgraph of s on the nodes with `in` set (edges between
// them only): a node is a root when its key is the largest within distance
// 2 among the undecided and selected nodes.
std::vector<char> mis2(const NodeGraph& s, const std::vector<char>& in) {
  const auto n = static_cast<std::size_t>(s.nodes);
  std::vector<std::uint64_t> state(n), key(n), next(n);
  for (std::size_t i = 0; i < n; ++i) state[i] = in[i] ? kUndecided : kOut;
  for (bool undecided = true; undecided;) {
    undecided = false;
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) key[i] = key_of(state[i], i);
    for (int round = 0; round < 2; ++round) {  // the largest key within distance 2
#pragma omp parallel for schedule(static)
      for (std::size_t i = 0; i < n; ++i) {
        // the second round's maxima are read for undecided nodes only (the
        // next pass forms every key anew)
        if (round == 1 && state[i] != kUndecided) continue;
        std::uint64_t m = key[i];
        if (in[i])
          for (index_t p = s.row_ptr[i]; p < s.row_ptr[i + 1]; ++p)
            if (in[s.col[p]]) m = std::max(m, key[s.col[p]]);
        next[i] = m;
      }
      key.swap(next);
    }
#pragma omp parallel for schedule(static) reduction(|| : undecided)
    for (std::size_t i = 0; i < n; ++i) {
      if (state[i] != kUndecided) continue;
      if (index_of(key[i]) == static_cast<index_t>(i))
        state[i] = kIn;
      else if (state_of(key[i]) == kIn)
        state[i] = kOut;
      else
        undecided = true;
    }
  }
  std::vector<char> root(n);
  for (std::size_t i = 0; i < n; ++i) root[i] = state[i] == kIn;
  return root;
}

// Every node without an aggregate (and with `ok` set) that has a neighbour
// in `from` joins the smallest of those neighbours' aggregates (`size`, by
// aggregate; empty: all alike), ties to the largest neighbour's.
void join_smallest(const NodeGraph& s, const std::vector<index_t>& from, std::vector<index_t>& agg,
                   const std::vector<char>& ok, const std::vector<index_t>& size) {
  const auto n = static_cast<std::size_t>(s.nodes);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    if (agg[i] >= 0 || !ok[i]) continue;
    index_t best_size = std::numeric_limits<index_t>::max();
    std::uint64_t best = 0;
    for (index_t p = s.row_ptr[i]; p < s.row_ptr[i + 1]; ++p) {
      const index_t j = s.col[p], a = from[j];
      if (a < 0) continue;
      const index_t sz = size.empty() ? 0 : size[static_cast<std::size_t>(a)];
      const std::uint64_t k = key_of(kIn, static_cast<std::size_t>(j));
      if (sz < best_size || (sz == best_size && k > best)) {
        best_size = sz;
        best = k;
      }
    }
    if (best_size != std::numeric_limits<index_t>::max()) agg[i] = from[index_of(best)];
  }
}
}  // namespace

std::vector<index_t> aggregate_mis2(const NodeGraph& s, index_t& count) {
  const auto n = static_cast<std::size_t>(s.nodes);
  std::vector<index_t> agg(n, -1);
  std::vector<char> in(n);
  count = 0;
  // Rounds: an MIS(2) of the nodes still without an aggregate, each root
  // with its free neighbours a new aggregate. The first round is Bell,
  // Dalton & Olson's (every node with a free neighbour may be a root). Its
  // random priorities pack roots more loosely than standard aggregation's
  // greedy order (2D Poisson: 585 aggregates of 4096 nodes against 704), so
  // the later rounds make aggregates of what it left, from roots with at
  // least 2 free neighbours; the rest join the smallest neighbouring
  // aggregate. 2D Poisson 256^2: 12694 aggregates (PyAMG 11008), operator
  // complexity 1.56 (1.34), 11 CG iterations (10). Asking 3 free neighbours
  // (or half the neighbours) of the later roots and joining the rest to a
  // random neighbour gave 10526 aggregates and 14 iterations; one round
  // alone 1.6x the iterations (bench/results/cpu/2026-12-07-s36-amg-pyamg).
  for (;;) {
    bool any = false;
    const bool first = count == 0;
#pragma omp parallel for schedule(static) reduction(|| : any)
    for (std::size_t i = 0; i < n; ++i) {
      in[i] = 0;
      if (agg[i] >= 0) continue;
      index_t free = 0;
      for (index_t p = s.row_ptr[i]; p < s.row_ptr[i + 1]; ++p) free += agg[s.col[p]] < 0;
      in[i] = free >= (first ? 1 : 2);
      any = any || in[i];
    }
    if (!any) break;
    const auto root = mis2(s, in);
    std::vector<index_t> roots(n, -1);
    for (std::size_t i = 0; i < n; ++i)
      if (root[i]) agg[i] = roots[i] = count++;  // numbered in index order
    join_smallest(s, roots, agg, in, {});
  }
  // The rest (every neighbour in an aggregate) join the smallest aggregate
  // among their neighbours'.
  const std::vector<index_t> before = agg;
  std::vector<index_t> size(static_cast<std::size_t>(count), 0);
  for (std::size_t i = 0; i < n; ++i)
    if (before[i] >= 0) ++size[static_cast<std::size_t>(before[i])];
  join_smallest(s, before, agg, std::vector<char>(n, 1), size);
  return agg;
}

}  // namespace tessera::amg
