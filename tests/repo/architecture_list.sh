#!/bin/bash
# SPDX-License-Identifier: MIT
# architecture_list.sh SOURCE_DIR — docs/architecture.md's module list (the first fenced
# block after "## Modules") is true of the tree:
#   - every path it names at the start of an entry (src/core/tt.c, src/sim/, include/cutoff.h,
#     and the files after a comma: "src/core/tt.c, tt.h") exists;
#   - every source file of the library and the command (src/*.c, src/*.h, src/base/*,
#     src/core/*, src/drivers/*, src/games/*.c, src/cluster/*, src/sim/*, include/*.h) is
#     named there: by its path, by its name in an entry's text, or under a folder entry
#     that ends in "/" (src/sim/, src/cli/ ...).
# Then a self-test: the same check on a copy of the list with one entry taken out and one
# bogus entry added must fail and name both.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

if [ $# -ne 1 ] || [ ! -d "$1/src" ]; then
	echo "usage: $0 SOURCE_DIR" >&2
	exit 2
fi
root=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/architecture_list.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# ok, fail and the counters (the command tests' lib.bash).
. "$(dirname "$0")/../cli/lib.bash"

# The module block.
awk '/^## Modules/ { m = 1 } m && /^```/ { n++; next } m && n == 1' \
	"$root/docs/architecture.md" >"$tmp/block"
if [ ! -s "$tmp/block" ]; then
	fail "no module list (a fenced block after '## Modules') in docs/architecture.md"
	echo "$passed passed, $failed failed"
	exit 1
fi

# The files the list must cover, relative to the root.
(cd "$root" && ls src/*.c src/*.h src/base/* src/core/* src/drivers/* src/games/*.c src/cluster/* src/sim/* include/*.h 2>/dev/null) |
	sort >"$tmp/files"

# check BLOCK: every problem on stdout, one a line; fails when there is any.
check() {
	local block=$1
	# Entries: a path at the start of a line, and the names after it while each word so far
	# ended with a comma ("src/core/tt.c, tt.h": src/core/tt.h).
	awk '$1 ~ /^(src|include|tests|bench|docs)\// {
		w = $1; dir = w; sub(/[^\/]*$/, "", dir)
		for (i = 1; ; i++) {
			more = $i ~ /,$/; w = $i; sub(/,$/, "", w)
			print (i == 1 ? w : dir w)
			if (!more || i == NF) break
		}
	}' "$block" | sort -u >"$tmp/entries"
	{
		while IFS= read -r e; do
			[ -e "$root/$e" ] || echo "the module list names $e, which does not exist"
		done <"$tmp/entries"
		while IFS= read -r f; do
			grep -qxF "$f" "$tmp/entries" && continue
			local covered=
			while IFS= read -r e; do
				[[ $e == */ && $f == "$e"* ]] && covered=1 && break
			done <"$tmp/entries"
			[ -n "$covered" ] && continue
			grep -qwF "$(basename "$f")" "$block" && continue
			echo "$f is missing from the module list"
		done <"$tmp/files"
	} >"$tmp/problems"
	cat "$tmp/problems"
	[ ! -s "$tmp/problems" ]
}

nfiles=$(wc -l <"$tmp/files")
if problems=$(check "$tmp/block"); then
	ok "docs/architecture.md's module list: every entry exists, and it covers the $nfiles source files"
else
	while IFS= read -r l; do fail "$l"; done <<<"$problems"
fi

# The self-test: take out the entry of src/core/tt.c and add a bogus one.
grep -v '^src/core/tt\.c' "$tmp/block" >"$tmp/changed"
echo "src/nowhere.c            a module that is not there" >>"$tmp/changed"
if problems=$(check "$tmp/changed"); then
	fail "self-test: a list without src/core/tt.c and with src/nowhere.c passes"
elif [[ $problems == *"src/core/tt.c is missing"* && $problems == *"src/nowhere.c, which does not exist"* ]]; then
	ok "self-test: a list without src/core/tt.c and with src/nowhere.c fails, naming both"
else
	fail "self-test: the changed list fails without naming both: $problems"
fi

report
