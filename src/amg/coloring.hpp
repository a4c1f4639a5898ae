// Graph colouring for the multicolour Gauss-Seidel smoother: rows of one
// colour share no entry, so a colour is updated in parallel.
#pragma once
#include <vector>

#include "amg/aggregation.hpp"

namespace tessera::amg {

/// Jones & Plassmann's colouring of g's nodes (every stored off-diagonal
/// entry an edge, made symmetric): in each round an uncoloured node whose
/// (node_hash, index) beats every uncoloured neighbour's takes the smallest
/// colour no coloured neighbour has. Deterministic; a pass over the nodes per
/// round, as on a device. `colors` gets the number of colours.
std::vector<index_t> color_graph(const NodeGraph& g, int& colors);

}  // namespace tessera::amg
