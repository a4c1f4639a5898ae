#!/usr/bin/env python3
"""Validation runs of `tessera lbm` against published benchmarks (issue 43).

  schaefer-turek --case 2d1|2d2 --d N   the cylinder in a channel of
      Schaefer & Turek (1996), in SI units: H = 0.41 m, L = 2.2 m, D = 0.1 m,
      centre (0.2, 0.2) m, nu = 1e-3 m^2/s, a parabolic inflow of mean 0.2
      (2D-1, Re 20, steady) or 1 m/s (2D-2, Re 100, periodic); D cells across.
  sphere --re R --d N   a sphere in a box with periodic lateral faces (a
      square array of spheres: the blockage pi d^2 / (4 W^2) is stated),
      uniform inflow, against the standard drag correlations.
  table FILE...   the Markdown table of result files.

Each run writes the case file, runs `tessera lbm --config` with --json and
prints one JSON line of results (also to --result FILE). Standard library
only: the GPU machine's Python has no NumPy.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

# Schaefer & Turek 1996, table 4 (the ranges of the benchmark's reference)
REFERENCE = {
    "2d1": {"cd": (5.57, 5.59), "cl": (0.0104, 0.0110)},
    "2d2": {"cd_max": (3.22, 3.24), "cl_max": (0.99, 1.01), "st": (0.295, 0.305)},
}


def run(args, toml, name, steps, every):
    os.makedirs(args.out, exist_ok=True)
    case = os.path.join(args.out, name + ".toml")
    with open(case, "w") as f:
        f.write(toml)
    summary = os.path.join(args.out, name + ".json")
    cmd = [args.tessera, "lbm", "--config", case, "--device", args.device, "--steps",
           str(steps), "--every", str(every), "--json", summary, "--png", ""]
    t0 = time.time()
    with open(os.path.join(args.out, name + ".log"), "w") as log:
        rc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT).returncode
    wall = time.time() - t0
    if rc != 0:
        sys.exit(f"{name}: tessera lbm exited {rc} (log: {args.out}/{name}.log)")
    with open(summary) as f:
        return json.load(f), wall, " ".join(cmd)


def schaefer_turek(args):
    d = args.d
    dx = 0.1 / d
    ny = round(0.41 / dx) + 2  # the wall layers: their surfaces are 0.41 m apart
    nx = round(2.2 / dx) + 1   # inlet cell centre to outlet cell centre: 2.2 m
    mean = 0.2 if args.case == "2d1" else 1.0
    lattice_u = args.lattice_velocity
    dt = lattice_u * dx / mean
    t_end = args.time or (30.0 if args.case == "2d1" else 16.0)
    steps = int(round(t_end / dt))
    if args.case == "2d1":
        every = max(1, steps // 200)
    else:  # about 100 samples a shedding period (St 0.3)
        every = max(1, int(d / (0.3 * lattice_u) / 100))
    toml = f"""# Schaefer-Turek {args.case.upper()}, D = {d} cells (bench/validation/lbm_validation.py)
