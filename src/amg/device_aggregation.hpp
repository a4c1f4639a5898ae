// Strength of connection and MIS(2) aggregation with their passes on a device
// (kernels/aggregation_point.h): the host's strength_graph and aggregate_mis2
// (aggregation.hpp, the oracle) pass for pass, so the aggregates are the same
// on every device, bit for bit.
#pragma once
#include <memory>
#include <vector>

#include "amg/aggregation.hpp"
#include "core/device.hpp"

namespace tessera::amg {

/// aggregate_mis2(s, count) on `device`: the graph goes to the device once;
/// each round's candidates, MIS(2) steps and joins run there, and only a
/// flag per step and the roots of each round (numbered in index order on
/// the host) cross back.
std::vector<index_t> aggregate_mis2(const std::shared_ptr<Device>& device, const NodeGraph& s,
                                    index_t& count);

/// strength_graph(g, measure, theta) on `device` (FP64), the host's bits:
/// the directed strong edges, their transpose and the rows' union.
NodeGraph strength_graph(const std::shared_ptr<Device>& device, const NodeGraph& g,
                         Strength measure, double theta);

/// aggregate_mis2(strength_graph(g, measure, theta), count) on `device`: the
/// threshold, the symmetric union and the aggregation there; the node graph
/// goes up, row lengths and the aggregates come back. The same aggregates
/// as the host's. Launches double kernels: a device with FP64.
std::vector<index_t> aggregate_strong(const std::shared_ptr<Device>& device, const NodeGraph& g,
                                      Strength measure, double theta, index_t& count);

}  // namespace tessera::amg
