#!/usr/bin/env python3
"""Every reference check of every preset as one Markdown table, from the command line's results:
preset, check, paper, the model's value, the paper's value, fitted or predicted, the check's
outcome in the preset's run, and whether the value holds at steady state (the judgment of
steady_state_test.py: twice the window, another seed; "known" for an entry of its KNOWN list,
with why).

For a check relative to another point the values are the ratio and the paper's factor.

    checks_table.py <path to nicsim> <scenarios dir> [preset ...]
"""

import concurrent.futures
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import steady_state_test  # noqa: E402  (the same directory)

PAPERS = {"seed 000": "thesis", "seed 003": "SINIC"}


def paper_of(source):
    for seed, name in PAPERS.items():
        if source.startswith(seed):
            return name
    return "facts"


def run_preset(cli, path):
    r = subprocess.run([cli, path], capture_output=True, text=True)
    if r.returncode != 0:
        return None, f"{os.path.basename(path)}: exit {r.returncode}: {r.stderr.strip()[:300]}"
    return json.loads(r.stdout)["checks"], ""


def num(v):
    return f"{v:.4g}"


def main(argv):
    cli, scenarios = argv[0], argv[1]
    only = argv[2:]
    paths = []
    for path in sorted(glob.glob(os.path.join(scenarios, "*.json"))):
        if path.endswith("scenario.schema.json"):
            continue
        with open(path, encoding="utf-8") as f:
            s = json.load(f)
        if s.get("reference") and (not only or s["id"] in only):
            paths.append((s["id"], path))
    checks = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        futures = {pool.submit(run_preset, cli, p): pid for pid, p in paths}
        for fut in concurrent.futures.as_completed(futures):
            res, err = fut.result()
            if err:
                print(err, file=sys.stderr)
                return 1
            checks[futures[fut]] = res
    rows, failures = steady_state_test.judge(cli, scenarios, only)
    if not rows:
        for f in failures:
            print("FAIL " + f, file=sys.stderr)
        return 1
    steady = {(pid, cid): ok for pid, cid, _, _, _, ok in rows}

    print(
        "| preset | check | paper | value | paper's value | unit "
        "| fitted or predicted | outcome | holds at steady state |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    counts = {}
    for pid, _ in paths:
        for c in checks[pid]:
            rel = c.get("relative_to")
            if rel and c.get("factor") is not None and rel.get("value"):
                unit = c.get("unit", "")
                unit = unit if unit.startswith("×") else "×"
                value, paper = c["simulated"] / rel["value"], c["factor"]
            else:
                value, paper, unit = c["simulated"], c["expected"], c.get("unit", "")
            ok = steady.get((pid, c["id"]))
            known = steady_state_test.KNOWN.get((pid, c["id"]))
            held = "yes" if ok else (f"no (known: {known})" if known else "no")
            print(
                f"| {pid} | {c['id']} | {paper_of(c['source'])} | {num(value)} | {num(paper)} "
                f"| {unit} | {c['basis']} | {c['outcome']} | {held} |"
            )
            k = counts.setdefault((paper_of(c["source"]), c["basis"]), [0, 0, 0, 0])
            k[0] += 1
            k[1] += c["outcome"] == "pass"
            k[2] += c["outcome"] == "known_miss"
            k[3] += bool(ok)
    print()
    for (paper, basis), (n, passed, missed, conv) in sorted(counts.items()):
        print(
            f"{paper}, {basis}: {n} checks, {passed} pass, {missed} explained misses, "
            f"{conv} hold at steady state"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
