#!/usr/bin/env python3
"""Every preset, main run and every sweep point, through the command line: the core checks its
physical invariants after each run and each point (api/invariants.hpp) and exits 3 with
"model fault: ..." when one breaks; this fails on that, or on any other error. It also reads
every point's results itself, not trusting the core's bounds: no UDP throughput above the
nominal wire (the ethernet_limit metric, per direction), no TCP stream above the link's
goodput, no fraction above 1.

Run by ctest: presets_invariants_test.py <path to nicsim> <scenarios dir>
"""

import glob
import json
import os
import random
import subprocess
import sys
import tempfile
import time


def value(results, name):
    m = results.get(name)
    return m["value"] if isinstance(m, dict) else m


def beyond_physics(results):
    """What in one point's results exceeds a physical limit, as messages."""
    out = []
    limit = value(results, "ethernet_limit")
    if limit:
        tx = value(results, "udp_tx_throughput") or 0
        rx = value(results, "udp_rx_throughput") or 0
        one = limit / 2 if tx > 0 and rx > 0 else limit
        for name, cap in (("udp_tx_throughput", one), ("udp_rx_throughput", one),
                          ("content_throughput", one), ("udp_total_throughput", limit)):
            v = value(results, name)
            if v is not None and v > cap * (1 + 1e-9):
                out.append(f"{name} = {v} above the wire's {cap}")
    goodput = value(results, "tcp_goodput_limit")
    tcp = value(results, "tcp_throughput")
    if goodput and tcp is not None and tcp > goodput * (1 + 1e-9):
        out.append(f"tcp_throughput = {tcp} above the link's goodput {goodput}")
    for name, m in results.items():
        if isinstance(m, dict) and m.get("unit") == "fraction" and m["value"] > 1 + 1e-9:
            out.append(f"{name} = {m['value']} above 1")
    return out


def main(cli, scenarios):
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        # The access-log preset replays a log: a seeded request file stands for one.
        requests = os.path.join(tmp, "requests.txt")
        rng = random.Random(1)
        with open(requests, "w", encoding="utf-8") as f:
            for _ in range(20000):
                f.write(f"{rng.randrange(2000)} {rng.randrange(100, 200000)}\n")
        for path in sorted(glob.glob(os.path.join(scenarios, "*.json"))):
            if path.endswith("scenario.schema.json"):
                continue
            args = [cli, path]
            if "access-log" in os.path.basename(path):
                args += ["--requests", requests]
            start = time.monotonic()
            r = subprocess.run(args, capture_output=True, text=True)
            took = time.monotonic() - start
            name = os.path.basename(path)
            print(f"{name}: exit {r.returncode}, {took:.1f} s", flush=True)
            if r.returncode != 0:
                failures.append(f"{name}: exit {r.returncode}: {r.stderr.strip()[:2000]}")
                continue
            doc = json.loads(r.stdout)
            points = [("main run", doc["results"])] + [
                (f"sweep {p.get('series', '')} {p['value']}", p["results"])
                for p in doc.get("sweep", [])
            ]
            for label, results in points:
                for problem in beyond_physics(results):
                    failures.append(f"{name}, {label}: {problem}")
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
