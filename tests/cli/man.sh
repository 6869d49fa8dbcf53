#!/bin/bash
# SPDX-License-Identifier: MIT
# man.sh CUTOFF — the manual pages the build made beside CUTOFF (DIR/man, cmake/man.sh):
# one for the command and one for each command that `cutoff --help` lists (none for one
# whose --help fails in this build: `sim` without cutoff-sim), each naming that command
# and listing every option its --help prints (help2man writes "--name" as "\-\-name"),
# none that it does not, and each one readable by man(1) when man is there.
# Skipped (77) when the build had no help2man (CMake said "skipped: the manual pages").
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"

man_dir=$(dirname "$cutoff")/man
if [ ! -f "$man_dir/cutoff.1" ]; then
	command -v help2man >/dev/null 2>&1 &&
		fail "help2man is installed but $man_dir/cutoff.1 was not made" && report
	skip_all "no manual pages beside $cutoff (help2man not found at build time)"
fi

# The options a text names: every "--word" at the start of a word.
options_of() { grep -o -- '\(^\|[^a-z-]\)--[a-z][a-z0-9-]*' | sed 's/^[^-]*//' | sort -u; }

run --help
commands=$(printf '%s' "$stdout" | awk '/^commands:/ { m = 1; next } m && /^  [a-z]/ { print $1 } m && /^$/ { exit }')
[ -n "$commands" ] && ok "cutoff --help lists $(echo "$commands" | wc -l) commands" ||
	fail "cutoff --help lists no command"

check_page() { # check_page PAGE NAME HELP-ARGS...
	local page=$1 name=$2
	shift 2
	if [ ! -f "$page" ]; then
		fail "$name: no page $page"
		return
	fi
	"$cutoff" "$@" >"$tmp/help" 2>&1
	sed 's/\\-/-/g; s/\\f[BIRP]//g' "$page" >"$tmp/page"
	local want have missing extra
	want=$(options_of <"$tmp/help")
	have=$(options_of <"$tmp/page")
	missing=$(comm -23 <(echo "$want") <(echo "$have") | tr '\n' ' ')
	extra=$(comm -13 <(echo "$want") <(echo "$have") | tr '\n' ' ')
	if grep -q "^$name - " <(sed -n '/^\.SH NAME/{n;p}' "$tmp/page") && [ -z "$missing" ] &&
		[ -z "$extra" ]; then
		ok "$name: its page names it and lists its $(echo "$want" | grep -c .) options"
	else
		fail "$name: NAME line $(sed -n '/^\.SH NAME/{n;p}' "$tmp/page" | head -1); missing: ${missing:-none}; not in --help: ${extra:-none}"
	fi
	if command -v man >/dev/null 2>&1; then
		if MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q "^NAME"; then
			ok "$name: man -l renders it"
		else
			fail "$name: man -l does not render $page"
		fi
	fi
}

check_page "$man_dir/cutoff.1" cutoff --help
for c in $commands; do
	if "$cutoff" "$c" --help >/dev/null 2>&1; then
		check_page "$man_dir/cutoff-$c.1" "cutoff-$c" "$c" --help
	elif [ -e "$man_dir/cutoff-$c.1" ]; then
		fail "cutoff-$c: a page, though 'cutoff $c --help' fails in this build"
	else
		ok "cutoff-$c: no page, as 'cutoff $c --help' fails in this build"
	fi
done

# A page is not merely present: a command's page made from another command's help fails.
cp "$man_dir/cutoff-search.1" "$tmp/swapped.1"
sed -i 's/^cutoff-search /cutoff-tree /' "$tmp/swapped.1"
"$cutoff" tree --help >"$tmp/help" 2>&1
if [ "$(options_of <"$tmp/help")" != "$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$tmp/swapped.1" | options_of)" ]; then
	ok "self-test: search's page does not pass for tree's"
else
	fail "self-test: search's page has exactly tree's options"
fi

report
