#!/bin/bash
# SPDX-License-Identifier: MIT
# layers.sh SOURCE_DIR — docs/architecture.md's layers (the first fenced block after
# "## Layers") are true of the tree's includes:
#   - every `layer N PATH` line names a folder (ending in "/") or a file that exists, and
#     every source file under src/ and include/ lies in exactly one layer (the longest
#     matching path decides);
#   - every `#include "..."` of a file under src/ or include/ that names a file of the tree
#     runs to the same or a lower layer, except the arrows the block lists as
#     `up FROM -> TO  reason` — and those are exactly the upward ones, at most 5, each with
#     its reason;
# An include is resolved as the compiler would find it here: beside the including file,
# then under src/, include/. Then a self-test:
# the same check with one listed arrow taken out and one bogus arrow added must fail and
# name both.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

if [ $# -ne 1 ] || [ ! -d "$1/src" ]; then
	echo "usage: $0 SOURCE_DIR" >&2
	exit 2
fi
root=$(cd "$1" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/layers.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../cli/lib.bash"
max_up=5

awk '/^## Layers/ { m = 1 } m && /^```/ { n++; next } m && n == 1' \
	"$root/docs/architecture.md" >"$tmp/block"
if [ ! -s "$tmp/block" ]; then
	fail "no layer list (a fenced block after '## Layers') in docs/architecture.md"
	echo "$passed passed, $failed failed"
	exit 1
fi

# The layers: "N PATH" a line.
awk '$1 == "layer" { print $2, $3 }' "$tmp/block" >"$tmp/layers"
# Every source file of the library, the command, the cluster layer and the simulator.
(cd "$root" && find src include -type f \( -name '*.c' -o -name '*.h' \) | sort) >"$tmp/files"

# The layer of a path (the longest entry that is the path or a folder holding it), or "".
layer_of() {
	awk -v f="$1" '{
		p = $2
		if ((p ~ /\/$/ && substr(f, 1, length(p)) == p) || f == p)
			if (length(p) > best) { best = length(p); n = $1 }
	} END { print n }' "$tmp/layers"
}

# The layer list itself.
while read -r n p; do
	[ -e "$root/$p" ] || fail "layer $n names $p, which does not exist"
done <"$tmp/layers"
unplaced=0
: >"$tmp/layer_of"
while IFS= read -r f; do
	n=$(layer_of "$f")
	if [ -z "$n" ]; then
		fail "$f lies in no layer"
		unplaced=$((unplaced + 1))
	fi
	echo "$f $n" >>"$tmp/layer_of"
done <"$tmp/files"
[ "$unplaced" -eq 0 ] && ok "each of the $(wc -l <"$tmp/files") files under src/ and include/ lies in a layer"

# The arrows: "FROM TO" for each include of a tree file, resolved.
: >"$tmp/arrows"
while IFS= read -r f; do
	dir=$(dirname "$f")
	grep -o '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*"' "$root/$f" |
		sed 's/.*"\(.*\)"/\1/' | while IFS= read -r inc; do
		for cand in "$dir/$inc" "src/$inc" "include/$inc"; do
			if [ -f "$root/$cand" ]; then
				# Normalise "a/b/../c" and "a/./b".
				cand=$(realpath -m --relative-to="$root" "$root/$cand")
				echo "$f $cand"
				break
			fi
		done
	done
done <"$tmp/files" >"$tmp/arrows"
# The upward ones.
awk 'NR == FNR { L[$1] = $2; next } L[$2] > L[$1] { print $1 " -> " $2 }' \
	"$tmp/layer_of" "$tmp/arrows" | sort -u >"$tmp/up"

# check BLOCK: the upward arrows against the block's `up` lines; problems on stdout.
check() {
	local block=$1
	awk '$1 == "up" && $3 == "->" { print $2 " -> " $4 }' "$block" | sort -u >"$tmp/listed"
	awk '$1 == "up" && $3 == "->" && NF < 6 { print "the arrow " $2 " -> " $4 " has no reason" }' "$block"
	comm -23 "$tmp/up" "$tmp/listed" | sed 's/^/an upward include is not listed: /'
	comm -13 "$tmp/up" "$tmp/listed" | sed 's/^/a listed upward include is not in the tree: /'
	local n
	n=$(wc -l <"$tmp/listed")
	[ "$n" -le "$max_up" ] || echo "$n upward includes listed, more than $max_up"
}

problems=$(check "$tmp/block")
if [ -z "$problems" ]; then
	ok "the $(wc -l <"$tmp/arrows") includes run downward but the $(wc -l <"$tmp/up") listed upward ones (at most $max_up), each with its reason"
else
	while IFS= read -r l; do fail "$l"; done <<<"$problems"
fi

# The self-test: drop the first listed arrow, add a bogus one.
first=$(awk '$1 == "up" && $3 == "->" { print $2 " -> " $4; exit }' "$tmp/block")
if [ -z "$first" ]; then
	echo "skip - the self-test: no upward include is listed"
else
	awk -v skip="$first" '!($1 == "up" && $2 " -> " $4 == skip)' "$tmp/block" >"$tmp/changed"
	echo "up src/core/search.c -> src/kit/args.h  made up for the self-test" >>"$tmp/changed"
	problems=$(check "$tmp/changed")
	if [[ $problems == *"not listed: $first"* && $problems == *"not in the tree: src/core/search.c -> src/kit/args.h"* ]]; then
		ok "self-test: a list without '$first' and with a made-up arrow fails, naming both"
	else
		fail "self-test: the changed list does not fail naming both: $problems"
	fi
fi

report
