#!/usr/bin/env python3
"""The CLI's conventions over every command, read from `tessera options`
(the CLI11 definitions themselves), so a new command or option is checked
without anyone listing it:

  * a short option means one long option in every command (hidden,
    deprecated spellings aside);
  * --device, --out, --size, --steps and --gpus have their short forms
    -d, -o, -s, -n and -g wherever they exist;
  * --json takes an optional FILE everywhere ("-" or none: standard output),
    and `--json -` leaves the JSON alone on standard output;
  * the deprecated `bench -n` still works and says so.

  cli_conventions.py TESSERA
"""
import json
import subprocess
import sys

SHORT = {"--device": "d", "--out": "o", "--size": "s", "--steps": "n", "--gpus": "g"}


def main():
    tessera = sys.argv[1]
    commands = json.loads(subprocess.run([tessera, "options"], check=True, capture_output=True,
                                         text=True).stdout)
    errors, meaning = [], {}
    for c in commands:
        name = " ".join(c["command"])
        for o in c["options"]:
            if o["positional"] or o["hidden"]:
                continue
            for s in o["short_names"]:
                meaning.setdefault(s, {}).setdefault(o["name"], []).append(name)
            want = SHORT.get(o["name"])
            if want and want not in o["short_names"]:
                errors.append(f"{name}: {o['name']} has no -{want}")
            if o["name"] == "--json" and (o["expected_min"], o["expected_max"]) != (0, 1):
                errors.append(f"{name}: --json takes {o['expected_min']}..{o['expected_max']} "
                              "values, not an optional FILE")
    for s, longs in sorted(meaning.items()):
        if len(longs) > 1:
            errors.append(f"-{s} means {', '.join(f'{l} in {c}' for l, c in longs.items())}")

    # --json - : standard output is the JSON alone, whatever else the command prints
    for args in (["devices", "--json", "-"], ["devices", "--json"],
                 ["sparse", "spmv", "--generate", "laplace7:5", "-d", "cpu", "--reps", "1", "--json"],
                 ["solve", "--generate", "poisson3d:6", "-d", "cpu", "--json", "-"],
                 ["bench", "stream", "-d", "cpu", "-s", "20000", "--reps", "1", "--json", "-"]):
        r = subprocess.run([tessera] + args, capture_output=True, text=True)
        try:
            json.loads(r.stdout)
        except ValueError as e:
            errors.append(f"tessera {' '.join(args)}: exit {r.returncode}, standard output is not "
                          f"JSON alone ({e}): {r.stdout[:200]!r}")
    r = subprocess.run([tessera, "bench", "stream", "-d", "cpu", "-n", "20000", "--reps", "1"],
                       capture_output=True, text=True)
    if r.returncode != 0 or "-n is deprecated" not in r.stderr or "20000" not in r.stdout:
        errors.append(f"bench -n: exit {r.returncode}, stderr {r.stderr[:200]!r}")
    for e in errors:
        print("convention broken:", e)
    print(f"{len(commands)} commands checked, {len(errors)} broken conventions")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
