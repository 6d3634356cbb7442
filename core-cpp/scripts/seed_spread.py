#!/usr/bin/env python3
"""How much each reference check of a scenario moves with the seed: a check that passes at the
default seed (1) only by the draw is not the model's answer.

Runs every scenario given (default scenarios/web-*.json; a glob or a file) whole, sweep and all,
with the native CLI at seeds 1..K, one run at a time. Seed k sets every path --vary names to k:
by default both run.seed and workload.trace_seed (a generated web trace is drawn from its own
seed, so that another draw has the same Table 4.1 statistics but other popular files; the run's
seed does not redraw it). It prints per check: its kind and basis, the
expected value and tolerance, the value at seed 1, the mean, standard deviation, least and
greatest over the K seeds, where seed 1 sits (z1: its distance from the mean in sd; a value
fitted at seed 1 tends to sit at an edge), how many seeds pass, and a verdict. A check relative to
another point (relative_to) is read as the ratio of its two points against its factor, since both
move.

  python3 core-cpp/scripts/seed_spread.py                        # every web scenario, 10 seeds
  python3 core-cpp/scripts/seed_spread.py scenarios/web-nasa-cache.json --seeds 20 --json o.json
  python3 core-cpp/scripts/seed_spread.py scenarios/web-rice-cache.json --set run.duration_us=2e6
  python3 core-cpp/scripts/seed_spread.py scenarios/eta-*.json --vary run.seed

--set overrides every run (the main run and each sweep point alike); use it only for what the
checks do not read (the window's length, the trace's length), to see how the spread narrows.

Verdicts, in this order (the first that applies). The check's room is the mean's distance from
the nearer edge of its band (expected +- expected x tolerance) for "within", from the bound for
at_least and at_most (negative when the mean is outside):
  LUCK     seed 1 passes, but the mean fails or more than 20 % of the seeds fail.
  MISS     the mean fails (and seed 1 too).
  SETTLED  the mean passes and 2 sd < room (an exact count: every seed gives the same value).
  NOISY    the mean passes, but 2 sd >= room: a seed can take it out of its band.
Thresholds, chosen: 2 sd < room keeps a normal spread's edge 2 sd from the mean (a settled
check fails for about one seed in 40 at most; for a mean at the band's centre this is the
"2 sd < tolerance" rule); more than 20 % failing (3 or more of 10) is not what a settled check
shows (a check failing one seed in 20 gives 3 of 10 once in about 90 tries), and it leaves one or
two failing seeds of ten to NOISY. The spread is the population's sd (over the K seeds asked,
not an estimate for others); with K = 10 it is itself known to about +-25 %.
"""

import argparse
import glob
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import time

FAIL_SHARE = 0.20  # LUCK above this share of failing seeds
SD_ROOM = 2.0  # SETTLED when SD_ROOM * sd < room