lattice = "D2Q9"
collision = "{args.collision}"
precision = "{args.precision}"
[domain]
cells = [{nx}, {ny}, 1]
[units]
cell-size = {dx!r}
density = 1.0
lattice-velocity = {lattice_u!r}
[flow]
velocity = {mean!r}
viscosity = 0.001
[boundary]
x-min = "inlet"
x-max = "outlet"
y-min = "wall"
y-max = "wall"
inlet-profile = "parabolic"
[[body]]
name = "cylinder"
shape = "cylinder"
centre = [{0.2 + 0.5 * dx!r}, {0.2 + dx!r}, {0.5 * dx!r}]
diameter = 0.1
bounce-back = "{args.bounce_back}"
""" + "".join(f"""[[probe]]
name = "rho{k}"
at = [{0.2 + 0.5 * dx + ox!r}, {0.2 + dx + oy!r}, {0.5 * dx!r}]
""" for k, (ox, oy) in enumerate([(-0.075, 0), (0.075, 0), (0, -0.075), (0, 0.075)]))
    name = f"st-{args.case}-d{d}-u{args.lattice_velocity:g}-{args.bounce_back}"
    s, wall, cmd = run(args, toml, name, steps, every)
    body = s["series"]["bodies"][0]
    cd, cl, step = body["cd"], body["cl"], body["step"]
    probes = s["series"]["probes"]
    out = {"case": "schaefer-turek-" + args.case, "d_cells": d, "cells": [nx, ny, 1],
           "dx_m": dx, "dt_s": dt, "lattice_velocity_mean": lattice_u,
           "tau": s["config"]["tau"] if "config" in s and "tau" in s["config"] else None,
           "steps": steps, "every": every, "t_end_s": t_end, "wall_s": wall,
           "collision": args.collision, "precision": args.precision,
           "bounce_back": args.bounce_back, "command": cmd}
    tail = [k for k in range(len(step)) if step[k] >= (0.9 if args.case == "2d1" else 0.75) * steps]
    # The fluid's density at the body: the mean of four probes a quarter
    # diameter off its surface over the same samples. A weakly compressible
    # lattice carries the channel's pressure drop as density (2-3% at the
    # cylinder at D = 20), and its forces scale with it (mu = rho nu): the
    # coefficients against this density are the incompressible ones.
    rho = sum(p["ux_uy_uz_rho"][k][3] for p in probes for k in tail) / (len(probes) * len(tail))
    out["rho_body"] = rho
    if args.case == "2d1":
        out["cd"] = sum(cd[k] for k in tail) / len(tail)
        out["cl"] = sum(cl[k] for k in tail) / len(tail)
        out["cd_change_last_10pct"] = max(cd[k] for k in tail) - min(cd[k] for k in tail)
    else:  # the last quarter: several periods of the established shedding
        out["cd_max"] = max(cd[k] for k in tail)
        out["cl_max"] = max(cl[k] for k in tail)
        out["cl_min"] = min(cl[k] for k in tail)
        out["st"] = body["strouhal_from_lift"]
    out["reference"] = REFERENCE[args.case]
    return out


def schiller_naumann(re):
    return 24 / re * (1 + 0.15 * re ** 0.687)


def clift_grace_weber(re):  # Clift, Grace & Weber (1978), 20 < Re <= 260
    return 24 / re * (1 + 0.1935 * re ** 0.6305)


def sphere(args):
    d, re = args.d, args.re
    w = args.width or 8 * d
    nx = args.length or 16 * d
    u = args.lattice_velocity
    nu = u * d / re
    flow_throughs = args.flow_throughs
    steps = int(flow_throughs * nx / u)
    every = max(1, steps // 10)  # a sample downloads the whole lattice
    toml = f"""# A sphere at Re {re}, D = {d} cells, periodic lateral faces (bench/validation/lbm_validation.py)
