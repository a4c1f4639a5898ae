#!/usr/bin/env python3
"""Iterations of tessera's smoothed-aggregation AMG against PyAMG's (issue 46).

For each case (a generated matrix of `tessera solve --generate`, see
src/sparse/matrix_families.hpp) both libraries build a hierarchy and solve
A x = ones from x0 = 0 to ||b - A x|| / ||b|| <= 1e-8 with AMG-preconditioned
CG (SPD) or GMRES(30) (nonsymmetric), in two configurations:

  default   PyAMG's smoothed_aggregation_solver with its defaults but
            max_coarse=300 (symmetric Gauss-Seidel, strength 'symmetric'
            theta 0, candidates improved, R = P^T); tessera's default
            --precond amg options (multicolour Gauss-Seidel, coarse size 300).
  jacobi    the same with the smoother weighted Jacobi, omega = 4/3 / rho(D^-1 A)
            (PyAMG: ('jacobi' | 'block_jacobi', {'omega': 4/3, 'withrho': True}),
            tessera: --amg-smoother jacobi), one sweep before and after.

The Krylov methods stop on the same test: PyAMG's cg (criteria 'rr':
||r|| < tol ||b||) and fgmres (right preconditioning, ||r|| < tol ||b||;
PyAMG's gmres preconditions from the left and stops on ||M r||), restart 30
as tessera's GMRES. Iterations are PyAMG's residual history length less one
and tessera's `iterations` of --json.

The matrices are tessera's. PyAMG gets each from, in this order:
  1. a Matrix Market file DIR/<spec>.mtx of --matrices (':' ',' '=' as '_'),
     written by tessera;
  2. `tessera sparse generate SPEC FILE` (every family, in double; a failed
     call is recorded);
  3. PyAMG's gallery, only for the cases whose gallery matrix is tessera's bit
     for bit (stencil2d5 = poisson((N, N)), laplace7 = poisson((N, N, N)),
     aniso2d = stencil_grid(diffusion_stencil_2d(eps, radians(angle), 'FD'),
     (N, N)); checked entry by entry against tessera-written files: where a
     file of 1. or 2. exists too, the two are compared again and the result
     recorded).
A case without any of these runs on tessera only.

Prints a Markdown table and writes all numbers as JSON (--out) and the table
(--md). Needs NumPy, SciPy and PyAMG: build/python-venv/bin/python.

  build/python-venv/bin/python bench/validation/amg_pyamg.py \\
      --tessera build-dev/bin/tessera --out amg_pyamg.json --md amg_pyamg.md
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import pyamg
import scipy
import scipy.io
import scipy.sparse as sp

TOL = 1e-8
MAX_ITERS = 2000
RESTART = 30


def aniso(n, eps, angle):
    stencil = pyamg.gallery.diffusion_stencil_2d(epsilon=eps, theta=math.radians(angle), type="FD")
    return lambda: pyamg.gallery.stencil_grid(stencil, (n, n), format="csr")


# spec, Krylov method, rows per node, PyAMG's gallery matrix equal to tessera's (or None)
CASES = [
    ("stencil2d5:256", "cg", 1, lambda: pyamg.gallery.poisson((256, 256), format="csr")),
    ("laplace7:32", "cg", 1, lambda: pyamg.gallery.poisson((32, 32, 32), format="csr")),
    ("aniso2d:256,eps=0.001,angle=0", "cg", 1, aniso(256, 0.001, 0)),
    ("aniso2d:256,eps=0.001,angle=30", "cg", 1, aniso(256, 0.001, 30)),
    ("convdiff2d:256,peclet=100,angle=30", "gmres", 1, None),
    ("elasticity3d:12", "cg", 3, None),
]


def file_name(spec):
    return re.sub(r"[:,=]", "_", spec) + ".mtx"


def read_mtx(path):
    a = scipy.io.mmread(path).tocsr()
    a.sort_indices()
    return a


def same_matrix(a, b):
    """Entry by entry, stored zeros ignored: 'identical' or what differs."""
    a, b = a.tocsr().copy(), b.tocsr().copy()
    for m in (a, b):
        m.eliminate_zeros()
        m.sort_indices()
    if a.shape != b.shape:
        return f"shapes differ: {a.shape} vs {b.shape}"
    if not (np.array_equal(a.indptr, b.indptr) and np.array_equal(a.indices, b.indices)):
        return f"patterns differ: {a.nnz} vs {b.nnz} nonzeros"
    if not np.array_equal(a.data, b.data):
        d = np.abs(a.data - b.data)
        return f"values differ: {int((d > 0).sum())} entries, at most {d.max():.3g}"
    return "identical"


def get_matrix(args, spec, gallery):
    """(matrix or None, where it came from, the check against the gallery)."""
    tried = []
    path = os.path.join(args.matrices, file_name(spec)) if args.matrices else None
    if path and os.path.exists(path):
        a, source = read_mtx(path), f"file {path} (written by tessera)"
    else:
        if path:
            tried.append(f"no {path}")
        out = os.path.join(args.work, file_name(spec))
        r = subprocess.run([args.tessera, "sparse", "generate", spec, out], capture_output=True,
                           text=True)
        if r.returncode == 0 and os.path.exists(out):
            a, source = read_mtx(out), f"tessera sparse generate {spec}"
        else:
            why = (r.stderr or r.stdout).strip().splitlines()
            tried.append(f"`tessera sparse generate {spec}` failed: {why[-1] if why else r.returncode}")
            a, source = None, None
    check = None
    if gallery is not None:
        g = gallery()
        if a is not None:
            check = same_matrix(a, g)
        else:
            a, source = g, "PyAMG gallery (bit for bit tessera's, checked against tessera-written files)"
    if a is None:
        source = "none: " + "; ".join(tried)
    return a, source, check


def pyamg_run(a, method, block, smoother):
    np.random.seed(0)  # PyAMG's spectral radius estimates start from random vectors
    b = np.ones(a.shape[0])
    if block > 1:
        a = sp.bsr_matrix(a, blocksize=(block, block))
    kw = {"max_coarse": 300}
    if smoother == "jacobi":
        relax = ("block_jacobi" if block > 1 else "jacobi", {"omega": 4.0 / 3.0, "withrho": True})
        kw.update(presmoother=relax, postsmoother=relax)
    t0 = time.perf_counter()
    ml = pyamg.smoothed_aggregation_solver(a, **kw)
    setup = time.perf_counter() - t0
    res = []
    t0 = time.perf_counter()
    if method == "cg":
        x = ml.solve(b, x0=np.zeros_like(b), tol=TOL, maxiter=MAX_ITERS, accel="cg", residuals=res)
    else:
        x = ml.solve(b, x0=np.zeros_like(b), tol=TOL, maxiter=math.ceil(MAX_ITERS / RESTART),
                     accel=lambda A, b, **k: pyamg.krylov.fgmres(A, b, restart=RESTART, **k),
                     residuals=res)
    solve = time.perf_counter() - t0
    relres = float(np.linalg.norm(b - a @ x) / np.linalg.norm(b))
    return {
        "iterations": len(res) - 1,
        "converged": relres <= TOL * 1.01,
        "true_relres": relres,
        "levels": [{"rows": int(lv.A.shape[0]), "nonzeros": int(lv.A.nnz)} for lv in ml.levels],
        "operator_complexity": float(ml.operator_complexity()),
        "grid_complexity": float(ml.grid_complexity()),
        "setup_s": setup,
        "solve_s": solve,
        "smoother": kw.get("presmoother", "default (block_gauss_seidel, symmetric)"),
    }


def tessera_run(args, spec, method, block, smoother):
    out = os.path.join(args.work, file_name(spec)[:-4] + f"-{smoother}.json")
    cmd = [args.tessera, "solve", "--generate", spec, "--precond", "amg", "--method", method,
           "--tol", str(TOL), "--max-iters", str(MAX_ITERS), "--block", str(block), "--device",
           args.device, "--json", out]
    if method == "gmres":
        cmd += ["--restart", str(RESTART)]
    if smoother == "jacobi":
        cmd += ["--amg-smoother", "jacobi"]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    line = " ".join(cmd)
    if r.returncode != 0 or not os.path.exists(out):
        why = (r.stderr or r.stdout).strip().splitlines()
        return {"command": line, "error": why[-1] if why else f"exit {r.returncode}"}
    with open(out) as f:
        j = json.load(f)
    amg = j.get("amg", {})
    return {
        "command": line,
        "iterations": j["iterations"],
        "converged": j["status"] == "converged",
        "status": j["status"],
        "true_relres": j.get("true_relres"),
        "levels": amg.get("levels"),
        "operator_complexity": amg.get("operator_complexity"),
        "grid_complexity": amg.get("grid_complexity"),
        "setup_s": amg.get("setup_s", {}).get("host_total"),
        "solve_s": j.get("time_s", {}).get("total"),
        "wall_s": wall,
        "amg": amg,
    }


def fmt_side(r):
    if r is None:
        return "n/a", "n/a"
    if "error" in r:
        return "failed", ""
    its = str(r["iterations"]) + ("" if r["converged"] else " (not converged)")
    return its, f"{r['operator_complexity']:.2f}"


def table(results):
    lines = ["| case | method | config | PyAMG its | PyAMG OC | PyAMG levels | tessera its | "
             "tessera OC | tessera levels | its ratio (tessera / PyAMG) |",
             "|---|---|---|---:|---:|---|---:|---:|---|---:|"]
    for c in results:
        for config in ("default", "jacobi"):
            p, t = c["pyamg"].get(config), c["tessera"].get(config)
            pits, poc = fmt_side(p)
            tits, toc = fmt_side(t)
            plev = " ".join(str(lv["rows"]) for lv in p["levels"]) if p else ""
            tlev = " ".join(str(lv["rows"]) for lv in t["levels"]) if t and t.get("levels") else ""
            ratio = ""
            if p and t and "error" not in t and p["converged"] and t["converged"]:
                ratio = f"{t['iterations'] / p['iterations']:.2f}"
            method = c["method"] if c["method"] == "cg" else "gmres(30)"
            spec = c["spec"] + (f" (block {c['block']})" if c["block"] > 1 else "")
            lines.append(f"| {spec} | {method} | {config} | {pits} | {poc} | {plev} | {tits} | "
                         f"{toc} | {tlev} | {ratio} |")
    return "\n".join(lines)


def git_state():
    """HEAD of this checkout and the tracked files under src, apps and bench/cli
    that differ from it (what the tessera binary may have been built with)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    git = lambda *a: subprocess.run(["git", "-C", root, *a], capture_output=True,
                                    text=True).stdout
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", "src", "apps", "bench/cli")
    return git("rev-parse", "--short=12", "HEAD").strip(), [l[3:] for l in dirty.splitlines()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tessera", default="build-dev/bin/tessera")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--matrices", default="", help="directory of tessera-written <spec>.mtx")
    ap.add_argument("--cases", nargs="*", help="specs to run (default: all)")
    ap.add_argument("--work", default="", help="directory for tessera's JSON (default: temporary)")
    ap.add_argument("--out", default="", help="JSON of all numbers")
    ap.add_argument("--md", default="", help="the Markdown table")
    args = ap.parse_args()
    tmp = None
    if not args.work:
        tmp = tempfile.TemporaryDirectory(prefix="amg_pyamg_")
        args.work = tmp.name
    os.makedirs(args.work, exist_ok=True)
    version = subprocess.run([args.tessera, "--version"], capture_output=True, text=True).stdout.strip()
    head, dirty = git_state()
    built = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(args.tessera)))
    results = []
    for spec, method, block, gallery in CASES:
        if args.cases and spec not in args.cases:
            continue
        print(f"{spec}: ", end="", file=sys.stderr, flush=True)
        a, source, check = get_matrix(args, spec, gallery)
        case = {"spec": spec, "method": method, "block": block, "matrix_source": source,
                "gallery_check": check, "pyamg": {}, "tessera": {}}
        if a is not None:
            case["rows"], case["nonzeros"] = int(a.shape[0]), int(a.nnz)
            case["symmetric"] = bool(abs(a - a.T).max() == 0)
        for config in ("default", "jacobi"):
            if a is not None:
                case["pyamg"][config] = pyamg_run(a, method, block, config)
                print(f"pyamg {config} {case['pyamg'][config]['iterations']} ", end="",
                      file=sys.stderr, flush=True)
            case["tessera"][config] = t = tessera_run(args, spec, method, block, config)
            print(f"tessera {config} {t.get('iterations', t.get('error'))} ", end="",
                  file=sys.stderr, flush=True)
        print(file=sys.stderr)
        results.append(case)
    md = table(results)
    print(md)
    if args.md:
        with open(args.md, "w") as f:
            f.write(f"<!-- bench/validation/amg_pyamg.py: {version} (binary of {built}); the "
                    f"checkout at the time of the run: {head}"
                    f"{' with uncommitted ' + ', '.join(dirty) if dirty else ''}; PyAMG "
                    f"{pyamg.__version__}, SciPy {scipy.__version__}; tol {TOL}, rhs ones, "
                    f"x0 0 -->\n{md}\n")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"tessera_version": version, "tessera_binary_built": built,
                       "checkout": head, "uncommitted": dirty, "tol": TOL, "max_iters": MAX_ITERS,
                       "restart": RESTART, "pyamg": pyamg.__version__, "scipy": scipy.__version__,
                       "numpy": np.__version__, "cases": results}, f, indent=1)


if __name__ == "__main__":
    main()
