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
# thread count ('self' and Stockfish agreement with their Wilson 95 %, loss and depth).
summary() {
	awk -F, -v title="$2" '
		{ sub(/\r$/, "") }
		NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next }
		{
			d = $1; t = $2
			if (!(d in seen)) { seen[d] = 1; drivers[++nd] = d }
			if (!(t in tseen)) { tseen[t] = 1; threads[++nt] = t }
			self[d, t] = share($col["self"], $col["positions"])
			sf[d, t] = share($col["agree"], $col["positions"])
			loss[d, t] = sprintf("%.1f +- %.1f / %.2f", $col["loss_cp"],
				$col["loss_cp_half95"], $col["mean_depth"])
			n = $col["positions"]
		}
		# a count k of n in %, with its Wilson 95 % interval computed from the counts (as
		# quality-curves.py does; the CSV rounds the interval to 4 digits)
		function share(k, n,   z, p, d, c, h) {
			z = 1.959964; p = k / n
			d = 1 + z * z / n
			c = (p + z * z / (2 * n)) / d
			h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
			return sprintf("%.1f (%.1f-%.1f)", 100 * p, 100 * (c - h), 100 * (c + h))
		}
		function table(name, cell,   i, j, d, t, line) {
			printf "%s, %s (%d positions):\n\n| driver |", name, title, n
			for (j = 1; j <= nt; j++) printf " %s |", threads[j]
			printf "\n| --- |"
			for (j = 1; j <= nt; j++) printf " ---: |"
			printf "\n"
			for (i = 1; i <= nd; i++) {
				d = drivers[i]
				if (d == "serial") continue
				line = "| " d " |"
				for (j = 1; j <= nt; j++) {
					t = threads[j]
					if (t == 1) line = line " " cell["serial", 1] " |"
					else if ((d, t) in cell) line = line " " cell[d, t] " |"
					else line = line " |"
				}
				print line
			}
			printf "\n"
		}
		END {
			# the thread counts in order (numeric insertion sort)
			for (i = 2; i <= nt; i++)
				for (j = i; j > 1 && threads[j - 1] + 0 > threads[j] + 0; j--) {
					x = threads[j]; threads[j] = threads[j - 1]; threads[j - 1] = x
				}
			table("agreement with the \x27self\x27 reference, % (Wilson 95 %)", self)
			table("agreement with Stockfish\x27s depth-20 best, % (Wilson 95 %)", sf)
			table("centipawn loss against Stockfish (+- 95 %) / mean depth of thread 0", loss)
		}' "$1"
}
{
	summary suite.csv "the whole suite"
	[ ! -f subset.csv ] || summary subset.csv "the subset"
} > summary.md