lattice = "D3Q19"
collision = "{args.collision}"
precision = "{args.precision}"
[domain]
cells = [{nx}, {w}, {w}]
[flow]
velocity = {u!r}
viscosity = {nu!r}
[boundary]
x-min = "inlet"
x-max = "outlet"
[[body]]
name = "sphere"
shape = "sphere"
centre = [{5 * d}, {(w - 1) / 2!r}, {(w - 1) / 2!r}]
diameter = {d}
bounce-back = "{args.bounce_back}"
"""
    name = f"sphere-re{re:g}-d{d}-w{w}-u{u:g}-{args.bounce_back}"
    s, wall, cmd = run(args, toml, name, steps, every)
    body = s["series"]["bodies"][0]
    cd, step = body["cd"], body["step"]
    tail = [k for k in range(len(step)) if step[k] >= 0.8 * steps]
    mean_cd = sum(cd[k] for k in tail) / len(tail)
    return {"case": "sphere", "re": re, "d_cells": d, "cells": [nx, w, w],
            "blockage": math.pi * d * d / 4 / (w * w), "lattice_velocity": u, "tau": 3 * nu + 0.5,
            "steps": steps, "every": every, "wall_s": wall, "cd": mean_cd,
            "cd_change_last_20pct": max(cd[k] for k in tail) - min(cd[k] for k in tail),
            "schiller_naumann": schiller_naumann(re), "clift_grace_weber": clift_grace_weber(re),
            "collision": args.collision, "precision": args.precision,
            "bounce_back": args.bounce_back, "command": cmd}


def bb(r):  # results of before the option were halfway bounce-back's
    return r.get("bounce_back", "halfway")


def table(files):
    rows = [json.load(open(f)) for f in files]
    st = [r for r in rows if r["case"].startswith("schaefer")]
    sp = [r for r in rows if r["case"] == "sphere"]
    if st:
        print("| case | bounce-back | D (cells) | cells | tau | Cd / Cd_max | Cl / Cl_max | St |"
              " rho at the body | Cd / rho | Cl / rho |")
        print("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
        for r in sorted(st, key=lambda r: (r["case"], bb(r), r["d_cells"])):
            tau = f"{r['tau']:.4g}" if r.get("tau") is not None else "-"
            head = f"| {bb(r)} | {r['d_cells']} | {r['cells'][0]}x{r['cells'][1]} | {tau} |"
            rho = r.get("rho_body")
            tail = lambda cd, cl: (f" {rho:.4f} | {cd / rho:.4f} | {cl / rho:.4f} |" if rho else " | | |")
            if r["case"].endswith("2d1"):
                print(f"| 2D-1 {head} {r['cd']:.4f} | {r['cl']:.4f} | |" + tail(r["cd"], r["cl"]))
            else:
                st_ = f"{r['st']:.4f}" if r["st"] is not None else "-"
                print(f"| 2D-2 {head} {r['cd_max']:.4f} | {r['cl_max']:.4f} | {st_} |"
                      + tail(r["cd_max"], r["cl_max"]))
        print("| reference | | | | | 5.57-5.59 / 3.22-3.24 | 0.0104-0.0110 / 0.99-1.01 | 0.295-0.305 |"
              " | 5.57-5.59 / 3.22-3.24 | 0.0104-0.0110 / 0.99-1.01 |")
    if sp:
        print("\n| Re | bounce-back | D (cells) | box | blockage | Cd | Schiller-Naumann | Clift-Grace-Weber |")
        print("|---:|---|---:|---|---:|---:|---:|---:|")
        for r in sorted(sp, key=lambda r: (bb(r), r["re"])):
            c = r["cells"]
            print(f"| {r['re']:g} | {bb(r)} | {r['d_cells']} | {c[0]}x{c[1]}x{c[2]} | {100 * r['blockage']:.2f}% |"
                  f" {r['cd']:.4f} | {r['schiller_naumann']:.4f} | {r['clift_grace_weber']:.4f} |")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    for name in ("schaefer-turek", "sphere"):
        q = sub.add_parser(name)
        q.add_argument("--tessera", default="build/bin/tessera")
        q.add_argument("--device", default="best")
        q.add_argument("--out", default="lbm-validation")
        q.add_argument("--result", help="the result as JSON")
        q.add_argument("--d", type=int, required=True, help="cells across the body")
        q.add_argument("--collision", default="bgk")
        q.add_argument("--precision", default="fp32")
        q.add_argument("--lattice-velocity", type=float, default=0.05)
        q.add_argument("--bounce-back", choices=["halfway", "interpolated"], default="interpolated",
                       help="on the body (the walls of the channel are planes: halfway)")
        if name == "schaefer-turek":
            q.add_argument("--case", choices=["2d1", "2d2"], required=True)
            q.add_argument("--time", type=float, help="seconds of flow (2D-1 30, 2D-2 16)")
        else:
            q.add_argument("--re", type=float, required=True)
            q.add_argument("--width", type=int, help="box width and height (8 d)")
            q.add_argument("--length", type=int, help="box length (16 d)")
            q.add_argument("--flow-throughs", type=float, default=3.0)
    t = sub.add_parser("table")
    t.add_argument("files", nargs="+")
    args = p.parse_args()
    if args.what == "table":
        return table(args.files)
    result = schaefer_turek(args) if args.what == "schaefer-turek" else sphere(args)
    text = json.dumps(result)
    print(text)
    if args.result:
        with open(args.result, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
