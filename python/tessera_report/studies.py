"""One function per original study: its published table with today's
measurement in the same rows and columns. Each takes (suites, histories, fmt,
table) and returns Markdown; a suite that did not run gives a one-line note."""
import re

import published as P


def _rows(suites, name):
    s = suites.get(name)
    if not s:
        return None, 0
    dev = s["devices"][0]
    return dev["results"], dev.get("copy_gbps", 0)


def _ratio(a, b):
    """a / b as 'N x' (two significant digits below 10)."""
    if not a or not b:
        return "–"
    r = a / b
    return f"{r:.0f}x" if r >= 10 else f"{r:.2g}x"


def _missing(name):
    return f"Suite `{name}` did not run or failed (see the Suites table).\n"


def _pct(m):
    f = m.get("fraction_of_copy", 0)
    return f"{100 * f:.0f}%" if f else "–"


def mg(suites, histories, fmt, table):
    rows, copy = _rows(suites, "mg")
    if rows is None:
        return _missing("mg")
    full, smooth, n = {}, {}, None
    for m in rows:
        k = m["kernel"]
        g = re.match(r"thesis 10 x V\(0,(\d+)\)", k)
        if g:
            full[int(g.group(1))] = m
            n = m.get("size")
        g = re.match(r"thesis smoother x(\d+)", k)
        if g:
            smooth[int(g.group(1))] = m
    out = [f"Published: {P.MG_DEVICE}, float, {P.MG_SIZE}², 4 queues (multigrid-seed.md §5.3–5.4). Today: the "
           f"thesis algorithm (same cycles, same kernels' mathematics) at {n}², device-resident.\n"]
    if n and n != P.MG_SIZE:
        out.append(f"Today's size is {n}², not {P.MG_SIZE}²: the column 'today scaled' multiplies by "
                   f"({P.MG_SIZE}/{n})² (points), which is only indicative.\n")
    scale = (P.MG_SIZE / n) ** 2 if n else 1
    t = []
    for nu in sorted(set(P.MG_FULL) | set(full)):
        pub = P.MG_FULL.get(nu, (None, None))
        m = full.get(nu)
        today = m["median_ms"] / 1e3 if m else None
        scaled = today * scale if today is not None else None
        speed = pub[1] / scaled if scaled and pub[1] else None
        t.append([str(nu), pub[0], pub[1], today, scaled, _ratio(pub[1], scaled), _pct(m) if m else "–"])
    out.append("**10 V(0,ν) cycles (Table 5.4), seconds**\n")
    out.append(table(["ν", "thesis CPU", "thesis HD 6870", "today", "today scaled", "vs HD 6870", "% of copy"], t))
    out.append(f"\n{P.MG_FULL_NOTE}.\n")
    t = []
    for nu in sorted(set(P.MG_SMOOTHER) | set(smooth)):
        pub = P.MG_SMOOTHER.get(nu, (None,) * 4)
        m = smooth.get(nu)
        today = m["median_ms"] / 1e3 if m else None
        t.append([str(nu), pub[0], pub[1], pub[2], pub[3], today, today * scale if today else None,
                  _pct(m) if m else "–"])
    out.append("\n**Smoother only, ν sweeps (Table 5.3), seconds**\n")
    out.append(table(["ν", "thesis CPU", "GPU plain", "GPU pinned staging", "GPU staging+cache", "today",
                      "today scaled", "% of copy"], t))
    modern = [m for m in rows if not m["kernel"].startswith("thesis") and m["kernel"] != "native_copy"]
    if modern:
        out.append("\n**Beyond the thesis: resident V-cycles and FMG (no published counterpart; "
                   "anchors-multigrid.md A15/A16 give the byte floors)**\n")
        out.append(table(["kernel", "precision", "n", "ms", "% of copy", "note"],
                         [[m["kernel"], m["precision"], str(m["size"]), m["median_ms"], _pct(m), m["note"]]
                          for m in modern]))
    if histories and histories.get("mg"):
        out.append("\n**Convergence (this run, random right-hand side)**\n")
        out.append(table(["problem", "status", "cycles", "asymptotic factor", "final relative residual"],
                         [[h["label"], h["status"], str(len(h["relative_residuals"]) - 1), h["factor"],
                           h["relative_residuals"][-1]] for h in histories["mg"]]))
        out.append("\nPublished two-grid factors (anchors-multigrid.md A10/A11): 2D RB-GS 0.250 (ν=1), "
                   "ω-Jacobi 0.600; 3D RB-GS 0.445, ω-Jacobi 0.714. The thesis published no convergence data.\n")
    return "\n".join(out)


def _steps(kernel):
    g = re.search(r"\((\d+) steps\)", kernel)
    return int(g.group(1)) if g else None


