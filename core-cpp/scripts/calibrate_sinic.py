#!/usr/bin/env python3
"""tcp-stream (seed 003, SINIC / V-SINIC) against the paper's orderings of Figs 5-12.

Runs build/native/nicsim on every scenarios/sinic-*.json preset (its sweep included) and prints,
per sweep point, the bandwidth, the CPU breakdown (Figs 6, 9), misses per KB (Fig 8), the FIFO
and VNIC peaks and the link pause share, then each preset's checks. The per-packet costs in
core-cpp/sinic/sinic_params.cpp ("chosen") were set with this script; pass --set path=value to
try others, e.g.

  python3 core-cpp/scripts/calibrate_sinic.py --set system.cnic.pio_read_ns=400
  python3 core-cpp/scripts/calibrate_sinic.py --only four-nics,vnics --set system.host_cpu.ghz=2
"""
import argparse
import glob
import os
import sys

from calibrate_web import run_doc

# What the paper says, per preset (the SINIC paper §3 R1-R16; digest /work/shared/reference/003_sinic.md).
PAPER = {
    "four-nics": "Fig 5: off-chip CNIC well below on-chip; SINIC = or slightly above on-chip. "
                 "Fig 6: driver share shrinks on chip; stack+user share rises with bandwidth.",
    "cache-sizes": "Fig 7: SINIC saturates 10 Gb/s at 4-8 MB, 6 Gb/s (-40%) at 1 MB; V-SINIC "
                   "without zero copy slightly below. Fig 8: misses/KB -> 0 at large L2.",
    "zero-copy": "Figs 7-9: zero copy saturates at every L2, >50% gain at 1 MB, ~0 misses/KB, "
                 "copy time down, stack up. Fig 11: conservative gives up part of the gain.",
    "slow-readers": "Fig 10: aggressive zero copy degrades the slow reader (FIFO full); Fig 11: "
                    "conservative recovers; stream unchanged by zero copy.",
    "vnics": "Fig 12: 64 VNICs / 96 KB of on-chip FIFO reach full bandwidth; fewer fall short "
             "(<100 KB, §4).",
    "fifo-size": "Fig 12, §4: 96 KB of FIFO is enough; below ~100 KB performance suffers.",
}
COLS = [("tcp_throughput", "Gb/s", "{:6.2f}"), ("cpu_driver", "drv", "{:5.2f}"),
        ("cpu_stack", "stack", "{:5.2f}"), ("cpu_copy", "copy", "{:5.2f}"),
        ("cpu_user", "user", "{:5.3f}"), ("cpu_idle", "idle", "{:5.2f}"),
        ("l2_misses_per_kb", "miss/KB", "{:7.2f}"), ("rx_fifo_peak_kb", "fifoKB", "{:6.1f}"),
        ("vnics_bound_peak", "vnics", "{:5.0f}"), ("link_pause_share", "pause", "{:5.2f}"),
        ("zero_copy_share", "zc", "{:4.2f}")]


def show(name, d, secs, checks):
    print(f"== sinic-{name}  ({secs:.2f} s)  paper: {PAPER.get(name, '')}")
    spec = d.get("sweep_spec", {})
    head = f"{'point':28}" + " ".join(f"{h:>{len(f.format(0))}}" for _, h, f in COLS)
    print(head)
    points = d.get("sweep") or [{"results": d["results"], "value": "-"}]
    for pt in points:
        label = f"{pt.get('series', '')} {spec.get('parameter', '').split('.')[-1]}={pt['value']}"
        r = {k: v["value"] for k, v in pt["results"].items()}
        print(f"{label.strip():28}" + " ".join(f.format(r.get(k, 0)) for k, _, f in COLS))
    if checks:
        for c in d.get("checks", []):
            got = c["simulated"]
            print(f"   {'ok  ' if c['pass'] else 'FAIL'} {c['id']:34} {got:8.3f} "
                  f"{c['comparison']} {c['expected']:.3f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nicsim", default="build/native/nicsim")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--only", default=",".join(PAPER))
    ap.add_argument("--no-checks", action="store_true")
    a = ap.parse_args()
    extra = dict(s.split("=", 1) for s in a.set)
    for name in a.only.split(","):
        path = f"scenarios/sinic-{name}.json"
        if not os.path.exists(path):
            sys.exit(f"no preset {path}; have " +
                     ", ".join(sorted(glob.glob("scenarios/sinic-*.json"))))
        d, secs = run_doc(a.nicsim, path, extra)
        show(name, d, secs, not a.no_checks)


if __name__ == "__main__":
    main()
