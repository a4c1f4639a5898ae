#!/usr/bin/env python3
"""Writes examples/lbm/ellipsoid.stl, the surface of the geometry tutorial
(docs/tutorials/lbm-geometry.md): an ellipsoid with semi-axes 1, 0.3 and
0.5 (a blunt wing section of sorts), an icosphere of 1280 triangles
stretched, outward-facing, binary STL. Standard library only, so that it
runs anywhere:  python3 scripts/make-example-stl.py [OUT]"""
import math
import struct
import sys


def icosphere(levels):
    t = (1 + 5 ** 0.5) / 2
    v = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t), (0, 1, -t),
         (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    f = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
         (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5),
         (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    unit = lambda p: tuple(c / math.sqrt(sum(x * x for x in p)) for c in p)
    v = [unit(p) for p in v]
    for _ in range(levels):
        mid, nf = {}, []

        def middle(i, j):
            key = (min(i, j), max(i, j))
            if key not in mid:
                v.append(unit(tuple((a + b) / 2 for a, b in zip(v[i], v[j]))))
                mid[key] = len(v) - 1
            return mid[key]

        for a, b, c in f:
            ab, bc, ca = middle(a, b), middle(b, c), middle(c, a)
            nf += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        f = nf
    return v, f


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "examples/lbm/ellipsoid.stl"
    v, f = icosphere(3)
    axes = (1.0, 0.3, 0.5)
    v = [tuple(a * c for a, c in zip(axes, p)) for p in v]
    with open(out, "wb") as s:
        s.write(b"tessera example: ellipsoid 1 x 0.3 x 0.5 (scripts/make-example-stl.py)".ljust(80, b" "))
        s.write(struct.pack("<I", len(f)))
        for tri in f:
            a, b, c = (v[i] for i in tri)
            u = [b[k] - a[k] for k in range(3)]
            w = [c[k] - a[k] for k in range(3)]
            n = (u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0])
            s.write(struct.pack("<12fH", *n, *a, *b, *c, 0))
    print(f"{out}: {len(f)} triangles")


if __name__ == "__main__":
    main()
