#!/bin/bash
# run-main.sh BUILD_DIR — the main benchmark job (`make bench`): the scaling sweep on its
# defaults (1 .. number of CPUs threads, serial, lazy SMP and YBW, random trees), then the
# serial algorithms side by side. Prints figures only.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
cutoff="$1/cutoff"
if [ ! -x "$cutoff" ]; then
	echo "run-main.sh: $cutoff not found; build first (make build)" >&2
	exit 1
fi

"$here/scaling.sh" "$1"

for algo in alphabeta pvs mtdf; do
	printf '\n== serial %s: tree b=6 d=8, 20 trees, natural order\n' "$algo"
	"$cutoff" tree --branching 6 --depth 8 --trees 20 --order natural --algo "$algo"
done
