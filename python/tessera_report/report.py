#!/usr/bin/env python3
"""Writes OUT/report.md (and OUT/plots/*.png|svg) from the results that
`tessera report` left in OUT/results: for each original study its published
table next to today's measurement, the fraction of the copy bandwidth of every
figure, the vendor-library comparison and the plots.

Standard library only (matplotlib optional: without it the plots section says
so). Usage: report.py --out DIR  (reads DIR/results, writes DIR/report.md).
"""
import argparse
import json
import os
import re
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import published as P  # noqa: E402
import studies  # noqa: E402


def load(results_dir):
    index_path = os.path.join(results_dir, "index.json")
    with open(index_path) as f:
        index = json.load(f)
    suites = {}
    for entry in index.get("suites", []):
        if entry.get("status") == "ok":
            with open(os.path.join(results_dir, entry["suite"] + ".json")) as f:
                suites[entry["suite"]] = json.load(f)
    histories = None
    hp = os.path.join(results_dir, "histories.json")
    if os.path.exists(hp):
        with open(hp) as f:
            histories = json.load(f)
    return index, suites, histories


def fmt(v, digits=3):
    if v is None:
        return "–"
    if isinstance(v, str):
        return v
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 1000:
        return f"{v:,.0f}"
    if a >= 100:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.{max(digits - 1, 0)}f}".rstrip("0").rstrip(".") if digits > 1 else f"{v:.0f}"
    return f"{v:.{digits}g}"


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for r in rows:
        out.append("| " + " | ".join(fmt(c) if not isinstance(c, str) else c.replace("|", "\\|") for c in r) + " |")
    return "\n".join(out) + "\n"


def measurements_table(suite):
    """Every row of a suite with its roofline fraction."""
    lines = []
    for dev in suite["devices"]:
        copy = dev.get("copy_gbps", 0)
        lines.append(f"Copy bandwidth measured in this run: **{fmt(copy)} GB/s** (the denominator of every "
                     "'% of copy').\n")
        rows = []
        cpu = dev.get("device", {}).get("backend") == "cpu"
        for m in dev["results"]:
            frac = m.get("fraction_of_copy", 0)
            # a CPU row above the copy ran from its caches: not a memory figure
            cached = cpu and frac > 1.0
            rows.append([m["kernel"], m.get("precision", ""), str(m.get("size", "")), m.get("median_ms", 0),
                         m.get("gbps", 0), m.get("gflops", 0),
                         (f"{100 * frac:.1f}%" + (" (cache)" if cached else "")) if frac else "–",
                         m.get("note", "")])
        if cpu and any(m.get("fraction_of_copy", 0) > 1.0 for m in dev["results"]):
            cache = dev.get("device", {}).get("cache_bytes", 0)
            size = f" ({cache / 2**20:.0f} MiB here)" if cache else ""
            lines.append("On a CPU a working set that fits in its caches" + size + " runs faster than the "
                         "memory copy that '% of copy' divides by: rows marked (cache) ran from cache and "
                         "say nothing about memory bandwidth; `--size` beyond the caches measures memory.\n")
        lines.append(table(["kernel", "precision", "size", "median ms", "GB/s", "GFLOP/s", "% of copy", "note"],
                           rows))
    return "\n".join(lines)


def vendor_section(suites):
    rows = []
    for name, s in suites.items():
        for dev in s["devices"]:
            res = dev["results"]
            for m in res:
                k = m["kernel"].lower()
                if any(v in k for v in ("cusparse", "cublas", "vendor")):
                    rows.append([name, m["kernel"], m.get("precision", ""), m.get("median_ms", 0), m.get("gflops", 0),
                                 f"{100 * m.get('fraction_of_copy', 0):.1f}%", m.get("note", "")])
                elif k.startswith("best:"):
                    rows.append([name, m["kernel"], "", None, None, "", m.get("note", "")])
    if not rows:
        return ("No vendor-library rows in this run (cuBLAS and cuSPARSE rows exist only on CUDA devices of builds "
                "that found them).\n")
    return table(["suite", "kernel", "precision", "median ms", "GFLOP/s", "% of copy", "note"], rows)


