#!/usr/bin/env python3
"""A synthetic river valley for the flood tutorial (docs/tutorials/swe-flood.md):
120 x 200 cells of 5 m (600 m x 1000 m, lower-left corner 500000, 4649000 in
UTM zone 33N), a 15 m wide channel 1.5 m deep along y, floodplains rising
1:300 away from it, the whole valley falling 1:500 towards y = 0, and a 1 m
embankment protecting the east floodplain between y = 300 m and 700 m.
Writes valley.asc (ESRI ASCII, the top row first), storm.csv (a 2-hour
hyetograph, mm/h) and river.csv (the upstream inflow hydrograph, m3/s).
Standard library only."""
import math

NX, NY, D = 120, 200, 5.0
X0, Y0 = 500000.0, 4649000.0


def bed(x, y):
    c = abs(x - 300.0)  # distance from the channel's axis
    z = 20.0 + y / 500.0 + (c - 7.5) / 300.0
    if c <= 7.5:
        z = 20.0 + y / 500.0 - 1.5
    if 40.0 <= x - 300.0 <= 45.0 and 300.0 <= y <= 700.0:
        z += 1.0  # the embankment
    return z


with open("valley.asc", "w") as f:
    f.write(f"ncols {NX}\nnrows {NY}\nxllcorner {X0}\nyllcorner {Y0}\ncellsize {D}\n"
            "NODATA_value -9999\n")
    for r in range(NY - 1, -1, -1):
        y = (r + 0.5) * D
        f.write(" ".join("%.3f" % bed((c + 0.5) * D, y) for c in range(NX)) + "\n")

with open("storm.csv", "w") as f:  # 30 mm/h rising to 60, then easing off
    f.write("time (s),intensity (mm/h)\n0,30\n1800,60\n3600,20\n5400,0\n10800,0\n")

with open("river.csv", "w") as f:  # a flood wave from 5 to 150 m3/s and back
    f.write("time (s),discharge (m3/s)\n")
    for k in range(0, 10801, 600):
        q = 5.0 + 145.0 * math.exp(-((k - 3600.0) / 1500.0) ** 2)
        f.write(f"{k},{q:.3f}\n")
