#!/usr/bin/env python3
"""An independent D2Q9 solver (NumPy, textbook two-lattice pull streaming) for
the question of docs/lbm.md "TRT next to inlets and outlets": does TRT
diverge next to equilibrium inlets/outlets where BGK runs, and for which
Lambda? Same geometry as `tessera lbm --case cylinder --lattice D2Q9`: walls
at y = 0 and ny-1 (halfway bounce-back from wall nodes), inlet column x = 0
(equilibrium at the local density and u_in), outlet column x = nx-1
(equilibrium at density 1 and the local velocity), a cylinder of diameter d
centred at (nx/4, ny/2 - 1/2), every axis periodic under the boundary nodes.

    python3 bench/probes/lbm_trt_open_boundaries.py --re 100 --u 0.1 --magic 0.1875 0.0833 bgk
(minutes per run on one core; NumPy only)
"""
import argparse

import numpy as np

C = np.array([[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1], [1, -1], [-1, 1]])
W = np.array([4 / 9] + [1 / 9] * 4 + [1 / 36] * 4)
OPP = np.array([0, 2, 1, 4, 3, 6, 5, 8, 7])


def equilibrium(rho, ux, uy):
    cu = C[:, 0, None, None] * ux + C[:, 1, None, None] * uy
    return W[:, None, None] * rho * (1 + 3 * cu + 4.5 * cu**2 - 1.5 * (ux**2 + uy**2))


def run(nx, ny, d, re, u, magic, steps):
    """magic None: BGK. Returns the step of divergence or None."""
    tau = 3 * u * d / re + 0.5
    op = 1 / tau
    om = op if magic is None else 1 / (magic / (tau - 0.5) + 0.5)
    y, x = np.mgrid[0:ny, 0:nx]
    wall = (y == 0) | (y == ny - 1) | ((x - nx / 4) ** 2 + (y - (ny / 2 - 0.5)) ** 2 <= (d / 2) ** 2)
    inlet = ~wall & (x == 0)
    outlet = ~wall & (x == nx - 1)
    f = equilibrium(np.ones((ny, nx)), np.full((ny, nx), u), np.zeros((ny, nx)))
    for t in range(steps):
        fin = np.empty_like(f)
        for i in range(9):
            shift = lambda a: np.roll(np.roll(a, C[i, 0], axis=1), C[i, 1], axis=0)
            fin[i] = np.where(shift(wall), f[OPP[i]], shift(f[i]))
        rho = fin.sum(0)
        ux = (fin * C[:, 0, None, None]).sum(0) / rho
        uy = (fin * C[:, 1, None, None]).sum(0) / rho
        feq = equilibrium(rho, ux, uy)
        even, odd = 0.5 * (fin + fin[OPP]), 0.5 * (fin - fin[OPP])
        even_eq, odd_eq = 0.5 * (feq + feq[OPP]), 0.5 * (feq - feq[OPP])
        out = fin - op * (even - even_eq) - om * (odd - odd_eq)
        out = np.where(inlet, equilibrium(rho, np.full_like(rho, u), np.zeros_like(rho)), out)
        out = np.where(outlet, equilibrium(np.ones_like(rho), ux, uy), out)
        f = np.where(wall, f, out)
        if not np.isfinite(rho[~wall]).all() or np.abs(rho[~wall] - 1).max() > 1:
            return t
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", type=int, nargs=2, default=[200, 50])
    p.add_argument("--diameter", type=float, default=10)
    p.add_argument("--re", type=float, default=100)
    p.add_argument("--u", type=float, default=0.1)
    p.add_argument("--steps", type=int, default=3000)
    p.add_argument("--magic", nargs="+", default=["bgk", "0.1875", "0.083333333333333333"],
                   help="TRT Lambda values, or 'bgk'")
    a = p.parse_args()
    tau = 3 * a.u * a.diameter / a.re + 0.5
    print(f"tau {tau:.5g}, grid Reynolds number u/nu {a.u / ((tau - 0.5) / 3):.4g}")
    for m in a.magic:
        t = run(a.size[0], a.size[1], a.diameter, a.re, a.u, None if m == "bgk" else float(m), a.steps)
        print(f"{'BGK' if m == 'bgk' else 'TRT Lambda ' + m}: " + (f"diverged at step {t}" if t is not None else f"{a.steps} steps, finite"), flush=True)


if __name__ == "__main__":
    main()
