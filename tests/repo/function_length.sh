#!/bin/bash
# SPDX-License-Identifier: MIT
# function_length.sh SOURCE_DIR [LIMIT] — no function of the library or the command (every
# .c and .h under SOURCE_DIR/src) is longer than LIMIT lines (default 80) unless the comment
# directly above it says why, in a line that starts "Long:" (" * Long: one switch over the
# commands; each case is two lines."). A function's length is the number of lines strictly
# between its opening "{" and its closing "}", both at the start of a line, which is how
# the project writes a function (.clang-format: BreakBeforeBraces Linux).
#
# What is read: a function starts at a line with "{" alone at column 0; its name is taken
# from the last line before it that starts at column 0 with a name and holds a "(" (the
# line of the name, when the return type stands on a line of its own); it ends at the next
# "}" at column 0. The "Long:" line counts when it lies after the last blank line before
# the "{": in the comment block that touches the signature, not in an earlier one.
#
# Lists the exempted functions (name, length, reason) so that a reader sees them, then a
# self-test: a file with a function of LIMIT lines passes, one of LIMIT + 1 fails naming
# it, and the same with a "Long:" line passes.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ ! -d "$1/src" ]; then
	echo "usage: $0 SOURCE_DIR [LIMIT]" >&2
	exit 2
fi
root=$1
limit=${2:-80}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/function_length.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# ok, fail and the counters (the command tests' lib.bash).
. "$(dirname "$0")/../cli/lib.bash"

# lengths FILE... — one line a function: "LENGTH FILE:LINE NAME" and, when exempt,
# " | REASON". POSIX awk (mawk runs it).
lengths() {
	awk '
	FNR == 1 { inside = 0; blank = 0; mark = 0; reason = "" }
	/^[ \t]*$/ { blank = FNR }
	/^(\/\*| \*).*Long: / { mark = FNR; reason = $0; sub(/.*Long: */, "", reason); sub(/ *\*\/ *$/, "", reason) }
	!inside && /^[A-Za-z_].*\(/ && !/;[ \t]*$/ { sig = $0; line = FNR }
	/^\{/ && !inside {
		inside = 1; start = FNR
		name = sig; sub(/\(.*/, "", name); n = split(name, w, /[ \t*]+/); name = w[n]
		exempt = mark > blank ? reason : ""
		next
	}
	/^\}/ && inside {
		inside = 0
		printf "%d %s:%d %s", FNR - start - 1, FILENAME, line, name
		if (exempt != "") printf " | %s", exempt
		printf "\n"
	}' "$@"
}

# check LIST: the functions over the limit without a reason, one a line; fails when any.
check() {
	awk -v limit="$limit" '$1 > limit && $4 != "|" {
		printf "%s: %s is %d lines (over %d) with no \"Long:\" reason above it\n", $2, $3, $1, limit
	}' "$1" >"$tmp/problems"
	cat "$tmp/problems"
	[ ! -s "$tmp/problems" ]
}

(cd "$root" && find src -name '*.c' -o -name '*.h' | sort) >"$tmp/files"
if [ ! -s "$tmp/files" ]; then
	fail "no sources under $root/src"
	echo "$passed passed, $failed failed"
	exit 1
fi
(cd "$root" && lengths $(cat "$tmp/files")) >"$tmp/lengths"
nfun=$(wc -l <"$tmp/lengths")
if problems=$(check "$tmp/lengths"); then
	ok "the $nfun functions of $(wc -l <"$tmp/files") files under src/ are at most $limit lines, or say why"
else
	while IFS= read -r l; do fail "$l"; done <<<"$problems"
fi
awk -v limit="$limit" '$1 > limit && $4 == "|"' "$tmp/lengths" | sort -rn | while IFS= read -r l; do
	echo "# exempt: $l"
done

# The self-test, on a file written here.
fake() { # fake LINES [REASON]: a function of LINES lines, with the reason when given
	{
		echo "/*"
		echo " * A function written by the self-test."
		[ $# -gt 1 ] && echo " * Long: $2"
		echo " */"
		echo "static int fake(int x)"
		echo "{"
		for ((i = 0; i < $1; i++)); do echo "	x += $i;"; done
		echo "}"
	} >"$tmp/fake.c"
	(cd "$tmp" && lengths fake.c) >"$tmp/fake.lengths"
}
fake "$limit"
if check "$tmp/fake.lengths" >/dev/null; then
	ok "self-test: a function of $limit lines passes"
else
	fail "self-test: a function of $limit lines fails: $(cat "$tmp/fake.lengths")"
fi
fake $((limit + 1))
if problems=$(check "$tmp/fake.lengths"); then
	fail "self-test: a function of $((limit + 1)) lines passes"
elif [[ $problems == *"fake.c:"*": fake is $((limit + 1)) lines"* ]]; then
	ok "self-test: a function of $((limit + 1)) lines fails, naming it"
else
	fail "self-test: a function of $((limit + 1)) lines fails without naming it: $problems"
fi
fake $((limit + 1)) "the self-test says why."
if check "$tmp/fake.lengths" >/dev/null; then
	ok "self-test: a function of $((limit + 1)) lines with a Long: reason passes"
else
	fail "self-test: the reason above a function of $((limit + 1)) lines is not seen"
fi

report
