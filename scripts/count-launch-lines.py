#!/usr/bin/env python3
"""Launch code against kernel mathematics, per module (issue 41's measure).

For each src/<module>/kernels/ folder: the code lines (no blanks, no
comments) of the shared C99 headers (*.h: the per-point mathematics and,
with the one launcher, the kernel bodies), of everything else there (the
launch code: *_cpu.cpp, *_opencl.cpp, *_cuda.cu, *.cl, *.hpp, *.cuh, *.inc),
and the kernels the module has (OpenCL entry points: `__kernel` in .cl
files, plus X(kind, ...) entries of kernel lists).

  scripts/count-launch-lines.py [--rev REV] [--json FILE]

A revision from before the tree followed .clang-format counts differently
(its lines were longer); the counts are taken after clang-format-14 with the
tree's .clang-format, so that revisions compare line for line.
"""
import argparse, json, re, subprocess, sys
from pathlib import Path

def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)

def code_lines(text):
    text = strip_comments(text)
    return sum(1 for l in text.splitlines() if l.strip() and l.strip() not in "{}\\")

def formatted(name, text):
    out = subprocess.run(["clang-format-14", "--style=file:.clang-format", f"--assume-filename={name}"],
                         input=text, capture_output=True, text=True)
    return out.stdout if out.returncode == 0 else text

def files(rev):
    if rev is None:
        for p in Path("src").glob("*/kernels/*"):
            if p.is_file():
                yield str(p), p.read_text(errors="replace")
        return
    names = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, "src"], check=True,
                           capture_output=True, text=True).stdout.split()
    for n in names:
        if re.match(r"src/[^/]+/kernels/[^/]+$", n):
            yield n, subprocess.run(["git", "show", f"{rev}:{n}"], check=True,
                                    capture_output=True, text=True).stdout

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", help="a git revision instead of the working tree")
    ap.add_argument("--json", help="write the table as JSON to FILE")
    a = ap.parse_args()
    mods = {}
    for name, text in files(a.rev):
        text = formatted(name, text)
        mod = name.split("/")[1]
        m = mods.setdefault(mod, {"math": 0, "launch": 0, "kernels": 0})
        n = code_lines(text)
        text = strip_comments(text)
        if name.endswith(".h"):
            m["math"] += n
            m["kernels"] += len(re.findall(r"X\((?:each|each_one|cells|group|group_xy|group_dynamic|group_sized|group_sized_xy),", text))
        else:
            m["launch"] += n
        if name.endswith(".cl"):
            m["kernels"] += len(re.findall(r"__kernel\b", text))
    print(f"{'module':10} {'math':>6} {'launch':>7} {'ratio':>6} {'kernels':>8} {'launch/kernel':>14}")
    for mod, m in sorted(mods.items()):
        ratio = m["launch"] / m["math"] if m["math"] else float("inf")
        per = m["launch"] / m["kernels"] if m["kernels"] else float("nan")
        m["ratio"], m["launch_per_kernel"] = round(ratio, 2), round(per, 1)
        print(f"{mod:10} {m['math']:6} {m['launch']:7} {ratio:6.2f} {m['kernels']:8} {per:14.1f}")
    if a.json:
        Path(a.json).write_text(json.dumps({"rev": a.rev or "working tree", "modules": mods}, indent=1))

if __name__ == "__main__":
    sys.exit(main())
