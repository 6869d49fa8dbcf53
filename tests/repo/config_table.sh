#!/bin/bash
# SPDX-License-Identifier: MIT
# config_table.sh SOURCE_DIR — docs/architecture.md's table of the engine's configuration
# (the table whose header is "| field | range | default |") names exactly the fields of
# struct cutoff_config in include/cutoff.h: none missing, none that the struct lacks, none
# twice. A field is named by a `backquoted` name in the table's first column (one row may
# name several: "`log`, `log_user`").
#
# The struct's fields are its member declarations: the lines between
# "typedef struct cutoff_config {" and "} cutoff_config_t;" that start with one tab and a
# name (comment lines go on with spaces), up to their ";" (the name before it, or every
# name of "int a, b;").
#
# Then a self-test: the same comparison on a copy of the table without its first row and
# with a row for a field that does not exist must fail, naming both.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

if [ $# -ne 1 ] || [ ! -f "$1/include/cutoff.h" ] || [ ! -f "$1/docs/architecture.md" ]; then
	echo "usage: $0 SOURCE_DIR" >&2
	exit 2
fi
root=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/config_table.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# ok, fail and the counters (the command tests' lib.bash).
. "$(dirname "$0")/../cli/lib.bash"

# The struct's fields, one a line, sorted.
awk '
	/^typedef struct cutoff_config \{/ { inside = 1; next }
	inside && /^\} cutoff_config_t;/ { exit }
	inside && /^\t[A-Za-z_]/ {
		decl = $0
		sub(/;.*/, "", decl)
		n = split(decl, parts, ",")
		for (i = 1; i <= n; i++) {
			if (match(parts[i], /[A-Za-z_][A-Za-z0-9_]*[ \t]*(\[[^]]*\])?[ \t]*$/)) {
				name = substr(parts[i], RSTART, RLENGTH)
				sub(/[ \t]*\[.*/, "", name)
				gsub(/[ \t]/, "", name)
				print name
			}
		}
	}
' "$root/include/cutoff.h" | sort >"$tmp/fields"

# The table: its rows, from the header line to the first line that is not a row.
awk '
	/^\| field \| range \| default \|/ { inside = 1; next }
	inside && !/^\|/ { exit }
	inside && !/^\| *---/ { print }
' "$root/docs/architecture.md" >"$tmp/table"

# compare TABLE: every difference on stdout, one a line; fails when there is any.
compare() {
	awk -F'|' '{
		cell = $2
		while (match(cell, /`[A-Za-z_][A-Za-z0-9_]*`/)) {
			print substr(cell, RSTART + 1, RLENGTH - 2)
			cell = substr(cell, RSTART + RLENGTH)
		}
	}' "$1" | sort >"$tmp/named"
	{
		comm -23 "$tmp/fields" <(sort -u "$tmp/named") |
			sed 's|^|cutoff_config_t has a field missing from the table: |'
		comm -13 "$tmp/fields" <(sort -u "$tmp/named") |
			sed 's|^|the table names a field that cutoff_config_t lacks: |'
		uniq -d "$tmp/named" | sed 's|^|the table names a field twice: |'
	} >"$tmp/diff"
	cat "$tmp/diff"
	[ ! -s "$tmp/diff" ]
}

n=$(wc -l <"$tmp/fields")
if [ "$n" -lt 10 ]; then
	fail "found only $n fields of struct cutoff_config in include/cutoff.h: the reader is broken"
elif [ ! -s "$tmp/table" ]; then
	fail "no table with the header '| field | range | default |' in docs/architecture.md"
elif diffs=$(compare "$tmp/table"); then
	ok "docs/architecture.md's config table names the $n fields of cutoff_config_t"
else
	while IFS= read -r l; do fail "$l"; done <<<"$diffs"
fi

# The self-test: the first row left out, a bogus row added.
first=$(awk -F'|' 'NR == 1 && match($2, /`[A-Za-z_][A-Za-z0-9_]*`/) {
	print substr($2, RSTART + 1, RLENGTH - 2)
}' "$tmp/table")
{
	tail -n +2 "$tmp/table"
	echo '| `no_such_field` | nothing | 0 |'
} >"$tmp/changed"
if diffs=$(compare "$tmp/changed"); then
	fail "self-test: a table without $first and with no_such_field passes"
elif [[ $diffs == *"missing from the table: $first"* && $diffs == *"lacks: no_such_field"* ]]; then
	ok "self-test: a table without $first and with no_such_field fails, naming both"
else
	fail "self-test: the changed table fails without naming both: $diffs"
fi

report
