#!/bin/bash
# SPDX-License-Identifier: MIT
# quality-plot.sh CSV OUT.svg [DRIVER...] — the quality curves of issue 46, drawn from
# bench/quality-curves.py's --csv (run with --reference, for the 'self' columns):
#
#   bench/quality-curves.py --reference serial/1=REF --csv curves.csv FILE... &&
#       bench/quality-plot.sh curves.csv quality-curves.svg
#
# Three panels against the thread count (log scale), one line a driver (the CSV's
# `driver` column, LABEL= forms included; default: every driver of the CSV but serial,
# whose one-thread row starts every line): agreement with cutoff's own deeper search
# ('self') and with Stockfish's depth-20 best, each with its Wilson 95 % interval, and
# the mean centipawn loss with its 95 % interval. The drivers' points at one thread count
# are nudged apart so that their bars can be told. Needs gnuplot.
set -eu
if [ $# -lt 2 ]; then
	echo "usage: $0 CSV OUT.svg [DRIVER...]" >&2
	exit 2
fi
csv=$1 out=$2
shift 2
command -v gnuplot >/dev/null || { echo "$0: gnuplot not found" >&2; exit 1; }
head -1 "$csv" | grep -q ',self_share,' ||
	{ echo "$0: $csv has no 'self' columns (run quality-curves.py with --reference)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/quality-plot.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
drivers=("$@")
[ ${#drivers[@]} -gt 0 ] ||
	mapfile -t drivers < <(awk -F, 'NR > 1 && $1 != "serial" && !seen[$1]++ { print $1 }' "$csv")
# One file a driver: the serial row, then the driver's rows by thread count; columns
# threads, agree, lo, hi, loss, half, self, lo, hi.
plots=("" "" "")
colors=('#1b9e77' '#d95f02' '#7570b3' '#e7298a' '#66a61e' '#a6761d' '#666666')
n=${#drivers[@]}
for i in "${!drivers[@]}"; do
	d=${drivers[$i]}
	awk -F, -v d="$d" -v k="$i" -v n="$n" '
		{ sub(/\r$/, "") }  # the csv module ends its lines in CR LF
		NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next }
		$1 == "serial" || $1 == d {
			t = $2 * (1 + 0.05 * (k - (n - 1) / 2))
			print t, 100 * $col["agree_share"], 100 * $col["agree_lo95"], 100 * $col["agree_hi95"],
			      $col["loss_cp"], $col["loss_cp_half95"],
			      100 * $col["self_share"], 100 * $col["self_lo95"], 100 * $col["self_hi95"]
		}' "$csv" | sort -g > "$tmp/$i.dat"
	sep=$([ "$i" -gt 0 ] && echo ", " || true)
	plots[0]+="$sep'$tmp/$i.dat' using 1:7:8:9 with yerrorlines lc rgb '${colors[$((i % 7))]}' title '$d'"
	plots[1]+="$sep'$tmp/$i.dat' using 1:2:3:4 with yerrorlines lc rgb '${colors[$((i % 7))]}' notitle"
	plots[2]+="$sep'$tmp/$i.dat' using 1:5:6 with yerrorlines lc rgb '${colors[$((i % 7))]}' notitle"
done
gnuplot <<GP
set terminal svg size 1200,420 dynamic font "sans,11"
set output '$out'
set logscale x 2
set xrange [0.7:360]
set xtics (1, 4, 16, 64, 128, 256)
set xlabel "threads (virtual)"
set grid ytics
set key top left
set multiplot layout 1,3
set title "agreement with 'self' (cutoff, deeper)"
set ylabel "% of positions"
plot ${plots[0]}
set title "agreement with Stockfish's depth-20 best"
plot ${plots[1]}
set title "mean centipawn loss against Stockfish"
set ylabel "cp"
plot ${plots[2]}
unset multiplot
GP
