#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""cluster.py — 1 rank against 2 ranks x 1 thread on this machine (docs/cluster.md).

Runs `cutoff search --game chess --algo cluster --json --profile-tt-writers` on the first
N positions of Stockfish's bench (../shared/data/chess/sf_bench_resolved.fen) at a fixed
depth, under mpirun, in four set-ups, interleaved within each repeat so that a drift of
the machine's load hits them all:

  1 rank      mpirun -np 1 (the cluster's code path, nothing to share)
  2 ranks     mpirun -np 2, entries shared around the ring (the default)
  2, no share mpirun -np 2 --exchange none: the ranks only stop and vote together
  2 threads   one process, lazy SMP on 2 threads over one table (the shared-memory peer)

and prints, per set-up: the time to depth against 1 rank (speed-up: median over
positions and repeats of t(1 rank) / t, with the quartiles, and the ratio of the summed
times), nodes against 1 rank (search overhead, likewise), each rank's node rate, the
traffic (bytes sent per second of search, both ranks), and the entries of the other rank
that the search found (hits on imported entries, per thousand nodes).

Time to depth is rank 0's wall time inside cutoff_cluster_search (the vote and the drain
included); for the 2-thread peer, the search's own time. The table writers (needed to
count hits on shared entries) cost every set-up alike.

Usage: bench/cluster.py [--cutoff PATH] [--positions N] [--depth D] [--repeats R]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def run(cmd, env):
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), out.stderr))
    return json.loads(out.stdout)


def quartiles(xs):
    xs = sorted(xs)
    if len(xs) < 4:
        return xs[0], xs[-1]
    q = statistics.quantiles(xs, n=4)
    return q[0], q[2]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--cutoff", default=os.path.join(here, "..", "build", "cutoff"))
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--depth", type=int, default=11)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--fens", default=os.path.join(here, "..", "..", "shared", "data", "chess",
                                                   "sf_bench_resolved.fen"))
    a = ap.parse_args()
    if not os.path.exists(a.fens):
        sys.exit("skipped: data not found (%s)" % a.fens)
    fens = [l.strip() for l in open(a.fens) if l.strip()][: a.positions]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    mpirun = "mpirun"
    search = ["search", "--game", "chess", "--depth", str(a.depth), "--json",
              "--profile-tt-writers"]
    setups = {
        "1 rank": [mpirun, "-np", "1", a.cutoff] + search + ["--algo", "cluster"],
        "2 ranks": [mpirun, "-np", "2", a.cutoff] + search + ["--algo", "cluster"],
        "2, no share": [mpirun, "-np", "2", a.cutoff] + search +
                       ["--algo", "cluster", "--exchange", "none"],
        "2 threads": [a.cutoff] + search + ["--algo", "lazysmp", "--threads", "2"],
    }
    rows = {k: [] for k in setups}  # (position, repeat, time, nodes, json)
    for rep in range(a.repeats):
        for i, fen in enumerate(fens):
            for name, cmd in setups.items():
                d = run(cmd + ["--position", fen], env)
                ranks = d.get("ranks")
                t = ranks[0]["time_s"] if ranks else d["time_s"]
                rows[name].append((i, rep, t, d["counters"]["nodes"], d))
        print("repeat %d of %d done" % (rep + 1, a.repeats), file=sys.stderr)

    load = open("/proc/loadavg").read().split()[:3]
    print("cutoff bench/cluster.py --positions %d --depth %d --repeats %d (load average %s)"
          % (len(fens), a.depth, a.repeats, " ".join(load)))
    base = {(i, r): (t, n) for i, r, t, n, _ in rows["1 rank"]}
    print("%-12s %9s %17s %9s %9s %17s %12s %14s %12s" % (
        "set-up", "speed-up", "(quartiles)", "sum t", "overhead", "(quartiles)",
        "knps/rank", "KB/s sent", "shared/knode"))
    for name, rs in rows.items():
        sp = [base[(i, r)][0] / t for i, r, t, n, _ in rs]
        ov = [n / base[(i, r)][1] for i, r, t, n, _ in rs]
        tsum = sum(base[(i, r)][0] for i, r, *_ in rs) / sum(t for _, _, t, _, _ in rs)
        rates, traffic, hits, nodes = [], [], 0, 0
        for i, r, t, n, d in rs:
            ranks = d.get("ranks")
            nodes += n
            if ranks:
                rates += [x["nodes"] / x["time_s"] / 1e3 for x in ranks]
                traffic.append(sum(x["sent_bytes"] for x in ranks) / t / 1e3)
                hits += sum(x["tt_hits_shared"] for x in ranks)
            else:
                rates.append(n / t / 1e3 / 2)
        q1, q3 = quartiles(sp)
        o1, o3 = quartiles(ov)
        print("%-12s %9.2f %8.2f..%-7.2f %9.2f %9.2f %8.2f..%-7.2f %12.0f %14.1f %12.2f" % (
            name, statistics.median(sp), q1, q3, tsum, statistics.median(ov), o1, o3,
            statistics.median(rates),
            statistics.median(traffic) if traffic else 0.0,
            1000.0 * hits / nodes if nodes else 0.0))
    print("(speed-up and overhead against 1 rank, per position and repeat: median and "
          "quartiles; sum t: summed times of 1 rank / of the set-up; knps/rank: median node "
          "rate of each rank (the 2-thread peer: its rate / 2); KB/s sent: both ranks' bytes "
          "on the wire per second of search; shared/knode: hits on another rank's entries "
          "per thousand nodes)")


if __name__ == "__main__":
    main()