def run_seed(cli, path, seed, sets, vary):
    """The checks of one run at `seed`, the CPU seconds it took, or an error string."""
    args = [cli, path, "--format", "json"]
    for v in vary:
        args += ["--set", f"{v}={seed}"]
    for s in sets:
        args += ["--set", s]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(args, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        return None, cpu, f"exit {p.returncode}: {(p.stderr or p.stdout).strip()[:300]}"
    doc = json.loads(p.stdout)
    if "errors" in doc:
        return None, cpu, json.dumps(doc["errors"])[:300]
    return doc.get("checks", []), cpu, ""


def reading(check):
    """(value, expected) as the check is judged: the metric against its expected value, or for a
    check relative to another point, the ratio of the two against the factor."""
    rel = check.get("relative_to")
    if rel:
        base = rel["value"]
        return (check["simulated"] / base if base else math.inf), check["factor"]
    return check["simulated"], check["expected"]


def passes(check, value, expected):
    """Whether `value` passes the check's comparison with `expected` (the CLI's rule)."""
    tol = check.get("tolerance", 0) * abs(expected)
    c = check["comparison"]
    if c == "within":
        return abs(value - expected) <= tol * (1 + 1e-12)
    if c == "at_least":
        return value >= expected - tol
    return value <= expected + tol


def room(check, mean, expected):
    """How far the mean may move before the check fails: its distance from the nearer edge of
    the band, or from the bound (negative when the mean is beyond it)."""
    tol = check.get("tolerance", 0) * abs(expected)
    c = check["comparison"]
    if c == "within":
        return tol - abs(mean - expected)
    if c == "at_least":
        return mean - (expected - tol)
    return (expected + tol) - mean


def verdict(check, values, passed, expected):
    mean = statistics.fmean(values)
    sd = statistics.pstdev(values) if len(values) > 1 else 0.0
    mean_passes = passes(check, mean, expected)
    failing = passed.count(False) / len(passed)
    if passed[0] and (not mean_passes or failing > FAIL_SHARE):
        return "LUCK"
    if not mean_passes:
        return "MISS"
    r = room(check, mean, expected)
    if (r == 0 and sd == 0 and all(passed)) or (r > 0 and SD_ROOM * sd < r):
        return "SETTLED"
    return "NOISY"


def band(check, expected):
    tol = check.get("tolerance", 0)
    c = check["comparison"]
    pre = "x" if "relative_to" in check else ""
    if c == "within":
        return f"{pre}{expected:.4g} ± {tol:.0%}" if tol else f"= {pre}{expected:.4g}"
    sign = "≥" if c == "at_least" else "≤"
    edge = expected * (1 - tol if c == "at_least" else 1 + tol)
    return f"{sign} {pre}{edge:.4g}"


def study(cli, path, seeds, sets, vary):
    """Every check of the scenario at seeds 1..seeds: a row per check, and the run's costs."""
    per_seed, cpu, wall = [], [], []
    for seed in range(1, seeds + 1):
        t0 = time.time()
        checks, secs, err = run_seed(cli, path, seed, sets, vary)
        wall.append(time.time() - t0)
        cpu.append(secs)
        if err:
            return None, f"seed {seed}: {err}"
        per_seed.append(checks)
    rows = []
    for i, first in enumerate(per_seed[0]):
        readings = [reading(s[i]) for s in per_seed]
        values = [v for v, _ in readings]
        expected = readings[0][1]
        passed = [bool(s[i]["pass"]) for s in per_seed]
        mean = statistics.fmean(values)
        sd = statistics.pstdev(values) if len(values) > 1 else 0.0
        rows.append(
            {
                "id": first["id"],
                "metric": first["metric"],
                "kind": first.get("kind", ""),
                "basis": first.get("basis", ""),
                "comparison": first["comparison"],
                "relative": "relative_to" in first,
                "known_miss": "known_miss" in first,
                "expected": expected,
                "tolerance": first.get("tolerance", 0),
                "band": band(first, expected),
                "values": values,
                "passed": passed,
                "seed1": values[0],
                "mean": mean,
                "sd": sd,
                "min": min(values),
                "max": max(values),
                "passes": passed.count(True),
                "room": room(first, mean, expected),
                "verdict": verdict(first, values, passed, expected),
            }
        )
    cost = {"cpu_s_mean": statistics.fmean(cpu), "wall_s_mean": statistics.fmean(wall)}
    return {"rows": rows, "cost": cost}, ""


def print_table(name, res, seeds):
    print(f"\n{name}  ({seeds} seeds, {res['cost']['cpu_s_mean']:.2f} CPU s a run)")
    print(
        f"  {'check':32} {'kind':12} {'expected':>16} {'seed 1':>10} {'mean':>10} {'sd':>9} "
        f"{'min':>10} {'max':>10} {'z1':>5} {'2sd/room':>8} {'pass':>6}  verdict"
    )
    for r in res["rows"]:
        ratio = (2 * r["sd"] / r["room"]) if r["room"] > 0 else math.inf if r["sd"] else 0.0
        note = " (known miss)" if r["known_miss"] else ""
        kind = f"{r['kind'][:6]}/{r['basis'][:4]}"
        z1 = (r["seed1"] - r["mean"]) / r["sd"] if r["sd"] else 0.0
        print(
            f"  {r['id']:32} {kind:12} {r['band']:>16} {r['seed1']:10.4g} {r['mean']:10.4g} "
            f"{r['sd']:9.3g} {r['min']:10.4g} {r['max']:10.4g} {z1:5.1f} {ratio:8.2f} "
            f"{r['passes']:>3}/{seeds:<2}  {r['verdict']}{note}",
            flush=True,
        )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenarios", nargs="*", help="files or globs (default scenarios/web-*.json)")
    ap.add_argument("--seeds", type=int, default=10, help="seeds 1..K (default 10)")
    ap.add_argument("--bin", default="build/native/nicsim", help="the native CLI")
    ap.add_argument("--set", action="append", default=[], help="path=value for every run")
    ap.add_argument("--json", help="write every check's values per seed here")
    ap.add_argument(
        "--vary",
        action="append",
        help="a seed parameter set to k at seed k (default: run.seed and workload.trace_seed)",
    )
    a = ap.parse_args()
    paths = []
    for p in a.scenarios or ["scenarios/web-*.json"]:
        paths += sorted(glob.glob(p)) or [p]
    out = {"seeds": a.seeds, "set": a.set, "scenarios": {}}
    counts = {}
    for path in paths:
        if path.endswith("scenario.schema.json"):
            continue
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        name = doc.get("id", os.path.basename(path))
        if not doc.get("reference"):
            continue
        if doc.get("workload", {}).get("trace") == "log":
            print(f"\n{name}: skipped (replays an access log, which has no seed)")
            continue
        res, err = study(a.bin, path, a.seeds, a.set, a.vary or ["run.seed", "workload.trace_seed"])
        if err:
            print(f"\n{name}: {err}", file=sys.stderr)
            out["scenarios"][name] = {"error": err}
            continue
        print_table(name, res, a.seeds)
        out["scenarios"][name] = res
        for r in res["rows"]:
            counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    print("\n" + ", ".join(f"{v} {counts.get(v, 0)}" for v in ("SETTLED", "NOISY", "LUCK", "MISS")))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    return 1 if any("error" in s for s in out["scenarios"].values()) else 0


if __name__ == "__main__":
    sys.exit(main())
