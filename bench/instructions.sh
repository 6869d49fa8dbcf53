#!/bin/bash
# SPDX-License-Identifier: MIT
# instructions.sh BUILD_A BUILD_B [WORKLOAD...] — instructions per node of two builds of
# the library on the same serial workloads (bench/profile_nps.c's: chess at depth 6,
# connect4, tree-ab, tree-pvs, ttt), counted by valgrind's callgrind: exact and repeatable whatever else the
# machine is doing, so a change's cost per node shows where a timing could not resolve it.
# Each BUILD is a build folder holding libcutoff.a (configure both the same way, e.g.
# Release). Prints per workload: nodes (A, B: they differ only when search behaviour
# changed), instructions per node (A, B) and B / A - 1 in per cent. Instructions include
# each program's set-up (engine, table clearing), the same in both.
set -euo pipefail
if [ $# -lt 2 ]; then
	echo "usage: $0 BUILD_A BUILD_B [WORKLOAD...]" >&2
	exit 2
fi
a=$1
b=$2
shift 2
workloads=("$@")
[ ${#workloads[@]} -gt 0 ] || workloads=(chess connect4 tree-ab tree-pvs ttt)
here=$(cd "$(dirname "$0")" && pwd)
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind not found" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
libs=$(pkg-config --libs ck hwloc)
for side in a b; do
	dir=${!side}
	[ -f "$dir/libcutoff.a" ] || { echo "instructions.sh: $dir/libcutoff.a not found" >&2; exit 2; }
	# Each build's own public headers: the workload program is compiled against the
	# library it links (the include folder beside the build's source tree).
	src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$dir/CMakeCache.txt")
	cc -O2 -I"$src/include" "$here/profile_nps.c" "$dir/libcutoff.a" $libs -lpthread -lm \
		-o "$tmp/$side"
done
count() { # count PROGRAM WORKLOAD: "NODES INSTRUCTIONS"
	local nodes ir
	local depth=
	[ "$2" != chess ] || depth=6
	nodes=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" $depth \
		2>"$tmp/log" | cut -d' ' -f1)
	ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/log")
	echo "$nodes $ir"
}
echo "# instructions.sh $a $b: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
printf '%-10s %12s %12s %10s %10s %8s\n' workload nodes-A nodes-B ir/node-A ir/node-B change
for w in "${workloads[@]}"; do
	read -r na ia <<<"$(count "$tmp/a" "$w")"
	read -r nb ib <<<"$(count "$tmp/b" "$w")"
	awk -v w="$w" -v na="$na" -v nb="$nb" -v ia="$ia" -v ib="$ib" 'BEGIN {
		printf "%-10s %12d %12d %10.2f %10.2f %+7.2f%%\n", w, na, nb, ia / na, ib / nb,
			100 * ((ib / nb) / (ia / na) - 1) }'
done
