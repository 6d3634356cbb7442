#!/usr/bin/env python3
"""The CLI's --format csv is RFC 4180 CSV with LF line ends: Python's csv module reads it back,
every row has the header's number of fields, and each field holds what the JSON output holds.

Run by ctest: csv_test.py <path to nicsim> <scenarios dir>
"""

import csv
import io
import json
import math
import subprocess
import sys


def run(cli, args):
    out = subprocess.run([cli, *args], check=True, capture_output=True)
    return out.stdout.decode("utf-8")


def same(cell, value):
    """A CSV field against the JSON value it came from."""
    if value is None:
        return cell == ""
    if isinstance(value, bool):
        return cell == ("true" if value else "false")
    if isinstance(value, (int, float)):
        return math.isclose(float(cell), float(value), rel_tol=0, abs_tol=0)
    return cell == value


def expected_rows(out):
    """The header and rows the CSV must hold, from the JSON output."""
    sweep = out.get("sweep") or []
    if not sweep:
        rows = [["metric", "value", "unit"]]
        for name, m in out["results"].items():
            rows.append([name, m.get("value"), m.get("unit", "")])
        return rows
    spec = out["sweep_spec"]
    series = spec.get("series_parameter")
    metrics = []
    for e in sweep:
        for name, m in e.get("results", {}).items():
            if name not in (n for n, _ in metrics):
                metrics.append((name, m.get("unit", "")))
    head = [spec["parameter"]] + ([series] if series else [])
    head += [f"{n} ({u})" if u else n for n, u in metrics]
    rows = [head]
    for e in sweep:
        row = [e.get("value")] + ([e.get("series")] if series else [])
        row += [e.get("results", {}).get(n, {}).get("value") for n, _ in metrics]
        rows.append(row)
    return rows


def check(cli, scenario, sets):
    args = [scenario]
    for s in sets:
        args += ["--set", s]
    text = run(cli, args + ["--format", "csv"])
    out = json.loads(run(cli, args))
    what = f"{scenario} {' '.join(sets)}".strip()
    problems = []
    if "\r" in text:
        problems.append("a CR: lines end with LF only")
    if not text.endswith("\n"):
        problems.append("the last line does not end with LF")
    rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    want = expected_rows(out)
    if len(rows) != len(want):
        problems.append(f"{len(rows)} rows, the output has {len(want)}")
    for i, row in enumerate(rows):
        if len(row) != len(rows[0]):
            problems.append(f"row {i} has {len(row)} fields, the header {len(rows[0])}")
    for i, (row, exp) in enumerate(zip(rows, want)):
        for j, (cell, value) in enumerate(zip(row, exp)):
            if not (cell == value if i == 0 else same(cell, value)):
                problems.append(f"row {i} field {j}: {cell!r}, the output has {value!r}")
    # Written again by Python's csv module (quoting only what needs it), it is the same text.
    again = io.StringIO()
    csv.writer(again, lineterminator="\n").writerows(rows)
    if again.getvalue() != text:
        problems.append("Python's csv module writes these rows differently")
    quoted = sum(1 for r in rows for c in r if "," in c or '"' in c or "\n" in c)
    print(f"{what}: {len(rows)} rows x {len(rows[0])} fields, {quoted} quoted")
    return [f"{what}: {p}" for p in problems[:10]]


def main():
    cli, scenarios = sys.argv[1], sys.argv[2].rstrip("/")
    cases = [
        # A sweep with a series parameter of words; one metric's unit holds commas.
        (f"{scenarios}/udp-throughput.json", []),
        (f"{scenarios}/pci-cost-model.json", []),
        # A sweep without a series parameter.
        (f"{scenarios}/send-ring-full.json", []),
        # No sweep: one row per metric.
        (f"{scenarios}/anatomy-of-a-send.json", []),
        # Overrides from the command line, a series of firmware names.
        (f"{scenarios}/tigon-one-or-two-cpus.json", ["run.seed=7", "workload.datagram_bytes=64"]),
    ]
    problems = []
    for scenario, sets in cases:
        problems += check(cli, scenario, sets)
    for p in problems:
        print("FAIL", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