def summary_section(index, suites):
    rows = []
    for e in index.get("suites", []):
        s = suites.get(e["suite"])
        best = ""
        copy = None
        if s:
            dev = s["devices"][0]
            copy = dev.get("copy_gbps")
            fr = [m.get("fraction_of_copy", 0) for m in dev["results"] if m["kernel"] != "native_copy"]
            best = f"{100 * max(fr):.0f}%" if fr and max(fr) > 0 else "–"
        err = e.get("error", "")
        rows.append([e["suite"], e.get("status", "?"), e.get("seconds", 0), copy, best, run_parameters(e), err[:300]])
    return table(["suite", "status", "seconds", "copy GB/s", "best % of copy", "parameters", "error"], rows)


def run_parameters(entry):
    """The suite's parameters; with `--keep`, those of each run that measured it."""
    def one(params, size):
        text = " ".join(f"`{p}`" for p in params)
        return (text + (f" size {size}" if size else "")).strip() or "defaults"
    runs = [one(r.get("params", []), r.get("size", 0)) for r in entry.get("earlier_runs", [])]
    runs.append(one(entry.get("params", []), entry.get("size", 0)))
    return " + ".join(runs) if len(runs) > 1 else runs[0]


def write_report(out_dir):
    results_dir = os.path.join(out_dir, "results")
    index, suites, histories = load(results_dir)
    dev = index.get("device", {})
    run = index.get("run", {})
    md = ["# tessera benchmark report\n"]
    md.append(f"- device: **{dev.get('name', '?')}** (`{dev.get('id', '?')}`, {dev.get('backend', '')}, "
              f"driver {dev.get('driver', dev.get('driver_version', '?'))}, {fmt(dev.get('global_mem_bytes', 0) / 2**30)} GiB)")
    md.append(f"- tessera {run.get('tessera_version', '?')} commit `{run.get('git_commit', '?')}` "
              f"({run.get('build_type', '?')}), {run.get('date', '?')}, host {run.get('host', '?')}")
    md.append(f"- mode: {'--quick (fewer configurations, smaller sizes on a CPU)' if index.get('quick') else 'full'}")
    md.append("- every figure is also given as a fraction of the device-to-device copy bandwidth measured in "
              "the same suite run (the roofline denominator); published figures come from the original "
              "studies' hardware, so the ratios say how far today's machine and code are from them.\n")
    md.append("## Suites\n")
    md.append(summary_section(index, suites))
    if index.get("histories_error"):
        md.append(f"\nConvergence histories failed: {index['histories_error']}\n")

    sections = [("Multigrid (2D thesis, 8191², 10 V(0,ν) cycles)", studies.mg),
                ("Shallow water (thesis variants, 1000², 3960 steps)", studies.swe),
                ("Sparse SpMV and GMRES (TRACE cases, thesis kernels)", studies.spmv),
                ("GMRES (thesis experiment: 100 iterations)", studies.gmres),
                ("Lattice Boltzmann (thesis-gas and production D3Q19)", studies.lbm),
                ("Skeletons (map/zip/fold, mapStencil vs hand-written)", studies.skeleton),
                ("Dense kernels and STREAM", studies.dense_stream)]
    md.append("\n## Published tables next to today's measurements\n")
    for title, fn in sections:
        md.append(f"\n### {title}\n")
        try:
            md.append(fn(suites, histories, fmt, table))
        except Exception as e:  # one broken section must not lose the report
            md.append(f"(section failed: {type(e).__name__}: {e})\n")
            traceback.print_exc()

    md.append("\n## Vendor libraries (cuBLAS, cuSPARSE)\n")
    md.append(vendor_section(suites))

    md.append("\n## Plots\n")
    try:
        import plots
        md.append(plots.make_all(out_dir, index, suites, histories))
    except ImportError as e:
        md.append(f"Plots skipped: {e} (install matplotlib: `pip install matplotlib`).\n")
    except Exception as e:
        md.append(f"Plots failed: {type(e).__name__}: {e}\n")
        traceback.print_exc()

    md.append("\n## All measurements\n")
    for name in [e["suite"] for e in index.get("suites", [])]:
        if name in suites:
            md.append(f"\n### {name}\n")
            md.append(measurements_table(suites[name]))
    text = "\n".join(md) + "\n"
    tmp = os.path.join(out_dir, ".report.md.tmp")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, os.path.join(out_dir, "report.md"))
    return os.path.join(out_dir, "report.md")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="folder holding results/ (report.md is written there)")
    a = ap.parse_args(argv)
    if not os.path.exists(os.path.join(a.out, "results", "index.json")):
        print(f"report.py: {a.out}/results/index.json not found (run `tessera report --out {a.out}` first)",
              file=sys.stderr)
        return 1
    path = write_report(a.out)
    print(f"report.py: wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
