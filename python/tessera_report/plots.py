"""The report's plots (matplotlib, PNG + SVG under OUT/plots). Importing this
module raises ImportError without matplotlib; report.py then notes it."""
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def _save(fig, out_dir, name):
    d = os.path.join(out_dir, "plots")
    os.makedirs(d, exist_ok=True)
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(d, f"{name}.{ext}"), dpi=120, bbox_inches="tight")
    plt.close(fig)
    return f"![{name}](plots/{name}.png) ([SVG](plots/{name}.svg))\n"


def _rows(suites, name):
    s = suites.get(name)
    return (s["devices"][0]["results"], s["devices"][0].get("copy_gbps", 0)) if s else ([], 0)


def roofline(out_dir, index, suites, histories):
    fig, ax = plt.subplots(figsize=(8, 5.5))
    copies = []
    for name, s in suites.items():
        dev = s["devices"][0]
        if dev.get("copy_gbps"):
            copies.append(dev["copy_gbps"])
        pts = [(m["flops"] / m["bytes"], m["gflops"]) for m in dev["results"]
               if m.get("flops", 0) > 0 and m.get("bytes", 0) > 0 and m.get("gflops", 0) > 0]
        if pts:
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], label=name, s=18)
    if not copies:
        plt.close(fig)
        return "Roofline: no suite measured the copy bandwidth.\n"
    copy = sorted(copies)[len(copies) // 2]
    xs = [2.0 ** k for k in range(-6, 8)]
    ax.plot(xs, [copy * x for x in xs], "k--", label=f"copy bandwidth {copy:.0f} GB/s x intensity")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (modelled flop / modelled byte)")
    ax.set_ylabel("GFLOP/s")
    ax.set_title(f"Roofline against the measured copy bandwidth: {index.get('device', {}).get('name', '')}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    md = _save(fig, out_dir, "roofline")

    fig, ax = plt.subplots(figsize=(8, 4.5))
    names = [n for n in suites]
    for i, name in enumerate(names):
        fr = [100 * m.get("fraction_of_copy", 0) for m in suites[name]["devices"][0]["results"]
              if m["kernel"] != "native_copy" and m.get("fraction_of_copy", 0) > 0]
        ax.scatter([i] * len(fr), fr, s=14)
    ax.axhline(100, color="k", ls="--", lw=1)
    ax.set_xticks(range(len(names)), names, rotation=30)
    ax.set_ylabel("% of copy bandwidth (modelled bytes)")
    ax.set_title("Every figure as a fraction of the copy bandwidth of its run")
    ax.grid(True, axis="y", alpha=0.3)
    return md + _save(fig, out_dir, "fraction_of_copy")


def swe_scaling(out_dir, index, suites, histories):
    rows, _ = _rows(suites, "swe")
    series = {}
    for m in rows:
        g = re.search(r"\((\d+) steps\)", m["kernel"])
        if not g or m.get("median_ms", 0) <= 0:
            continue
        steps, n = int(g.group(1)), int(m["size"])
        label = re.sub(r" \(\d+ steps\)", "", m["kernel"]) + f" {m['precision']}"
        series.setdefault(label, []).append((n, n * n * steps / (m["median_ms"] * 1e3)))  # Mcell/s
    if not series:
        return "SWE scaling: no swe rows.\n"
    fig, ax = plt.subplots(figsize=(8, 5))
    for i, (label, pts) in enumerate(sorted(series.items())):
        pts.sort()  # ten colours, then another marker: every series its own look
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "os^Dv"[(i // 10) % 5] + "-", ms=4,
                color=plt.cm.tab10(i % 10), label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("grid side n (n² cells)")
    ax.set_ylabel("Mcell/s")
    ax.set_title("Shallow water: throughput over grid size (--param swe.scaling=1 adds sizes)")
    ax.grid(True, which="both", alpha=0.3)
    # beside the axes: with thirty variants a legend inside hides the points
    ax.legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return _save(fig, out_dir, "swe_scaling")


def lbm_scaling(out_dir, index, suites, histories):
    rows, _ = _rows(suites, "lbm")
    series = {}
    for m in rows:
        g = re.search(r"(\d+) MLUPS", m.get("note", ""))
        if not g:
            continue
        d = re.search(r"(\d+) device\(s\)", m["kernel"])
        key = re.sub(r" x\d+ (steps|iterations)", "", m["kernel"]) + f" {m['precision']}"
        if d:  # multi-device scaling: x = devices
            key = re.sub(r", \d+ device\(s\)", "", key)
            series.setdefault(("devices", key), []).append((int(d.group(1)), float(g.group(1))))
        else:  # x = lattice cells: the D3Q19 rows give cells, the thesis gas its cube's side
            n = int(m["size"])
            cells = n ** 3 if key.startswith("thesis-gas") else n
            series.setdefault(("cells", key), []).append((cells, float(g.group(1))))
    if not series:
        return "LBM scaling: no lbm rows.\n"
    kinds = sorted(set(k[0] for k in series))
    fig, axes = plt.subplots(1, len(kinds), figsize=(6 * len(kinds), 4.5), squeeze=False)
    for ax, kind in zip(axes[0], kinds):
        for (k, label), pts in sorted(series.items()):
            if k != kind:
                continue
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=label, ms=4)
        if kind == "cells":
            ax.set_xscale("log")
        ax.set_xlabel("lattice cells" if kind == "cells" else "devices")
        ax.set_ylabel("MLUPS (million lattice updates per second)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("Lattice Boltzmann: MLUPS over size and devices")
    return _save(fig, out_dir, "lbm_scaling")


# Relative residuals below double round-off are not residuals any more: a
# solver's recursive estimate (GMRES's Givens product) keeps shrinking after
# convergence although the true residual cannot (CGS2 on TRACE: 1e-98 estimated,
# 3e-16 true). Such values are drawn at this floor.
ROUNDOFF = 2.2e-16
FLOOR = 1e-17


def _histories(out_dir, entries, name, title, xlabel):
    if not entries:
        return f"{title}: no histories in this run.\n"
    fig, ax = plt.subplots(figsize=(8, 5))
    clipped = False
    for h in entries:
        clipped |= min(h["relative_residuals"], default=1) < FLOOR
        r = [max(v, FLOOR) for v in h["relative_residuals"]]
        (line,) = ax.semilogy(range(len(r)), r, "-", marker="." if len(r) < 60 else None, label=h["label"])
        if h.get("true_relres") is not None:  # the true residual at the end: x
            ax.semilogy([len(r) - 1], [max(h["true_relres"], FLOOR)], "x", ms=8, color=line.get_color())
    if any(h.get("true_relres") is not None for h in entries):  # the markers' legend entry
        ax.semilogy([], [], "x", ms=8, color="black", label="true ||b - Ax|| / ||b|| at the end")
    ax.axhline(ROUNDOFF, ls=":", lw=1, color="gray", label="double round-off")
    ax.set_ylim(bottom=FLOOR / 3)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("relative residual")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    note = ""
    if any(h.get("true_relres") is not None for h in entries):
        note += "x: the true relative residual at the end. "
    if clipped:
        note += (f"Values below {FLOOR:g} (a recursive estimate past double round-off, dotted) are drawn at "
                 f"{FLOOR:g}. ")
    return _save(fig, out_dir, name) + (f"\n{note.strip()}\n" if note else "")


def spmv_formats(out_dir, index, suites, histories):
    rows, _ = _rows(suites, "spmv")
    data = {}
    for m in rows:
        k = m["kernel"]
        if k.startswith(("native_copy", "best:")) or m.get("gflops", 0) <= 0:
            continue
        g = re.match(r"(?:thesis )?(\S+) (\S+)", k)
        if not g:
            continue
        case, kernel = g.group(1), g.group(2) + (" (thesis, x/y transfers)" if "transfers" in k else "")
        data.setdefault(case, {})[kernel] = m["gflops"]
    if not data:
        return "SpMV per format: no spmv rows.\n"
    cases = sorted(data)
    fig, axes = plt.subplots(len(cases), 1, figsize=(9, 3 * len(cases)), squeeze=False)
    for ax, case in zip(axes[:, 0], cases):
        items = sorted(data[case].items(), key=lambda kv: -kv[1])
        ax.barh([k for k, _ in items], [v for _, v in items],
                color=["tab:red" if "cusparse" in k else "tab:blue" for k, _ in items])
        ax.invert_yaxis()
        ax.set_title(case, fontsize=9)
        ax.set_xlabel("GFLOP/s")
        ax.tick_params(labelsize=7)
    fig.suptitle("SpMV GFLOP/s per kernel and format (red: cuSPARSE)")
    fig.tight_layout()
    return _save(fig, out_dir, "spmv_formats")


def make_all(out_dir, index, suites, histories):
    md = []
    h = histories or {}
    jobs = [("Roofline", lambda: roofline(out_dir, index, suites, histories)),
            ("SWE scaling", lambda: swe_scaling(out_dir, index, suites, histories)),
            ("LBM scaling", lambda: lbm_scaling(out_dir, index, suites, histories)),
            ("Multigrid convergence", lambda: _histories(out_dir, h.get("mg"), "mg_convergence",
                                                         "Multigrid: relative residual per cycle", "cycle")),
            ("GMRES residual histories", lambda: _histories(out_dir, h.get("krylov"), "krylov_residuals",
                                                            "Krylov solvers: relative residual per iteration",
                                                            "iteration")),
            ("SpMV GFLOP/s per format", lambda: spmv_formats(out_dir, index, suites, histories))]
    for title, job in jobs:
        md.append(f"\n### {title}\n")
        try:
            md.append(job())
        except Exception as e:  # one plot failing leaves the others
            md.append(f"(plot failed: {type(e).__name__}: {e})\n")
    return "\n".join(md)
