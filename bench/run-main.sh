#!/bin/bash
# run-main.sh BUILD_DIR — the main benchmark job (a placeholder until the sweeps exist).
#
# Searches the same random trees with each algorithm and prints what the command says.
# Prints figures only; a benchmark never decides pass or fail beyond the command failing.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
cutoff="$1/cutoff"
if [ ! -x "$cutoff" ]; then
	echo "run-main.sh: $cutoff not found; build first (make build)" >&2
	exit 1
fi

for algo in alphabeta pvs mtdf; do
	printf '\n== tree b=6 d=8, 20 trees, natural order, %s\n' "$algo"
	"$cutoff" tree --branching 6 --depth 8 --trees 20 --order natural --algo "$algo"
done
