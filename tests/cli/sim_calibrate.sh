#!/bin/bash
# SPDX-License-Identifier: MIT
# sim_calibrate.sh CUTOFF — `cutoff sim --calibrate FILE`, the cost model measured here.
#
# The real `cutoff` runs the calibration itself (cutoff-sim, which could read the file
# back, may not be built). On one small workload (--workload rtree --positions 1) it must
# exit 0 and write a file in which every field of the model (cutoff_sim_fields, read from
# src/sim/model.c: the oracle is the source, not the writer) appears exactly once, with a
# value that is a number >= 0, and nothing else but comments. A FILE that cannot be
# written fails at once: non-zero status, one line on stderr naming the path, nothing
# written. A bad --workload is one line too. The figures themselves are not checked: a
# test never asserts a time.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"

model_c=$(dirname "$0")/../../src/sim/model.c
# The field names: FIELD(name, ...) and { .name = "name", ... lines of the table.
mapfile -t fields < <(sed -n -e 's/^[[:space:]]*FIELD(\([a-z_0-9]*\),.*/\1/p' \
	-e 's/^[[:space:]]*{ \.name = "\([a-z_0-9.]*\)",.*/\1/p' "$model_c")
if [ "${#fields[@]}" -ge 10 ]; then
	ok "read ${#fields[@]} field names from src/sim/model.c"
else
	fail "read only ${#fields[@]} field names from $model_c"
fi

file=$tmp/model.txt
run sim --calibrate "$file" --workload rtree --positions 1
if [ "$status" -eq 0 ] && [ -z "$stderr" ]; then
	ok "--calibrate on rtree, 1 position: exit 0, nothing on stderr"
else
	fail "--calibrate: exit status $status: $(show "$stderr")"
fi
if [[ $stdout == *"node.rtree"*"load"* ]]; then
	ok "the figures are printed as they are measured, with the load"
else
	fail "no node.rtree figure with its load on stdout: $(show "$stdout")"
fi

if [ -s "$file" ]; then
	declare -A seen=()
	bad=
	while IFS= read -r line; do
		line=${line%%#*}
		read -r name value extra <<<"$line"
		[ -z "${name:-}" ] && continue
		if [ -n "${extra:-}" ] || ! [[ ${value:-} =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
			bad+="'$line' "
			continue
		fi
		seen[$name]=$((${seen[$name]:-0} + 1))
	done <"$file"
	[ -z "$bad" ] && ok "every line is 'name value' with a number >= 0" ||
		fail "lines that are not 'name number': $(show "$bad")"
	missing=
	for f in "${fields[@]}"; do
		[ "${seen[$f]:-0}" -eq 1 ] || missing+="$f(${seen[$f]:-0}) "
	done
	[ -z "$missing" ] && ok "every field of cutoff_sim_fields appears exactly once" ||
		fail "fields not there exactly once (count): $missing"
	extra_names=
	for n in "${!seen[@]}"; do
		[[ " ${fields[*]} " == *" $n "* ]] || extra_names+="$n "
	done
	[ -z "$extra_names" ] && ok "no name outside cutoff_sim_fields" ||
		fail "unknown names in the file: $extra_names"
	if grep -q '^# calibrated .* load .*cutoff sim --calibrate' "$file"; then
		ok "the file says when, where, the load and the command"
	else
		fail "no '# calibrated ... load ... cutoff sim --calibrate' line: $(show "$(cat "$file")")"
	fi
else
	fail "--calibrate wrote no file"
fi

bad_path=/nonexistent-dir-$$/x
run sim --calibrate "$bad_path"
if [ "$status" -ne 0 ] && one_line "$stderr" && [[ $stderr == *"$bad_path"* ]] &&
	[ -z "$stdout" ]; then
	ok "an unwritable FILE: exit $status, one line naming it, nothing on stdout"
else
	fail "an unwritable FILE: exit $status, stderr $(show "$stderr"), stdout $(show "$stdout")"
fi

run sim --calibrate "$tmp/never.txt" --workload nope
if [ "$status" -eq 2 ] && one_line "$stderr" && [[ $stderr == *"--workload"* ]] &&
	[ ! -e "$tmp/never.txt" ]; then
	ok "a bad --workload: exit 2, one line naming the option, no file"
else
	fail "a bad --workload: exit $status: $(show "$stderr")"
fi

report
