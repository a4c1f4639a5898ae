// Tile geometry of the streaming (out-of-core) thesis mode, per axis (a tile
// is the product of its column and row spans). Pure functions, so the
// halo/edge arithmetic is tested on its own (tests/mg/test_mg_streaming.cpp).
//
// Smoothing tile (thesis §5.2.1, redundant halos): output [o0, o1) of a level
// of m points, nu Jacobi steps. Step s (1..nu) computes
// R_s = [o0 - (nu - s), o1 + (nu - s)) clipped to [0, m): the region shrinks
// by one per step, so one upload and one download serve nu steps. The tile
// arrays hold R_1 plus a one-cell ring (x is uploaded with the ring: the
// host's halo supplies the zero boundary).
//
// Prolongation + smoothing (§5.4): the prolongation is recomputed over
// P = R_1 +- 1 clipped to [0, m) (every x that step 1 reads), from the coarse
// points [c0, c1) plus ring (the coarse ring supplies indices c0 - 1 and c1).
//
// Fused restriction (§5.3, Fig. 5.2): tiles are defined on the coarsest
// level reached, [C0, C1); at s levels finer the tile computes
// [C0 2^s, (C1 + 1) 2^s - 1) (eq. 2.4 needs fine points 2I .. 2I + 2) and
// owns (writes back) [C0 2^s, C1 2^s), or up to the level's end for the last
// tile, so every point is written exactly once.
#pragma once
#include <string>

namespace tessera::mg::stream {

struct Span {
  long b = 0, e = 0;  ///< [b, e)
  long n() const { return e - b; }
};

/// R_s of a smoothing tile (s = 1..nu).
Span smoothing_region(long m, Span out, int nu, int s);
/// P of a prolongation+smoothing tile: the fine points the prolongation writes.
Span prolonged_region(long m, Span out, int nu);
/// The coarse interior [c0, c1) (ring c0 - 1 and c1 also uploaded) that the
/// prolongation onto fine points `fine` needs; mc = coarse level size.
Span coarse_span(long mc, Span fine);
/// The points a restriction tile [C0, C1) computes s levels finer than its
/// coarsest level (s = 0: the tile itself).
Span restriction_computed(Span coarsest, int s);
/// The points it writes back there; `last`: the tile ends the coarsest level.
Span restriction_owned(Span coarsest, int s, long m_level, bool last);

/// Elements of a tile array with w x h interior points and its ring.
inline long array_elems(long w, long h) { return (w + 2) * (h + 2); }

}  // namespace tessera::mg::stream
