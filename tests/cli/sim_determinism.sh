#!/bin/bash
# SPDX-License-Identifier: MIT
# sim_determinism.sh CUTOFF — `cutoff sim` is deterministic (issue 15, item 6): the same
# sweep run twice into two folders writes the same results.csv, apart from the columns
# that depend on real time (the simulator's own speed, sim_nodes_per_real_s), and the same
# runs.csv, threads.csv and positions.csv, byte for byte, and results.json but for its
# real-time keys (lib.bash's same). Checked for the clock schedule
# (every driver at 1, 2, 7 and 16 virtual threads on random trees) and for the random
# schedule with a seed, and for simulated ranks (--drivers cluster). A column whose name says "real" other than the one dropped fails
# the test, so that a new real-time figure is seen here and dropped on purpose. And that a
# folder that holds a report is refused unless --replace, as for `cutoff bench`.
# Registered only where the simulator is built (tests/CMakeLists.txt).
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"
unset CUTOFF_DATA_DIR GNUPLOT

if sweep "$tmp/clock1" && sweep "$tmp/clock2"; then
	same "clock schedule" "$tmp/clock1" "$tmp/clock2"
	# Every driver of the registry is in the sweep, and the parallel ones ran at 16 threads.
	mapfile -t drivers < <("$cutoff" drivers --names)
	rows=$(awk -F, 'NR > 1 && $3 == 16' "$tmp/clock1/results.csv" | wc -l)
	if [ "$rows" -eq $((${#drivers[@]} - 1)) ]; then
		ok "the sweep ran the $((${#drivers[@]} - 1)) parallel drivers at 16 virtual threads"
	else
		fail "the sweep has $rows rows at 16 threads, expected $((${#drivers[@]} - 1))"
	fi
fi
if sweep "$tmp/random1" --schedule random --seed 9 && sweep "$tmp/random2" --schedule random --seed 9; then
	same "random schedule, seed 9" "$tmp/random1" "$tmp/random2"
fi

# Simulated ranks (src/cluster/transport_sim.c): each rank an OS thread of its own, meeting the others
# at the network's barriers; the second sweep has every thread on one CPU, so the OS
# interleaves them otherwise, and nothing may change.
if sweep "$tmp/ranks1" --drivers cluster --ranks 1,2,3 --threads 1,2 &&
	{ taskset -c 0 true 2>/dev/null && cutoff_pin="taskset -c 0" || cutoff_pin=; } &&
	$cutoff_pin "$cutoff" sim --workload rtree --rtree-branching 6 --rtree-depth 7 --positions 2 \
		--threads 1,2 --no-progress --plot none --out "$tmp/ranks2" --drivers cluster \
		--ranks 1,2,3 >/dev/null 2>&1; then
	same "simulated ranks 1, 2, 3 (the second run on one CPU)" "$tmp/ranks1" "$tmp/ranks2"
	rows=$(grep -c '^rtree,cluster/' "$tmp/ranks1/results.csv")
	[ "$rows" -eq 6 ] && ok "rows cluster/1..3 at 1 and 2 virtual threads" ||
		fail "$rows cluster rows in results.csv, expected 6"
	if grep -q '^== the cluster' "$tmp/ranks1/report.txt"; then
		ok "the report has the ranks' section"
	else
		fail "no ranks' section in the report"
	fi
else
	fail "cutoff sim --drivers cluster --ranks 1,2,3: $(show "$stderr")"
fi
run sim --workload rtree --ranks 2 --out "$tmp/nope"
[ "$status" -eq 2 ] && one_line "$stderr" && [[ $stderr == *--ranks* ]] &&
	ok "--ranks without the cluster among --drivers: exit 2, $(show "$stderr")" ||
	fail "--ranks without the cluster: exit $status: $(show "$stderr")"

# The report folder is the bench's (issue 25, item 4): one that holds a report is refused
# before anything runs, unless --replace, which removes that report's files first.
small=(sim --workload rtree --rtree-branching 4 --rtree-depth 3 --positions 1 --threads 1,2
	--plot none --no-progress)
mkdir -p "$tmp/twice"
run "${small[@]}" --drivers lazysmp --out "$tmp/twice"
run "${small[@]}" --drivers ybw --out "$tmp/twice"
if [ "$status" -eq 2 ] && [ -z "$stdout" ] && one_line "$stderr" &&
	[[ $stderr == *"holds a report already"*"--replace"* ]] && grep -q '^rtree,lazysmp,2,' "$tmp/twice/results.csv"; then
	ok "a second sim into the same folder: refused, $(show "$stderr")"
else
	fail "a second sim into the same folder: exit $status: $(show "$stderr")"
fi
run "${small[@]}" --drivers ybw --out "$tmp/twice" --replace
if [ "$status" -eq 0 ] && grep -q '^rtree,ybw,2,' "$tmp/twice/results.csv" &&
	! grep -q '^rtree,lazysmp,' "$tmp/twice/results.csv" && [ -s "$tmp/twice/report-files.txt" ]; then
	ok "--replace: the second sim's report only"
else
	fail "sim --replace: exit $status: $(show "$stderr")"
fi

report
