#!/bin/bash
# SPDX-License-Identifier: MIT
# engine_cost.sh CUTOFF — the arguments of bench/engine_cost.sh (issue 43, item 11): a TREES,
# DEPTH or LINES that is not a whole number in its range is a usage error (exit 2, one line
# on stderr naming the argument, nothing on stdout), said before the script looks for
# valgrind or the build (so this test needs neither, and runs no search). Before, a TREES
# of 0 printed -nan and exited 0, and a bad DEPTH exited 1 with a false MISMATCH.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"

script="$(dirname "$0")/../../bench/engine_cost.sh"
: >"$tmp/lines"
# A build folder that is not one: the arguments are refused before it is looked at.
build=$tmp/no-build
for c in "TREES:0" "TREES:-3" "TREES:abc" "TREES:3x" "TREES:100001" \
	"DEPTH:0" "DEPTH:36" "DEPTH:abc" "DEPTH:1.5" \
	"LINES:0" "LINES:five" "LINES:1000001"; do
	name=${c%%:*} value=${c#*:}
	case $name in
	TREES) args=("$value") ;;
	DEPTH) args=(3 "$value") ;;
	LINES) args=(3 14 "$tmp/lines" "$value") ;;
	esac
	status=0
	stdout=$(bash "$script" "$build" "${args[@]}" 2>"$tmp/err") || status=$?
	stderr=$(cat "$tmp/err")
	if [ "$status" -eq 2 ] && [ -z "$stdout" ] && one_line "$stderr"$'\n' &&
		[[ $stderr == "engine_cost.sh: $name: expected a whole number in 1.."*", got '$value'" ]]; then
		ok "engine_cost.sh ${args[*]}: $stderr"
	else
		fail "engine_cost.sh ${args[*]}: exit $status, stdout $(show "$stdout"), stderr $(show "$stderr")"
	fi
done
# Good values get past the check to the build folder's.
status=0
bash "$script" "$build" 1 35 "$tmp/lines" 1 >/dev/null 2>"$tmp/err" || status=$?
if [ "$status" -eq 2 ] && grep -q "libcutoff.a not found\|valgrind not found" "$tmp/err"; then
	ok "engine_cost.sh BUILD 1 35 FILE 1: past the arguments' check"
else
	fail "engine_cost.sh BUILD 1 35 FILE 1: exit $status, $(show "$(cat "$tmp/err")")"
fi
report
