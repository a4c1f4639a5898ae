// The device's MIS(2) aggregation (device_aggregation.hpp): the rounds of the
// host's aggregate_mis2, each pass a kernel of kernels/aggregation_point.h.
#include "amg/device_aggregation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "amg/kernels/aggregation_kernels.hpp"
#include "core/buffer.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "sparse/device_upload.hpp"
#include "sparse/types.hpp"

namespace tessera::amg {

namespace {

// The kernels hold no values; they are launched with the one element type
// every device builds.
using Any = float;

/// A device flag: cleared, then set by a kernel, then read.
class Flag {
 public:
  explicit Flag(const std::shared_ptr<Device>& d) : b_(d, 1) {}
  Buffer<ts_uint>& clear() {
    b_.copy_from_host(std::span<const ts_uint>(&zero_, 1));
    return b_;
  }
  bool set() const {
    ts_uint v = 0;
    b_.copy_to_host(std::span<ts_uint>(&v, 1));
    return v != 0;
  }

 private:
  Buffer<ts_uint> b_;
  ts_uint zero_ = 0;
};

/// The aggregation on a graph already on the device (ptr, col: n nodes).
std::vector<index_t> aggregate_on(const std::shared_ptr<Device>& device, std::size_t n,
                                  const Buffer<index_t>& ptr, const Buffer<index_t>& col,
                                  index_t& count) {
  count = 0;
  std::vector<index_t> agg(n, -1);
  if (n == 0) return agg;
  Queue& q = device->queue();
  auto dagg = sparse::upload_nonempty(device, agg);
  Buffer<int> in(device, n), state(device, n), roots(device, n), unused(device, 1);
  Buffer<ts_size> key(device, n), next(device, n);
  Flag flag(device);
  std::vector<int> host_state(n), host_roots(n);
  const auto items = static_cast<ts_size>(n);
  dispatch(*device, [&](auto tag) {
    // Rounds (aggregation.cpp says why): an MIS(2) of the candidates, each
    // root with its candidate neighbours a new aggregate.
    for (int need = 1;; need = 2) {
      kernels::amg_free_nodes<Any>(tag, q, items, need, ptr, col, dagg, in, state, flag.clear());
      if (!flag.set()) break;
      for (bool undecided = true; undecided;) {
        kernels::amg_mis_keys<Any>(tag, q, items, state, key);
        kernels::amg_mis_max<Any>(tag, q, items, 0, ptr, col, in, state, key, next);
        kernels::amg_mis_max<Any>(tag, q, items, 1, ptr, col, in, state, next, key);
        kernels::amg_mis_decide<Any>(tag, q, items, key, state, flag.clear());
        undecided = flag.set();
      }
      // the roots, numbered in index order
      state.copy_to_host(std::span<int>(host_state.data(), n));
      for (std::size_t i = 0; i < n; ++i) host_roots[i] = host_state[i] == TS_AMG_IN ? count++ : -1;
      roots.copy_from_host(std::span<const int>(host_roots.data(), n));
      kernels::amg_take_roots<Any>(tag, q, items, roots, dagg);
      kernels::amg_join<Any>(tag, q, items, 0, 0, ptr, col, in, roots, unused, dagg);
    }
    // The rest join the smallest aggregate among their neighbours'.
    dagg.copy_to_host(std::span<index_t>(agg.data(), n));
    std::vector<index_t> size(std::max<std::size_t>(static_cast<std::size_t>(count), 1), 0);
    for (const index_t a : agg)
      if (a >= 0) ++size[static_cast<std::size_t>(a)];
    const auto before = sparse::upload_nonempty(device, agg);
    const auto dsize = sparse::upload_nonempty(device, size);
    kernels::amg_join<Any>(tag, q, items, 1, 1, ptr, col, unused, before, dsize, dagg);
  });
  dagg.copy_to_host(std::span<index_t>(agg.data(), n));
  return agg;
}

/// An allocation that failed, named: what it was for and the graph's size.
OutOfMemory named(const std::shared_ptr<Device>& device, const OutOfMemory& e, const char* what,
                  const NodeGraph& g) {
  return OutOfMemory(fmt::format("{} for AMG's {} of {} nodes ({} edges)", device->info().id, what,
                                 g.nodes, g.col.size()),
                     e.requested(), device->info().global_mem_bytes);
}

}  // namespace

std::vector<index_t> aggregate_mis2(const std::shared_ptr<Device>& device, const NodeGraph& s,
                                    index_t& count) {
  try {
    return aggregate_on(device, static_cast<std::size_t>(s.nodes),
                        sparse::upload_nonempty(device, s.row_ptr),
                        sparse::upload_nonempty(device, s.col), count);
  } catch (const OutOfMemory& e) {
    throw named(device, e, "aggregation", s);
  }
}

namespace {

/// The strength graph of g on the device: its row pointers and columns
/// there (g.nodes > 0), and its number of entries.
struct DeviceGraph {
  Buffer<index_t> ptr, col;
  std::size_t entries = 0;
};
DeviceGraph strength_on(const std::shared_ptr<Device>& device, const NodeGraph& g, Strength measure,
                        double theta) {
  const auto n = static_cast<std::size_t>(g.nodes);
  if (!device->info().fp64)
    throw UsageError(device->info().id +
                     ": AMG's strength of connection on a device needs FP64 (the node graph's "
                     "weights are doubles); run it on the host (aggregate_mis2 of strength_graph)");
  Queue& q = device->queue();
  const auto items = static_cast<ts_size>(n);
  std::vector<index_t> host_cnt(n);
  // row pointers from a kernel's row lengths (summed on the host)
  auto offsets = [&](const Buffer<index_t>& lengths) {
    lengths.copy_to_host(std::span<index_t>(host_cnt.data(), n));
    std::vector<index_t> p(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
      p[i + 1] = sparse::to_index(
          static_cast<sparse::size64>(p[i]) + static_cast<sparse::size64>(host_cnt[i]),
          "AMG strength graph entries");
    return p;
  };
  const int symmetric = measure == Strength::symmetric;
  // The strength graph's row pointers and columns; what forms them is freed
  // before the aggregation starts.
  auto strength = [&](auto tag) {
    const auto ptr = sparse::upload_nonempty(device, g.row_ptr);
    const auto col = sparse::upload_nonempty(device, g.col);
    const auto w = sparse::upload_nonempty(device, g.weight);
    Buffer<double> diag(device, n), row_max(device, n);
    Buffer<index_t> cnt(device, n), unused(device, 1);
    // the directed strong edges, columns ascending as in the node graph
    kernels::amg_node_scalars<double>(tag, q, items, ptr, col, w, diag, row_max);
    kernels::amg_strong_count<double>(tag, q, items, symmetric, theta, ptr, col, w, diag, row_max,
                                      cnt);
    const auto host_sptr = offsets(cnt);
    const auto sptr = sparse::upload_nonempty(device, host_sptr);
    Buffer<index_t> scol(device, std::max<std::size_t>(host_sptr[n], 1));
    kernels::amg_strong_fill<double>(tag, q, items, symmetric, theta, ptr, col, w, diag, row_max,
                                     sptr, scol);
    // their transpose: rows counted, filled at atomic slots, then sorted
    const std::vector<ts_uint> zeros(n, 0);
    Buffer<ts_uint> tcnt(device, n);
    tcnt.copy_from_host(std::span<const ts_uint>(zeros.data(), n));
    kernels::amg_column_counts<Any>(tag, q, items, sptr, scol, tcnt);
    std::vector<ts_uint> host_tcnt(n);
    tcnt.copy_to_host(std::span<ts_uint>(host_tcnt.data(), n));
    std::vector<index_t> host_tptr(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i)
      host_tptr[i + 1] = host_tptr[i] + static_cast<index_t>(host_tcnt[i]);
    const auto tptr = sparse::upload_nonempty(device, host_tptr);
    std::vector<ts_uint> host_pos(host_tptr.begin(), host_tptr.end() - 1);
    tcnt.copy_from_host(std::span<const ts_uint>(host_pos.data(), n));  // the next free slots
    Buffer<index_t> tcol(device, std::max<std::size_t>(host_sptr[n], 1));
    kernels::amg_transpose_fill<Any>(tag, q, items, sptr, scol, tcnt, tcol);
    kernels::amg_sort_rows<Any>(tag, q, items, tptr, tcol);
    // the symmetric union: lengths, then columns
    kernels::amg_union<Any>(tag, q, items, 0, sptr, scol, tptr, tcol, unused, unused, cnt);
    const auto host_uptr = offsets(cnt);
    auto uptr = sparse::upload_nonempty(device, host_uptr);
    Buffer<index_t> ucol(device, std::max<std::size_t>(host_uptr[n], 1));
    kernels::amg_union<Any>(tag, q, items, 1, sptr, scol, tptr, tcol, uptr, ucol, unused);
    return DeviceGraph{std::move(uptr), std::move(ucol), static_cast<std::size_t>(host_uptr[n])};
  };
  return dispatch(*device, strength);
}

}  // namespace

NodeGraph strength_graph(const std::shared_ptr<Device>& device, const NodeGraph& g,
                         Strength measure, double theta) {
  NodeGraph s;
  s.nodes = g.nodes;
  const auto n = static_cast<std::size_t>(g.nodes);
  if (n == 0) return s;
  try {
    const DeviceGraph d = strength_on(device, g, measure, theta);
    s.row_ptr.resize(n + 1);
    s.col.resize(d.entries);
    d.ptr.copy_to_host(std::span<index_t>(s.row_ptr.data(), n + 1));
    if (d.entries) d.col.copy_to_host(std::span<index_t>(s.col.data(), d.entries));
  } catch (const OutOfMemory& e) {
    throw named(device, e, "strength graph", g);
  }
  s.weight.assign(s.col.size(), 1.0);
  return s;
}

std::vector<index_t> aggregate_strong(const std::shared_ptr<Device>& device, const NodeGraph& g,
                                      Strength measure, double theta, index_t& count) {
  count = 0;
  if (g.nodes == 0) return {};
  try {
    const DeviceGraph d = strength_on(device, g, measure, theta);
    return aggregate_on(device, static_cast<std::size_t>(g.nodes), d.ptr, d.col, count);
  } catch (const OutOfMemory& e) {
    throw named(device, e, "strength and aggregation", g);
  }
}

}  // namespace tessera::amg