def swe(suites, histories, fmt, table):
    rows, copy = _rows(suites, "swe")
    if rows is None:
        return _missing("swe")
    out = [f"Published: {P.SWE_DEVICE}; {P.SWE_SIZE}², {P.SWE_STEPS} steps (shallow-water-seed.md §4). Today: "
           f"device time of the same variant's steps, extrapolated to {P.SWE_STEPS} steps; no context or "
           f"compilation time. Sequential reference (one i7 core): DP {P.SWE_SEQUENTIAL[0]} s, SP "
           f"{P.SWE_SEQUENTIAL[1]} s.\n"]
    t = []
    sizes = set()
    for m in rows:
        g = re.match(r"thesis (\S+) (\S+) \((\d+) steps\)", m["kernel"])
        if not g or m.get("median_ms", 0) <= 0:
            continue
        variant, wg, steps = g.group(1), g.group(2), int(g.group(3))
        n = int(m["size"])
        sizes.add(n)
        pub = P.SWE_VARIANTS.get(variant)
        pub_s = (pub[1] if m["precision"] == "double" else pub[2]) if pub else None
        today = m["median_ms"] / steps * P.SWE_STEPS / 1e3
        if n != P.SWE_SIZE:
            scaled = today * (P.SWE_SIZE / n) ** 2
        else:
            scaled = today
        t.append([variant, wg, m["precision"], str(n), pub[0] if pub else "–", pub_s, today, scaled,
                  _ratio(pub_s, scaled), _pct(m)])
    if sizes and sizes != {P.SWE_SIZE}:
        out.append(f"Today's grid is {sorted(sizes)}; 'today at 1000²' scales by cells (indicative only).\n")
    out.append(table(["variant", "work-group", "precision", "n", "thesis", "thesis s", "today s", "today at 1000² s",
                      "speed-up", "% of copy"], t))
    phys = [m for m in rows if m["kernel"].startswith("physical")]
    if phys:
        out.append("\n**Physical model (HLL, bathymetry, friction; no published counterpart; reference: "
                   f"{P.H200['swe']} on the H200)**\n")
        out.append(table(["kernel", "precision", "n", "ms", "% of copy", "note"],
                         [[m["kernel"], m["precision"], str(m["size"]), m["median_ms"], _pct(m), m["note"]]
                          for m in phys]))
    return "\n".join(out)


def _case_of(kernel):
    g = re.search(r"(\d+x\d+x\d+)", kernel)
    return g.group(1) if g else None


def spmv(suites, histories, fmt, table):
    rows, copy = _rows(suites, "spmv")
    if rows is None:
        return _missing("spmv")
    out = ["Published: Tables 6.1–6.11 (sparse-gmres-seed.md §5.3): seconds of 100 GMRES iterations with one "
           "SpMV each, complex single, on a Tesla C1060 and a Quadro 5000 (Fermi); MPI = 8 CPU cores. Today: "
           "the same kernel, 100 SpMVs on the resident matrix (the thesis's iterations also did the rest of "
           "GMRES on the host, so today's figure is a lower bound of its counterpart). " + P.SPMV_LITERATURE +
           ".\n"]
    t = []
    for m in rows:
        g = re.match(r"thesis (\d+x\d+x\d+) (\S+)( \+x/y transfers)? x(\d+)", m["kernel"])
        if not g or m.get("median_ms", 0) <= 0:
            continue
        case, kernel, transfers, calls = g.group(1), g.group(2), bool(g.group(3)), int(g.group(4))
        today = m["median_ms"] / calls * 100 / 1e3
        pub = P.SPMV_KERNELS.get(kernel)
        i = P.SPMV_CASES.index(case) if case in P.SPMV_CASES else None
        tesla = pub[1][i] if pub and i is not None else None
        fermi = pub[2][i] if pub and i is not None else None
        mpi = P.SPMV_MPI[i] if i is not None else None
        label = (pub[0] if pub else kernel) + (" + x/y transfers" if transfers else "")
        t.append([case, label, tesla, fermi, mpi, today, _ratio(fermi, today),
                  m.get("gflops", 0), _pct(m)])
    if t:
        out.append(table(["case", "kernel", "Tesla s", "Fermi s", "MPI s", "today s (100 SpMV)", "vs Fermi",
                          "GFLOP/s", "% of copy"], t))
    else:
        out.append("No thesis rows in this run (`--param spmv.parts=thesis,modern,stencil` adds them).\n")
    modern = [m for m in rows if not m["kernel"].startswith(("thesis", "native_copy", "best:"))]
    if modern:
        out.append("\n**Modern kernels (and cuSPARSE where built), GFLOP/s and % of copy**\n")
        out.append(table(["kernel", "precision", "ms per SpMV", "GFLOP/s", "% of copy", "note"],
                         [[m["kernel"], m["precision"], m["median_ms"], m.get("gflops", 0), _pct(m), m["note"]]
                          for m in modern]))
    return "\n".join(out)


