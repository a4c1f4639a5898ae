// Strength of connection and aggregation on the node graph (one node per
// b x b block): deterministic and parallel in form, so that a device pass
// over the nodes gives the same aggregates as this host oracle.
#pragma once
#include <cstdint>
#include <vector>

#include "amg/options.hpp"
#include "sparse/types.hpp"

namespace tessera::amg {

using sparse::index_t;

/// A node graph in CSR form with a weight per stored entry (the Frobenius
/// norm of the block), the diagonal included.
struct NodeGraph {
  index_t nodes = 0;
  std::vector<index_t> row_ptr{0}, col;
  std::vector<double> weight;
};

/// The symmetric union of the directed edges (ptr, col) (columns ascending
/// in each row) and their transpose, weights 1.
NodeGraph symmetric_union(index_t nodes, const std::vector<index_t>& ptr,
                          const std::vector<index_t>& col);

/// The strong connections of g (no diagonal, no zero weights), made
/// symmetric: J is a neighbour of I when I -> J or J -> I is strong.
NodeGraph strength_graph(const NodeGraph& g, Strength measure, double theta);

/// Aggregates by distance-2 maximal independent sets (Bell, Dalton & Olson
/// 2012), in rounds: the roots are an MIS(2) of the free nodes (no
/// aggregate yet) under the order (state, hash(i), i), and the root's free
/// neighbours join it; later rounds only take roots, and joiners, with 2 or
/// more free neighbours (aggregation.cpp says why). The nodes left
/// join the smallest aggregate among their neighbours' (ties: the largest
/// neighbour's). Nodes without
/// strong neighbours get -1 (no aggregate: their rows of the prolongator are
/// zero). Aggregates are numbered by round, then by root index. Returns the
/// node -> aggregate map; `count` gets the number of aggregates.
std::vector<index_t> aggregate_mis2(const NodeGraph& s, index_t& count);

/// The priority hash of node i (a 32-bit integer mix).
std::uint32_t node_hash(std::uint32_t i);

}  // namespace tessera::amg
