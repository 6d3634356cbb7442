#!/usr/bin/env python3
"""Every value a reference check reads is converged: each check's point (and the point its
relative_to names) is run alone through the command line three times, with the preset's
measured window (1x), with twice that window (2x), and at 1x with another seed. The check's
deviation from its expected value, (simulated - expected) / |expected| (expected being the
factor times the other point's value for a relative check), must not move by more than a
quarter of the check's tolerance between them (another seed of a web trace is another trace:
printed, not judged, see TRACE_SEED_KINDS). A check with tolerance 0 is a bound or an exact
count: an exact count (comparison "within") must not move at all; a bound must keep its verdict
and move by at most a quarter of its margin (its distance from the bound), and at least of 1 %
of its expected value.

The measured window is run.duration_us - run.warmup_us for timed runs; for the web cache
simulator (no time), workload.trace_requests - workload.warmup_requests.

Run by ctest: steady_state_test.py <path to nicsim> <scenarios dir> [--table] [--places=N]
[preset ...]
--table prints every check's values (1x, 2x, other seed) as a Markdown table.
--places=N also runs each full-system web check at 1x at N other places in its trace (the
warm-up PLACE_STEP, 2 PLACE_STEP, ... requests longer, so the window holds other requests) and
adds their mean and spread to the table, judging nothing: a window that moves with its place as
much as with its length is a sample of the trace, one whose mean moves with its length is not
warmed up.
"""

import concurrent.futures
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile

PLACE_STEP = 40000  # requests between the places of --places
BOUND_BAND = 0.01  # the band a tolerance-0 bound is held to (a quarter of it, below)

# The web workloads' seed picks the generated trace (core-cpp/workload/web_trace.cpp), which
# stands for one published trace and was fitted at seed 1: another seed is another trace with
# the same published statistics, not another run of the same one. Its move is printed, and
# fails nothing.
TRACE_SEED_KINDS = {"web"}

# Not converged yet, each with why; printed as KNOWN, and a failure once they converge so the
# entry is removed. None now. The last ones were full-system web runs whose value rests on a few
# rare, costly requests of the generated trace (web_trace.cpp): Rice's mix in web-rice-cache, and
# write()'s cold multi-megabyte files (mapped per page) in web-sendfile-vs-write. None was a
# warm-up: at other places in the trace (--places) the windows' mean was the same at 1x as at 2x,
# and their spread a sample's, narrowing only as the square root of the requests; so their
# windows grew (2 s and 4 s) until one window's spread across places is within a quarter of the
# tolerance. (The trace ends: --places beyond about 4 runs Rice past its 245,820 requests.)
# (web-anatomy-of-a-request's nasa-content-off-the-bus is such a sample too, 52-86% of NASA's
# content off the bus over six places, but its bound, more than half, holds at each; seed 2's
# trace, fitted to nothing, keeps 39-59% off, 48% on average.)
KNOWN: dict = {}


def window_overrides(scenario, scale):
    """The --set overrides that make the measured window `scale` times the preset's."""
    run = scenario.get("run", {})
    work = scenario.get("workload", {})
    sets = {}
    if "duration_us" not in run:  # the web cache simulator: no time, requests
        n, w = work.get("trace_requests", 0), work.get("warmup_requests", 0)
        if n > 0:
            sets["workload.trace_requests"] = w + scale * (n - w)
        return sets
    d, w = run["duration_us"], run.get("warmup_us", 0)
    sets["run.duration_us"] = w + scale * (d - w)
    return sets


def point_key(at):
    return json.dumps(at or {}, sort_keys=True)


def run_point(cli, path, at, sets, tmp):
    """The results of one run of the preset at point `at` (its sweep removed), or an error."""
    with open(path, encoding="utf-8") as f:
        s = json.load(f)
    for k in ("sweep", "reference", "compare", "tour", "chart"):
        s.pop(k, None)
    name = f"{s['id']}-{abs(hash((point_key(at), point_key(sets))))}.json"
    file = os.path.join(tmp, name)
    with open(file, "w", encoding="utf-8") as f:
        json.dump(s, f)
    args = [cli, file]
    for k, v in list((at or {}).items()) + list(sets.items()):
        args += ["--set", f"{k}={json.dumps(v)}"]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        return None, f"exit {r.returncode}: {r.stderr.strip()[:500]} ({' '.join(args[2:])})"
    return json.loads(r.stdout)["results"], ""


def deviation(check, results):
    """(simulated, expected, deviation) of a check from its points' results."""
    sim = results[point_key(check.get("at"))][check["metric"]]["value"]
    expected = check["expected"]
    rel = check.get("relative_to")
    if rel:
        at = rel.get("at", check.get("at"))
        expected *= results[point_key(at)][rel.get("metric", check["metric"])]["value"]
    dev = (sim - expected) / abs(expected) if expected != 0 else sim
    return sim, expected, dev


def verdict(check, sim, expected):
    tol = check.get("tolerance", 0) * abs(expected)
    c = check["comparison"]
    if c == "within":
        return abs(sim - expected) <= tol
    if c == "at_least":
        return sim >= expected - tol
    return sim <= expected + tol


