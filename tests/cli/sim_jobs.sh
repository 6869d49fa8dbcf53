#!/bin/bash
# SPDX-License-Identifier: MIT
# sim_jobs.sh CUTOFF — `cutoff sim --jobs N` (issue 27, item 7): the runs measured on N
# processes give the report of one process. Checked: results.csv without its real-time
# column (sim_nodes_per_real_s), runs.csv, threads.csv and positions.csv byte for byte,
# and results.json but for its real-time keys (date, wall_s, the load averages,
# settings.jobs, each row's sim_nodes_per_real_s), --jobs 1 against 2 and 3, on every
# driver with repeats (interleaved), the random schedule and simulated ranks. That a child
# killed with SIGKILL fails the command (exit 1, one line naming the run and the signal,
# no report) with no process left; that SIGTERM to the command ends it by SIGTERM with no
# child left; and that a bad --jobs is refused (exit 2, one line naming --jobs) before
# anything runs. Registered only where the simulator is built (tests/CMakeLists.txt).
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"
bg=
trap '[ -n "$bg" ] && kill -KILL "$bg" 2>/dev/null; rm -rf "$tmp"' EXIT
unset CUTOFF_DATA_DIR GNUPLOT

# Every driver, 2 repeats (interleaved): one process, then 2 and 3 (more than the runs
# of a workload at one thread count, fewer than the runs).
if sweep "$tmp/j1" --repeat 2 --jobs 1 && sweep "$tmp/j2" --repeat 2 --jobs 2 &&
	sweep "$tmp/j3" --repeat 2 --jobs 3; then
	same "--jobs 2 against --jobs 1, every driver, 2 repeats" "$tmp/j1" "$tmp/j2"
	same "--jobs 3 against --jobs 1" "$tmp/j1" "$tmp/j3"
	grep -q '^time .*on 3 processes' "$tmp/j3/report.txt" &&
		grep -q '^time .*on 1 process ' "$tmp/j1/report.txt" &&
		ok "report.txt says on how many processes the sweep ran" ||
		fail "report.txt's time line: $(show "$(grep '^time' "$tmp/j3/report.txt")")"
fi
if sweep "$tmp/r1" --schedule random --seed 5 --jobs 1 &&
	sweep "$tmp/r2" --schedule random --seed 5 --jobs 2; then
	same "the random schedule (seed 5), --jobs 2 against 1" "$tmp/r1" "$tmp/r2"
fi
if sweep "$tmp/c1" --drivers cluster --ranks 1,2,3 --threads 1,2 --jobs 1 &&
	sweep "$tmp/c2" --drivers cluster --ranks 1,2,3 --threads 1,2 --jobs 2; then
	same "simulated ranks 1..3, --jobs 2 against 1" "$tmp/c1" "$tmp/c2"
fi

# A bad --jobs: refused before anything runs, nothing made.
for v in 0 -1 abc 257 99999999999999999999 ""; do
	run sim "${sweep_args[@]}" --jobs "$v" --out "$tmp/bad"
	if [ "$status" -eq 2 ] && [ -z "$stdout" ] && one_line "$stderr" &&
		[[ $stderr == *--jobs* ]] && [ ! -e "$tmp/bad" ]; then
		ok "--jobs '$v': exit 2, $(show "$stderr")"
	else
		fail "--jobs '$v': exit $status: $(show "$stderr")"
	fi
done

# long DIR: a sweep of many seconds, in the background ($bg), with --jobs 2; its
# children's pids in $kids once both are there (false when they never come).
long() {
	"$cutoff" sim --workload rtree --drivers ybw,abdada --threads 1,128,256 --no-progress \
		--plot none --jobs 2 --out "$1" >"$tmp/long-out" 2>"$tmp/long-err" &
	bg=$!
	local i
	for ((i = 0; i < 200; i++)); do
		mapfile -t kids < <(ps -o pid= --ppid "$bg" 2>/dev/null | tr -d ' ') # ps pads
		[ "${#kids[@]}" -eq 2 ] && return 0
		sleep 0.05
	done
	return 1
}

# gone PID...: true when none of the pids is a process any more.
gone() {
	local p
	for p in "$@"; do
		kill -0 "$p" 2>/dev/null && return 1
	done
	return 0
}

if ! command -v ps >/dev/null 2>&1; then
	echo "# ps not found: the checks of killed processes are left out"
elif long "$tmp/killed"; then
	kill -KILL "${kids[0]}"
	wait "$bg"
	status=$?
	bg=
	err=$(cat "$tmp/long-err")
	if [ "$status" -eq 1 ] && one_line "$err"$'\n' &&
		[[ $err == *"the run rtree, "*"pid ${kids[0]}"*"killed by signal 9"* ]] &&
		[ ! -e "$tmp/killed/results.csv" ] && gone "${kids[@]}"; then
		ok "a child killed by SIGKILL: exit 1, no report, no process left: $(show "$err")"
	else
		fail "a child killed: exit $status, $(show "$err"), left: $(ps -o pid= -p "${kids[*]}" | tr '\n' ' ')"
	fi
	if long "$tmp/term"; then
		kill -TERM "$bg"
		wait "$bg"
		status=$?
		bg=
		if [ "$status" -eq 143 ] && gone "${kids[@]}" &&
			[[ $(cat "$tmp/long-err") == *"processes are stopped"* ]]; then
			ok "SIGTERM to the command: ended by SIGTERM (143), its children with it"
		else
			fail "SIGTERM: exit $status, $(show "$(cat "$tmp/long-err")"), left: $(ps -o pid= -p "${kids[*]}" | tr '\n' ' ')"
		fi
	else
		fail "the second long sweep's two processes never showed: $(show "$(cat "$tmp/long-err")")"
	fi
else
	fail "the long sweep's two processes never showed: $(show "$(cat "$tmp/long-err")")"
fi

report
