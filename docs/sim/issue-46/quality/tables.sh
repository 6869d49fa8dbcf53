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

