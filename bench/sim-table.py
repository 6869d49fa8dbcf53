#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""sim-table.py — the speed-up tables of docs/simulation.md from `cutoff sim` reports.

    bench/sim-table.py REPORT_DIR [REPORT_DIR ...]

Reads each folder's results.csv and prints, per workload, a Markdown table: one row per
driver, one column per thread count, each cell the speed-up over the serial search at
one thread with the search overhead in brackets and, where the driver waits (YBW), the
shares of the threads' time idle / waiting at a split point / spinning on a lock. A
measurement's printer only: it decides nothing and changes no figure.
"""
import csv
import sys


def cell(row):
    speedup = float(row["speedup"])
    overhead = float(row["overhead"])
    text = f"{speedup:.2f} ({overhead:.2f})"
    try:
        idle = float(row["idle_share"])
        wait = float(row["split_wait_share"])
        lock = float(row["lock_share"])
    except (KeyError, ValueError):
        return text
    if row["driver"].startswith("ybw") and int(row["threads"]) > 2:
        text += f"<br>{idle * 100:.0f}/{wait * 100:.0f}/{lock * 100:.0f} %"
    return text


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    tables = {}
    for folder in argv[1:]:
        path = f"{folder}/results.csv"
        try:
            with open(path, newline="") as f:
                rows = list(csv.DictReader(f))
        except OSError as e:
            print(f"sim-table.py: cannot read {path}: {e.strerror}", file=sys.stderr)
            return 1
        for row in rows:
            if row["driver"] == "serial":
                continue
            t = tables.setdefault(row["workload"], {})
            t.setdefault(row["driver"], {})[int(row["threads"])] = row
    for workload, drivers in tables.items():
        threads = sorted({n for d in drivers.values() for n in d})
        print(f"{workload} — speed-up (search overhead; YBW: idle / split-wait / lock shares)\n")
        print("| driver | " + " | ".join(str(n) for n in threads) + " |")
        print("| --- |" + " ---: |" * len(threads))
        for driver, row in drivers.items():
            cells = [cell(row[n]) if n in row else "" for n in threads]
            print(f"| {driver} | " + " | ".join(cells) + " |")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
