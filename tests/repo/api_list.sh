#!/bin/bash
# SPDX-License-Identifier: MIT
# api_list.sh INCLUDE_DIR LIST — the list of public functions (tests/api/api_functions.txt)
# names exactly the functions declared with CUTOFF_API in INCLUDE_DIR/*.h: none missing,
# none extra, none twice. test_api_null.c calls every function of the list with NULL in
# each pointer argument, so a public function left out of the list would go untested;
# this check is what makes forgetting it fail.
#
# A declaration is a line that starts with CUTOFF_API; its name is the last identifier
# before the first '(' (which may be on a later line). A CUTOFF_API anywhere else outside
# the macro's own #define, or one that reaches ';' before '(' (not a function), is
# refused: the check must not read past what it cannot understand.
#
# Then a self-test: the same comparison, on copies of the list with its first function
# left out and with a name added that nothing declares, must fail and name that function.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

if [ $# -ne 2 ]; then
	echo "usage: $0 INCLUDE_DIR LIST" >&2
	exit 2
fi
inc=$1
list=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/api_list.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# ok, fail and the counters (the command tests' lib.bash).
. "$(dirname "$0")/../cli/lib.bash"

headers=("$inc"/*.h)
if [ ! -f "${headers[0]}" ] || [ ! -f "$list" ]; then
	echo "$0: no headers in '$inc' or no list '$list'" >&2
	exit 2
fi

# The declared names, one a line; "?FILE:LINE: why" for what cannot be read.
awk '
	FNR == 1 { open = 0 }
	/CUTOFF_API/ && !/^CUTOFF_API[ \t]/ && !/^#[ \t]*define[ \t]+CUTOFF_API/ {
		print "?" FILENAME ":" FNR ": CUTOFF_API not at the start of a declaration"
		next
	}
	/^CUTOFF_API[ \t]/ { open = 1; text = ""; at = FILENAME ":" FNR }
	open {
		text = text " " $0
		cut = index(text, "(")
		semi = index(text, ";")
		if (semi && (!cut || semi < cut)) {
			print "?" at ": a CUTOFF_API declaration that is not a function"
			open = 0
		} else if (cut) {
			head = substr(text, 1, cut - 1)
			if (match(head, /[A-Za-z_][A-Za-z0-9_]*[ \t]*$/)) {
				name = substr(head, RSTART, RLENGTH)
				gsub(/[ \t]/, "", name)
				print name
			} else {
				print "?" at ": no function name before the ("
			}
			open = 0
		}
	}
' "${headers[@]}" >"$tmp/declared.raw"
if grep -q '^?' "$tmp/declared.raw"; then
	while IFS= read -r l; do fail "${l#\?}"; done < <(grep '^?' "$tmp/declared.raw")
fi
grep -v '^?' "$tmp/declared.raw" | sort >"$tmp/declared"

# compare LIST: every difference between LIST and the declarations on stdout, one a line;
# fails when there is any.
compare() {
	sed -e 's/#.*//' -e 's/[[:space:]]//g' "$1" | grep -v '^$' | sort >"$tmp/listed"
	{
		comm -23 "$tmp/declared" <(sort -u "$tmp/listed") |
			sed "s|^|declared in $inc but missing from $1: |"
		comm -13 "$tmp/declared" <(sort -u "$tmp/listed") |
			sed "s|^|listed in $1 but not declared with CUTOFF_API in $inc: |"
		uniq -d "$tmp/listed" | sed "s|^|listed twice in $1: |"
	} >"$tmp/diff"
	cat "$tmp/diff"
	[ ! -s "$tmp/diff" ]
}

n=$(wc -l <"$tmp/declared")
if [ "$n" -eq 0 ]; then
	fail "no CUTOFF_API declaration found in $inc/*.h"
elif diffs=$(compare "$list"); then
	ok "$list names the $n functions declared with CUTOFF_API in $inc/*.h"
else
	while IFS= read -r l; do fail "$l"; done <<<"$diffs"
fi

# The self-test: the comparison sees a function left out, and a name added.
first=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$' | head -n 1)
grep -v "^[[:space:]]*$first[[:space:]]*\$" "$list" >"$tmp/short.txt"
if diffs=$(compare "$tmp/short.txt"); then
	fail "self-test: a list without $first passes the comparison"
elif [[ $diffs == *"missing from $tmp/short.txt: $first"* ]]; then
	ok "self-test: a list without $first fails, naming it"
else
	fail "self-test: a list without $first fails without naming it: $diffs"
fi
{
	cat "$list"
	echo cutoff_no_such_function
} >"$tmp/long.txt"
if diffs=$(compare "$tmp/long.txt"); then
	fail "self-test: a list with an undeclared name passes the comparison"
elif [[ $diffs == *"not declared with CUTOFF_API in $inc: cutoff_no_such_function"* ]]; then
	ok "self-test: a list with an undeclared name fails, naming it"
else
	fail "self-test: a list with an undeclared name fails without naming it: $diffs"
fi

report