def gmres(suites, histories, fmt, table):
    rows, copy = _rows(suites, "gmres")
    out = []
    if rows is None:
        out.append(_missing("gmres"))
    else:
        out.append("Published: 100 GMRES iterations per case, fastest GPU kernel (CUDA BELL V4) and MPI on 8 "
                   "cores (sparse-gmres-seed.md Table 6.11). Today: 100 iterations in the thesis mode (vectors "
                   "on the host, SpMV and preconditioner on the device) and fully resident.\n")
        t = []
        for m in rows:
            case = _case_of(m["kernel"])
            if not m["kernel"].startswith("gmres") or m.get("median_ms", 0) <= 0:
                continue
            i = P.SPMV_CASES.index(case) if case in P.SPMV_CASES else None
            v4 = P.SPMV_KERNELS["bell-v4"]
            fixed = " it " in m["kernel"]
            t.append([m["kernel"], v4[1][i] if i is not None and fixed else None,
                      v4[2][i] if i is not None and fixed else None,
                      P.SPMV_MPI[i] if i is not None and fixed else None, m["median_ms"] / 1e3, _pct(m), m["note"]])
        out.append(table(["run", "thesis Tesla s", "thesis Fermi s", "thesis MPI s", "today s", "% of copy", "note"],
                         t))
    if histories and histories.get("krylov"):
        out.append("\n**Residual histories (this run)**\n")
        out.append(table(["solver", "status", "iterations", "true relative residual", "seconds"],
                         [[h["label"], h["status"], str(h["iterations"]), h["true_relres"], h["seconds"]]
                          for h in histories["krylov"]]))
    if histories and histories.get("errors"):
        out.append("\nHistories that failed: " + "; ".join(histories["errors"]) + "\n")
    return "\n".join(out)


def lbm(suites, histories, fmt, table):
    rows, copy = _rows(suites, "lbm")
    if rows is None:
        return _missing("lbm")
    out = ["Published: the thesis-gas benchmark, 200 iterations, NVIDIA A100 SXM 80 GB after optimisation "
           "(skeleton-lbm-seed.md Appendix A, Table B.4), as quoted in each row's note. Reference on the "
           f"H200: {P.H200['lbm']}.\n"]
    t = []
    for m in rows:
        g = re.search(r"(\d+) MLUPS; thesis (\S+) (\S+) (\d+) MLUPS", m.get("note", ""))
        if g:
            t.append([m["kernel"], m["precision"], str(m["size"]), float(g.group(4)), float(g.group(1)),
                      f"{float(g.group(1)) / float(g.group(4)):.1f}x", _pct(m)])
    if t:
        out.append(table(["benchmark", "precision", "side", "thesis A100 MLUPS", "today MLUPS", "ratio", "% of copy"],
                         t))
    prod = [m for m in rows if not re.search(r"thesis \S+ \S+ \d+ MLUPS", m.get("note", ""))]
    if prod:
        out.append("\n**Production D3Q19 and scaling rows**\n")
        out.append(table(["kernel", "precision", "cells/side", "ms", "% of copy", "note"],
                         [[m["kernel"], m["precision"], str(m["size"]), m["median_ms"], _pct(m), m["note"]]
                          for m in prod]))
    return "\n".join(out)


def skeleton(suites, histories, fmt, table):
    rows, copy = _rows(suites, "skeleton")
    if rows is None:
        return _missing("skeleton")
    out = ["The skeleton study published no absolute table for these kernels; the measure is the overhead of "
           "the skeleton over a hand-written kernel (note column) and the fraction of copy.\n"]
    out.append(table(["kernel", "precision", "n", "ms", "GB/s", "% of copy", "note"],
                     [[m["kernel"], m["precision"], str(m["size"]), m["median_ms"], m.get("gbps", 0), _pct(m),
                       m["note"]] for m in rows if m["kernel"] != "native_copy"]))
    return "\n".join(out)


def dense_stream(suites, histories, fmt, table):
    out = []
    rows, copy = _rows(suites, "stream")
    if rows is None:
        out.append(_missing("stream"))
    else:
        out.append(f"STREAM on this device; reference on the H200: {P.H200['copy']}, {P.H200['triad']}.\n")
        out.append(table(["kernel", "precision", "elements", "GB/s", "% of copy"],
                         [[m["kernel"], m["precision"], str(m["size"]), m.get("gbps", 0), _pct(m)] for m in rows]))
    rows, copy = _rows(suites, "dense")
    if rows is None:
        out.append("\n" + _missing("dense"))
    else:
        out.append(f"\nDense kernels; the lecture's figure is quoted in the notes. Reference on the H200: "
                   f"{P.H200['sgemm']}, {P.H200['dgemm']}.\n")
        out.append(table(["kernel", "precision", "n", "ms", "GFLOP/s", "% of copy", "note"],
                         [[m["kernel"], m["precision"], str(m["size"]), m["median_ms"], m.get("gflops", 0), _pct(m),
                           m["note"]] for m in rows]))
    return "\n".join(out)
