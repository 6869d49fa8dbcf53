#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""quality-compare.py — the quality at equal time of real threads beside simulated ones
(docs/benchmarks.md, "Which driver plays better at N threads"): the validation that the
simulator's quality figures mean something.

1. `cutoff bench` on the real machine: every position of the suite searched --ms
   milliseconds by each driver at each thread count (the baseline at 1 thread);
2. the virtual budget: unless --virtual-ms is given, the one at which the simulated serial
   search spends as many nodes a position as the real one did (one serial `cutoff sim`
   run at --ms virtual ms gives the simulator's node rate; the model's node cost is not
   this host's, and equal nodes, not equal milliseconds, make the two comparable);
3. `cutoff sim` with the same suite, drivers and thread counts at that virtual budget;
4. one table: per driver and thread count, the share of moves equal to the reference's
   best and the mean centipawn loss, real and simulated, each with its 95 % interval,
   and whether the intervals overlap.

Usage: bench/quality-compare.py [--cutoff build/cutoff] [--suite bench/quality-suite.epd]
                                [--ms 100] [--virtual-ms V] [--threads 1,2]
                                [--drivers lazysmp,ybw,abdada] [--out DIR]
Time nothing else meanwhile: the real half is timed searches.
"""
import argparse
import csv
import os
import subprocess
import sys


def run(cmd):
    sys.stderr.write("+ %s\n" % " ".join(cmd))
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("quality-compare.py: failed (%d): %s\n%s" % (r.returncode, " ".join(cmd),
                                                             r.stderr[-2000:]))
    return r.stdout


def rows(folder):
    with open(os.path.join(folder, "quality.csv")) as f:
        return {(r["driver"], int(r["threads"])): r for r in csv.DictReader(f)}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cutoff", default=os.path.join(root, "build", "cutoff"))
    ap.add_argument("--suite", default=os.path.join(here, "quality-suite.epd"))
    ap.add_argument("--ms", type=int, default=100)
    ap.add_argument("--virtual-ms", type=float, default=0)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--drivers", default="lazysmp,ybw,abdada")
    ap.add_argument("--out", default="quality-compare")
    a = ap.parse_args()
    if os.path.exists(a.out):
        sys.exit("quality-compare.py: %s exists: give another --out" % a.out)
    os.makedirs(a.out)
    common = ["--workload", "chess", "--positions", "1", "--chess-depth", "2", "--repeat", "1",
              "--plot", "svg", "--no-progress", "--quality-suite", a.suite]
    real = os.path.join(a.out, "real")
    run([a.cutoff, "bench", *common, "--stockfish", "off", "--quality-ms", str(a.ms),
         "--drivers", a.drivers, "--threads", a.threads, "--out", real])
    vms = a.virtual_ms
    if vms <= 0:
        probe = os.path.join(a.out, "sim-rate")
        run([a.cutoff, "sim", *common, "--quality-ms", str(a.ms), "--drivers", "serial",
             "--threads", "1", "--out", probe])
        real_nodes = float(rows(real)[("serial", 1)]["mean_nodes"])
        sim_nodes = float(rows(probe)[("serial", 1)]["mean_nodes"])
        vms = max(1, round(a.ms * real_nodes / sim_nodes))
    sim = os.path.join(a.out, "sim")
    run([a.cutoff, "sim", *common, "--quality-ms", str(int(vms)), "--drivers", a.drivers,
         "--threads", a.threads, "--out", sim])
    r, s = rows(real), rows(sim)
    print("quality at equal time: real %d ms, simulated %d virtual ms (equal serial nodes "
          "unless given); suite %s" % (a.ms, vms, a.suite))
    print("%-8s %3s | %-22s %-22s %-7s | %-14s %-14s %-7s | %-11s" %
          ("driver", "thr", "agree real (95 %)", "agree sim (95 %)", "overlap",
           "loss real", "loss sim", "overlap", "depth r/s"))
    for key in sorted(r, key=lambda k: (k[1], k[0])):
        if key not in s:
            continue
        x, y = r[key], s[key]

        def agree(z):
            return "%5.1f%% (%4.1f-%4.1f)" % (100 * float(z["agree_share"]),
                                              100 * float(z["agree_lo95"]),
                                              100 * float(z["agree_hi95"]))

        def loss(z):
            return "%5.1f +- %4.1f" % (float(z["loss_cp"]), float(z["loss_cp_half95"]))
        a_ok = float(x["agree_lo95"]) <= float(y["agree_hi95"]) and \
            float(y["agree_lo95"]) <= float(x["agree_hi95"])
        lx, hx = float(x["loss_cp"]), float(x["loss_cp_half95"])
        ly, hy = float(y["loss_cp"]), float(y["loss_cp_half95"])
        l_ok = lx - hx <= ly + hy and ly - hy <= lx + hx
        print("%-8s %3d | %-22s %-22s %-7s | %-14s %-14s %-7s | %5.2f/%5.2f" %
              (key[0], key[1], agree(x), agree(y), "yes" if a_ok else "NO", loss(x), loss(y),
               "yes" if l_ok else "NO", float(x["mean_depth"]), float(y["mean_depth"])))


if __name__ == "__main__":
    main()
