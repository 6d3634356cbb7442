#!/usr/bin/env python3
"""Every preset, main run and every sweep point, through the command line: the core checks its
physical invariants after each run and each point (api/invariants.hpp) and exits 3 with
"model fault: ..." when one breaks; this fails on that, or on any other error.

Run by ctest: presets_invariants_test.py <path to nicsim> <scenarios dir>
"""

import glob
import os
import random
import subprocess
import sys
import tempfile
import time


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
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
