// MIS(2) aggregation with its passes on a device (kernels/aggregation_point.h):
// the host's aggregate_mis2 (aggregation.hpp, the oracle) pass for pass, so
// the aggregates are the same on every device, bit for bit.
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

}  // namespace tessera::amg