def judge(cli, scenarios, only=(), places=0):
    """Runs every check's point at 1x, 2x and another seed (and at `places` other places in a
    full-system web trace). Returns (rows, failures): a row per check, (preset id, check id,
    (simulated, expected, deviation) by variant and "places": the other places' values, moves,
    limit, converged), and the failures
    as lines (a run that failed, a check that moved, a KNOWN entry that converged)."""
    jobs = {}  # (preset path, point key, variant) -> (at, sets)
    presets = []
    for path in sorted(glob.glob(os.path.join(scenarios, "*.json"))):
        if path.endswith("scenario.schema.json"):
            continue
        with open(path, encoding="utf-8") as f:
            s = json.load(f)
        if not s.get("reference") or (only and s["id"] not in only):
            continue
        presets.append((path, s))
        seed = s.get("run", {}).get("seed", 1)
        variants = {
            "1x": window_overrides(s, 1),
            "2x": window_overrides(s, 2),
            "seed": {**window_overrides(s, 1), "run.seed": seed + 1},
        }
        work = s.get("workload", {})
        if work.get("kind") == "web" and "duration_us" in s.get("run", {}):
            for k in range(1, places + 1):
                variants[f"place{k}"] = {
                    **window_overrides(s, 1),
                    "workload.warmup_requests": work.get("warmup_requests", 0) + k * PLACE_STEP,
                }
        for check in s["reference"]:
            ats = [check.get("at")]
            if "relative_to" in check:
                ats.append(check["relative_to"].get("at", check.get("at")))
            for at in ats:
                for v, sets in variants.items():
                    jobs[(path, point_key(at), v)] = (at, sets)
    failures = []
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            futures = {
                pool.submit(run_point, cli, key[0], at, sets, tmp): key
                for key, (at, sets) in jobs.items()
            }
            for fut in concurrent.futures.as_completed(futures):
                key = futures[fut]
                res, err = fut.result()
                if err:
                    failures.append(f"{os.path.basename(key[0])} {key[2]} {key[1]}: {err}")
                results[key] = res
    if failures:
        return [], failures
    rows = []
    for path, s in presets:
        for check in s["reference"]:
            names = {vv for (p, _, vv) in results if p == path}
            by = {
                v: {pk: r for (p, pk, vv), r in results.items() if p == path and vv == v}
                for v in names
            }
            vals = {v: deviation(check, by[v]) for v in by}
            tol = check.get("tolerance", 0)
            exact = tol == 0 and check["comparison"] == "within"
            if exact:
                limit = 0.0
            elif tol > 0:
                limit = tol / 4
            else:  # a bound: a quarter of its margin, at least of BOUND_BAND
                limit = max(BOUND_BAND, abs(vals["1x"][2])) / 4
            moves = {v: abs(vals[v][2] - vals["1x"][2]) for v in ("2x", "seed")}
            judged = ["1x", "2x"]
            if s.get("workload", {}).get("kind") not in TRACE_SEED_KINDS:
                judged.append("seed")
            ok = all(moves[v] <= limit + 1e-12 for v in judged if v != "1x")
            if tol == 0 and not exact:
                ok = ok and len({verdict(check, *vals[v][:2]) for v in judged}) == 1
            # The other places' values; a relative check's as its ratio to the other point.
            vals["places"] = [
                (1 + d) * check["expected"] if "relative_to" in check else sim
                for v, (sim, _, d) in vals.items()
                if v.startswith("place")
            ]
            rows.append((s["id"], check["id"], vals, moves, limit, ok))
            known = KNOWN.get((s["id"], check["id"]))
            if known:
                if ok:
                    failures.append(f"{s['id']} {check['id']}: converged now; drop it from KNOWN")
                continue
            if not ok:
                failures.append(
                    f"{s['id']} {check['id']}: {check['metric']} "
                    f"1x {vals['1x'][0]:.6g} (expected {vals['1x'][1]:.6g}), "
                    f"2x {vals['2x'][0]:.6g} (expected {vals['2x'][1]:.6g}), "
                    f"other seed {vals['seed'][0]:.6g}: moved {moves['2x']:.4g} / "
                    f"{moves['seed']:.4g} of expected, limit {limit:.4g}"
                )
    return rows, failures


def place_spread(vals):
    """The other places' values of a check (vals["places"]): their mean, spread (standard
    deviation over the mean), least and greatest, or "-" when the preset has none."""
    sims = vals.get("places")
    if not sims:
        return "-"
    mean = statistics.fmean(sims)
    spread = statistics.pstdev(sims) / abs(mean) if mean else 0.0
    return f"{mean:.6g} ± {spread:.1%} ({min(sims):.4g}-{max(sims):.4g})"


def main(argv):
    cli, scenarios = argv[0], argv[1]
    table = "--table" in argv
    places = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--places=")), 0)
    only = [a for a in argv[2:] if not a.startswith("--")]
    rows, failures = judge(cli, scenarios, only, places)
    for pid, cid, *_ in rows:
        if (pid, cid) in KNOWN:
            print(f"KNOWN {pid} {cid}: {KNOWN[(pid, cid)]}", flush=True)
    if table:
        extra = " other places |" if places else ""
        print(f"| preset | check | 1x | 2x | other seed | move 2x | move seed | limit |{extra} |")
        print("|---|---|---|---|---|---|---|---|---|" + ("---|" if places else ""))
        for pid, cid, vals, moves, limit, ok in rows:
            print(
                f"| {pid} | {cid} | {vals['1x'][0]:.6g} | {vals['2x'][0]:.6g} | "
                f"{vals['seed'][0]:.6g} | {moves['2x']:.2%} | {moves['seed']:.2%} | {limit:.2%} |"
                + (f" {place_spread(vals)} |" if places else "")
                + f" {'pass' if ok else ('known' if (pid, cid) in KNOWN else 'FAIL')} |"
            )
    print(f"{len(rows)} checks, {len(failures)} not converged", flush=True)
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
