#!/usr/bin/env python3
"""Prints the Tigon's calibration targets (seed 000 Ch.3) beside what the model computes.

Usage: python3 core-cpp/scripts/calibrate_tigon.py [--set path=value ...]
Runs build/native/nicsim on single points; the scenarios hold the same points as references.
"""
import json
import subprocess
import sys
import tempfile

BASE = {
    "format": 1, "id": "cal", "title": "cal", "summary": "cal",
    "system": {"nic": {"model": "tigon"}, "bus": {"width_bits": 64, "clock_mhz": 66}},
    "workload": {"direction": "bidirectional", "datagram_bytes": 1472},
    "run": {"duration_us": 12000, "warmup_us": 4000, "trace": {"end_us": 0}},
}
EXTRA = sys.argv[1:]


def run(**sets):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(BASE, f)
        path = f.name
    args = ["build/native/nicsim", path, "--format", "json"]
    for k, v in sets.items():
        args += ["--set", f"{k.replace('__', '.')}={json.dumps(v)}"]
    for e in EXTRA:
        args += [e] if e.startswith("--") else [e]
    out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(out.stderr)
    return {k: v["value"] for k, v in json.loads(out.stdout)["results"].items()}


def fw(name):
    f = {"release": ("release", False), "bsd": ("bsd", False), "parallel": ("parallel", False),
         "parallel-sram-both": ("parallel", True), "release-sram-both": ("release", True)}[name]
    return {"system__tigon__firmware": f[0], "system__tigon__code_in_sram": f[1],
            "system__tigon__data_in_sram": f[1]}


def tput(name, direction, size):
    r = run(**fw(name), workload__direction=direction, workload__datagram_bytes=size)
    key = {"send": "udp_tx_throughput", "receive": "udp_rx_throughput",
           "bidirectional": "udp_total_throughput"}[direction]
    return r[key], r["ethernet_limit"], r


if __name__ == "__main__":
    rel, lim, _ = tput("release", "bidirectional", 1472)
    par, _, rp = tput("parallel", "bidirectional", 1472)
    bsd, _, _ = tput("bsd", "bidirectional", 1472)
    asic = run(system__nic__model="fixed")["udp_total_throughput"]
    print(f"bidi 1472: RELEASE {rel:.0f} (938)  PARALLEL {par:.0f} (1553)  BSD {bsd:.0f} "
          f"(1134)  ASIC {asic:.0f} (1882)  limit {lim:.0f}")
    print(f"   PARALLEL cpu A {rp['tigon_cpu_a_utilization']:.2f} B {rp['tigon_cpu_b_utilization']:.2f}"
          f" sram {rp['tigon_sram_utilization']:.2f} wait {rp['tigon_sram_wait_ns']:.0f} ns"
          f" SDR {rp['tigon_send_data_time']:.2f} us RC {rp['tigon_receive_time']:.2f} us")
    r18, _, _ = tput("release", "bidirectional", 18)
    p18, _, pp = tput("parallel", "bidirectional", 18)
    b18, _, _ = tput("bsd", "bidirectional", 18)
    print(f"bidi 18: RELEASE {r18:.1f} PARALLEL {p18:.1f} BSD {b18:.1f}  P/R {p18 / r18:.2f} (2.57)"
          f"  P/B {p18 / b18:.2f} (2.46)  P/R@1472 {par / rel:.2f} (1.65) P/B@1472 {par / bsd:.2f} (1.37)")
    print(f"   PARALLEL SDR {pp['tigon_send_data_time']:.2f} us RC {pp['tigon_receive_time']:.2f} us")
    for direction, sizes in (("send", (600, 800, 1000, 1200, 1472)), ("receive", (800, 1000, 1200, 1472))):
        for name in ("release", "bsd", "parallel", "parallel-sram-both", "release-sram-both"):
            row = []
            for size in sizes:
                t, l, _ = tput(name, direction, size)
                row.append(f"{size}:{t / l:.2f}")
            print(f"{direction:8s} {name:19s} fraction of limit  " + "  ".join(row))
    prof = run(**fw("release-sram-both"), workload__datagram_bytes=18, workload__rate_kpps=20)
    shares = {k[len("tigon_share_"):]: v for k, v in prof.items() if k.startswith("tigon_share_")}
    print("profile (Fig 3.5: SDR 30 RC 30 DRC 14 USC 0.6 others 4-6):",
          " ".join(f"{k}={100 * v:.1f}" for k, v in sorted(shares.items(), key=lambda x: -x[1])),
          f" drops {prof['rx_drop_fraction']:.3f}")
    part = run(**{**fw("parallel-sram-both"), "workload__datagram_bytes": 18,
                  "workload__rate_kpps": 20})
    print(f"PARALLEL split A {100 * part['tigon_cpu_a_share']:.1f}% (47%)")
