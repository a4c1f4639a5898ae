#!/usr/bin/env python3
"""Option fuzzer for the tessera command line (docs/reliability.md).

For every command and every option that takes a value, discovered from the
CLI11 definitions (`tessera options`, not a hand list), run a small valid case
with that option replaced by hostile values -- NaN, +-inf, 0, -1, the type's
extremes, 1e300, malformed text -- and assert:

  * no crash (death by a signal) and no hang (a timeout);
  * the exit code is 0, 1 or 2;
  * NaN, +-inf and text that is no number, given to a numeric option, are
    refused: exit 2 (never 0);
  * a usage error (exit 2) names the option (or, for a positional, its value);
  * a run that failed (exit 1 or 2) left no file in its output folder (a
    run that started and did not converge, or whose solution went bad, keeps
    its summary and last good outputs, which record that).

The base cases are small runs of each command; the option under test
replaces the base case's own value of it (all its names and values), or is
appended. A run still going after the timeout is sent SIGINT: a long but
valid run (lbm --steps 2^31) must then end within 10 s (exit 130, or death
by the signal for commands without a handler); only one that does not is a
hang.

  option_fuzz.py TESSERA [--device cpu] [--device opencl:0:0] [--sample N --seed S]
                 [--timeout S] [--json FILE] [--only CMD]

Without --sample every (option, value) pair runs (the full sweep,
scripts/option-fuzz.sh); with it, N pairs drawn at random (CI). Ends with
'N passed, N failed'; exit 1 on any failure.
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile

FLOAT_VALUES = ["nan", "NaN", "inf", "-inf", "0", "-0", "-1", "1e300", "-1e300", "1.7976931348623157e308",
                "4.9e-324", "1e-300", "abc", "1.5x", ""]
INT_VALUES = ["0", "-1", "1", "2147483647", "2147483648", "9223372036854775807", "-9223372036854775808",
              "9223372036854775808", "1e300", "nan", "inf", "abc", "3.5", ""]
TEXT_VALUES = ["nan", "inf", "-1", "0", "1e300", "", "abc", "x" * 300, "/proc/tessera-fuzz/sub/file", "%s%n%x",
               "a,b,,c", "1:2:3:4"]
OUTCOME = re.compile(r"not converged|did not reach|stagnated|diverged|breakdown|became invalid")
NOT_A_NUMBER = {"nan", "NaN", "inf", "-inf", "abc", "1.5x", "", "3.5", "1e300"}

# Small valid runs of each command. {dev} is the device, {tmp} a fresh folder
# per run, {mtx} a small Matrix Market file made once.
BASE = {
    ("lbm",): "lbm --case cavity --lattice D2Q9 --size 12 --steps 20 --device {dev} --out {tmp}/out --json {tmp}/s.json",
    ("swe",): "swe --case stoker --nx 16 --t-end 0.2 --device {dev} --out {tmp}/out --json {tmp}/s.json",
    ("mg",): "mg --dim 2 --n 15 --max-cycles 30 --tol 1e-6 --device {dev} --json {tmp}/s.json",
    ("solve",): "solve --generate trace:3x5x4 --max-iters 300 --device {dev} --json {tmp}/s.json",
    ("sparse", "info"): "sparse info {mtx}",
    ("sparse", "convert"): "sparse convert {mtx} {tmp}/out.mtx",
    ("sparse", "generate"): "sparse generate trace:3x5x4 {tmp}/out.mtx",
    ("sparse", "spmv"): "sparse spmv --generate trace:3x5x4 --device {dev} --reps 1 --warmup 0",
    ("skel-demo",): "skel-demo heat2d --device {dev} --size 16 --steps 4 --json {tmp}/s.json",
    ("bench",): "bench stream --device {dev} --size 1000 --reps 1 --warmup 0 --json {tmp}/s.json",
    ("devices",): "devices",
}
# Options whose value names a file to read or a folder to write: the hostile
# texts are tried, but what they mean is judged by the reader's own tests.
SKIP = {"--help", "--version", "--config", "--restart", "--rhs-file", "--bathymetry", "--level-file", "--import",
        "--matrix", "--python"}


def kind(opt):
    t = opt["type"]
    if t.startswith("FLOAT"):
        return "float"
    if t.startswith("INT") or t.startswith("UINT"):
        return "int"
    return "text"


def members(opt):
    m = re.search(r"\{([^}]*)\}", opt["type"])
    return [x.strip() for x in m.group(1).split(",")] if m else []


def cases(commands):
    """(command path, option, value, verdict) for every pair; verdict 'refuse'
    when the value must be refused with exit 2."""
    out = []
    for c in commands:
        path = tuple(c["command"])
        if path not in BASE:
            continue
        for o in c["options"]:
            if o["flag"] or o["positional"] or o["name"] in SKIP:
                continue
            k = kind(o)
            values = FLOAT_VALUES if k == "float" else INT_VALUES if k == "int" else TEXT_VALUES
            for v in values + ([m for m in members(o)] if k == "text" else []):
                refuse = (k == "float" and v in NOT_A_NUMBER - {"1e300"}) or (k == "int" and v in NOT_A_NUMBER)
                if k == "text" and members(o) and v not in members(o):
                    refuse = True
                out.append((path, o["name"], v, "refuse" if refuse else "any"))
    return out


def files_in(d):
    found = []
    for root, _, names in os.walk(d):
        found += [os.path.join(root, n) for n in names]
    return found


def with_option(base, names, name, value):
    """`base` with its own value(s) of the option (any of `names`) replaced by `value`."""
    out, k, done = [], 0, False
    while k < len(base):
        if base[k] in names:
            k += 1
            while k < len(base) and not base[k].startswith("-"):
                k += 1  # its values (lbm --size X Y Z)
            if not done:
                out += [name, value]
                done = True
            continue
        out.append(base[k])
        k += 1
    return out if done else out + [name, value]


def run_case(tessera, dev, mtx, case, timeout, names):
    path, name, value, verdict = case
    tmp = tempfile.mkdtemp(prefix="tsfuzz-")
    try:
        base = BASE[path].format(dev=dev, tmp=tmp, mtx=mtx).split()
        args = [tessera] + with_option(base, names[(path, name)], name, value)
        env = dict(os.environ, OMP_NUM_THREADS="1")
        p = subprocess.Popen(args, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             errors="replace", env=env, stdin=subprocess.DEVNULL)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGINT)  # a long valid run must stop on a signal
            try:
                out, err = p.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.communicate()
                return "hang: no exit within {} s, nor 10 s after SIGINT".format(timeout), None
            if p.returncode in (130, -signal.SIGINT):
                return None, "long"
            return "exit {} after SIGINT (expected 130)\n{}".format(p.returncode, (out + err)[-2000:]), p.returncode
        msg = (out + err)[-2000:]
        rc = p.returncode
        if rc < 0:
            return "crash: killed by signal {}\n{}".format(-rc, msg), rc
        if "At Most 1 required" in msg:
            return "the option was given twice: the case tests nothing\n{}".format(msg), rc
        if rc not in (0, 1, 2):
            return "exit {} (expected 0, 1 or 2)\n{}".format(rc, msg), rc
        if verdict == "refuse" and rc != 2:
            return "exit {} for an invalid value (expected 2)\n{}".format(rc, msg), rc
        if rc == 2 and name not in msg and not (value and re.search(r"(?<![\w.+-])" + re.escape(value) + r"(?![\w.])", msg)):
            return "usage error that names neither the option nor the value\n{}".format(msg), rc
        if rc != 0:
            left = files_in(tmp)
            # A run that started and then did not converge, or whose solution
            # went bad, keeps its summary and the outputs of its last good
            # state (exit 1): they are its result, not debris.
            if rc == 1 and OUTCOME.search(msg):
                left = []
            if left:
                return "exit {} left files behind: {}\n{}".format(rc, ", ".join(os.path.relpath(f, tmp) for f in left),
                                                                msg), rc
        return None, rc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tessera")
    ap.add_argument("--device", action="append", default=[])
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--json")
    ap.add_argument("--only")
    a = ap.parse_args()
    a.tessera = os.path.abspath(a.tessera)
    devices = a.device or ["cpu"]
    commands = json.loads(subprocess.run([a.tessera, "options"], check=True, capture_output=True, text=True).stdout)
    missing = [c["command"] for c in commands if tuple(c["command"]) not in BASE and not c["has_subcommands"]
               and tuple(c["command"]) not in {("demo",), ("report",)}]
    if missing:
        print("commands without a base case (add them to BASE): {}".format(missing))
        return 1
    all_cases = cases(commands)
    names = {(tuple(c["command"]), o["name"]): {"--" + n for n in o["names"]} | {o["name"]}
             for c in commands for o in c["options"]}
    if a.only:
        all_cases = [c for c in all_cases if " ".join(c[0]) == a.only]
    work = [(d, c) for d in devices for c in all_cases]
    if a.sample:
        random.Random(a.seed).shuffle(work)
        work = work[:a.sample]
    mtx_dir = tempfile.mkdtemp(prefix="tsfuzz-mtx-")
    mtx = os.path.join(mtx_dir, "a.mtx")
    subprocess.run([a.tessera, "sparse", "generate", "trace:3x5x4", mtx], check=True, capture_output=True)
    failures, codes = [], {}
    for i, (dev, c) in enumerate(work):
        err, rc = run_case(a.tessera, dev, mtx, c, a.timeout, names)
        codes[str(rc)] = codes.get(str(rc), 0) + 1
        if err:
            line = "{} [{}] {} {!r}: {}".format(" ".join(c[0]), dev, c[1], c[2], err)
            failures.append(line)
            print("FAIL " + line, flush=True)
    shutil.rmtree(mtx_dir, ignore_errors=True)
    summary = {"runs": len(work), "devices": devices, "options": len({(c[0], c[1]) for c in all_cases}),
               "exit_codes": codes, "failed": len(failures), "failures": failures}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(summary, f, indent=1)
    print("option fuzz: {} runs over {} options on {}; exit codes {}".format(
        len(work), summary["options"], ", ".join(devices), codes))
    print("{} passed, {} failed".format(len(work) - len(failures), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
