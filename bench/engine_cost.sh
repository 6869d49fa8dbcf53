#!/bin/bash
# SPDX-License-Identifier: MIT
# engine_cost.sh BUILD [TREES [DEPTH [FILE [LINES]]]] — instructions a node of the engine and
# of the plain alpha-beta over the same callbacks (bench/engine_cost.c), counted by
# valgrind's callgrind: exact and repeatable whatever else the machine is doing. BUILD is a
# build folder holding libcutoff.a. Runs `engine_cost tree TREES` (default 3) and
# `engine_cost connect4 DEPTH` (default 14) and prints, for each, the nodes (the same on
# both sides, or the bench says MISMATCH) and the instructions a node of the engine's search
# (cutoff_search_root and all it calls) and of the plain search (its alphabeta and all it
# calls), then their ratio. The game's callbacks are counted on both sides; what the engine
# adds is the difference.
# With FILE (a Connect Four test set, '<moves> <score>' lines), also `engine_cost solve FILE
# LINES` (default 5): the engine's exact solver (cutoff_connect4_solve and all it calls)
# against the plain solver over the same callbacks (plain_solve); their trees differ, so
# each side prints its own nodes and the cost a node of each; the plain solver's cost is
# split into its own instructions and its calls of the game's callbacks.
# TREES (1..100000), DEPTH (1..35) and LINES (1..1000000) are checked before anything runs:
# another value is a usage error (exit 2) naming it.
set -euo pipefail
if [ $# -lt 1 ]; then
	echo "usage: $0 BUILD [TREES [DEPTH [FILE [LINES]]]]" >&2
	exit 2
fi
dir=$1
trees=${2:-3}
depth=${3:-14}
file=${4:-}
lines=${5:-5}
# count NAME VALUE MAX: VALUE a whole number in 1..MAX, else the usage error naming NAME
# (before valgrind is looked for: a TREES of 0 divided by no nodes, a DEPTH the searches
# do not take made them differ, and either was a figure or a MISMATCH, not an error).
count() {
	if ! [[ $2 =~ ^[0-9]{1,9}$ ]] || [ "$2" -lt 1 ] || [ "$2" -gt "$3" ]; then
		echo "engine_cost.sh: $1: expected a whole number in 1..$3, got '$2'" >&2
		exit 2
	fi
}
# TREES: random trees of 8^9 leaves; DEPTH: plies from a position with 35 empty cells (a
# deeper search is the same); LINES: lines of FILE.
count TREES "$trees" 100000
count DEPTH "$depth" 35
count LINES "$lines" 1000000
[ -z "$file" ] || [ -r "$file" ] || { echo "engine_cost.sh: cannot read '$file'" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
command -v valgrind >/dev/null || { echo "engine_cost.sh: valgrind not found" >&2; exit 2; }
[ -f "$dir/libcutoff.a" ] || { echo "engine_cost.sh: $dir/libcutoff.a not found" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$dir/CMakeCache.txt")
# -g: the bench's own alphabeta must be told apart from the library's static one of that name.
cc -O2 -g -I"$src/include" "$here/engine_cost.c" "$dir/libcutoff.a" \
	$(pkg-config --libs ck hwloc) -lpthread -o "$tmp/engine_cost"
inclusive() { # inclusive FILE PATTERN: the instructions of the first function matching
	callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
		awk -v pat="$2" 'index($0, pat) && !found { gsub(",", "", $1); print $1; found = 1 }'
}
printf '%-9s %10s %12s %12s %7s\n' workload nodes engine/node plain/node ratio
for w in "tree $trees" "connect4 $depth"; do
	valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$tmp/engine_cost" $w \
		>"$tmp/log" 2>/dev/null || { cat "$tmp/log" >&2; exit 1; }
	nodes=$(awk '$1 == "engine" && $3 == "nodes" { print $2 }' "$tmp/log")
	e=$(inclusive "$tmp/out" ':cutoff_search_root ')
	p=$(inclusive "$tmp/out" 'engine_cost.c:alphabeta ')
	awk -v w="${w% *}" -v n="$nodes" -v e="$e" -v p="$p" \
		'BEGIN { printf "%-9s %10d %12.1f %12.1f %7.3f\n", w, n, e / n, p / n, e / p }'
done
[ -n "$file" ] || exit 0
valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$tmp/engine_cost" solve "$file" \
	"$lines" >"$tmp/log" 2>/dev/null || { cat "$tmp/log" >&2; exit 1; }
en=$(awk '$1 == "engine" && $3 == "nodes" { print $2 }' "$tmp/log")
pn=$(awk '$1 == "plain" && $3 == "nodes" { print $2 }' "$tmp/log")
e=$(inclusive "$tmp/out" ':cutoff_connect4_solve ')
p=$(inclusive "$tmp/out" 'engine_cost.c:plain_solve ')
# The plain solver's own instructions (its two functions, exclusive): the rest of its
# inclusive count is the game's callbacks, the same code the engine calls.
own=$(callgrind_annotate --auto=no "$tmp/out" 2>/dev/null |
	awk '/engine_cost.c:(solve_node|plain_solve)/ && !/=>/ { gsub(",", "", $1); sum += $1 } END { print sum + 0 }')
printf '\n%-9s %12s %12s %12s %12s %12s %12s\n' solve 'engine nodes' engine/node \
	'plain nodes' plain/node 'its own' 'its calls'
awk -v en="$en" -v pn="$pn" -v e="$e" -v p="$p" -v o="$own" \
	'BEGIN { printf "%-9s %12d %12.1f %12d %12.1f %12.1f %12.1f\n", "connect4", en, e / en, pn, p / pn, o / pn, (p - o) / pn }'
