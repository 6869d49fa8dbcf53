#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""play.py — the parallel drivers compared by play and by time to depth (docs/chess.md).

For each thread count T and each time control, plays `cutoff match` between two `cutoff
uci` engines at T threads each: the base driver (lazy SMP by default) against each other
driver (YBW, ABDADA), each opening played twice with colours reversed, and reads the Elo
difference with its 95 % interval, the likelihood of superiority and the pentanomial
counts from the match's JSON (engine 1, the base, is the side the figures are counted
from: a negative Elo means the other driver is stronger). Then runs `cutoff bench` on the
chess workload for the same drivers and thread counts, and prints one table: per thread
count and driver, the time-to-depth speed-up over the serial search beside the Elo
against the base at each time control.

The engines think one at a time (no pondering), so a match at T threads uses T cores;
with --concurrency C it uses C x T, and cutoff match warns (and the report says the clock
is unfair) when that exceeds the cores. At 1 thread every driver searches alike (the
drivers differ only in how threads share work), which makes the 1-thread row a control:
its interval must contain 0.

Usage: bench/play.py [--cutoff PATH] [--threads 1,2] [--tc 2+0.02,8+0.08] [--games N[,N]]
                     [--drivers lazysmp,ybw,abdada] [--openings FILE|builtin]
                     [--concurrency C] [--bench-repeat R] [--bench-positions N]
                     [--out DIR]
"""
import argparse
import json
import os
import subprocess
import sys


def run_json(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (out.returncode, " ".join(cmd), out.stderr[-2000:]))
    return json.loads(out.stdout)


def match(a, threads, tc, games, base, other):
    engine = a.cutoff + " uci"
    cmd = [a.cutoff, "match", "--engine", engine, "--engine", engine,
           "--option", "Threads=%d" % threads, "--option1", "Algorithm=%s" % base,
           "--option2", "Algorithm=%s" % other, "--openings", a.openings,
           "--games", str(games), "--tc", tc, "--max-moves", str(a.max_moves),
           "--concurrency", str(a.concurrency), "--json"]
    print("# " + " ".join(cmd), file=sys.stderr, flush=True)
    return run_json(cmd)


def bench(a, threads, drivers):
    # OUT/bench is this script's, as its other files in OUT, which each run writes over:
    # --replace lets the bench replace the report an earlier run left there.
    out = os.path.join(a.out, "bench")
    cmd = [a.cutoff, "bench", "--workload", "chess", "--threads", ",".join(map(str, threads)),
           "--drivers", ",".join(drivers), "--repeat", str(a.bench_repeat),
           "--positions", str(a.bench_positions),
           "--quality-ms", "0", "--stockfish", "off", "--out", out, "--replace"]
    print("# " + " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "results.json")) as f:
        rows = json.load(f)["rows"]
    return {(r["driver"], r["threads"]): r for r in rows if r["workload"] == "chess"}


def signed(v):
    return "n/a" if v is None else "%+.1f" % v


def neg(v):
    return None if v is None else -v


def elo_cell(p):
    """The other driver's Elo over the base's, from the pairs of a match whose engine 1 is
    the base: the figures turned round."""
    if p.get("elo") is None:
        return "n/a"
    los = "n/a" if p.get("los") is None else "%.1f %%" % (100.0 * (1.0 - p["los"]))
    return "%s [%s, %s], LOS %s" % (signed(neg(p["elo"])), signed(neg(p["elo_high"])),
                                    signed(neg(p["elo_low"])), los)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--cutoff", default=os.path.join(here, "..", "build", "cutoff"))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--tc", default="2+0.02,8+0.08")
    ap.add_argument("--games", default="100",
                    help="games a match, or a list with one count per time control")
    ap.add_argument("--max-moves", type=int, default=120)
    ap.add_argument("--drivers", default="lazysmp,ybw,abdada")
    ap.add_argument("--openings", default="builtin")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--bench-repeat", type=int, default=3)
    ap.add_argument("--bench-positions", type=int, default=8)
    ap.add_argument("--out", default="play-report")
    a = ap.parse_args()
    threads = [int(t) for t in a.threads.split(",")]
    tcs = a.tc.split(",")
    games = [int(g) for g in a.games.split(",")]
    if len(games) == 1:
        games = games * len(tcs)
    if len(games) != len(tcs):
        sys.exit("--games: one count, or one per time control (%d)" % len(tcs))
    drivers = a.drivers.split(",")
    base, others = drivers[0], drivers[1:]
    os.makedirs(a.out, exist_ok=True)

    results = {}
    for t in threads:
        for tc, g in zip(tcs, games):
            for d in others:
                m = match(a, t, tc, g, base, d)
                results[(t, tc, d)] = m
                with open(os.path.join(a.out, "match-%s-%dt-%s.json" % (d, t, tc)), "w") as f:
                    json.dump(m, f, indent=1)
    ttd = bench(a, sorted(set([1] + threads)), drivers)

    head = "| threads | driver | speed-up (time to depth) | " + " | ".join(
        "Elo over %s at %s" % (base, tc) for tc in tcs) + " |"
    lines = [head, "|" + " --- |" * (3 + len(tcs))]
    for t in threads:
        for d in drivers:
            row = ttd.get((d, t))
            sp = "%.2f" % row["speedup"] if row and row.get("speedup") is not None else "n/a"
            cells = []
            for tc in tcs:
                if d == base:
                    cells.append("(base)")
                    continue
                m = results[(t, tc, d)]
                p = m["totals"]["stats"]["pentanomial"]
                cells.append("%s (%d games)" % (elo_cell(p), m["totals"]["games"]))
            lines.append("| %d | %s | %s | %s |" % (t, d, sp, " | ".join(cells)))
    table = "\n".join(lines)
    with open(os.path.join(a.out, "play.md"), "w") as f:
        f.write(table + "\n")
    print(table)


if __name__ == "__main__":
    main()
