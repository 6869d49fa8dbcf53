#!/bin/bash
# SPDX-License-Identifier: MIT
# tables.sh — regenerates this folder's tables and plots from its quality-positions.csv
# files (the runs of commands.txt), with bench/quality-curves.py and bench/quality-plot.sh:
#
#   suite.md, suite.csv, suite.svg     the whole suite (377 positions) at 1, 4, 16 and 64
#                                      threads, 'self' = serial-1-5440 (5,440 ms: 64 x 85)
#   subset.md, subset.csv, subset.svg  the named 100-position subset at 1 to 256 threads
#                                      (the whole-suite runs read on its positions), 'self'
#                                      = subset100-serial-1-21760 (21,760 ms: 256 x 85)
#   summary.md                         suite.csv and subset.csv as driver-by-threads
#                                      tables (what docs/benchmarks.md shows)
# suite.md ends with the Elo scale: one point of 'self' agreement in Elo, from the serial
# search's doubling (85 -> 170 ms) and the project's +100 Elo match at twice the nodes; its
# tables of pairs then give each difference in Elo too.
#
# A setting whose folder is not there yet is left out. Run from anywhere; same files in,
# same bytes out.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bench=$here/../../../../bench
cd "$here"

# The settings: LABEL=FOLDER pairs; the label names a form of lazy SMP apart (lazyvote:
# every helper every depth, the threads' vote: Stockfish 11-17's).
settings() { # PREFIX THREADS...
	local prefix=$1 t d
	shift
	for t in "$@"; do
		for d in lazysmp ybw abdada dts lazyvote; do
			local f=$prefix$d-$t-85/quality-positions.csv
			[ -f "$f" ] || continue
			if [ $d = lazyvote ]; then echo "lazyvote=$f"; else echo "$f"; fi
		done
	done
}

mapfile -t suite < <(settings "" 1 4 16 64)
"$bench/quality-curves.py" --reference serial/1=serial-1-5440/quality-positions.csv \
	--elo 100,55,149 --elo-doubling serial/1=lazysmp-1-85/quality-positions.csv \
	serial/1=serial-1-170/quality-positions.csv --csv suite.csv "${suite[@]}" > suite.md
"$bench/quality-plot.sh" suite.csv suite.svg

if [ -f subset100-serial-1-21760/quality-positions.csv ]; then
	mapfile -t subset < <(settings "" 1 4 16 64; settings subset100- 128 256)
	"$bench/quality-curves.py" \
		--reference serial/1=subset100-serial-1-21760/quality-positions.csv \
		--csv subset.csv "${subset[@]}" > subset.md
	"$bench/quality-plot.sh" subset.csv subset.svg
fi

# summary CSV TITLE: the CSV's settings as three tables, a row a driver and a column a
# thread count ('self' and Stockfish agreement with their Wilson 95 % intervals, from the
# counts by quality-curves.py's own wilson(); loss and depth).
summary() {
	python3 - "$bench/quality-curves.py" "$1" "$2" <<'PY'
import csv, importlib.util, sys
spec = importlib.util.spec_from_file_location("curves", sys.argv[1])
curves = importlib.util.module_from_spec(spec)
spec.loader.exec_module(curves)
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
drivers = list(dict.fromkeys(r["driver"] for r in rows if r["driver"] != "serial"))
threads = sorted({int(r["threads"]) for r in rows})
cell = {(r["driver"], int(r["threads"])): r for r in rows}
n = int(rows[0]["positions"])


def share(k):
    lo, hi = curves.wilson(int(k), n)
    return "%.1f (%.1f-%.1f)" % (100 * int(k) / n, 100 * lo, 100 * hi)


def table(name, text):
    print("%s, %s (%d positions):\n" % (name, sys.argv[3], n))
    print("| driver | " + " | ".join(str(t) for t in threads) + " |")
    print("| --- |" + " ---: |" * len(threads))
    for d in drivers:
        r = [cell.get(("serial", 1) if t == 1 else (d, t)) for t in threads]
        print("| %s |" % d + "".join(" %s |" % text(x) if x else " |" for x in r))
    print()


table("agreement with the 'self' reference, % (Wilson 95 %)", lambda r: share(r["self"]))
table("agreement with Stockfish's depth-20 best, % (Wilson 95 %)", lambda r: share(r["agree"]))
table("centipawn loss against Stockfish (+- 95 %) / mean depth of thread 0",
      lambda r: "%.1f +- %.1f / %.2f" % (float(r["loss_cp"]), float(r["loss_cp_half95"]),
                                        float(r["mean_depth"])))
PY
}
{
	summary suite.csv "the whole suite"
	[ ! -f subset.csv ] || summary subset.csv "the subset"
} > summary.md

