#!/bin/bash
# SPDX-License-Identifier: MIT
# bench.sh CUTOFF — checks `cutoff bench` on tiny sweeps (no timing is asserted): its usage
# errors (one line on stderr naming the option, nothing on stdout, exit 2); that a sweep
# writes its report folder (report.txt, results.json, results.csv, runs.csv) with the
# fields it promises; that the figures are consistent (the serial search at 1 thread has a
# speed-up and an overhead of exactly 1); that its node counts are those of `cutoff tree`
# and `cutoff solve` for the same searches (the serial search is deterministic); that the
# profiler's figures are there and add up (each thread's time split sums to 1, node types
# to the nodes, split points book helpers; n/a, never 0, where they do not apply or the
# library was built without the profiler); that --profile-tt-writers measures 'tt other';
# that the machine's ceilings (compute, shared-array reads and writes, per-CPU latency) are
# in the header, results.json and ceilings.csv, and each row's applicable ceiling agrees
# with its speed-up; that --hog runs its processes beside the sweep, says so, and leaves
# none behind; and that without gnuplot it still succeeds and says how to get it. The report
# folder (issue 25, items 3 and 4): one that cannot be written (/proc/self, a folder without
# write permission) is refused before the sweep; one that stops being a folder after the
# sweep still gets the table printed, and exit 1; report-files.txt lists every file of the
# folder; a second report into it is refused before its sweep unless --replace, which
# removes the first report's files only (with or without a list, whatever the list says).
# Two runs at once never share a folder (issue 43, item 7): the same --out is refused
# while the other run holds it, and without --out a taken default name gets -2.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"
unset CUTOFF_DATA_DIR GNUPLOT

# The drivers, from the library's registry: a sweep measures each one by default, the
# default driver (the baseline) at 1 thread only, the others at every count.
mapfile -t drivers < <("$cutoff" drivers --names)
ndrivers=${#drivers[@]}

# field FILE CSV-HEADER-NAME ROW-PREFIX: the value of a column in the row starting so.
field() {
	awk -F, -v name="$2" -v prefix="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
		NR > 1 && index($0, prefix) == 1 { print $c; exit }' "$1"
}

# csv_check FILE NAME AWK-CONDITION: every data line of FILE (columns by header name, as
# v["name"]) meets the condition; prints the first line that does not, with its number.
csv_check() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ for (n in col) v[n] = $col[n] }
		'"$3"' { next }
		{ print "line " NR ": " $0; exit 1 }' "$1" >"$tmp/csv_check" &&
		ok "$2" || fail "$2: $(cat "$tmp/csv_check")"
}

# profile_checks DIR DEPTH: the profiler's figures of the tiny rtree sweep in DIR (trees of
# depth DEPTH, threads 1,2, every driver, one repeat). Only what holds by construction is
# checked, never a time or a share's size: see cutoff.h for each figure's definition.
profile_checks() {
	local dir=$1 depth=$2
	local lines
	lines=$(($(wc -l <"$dir/threads.csv") - 1))
	local want=$((1 + 3 * (ndrivers - 1)))
	if [ "$lines" -eq "$want" ]; then ok "threads.csv: $want threads (the baseline 1, each other driver 1+2)"; else fail "threads.csv: $lines threads, expected $want"; fi
	if ! grep -q '"profiled":true' "$dir/results.json"; then
		# Built with -DCUTOFF_PROFILE=OFF: every figure of the profiler is n/a, never 0.
		if grep -q "CUTOFF_PROFILE=OFF" "$dir/report.txt"; then ok "no profiler: the report says so"; else fail "no profiler: the report does not say so"; fi
		csv_check "$dir/threads.csv" "no profiler: per-thread times, shares, depths n/a" \
			'v["share_search"] == "n/a" && v["share_idle"] == "n/a" && v["time_s"] == "n/a" && v["depth_reached_mean"] == "n/a"'
		csv_check "$dir/results.csv" "no profiler: time split, node types, split figures n/a" \
			'v["idle_share"] == "n/a" && v["sync_share"] == "n/a" && v["cut_first_rate"] == "n/a" && v["cut_nodes_wrong_rate"] == "n/a" && v["helpers_per_split"] == "n/a"'
		csv_check "$dir/runs.csv" "no profiler: the profiler's counters n/a" \
			'v["nodes_cut"] == "n/a" && v["split_nodes_lost"] == "n/a" && v["share_idle"] == "n/a"'
		return
	fi
	# Each thread is accounted the search's whole span, in four parts: they add up to it
	# (shares printed with 4 decimals), and every thread of a run has the same time.
	csv_check "$dir/threads.csv" "threads.csv: each thread's search+idle+split-wait+lock shares sum to 1" \
		'(s = v["share_search"] + v["share_idle"] + v["share_split_wait"] + v["share_lock_spin"]) > 0.999 && s < 1.001'
	csv_check "$dir/runs.csv" "runs.csv: each run's time split sums to 1" \
		'(s = v["share_search"] + v["share_idle"] + v["share_split_wait"] + v["share_lock_spin"]) > 0.999 && s < 1.001'
	local spans
	spans=$(awk -F, 'NR > 1 { t[$2 "/" $3] = t[$2 "/" $3] " " $7 } END { for (k in t) { n = split(t[k], a, " "); for (i = 2; i <= n; i++) if (a[i] != a[1]) print k } }' "$dir/threads.csv")
	if [ -z "$spans" ]; then ok "threads.csv: every thread of a run is accounted the same span"; else fail "threads.csv: threads of $spans have different spans"; fi
	# A serial search's one thread is the span: no idle, no split wait, no lock.
	csv_check "$dir/threads.csv" "serial thread 0: idle, split wait and lock 0, depth $depth reached and completed" \
		'v["driver"] != "serial" || (v["share_idle"] == "0.0000" && v["share_split_wait"] == "0.0000" && v["share_lock_spin"] == "0.0000" && v["depth_reached_mean"] == "'"$depth"'.00" && v["depth_completed_mean"] == "'"$depth"'.00")'
	# Only YBW splits and takes YBW locks.
	csv_check "$dir/threads.csv" "lazysmp threads: no split wait, no lock; depth completed <= reached <= $depth" \
		'v["driver"] != "lazysmp" || (v["share_split_wait"] == "0.0000" && v["share_lock_spin"] == "0.0000" && v["depth_completed_mean"] + 0 <= v["depth_reached_mean"] + 0 && v["depth_reached_mean"] + 0 <= '"$depth"')'
	csv_check "$dir/results.csv" "results.csv: split figures n/a except for ybw; sync share 0 for serial and lazysmp" \
		'v["driver"] == "ybw" || (v["splits"] == "n/a" && v["helpers_per_split"] == "n/a" && v["split_cutoff_rate"] == "n/a" && v["split_nodes_lost_share"] == "n/a" && (v["driver"] != "serial" && v["driver"] != "lazysmp" || v["sync_share"] == "0.0000"))'
	# A driver's own figures show on the rows whose runs counted them: a row with split
	# points has all its split figures, a row without has none (n/a), whatever the driver.
	csv_check "$dir/results.csv" "results.csv: split figures all n/a, or split points > 0 with helpers per split point 1..threads-1" \
		'v["splits"] == "n/a" ? (v["helpers_per_split"] v["split_cutoff_rate"] v["split_nodes_lost_share"] == "n/an/an/a") : (v["splits"] + 0 > 0 && v["helpers_per_split"] + 0 >= 1 && v["helpers_per_split"] + 0 <= v["threads"] - 1 && v["split_cutoff_rate"] + 0 <= 1 && v["split_nodes_lost_share"] + 0 <= 1)'
	csv_check "$dir/results.csv" "results.csv: deferred-move figures all n/a, or moves deferred > 0 with shares 0..1" \
		'v["deferred"] == "n/a" ? (v["deferred_tt_share"] v["deferred_busy_share"] v["second_passes"] == "n/an/an/a") : (v["deferred"] + 0 > 0 && v["deferred_tt_share"] + 0 <= 1 && v["deferred_busy_share"] + 0 <= 1 && v["deferred_tt_share"] + v["deferred_busy_share"] <= 1.0001)'
	csv_check "$dir/runs.csv" "runs.csv: a split point books a helper, cuts off at most once; no split outside ybw" \
		'v["driver"] == "ybw" ? (v["split_helpers"] + 0 >= v["splits"] + 0 && v["split_cutoffs"] + 0 <= v["splits"] + 0 && v["split_nodes_lost"] + 0 <= v["nodes"] + 0) : (v["splits"] v["split_helpers"] v["split_cutoffs"] v["split_nodes_lost"] == "0000")'
	csv_check "$dir/runs.csv" "runs.csv: a deferred move is answered by the table or found busy at most once" \
		'v["deferred_tt"] + v["deferred_busy"] <= v["deferred"] + 0 && v["second_passes"] + 0 <= v["nodes"] + 0'
	local missing=
	for d in "${drivers[@]}"; do
		grep -q "^rtree,$d,1," "$dir/results.csv" || missing+=" $d"
	done
	if [ -z "$missing" ]; then ok "results.csv: a row of every driver of the registry (${drivers[*]})"; else fail "results.csv: no row of$missing"; fi
	# Node types (PVS, no quiescence on the trees): PV + CUT + ALL = nodes.
	csv_check "$dir/runs.csv" "runs.csv: nodes_pv + nodes_cut + nodes_all = nodes; wrong and first cut-offs within their wholes" \
		'v["nodes_pv"] + v["nodes_cut"] + v["nodes_all"] == v["nodes"] + 0 && v["cut_nodes_wrong"] + 0 <= v["nodes_cut"] + 0 && v["all_nodes_wrong"] + 0 <= v["nodes_all"] + 0 && v["cut_node_first_cutoffs"] + 0 <= v["cut_node_cutoffs"] + 0 && v["cut_node_cutoffs"] + 0 <= v["cutoffs"] + 0'
	csv_check "$dir/results.csv" "results.csv: node-type rates are shares (0..1)" \
		'v["cut_first_rate"] ~ /^[01]\.[0-9]+$/ && v["cut_nodes_wrong_rate"] ~ /^[01]\.[0-9]+$/ && v["all_nodes_wrong_rate"] ~ /^[01]\.[0-9]+$/ && v["cut_first_rate"] + 0 <= 1 && v["cut_nodes_wrong_rate"] + 0 <= 1 && v["all_nodes_wrong_rate"] + 0 <= 1'
	if grep -q "^   profile  .*search .*idle .*split-w .*lock .*CUT 1st" "$dir/report.txt" &&
		grep -q "^   ybw  *2  " "$dir/report.txt" && grep -q "^   lazysmp  *2  *t0 .* t1 " "$dir/report.txt"; then
		ok "report.txt: the profile table, and lazy SMP's depths per thread"
	else
		fail "report.txt lacks the profile table or lazy SMP's depths"
	fi
}

# json_num KEY: the first number after "KEY": in the JSON on stdin.
json_num() { grep -o "\"$1\":[-0-9.eE+]*" | head -n 1 | cut -d: -f2; }

bad "--threads" bench --threads 0
bad "--threads" bench --threads 1,,2
bad "--threads" bench --threads ""
bad "--threads" bench --threads 1,x
bad "--threads" bench --threads 2,2
bad "--threads" bench --threads 1025
bad "--workload" bench --workload go
bad "--workload" bench --workload rtree,
bad "--drivers" bench --drivers serial,no-such-driver
run bench --drivers no-such-driver
listed=0
for d in "${drivers[@]}"; do
	[[ $stderr == *"$d"* ]] && listed=$((listed + 1))
done
if [ "$listed" -eq "$ndrivers" ]; then ok "bench --drivers: the error lists the $ndrivers drivers"; else fail "bench --drivers: $stderr"; fi
bad "--repeat" bench --repeat 0
bad "--repeat" bench --repeat three
bad "--plot" bench --plot jpeg
bad "--stockfish" bench --stockfish "$tmp/no-such-stockfish"
bad "--positions" bench --positions 0
bad "--frobnicate" bench --frobnicate
bad "--hog" bench --hog -1
bad "--hog" bench --hog x
bad "--hog" bench --hog 1025

# A tiny sweep without gnuplot (PATH holds nothing): the report is written and says so.
out="$tmp/report"
PATH=/nonexistent run bench --workload rtree --rtree-branching 6 --rtree-depth 5 --positions 2 \
	--hash 1 --threads 1,2 --repeat 1 --stockfish off --no-progress --out "$out"
if [ "$status" -ne 0 ]; then
	fail "tiny rtree sweep: exit $status: $stderr"
else
	ok "tiny rtree sweep: exit 0"
fi
for f in report.txt results.json results.csv runs.csv threads.csv ceilings.csv; do
	if [ -s "$out/$f" ]; then ok "report folder holds $f"; else fail "report folder lacks $f"; fi
done
if grep -q "gnuplot-nox" "$out/report.txt" && [[ $stdout == *"gnuplot-nox"* ]]; then
	ok "without gnuplot the report says how to get it"
else
	fail "without gnuplot the report does not mention gnuplot-nox"
fi
if [[ $stdout == *"== rtree"* ]] && [[ $stdout == *"== in short: 2 threads"* ]] &&
	cmp -s <(printf '%s' "$stdout" | sed '/^report folder:/d' | sed '$d') "$out/report.txt"; then
	ok "the printed table is report.txt"
else
	fail "the printed table differs from report.txt"
fi
if python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["runs"] and d["rows"] and d["workloads"]' \
	"$out/results.json" 2>/dev/null; then
	ok "results.json parses, with runs, rows and workloads"
elif ! command -v python3 >/dev/null && grep -q '"rows":\[{' "$out/results.json"; then
	ok "results.json has rows (no python3 to parse it)"
else
	fail "results.json does not parse"
fi
for key in speedup speedup_own efficiency nps_scaling overhead first_move_cutoff_rate \
	thread_nps_min thread_nps_median thread_nps_max idle_share minimal_tree_ratio ebf \
	profiled search_share split_wait_share lock_share sync_share cut_first_rate \
	cut_nodes_wrong_rate all_nodes_wrong_rate tt_hits_other_rate splits helpers_per_split \
	split_cutoff_rate split_nodes_lost_share share_search share_idle share_split_wait \
	share_lock_spin depth_reached_mean depth_completed_mean nodes_cut split_nodes_lost; do
	if grep -q "\"$key\":" "$out/results.json"; then ok "results.json has $key"; else fail "results.json lacks $key"; fi
done
profile_checks "$out" 5

# 'tt other' costs speed, so it is off unless asked for: n/a by default, and the report
# says what turning it on costs; with --profile-tt-writers it is measured (a share, 0 for
# the serial search: its one thread wrote every entry it finds).
if grep -q '"profiled":true' "$out/results.json"; then
	csv_check "$out/results.csv" "tt other is n/a without --profile-tt-writers" 'v["tt_hits_other_rate"] == "n/a"'
	if grep -q "^profiler .*--profile-tt-writers.*6-10 %" "$out/report.txt"; then ok "the report says --profile-tt-writers costs 6-10 %"; else fail "the report does not say what --profile-tt-writers costs"; fi
	run bench --workload rtree --rtree-branching 6 --rtree-depth 5 --positions 2 --hash 1 --threads 1,2 \
		--repeat 1 --stockfish off --plot none --no-progress --profile-tt-writers --out "$tmp/writers"
	if [ "$status" -eq 0 ] && grep -q '"profile_tt_writers":true' "$tmp/writers/results.json"; then
		ok "--profile-tt-writers: exit 0, recorded in results.json"
	else
		fail "--profile-tt-writers: exit $status: $stderr"
	fi
	csv_check "$tmp/writers/results.csv" "--profile-tt-writers: tt other measured in every row (0 for serial)" \
		'v["tt_hits_other_rate"] ~ /^[01]\.[0-9]+$/ && v["tt_hits_other_rate"] + 0 <= 1 && (v["driver"] != "serial" || v["tt_hits_other_rate"] == "0.0000")'
	csv_check "$tmp/writers/runs.csv" "--profile-tt-writers: tt_hits_other counted in every run" \
		'v["tt_hits_other"] ~ /^[0-9]+$/ && v["tt_hits_other"] + 0 <= v["nodes"] + 0'
fi
# The machine's ceiling at 2 threads: measured before each repeat, in the header and the
# JSON, and a positive number. Not bounded above: it is a timing, and on a loaded machine
# a slowed one-thread loop made it read 2.5-2.6 (tests assert behaviour, not speed).
c=$(sed -n 's/^ceiling at 2 threads  *\([0-9.]*\) .*/\1/p' "$out/report.txt")
if [ -n "$c" ] && awk -v c="$c" 'BEGIN { exit !(c > 0) }' &&
	grep -q '"ceiling":\[{"threads":2,"median":[0-9.]*' "$out/results.json"; then
	ok "the machine's ceiling at 2 threads: $c"
else
	fail "no sane ceiling at 2 threads in report.txt / results.json: '$c'"
fi
# The memory probes at the table's size (1 MiB), before each repeat: in the header, as a
# series each in ceilings.csv and results.json; no value is checked but its sign.
if grep -q '^reads at 2 threads  *[0-9.]* (.*) at 1 MiB; ' "$out/report.txt" &&
	grep -q '^writes at 2 threads  *[0-9.]* (.*) at 1 MiB; ' "$out/report.txt" &&
	grep -Eq '^latency on CPU [0-9]+  *[0-9.]+ ns \(.*\) at 1 MiB; ' "$out/report.txt" &&
	grep -q '^probes  *[0-9.]* s ' "$out/report.txt" && grep -q '^hog  *none' "$out/report.txt"; then
	ok "report.txt: reads, writes and latency at 1 MiB, the probes' time, no hog"
else
	fail "report.txt lacks the memory probes: $(grep -E '^(reads|writes|latency|probes|hog)' "$out/report.txt")"
fi
for probe in compute reads writes read_ns write_ns latency_ns probe_s; do
	if grep -q "^$probe," "$out/ceilings.csv" && grep -q "\"probe\":\"$probe\"" "$out/results.json"; then
		ok "ceilings.csv and results.json have the $probe probe"
	else
		fail "ceilings.csv or results.json lacks the $probe probe"
	fi
done
csv_check "$out/ceilings.csv" "ceilings.csv: every median positive, within min..max; memory probes at 1 MiB" \
	'v["median"] + 0 > 0 && v["min"] + 0 <= v["median"] + 0 && v["median"] + 0 <= v["max"] + 0 && (v["probe"] ~ /^(compute|probe_s)$/ || v["table_mb"] == "1")'
# The applicable ceiling: n/a at one thread; at two, a positive mix named by its bound, and
# speedup_of_ceiling is the speed-up over it (4 decimals each: a relative 1e-3).
csv_check "$out/results.csv" "results.csv: ceiling n/a at 1 thread; at 2, bound named and speed-up / ceiling = of ceiling" \
	'v["threads"] == 1 ? (v["ceiling"] v["ceiling_bound"] v["speedup_of_ceiling"] == "n/an/an/a") : (v["ceiling"] + 0 > 0 && v["ceiling_bound"] ~ /^(compute|reads|writes)$/ && (d = v["speedup"] / v["ceiling"] - v["speedup_of_ceiling"]) < 1e-3 * (1 + v["speedup_of_ceiling"]) && -d < 1e-3 * (1 + v["speedup_of_ceiling"]))'
if [ -n "$python" ]; then
	if "$python" -c 'import json, sys
w = json.load(open(sys.argv[1]))["workloads"][0]
assert w["tt_probes_per_node"] > 0 and w["tt_stores_per_node"] > 0 and w["node_ns"] > 0
assert 0 <= w["share_reads"] <= 1 and 0 <= w["share_writes"] <= 1 and w["share_reads"] + w["share_writes"] <= 1' "$out/results.json"; then
		ok "results.json: the workload's probes and stores per node, and memory shares within 0..1"
	else
		fail "results.json: the workload's memory shares are missing or out of 0..1"
	fi
fi
if grep -q "^   ceiling that applies ('of ceil' is the speed-up over it)" "$out/report.txt"; then ok "report.txt: the rule's line under the table"; else fail "report.txt: no ceiling line under the rtree table"; fi

# --hog 1: one process spinning beside the sweep, reported, and gone when the bench is.
# Its children carry the bench's arguments, so the report folder's name finds them. One
# thread and one search, so that it spins for a few milliseconds only: other tests may be
# timing something beside this one.
run bench --workload rtree --rtree-branching 6 --rtree-depth 5 --positions 1 --hash 1 --threads 1 \
	--drivers serial --repeat 1 --stockfish off --plot none --no-progress --hog 1 --out "$tmp/hog"
ps -eo pid=,stat=,args= >"$tmp/ps"
left=$(grep -F -- "$tmp/hog" "$tmp/ps")
if [ "$status" -eq 0 ] && grep -q "^hog  *1 process spinning beside the sweep (another program's load)" "$tmp/hog/report.txt" &&
	grep -q '"hog":1' "$tmp/hog/results.json" && [ "$(field "$tmp/hog/ceilings.csv" hog probe_s,)" = 1 ]; then
	ok "--hog 1: exit 0, in report.txt, results.json and ceilings.csv"
else
	fail "--hog 1: exit $status: $stderr"
fi
if [ -z "$left" ]; then ok "--hog 1: no process left behind"; else fail "--hog 1: left behind: $left"; fi

rows=$(grep -c '^rtree,' "$out/results.csv")
want=$((1 + 2 * (ndrivers - 1)))
if [ "$rows" -eq "$want" ]; then ok "results.csv: $want rows (the baseline at 1 thread, each other driver at 1 and 2)"; else fail "results.csv: $rows rows, expected $want"; fi
lines=$(head -n 1 "$out/speedup-rtree.dat")
if [ "$lines" = "# threads ${drivers[*]:1}" ]; then ok "speedup-rtree.dat: a line per driver beyond the baseline (${drivers[*]:1})"; else fail "speedup-rtree.dat: '$lines'"; fi
s=$(field "$out/results.csv" speedup rtree,serial,1,)
o=$(field "$out/results.csv" overhead rtree,serial,1,)
if [ "$s" = "1.0000" ] && [ "$o" = "1.0000" ]; then
	ok "serial at 1 thread: speed-up $s, overhead $o"
else
	fail "serial at 1 thread: speed-up '$s', overhead '$o' (expected 1.0000)"
fi
mine=$(field "$out/runs.csv" nodes rtree,serial,1,1,)
tree=$("$cutoff" tree --model incremental --branching 6 --depth 5 --trees 2 --seed 1 --iterate \
	--ordering all --hash 1 --algo pvs --no-check --json | json_num nodes_mean)
tree=$(awk -v m="$tree" 'BEGIN { printf "%.0f", 2 * m }')
if [ -n "$mine" ] && [ "$mine" = "$tree" ]; then
	ok "rtree serial nodes $mine = cutoff tree's for the same trees"
else
	fail "rtree serial nodes '$mine', cutoff tree says '$tree'"
fi
threads=$(field "$out/runs.csv" thread_nodes rtree,ybw,2,1,)
if [[ $threads =~ ^[0-9]+\;[0-9]+$ ]]; then ok "runs.csv: ybw at 2 threads has 2 per-thread counts ($threads)"; else fail "runs.csv: ybw per-thread counts '$threads'"; fi

# Connect Four: the built-in positions (no data folder), against `cutoff solve --weak --algo
# pvs` (the bench's one search of (-1, 1)) without enhanced transposition cut-offs (the bench
# searches without them).
out="$tmp/c4"
run bench --workload connect4 --positions 1 --threads 1 --repeat 1 --stockfish off --plot none \
	--no-progress --out "$out"
mine=$(field "$out/runs.csv" nodes connect4,serial,1,1,)
solve=$("$cutoff" solve --game connect4 --moves 32751571231557 --weak --algo pvs --etc-min-depth 0 --json | json_num nodes)
if [ "$status" -eq 0 ] && [ -n "$mine" ] && [ "$mine" = "$solve" ]; then
	ok "connect4 serial nodes $mine = cutoff solve --weak --algo pvs --etc-min-depth 0's"
else
	fail "connect4: exit $status, nodes '$mine', cutoff solve says '$solve': $stderr"
fi
if grep -q "check: 0 solves differ" "$out/report.txt"; then ok "connect4: every solve matches the test set"; else fail "connect4: a solve differs from the test set"; fi

# Chess: one position, shallow, with the quality check at equal time.
out="$tmp/chess"
run bench --workload chess --positions 1 --chess-depth 4 --threads 1,2 --repeat 1 --quality-ms 20 \
	--reference-extra 1 --stockfish off --plot none --no-progress --out "$out"
if [ "$status" -eq 0 ] && grep -q "quality at equal time" "$out/report.txt" &&
	grep -q "; ref [a-h][1-8][a-h][1-8]" "$out/chess-positions.txt"; then
	ok "chess: a report with quality at equal time and the reference move recorded"
else
	fail "chess: exit $status: $stderr"
fi

# A --chess-file line longer than the reader's buffer, or holding a NUL byte: one line
# naming line 1 of this one-line file and what is wrong, exit 1 (issue 43, item 12b:
# the rest of a long line was read as line 2, and a NUL byte hid the rest of its line).
start='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
{ printf '%s; id ' "$start" && head -c 600 /dev/zero | tr '\0' x && echo; } >"$tmp/long.txt"
{ printf '%s; id a' "$start" && printf '\0; depth x\n'; } >"$tmp/nul.txt"
for c in "long.txt:a line longer than 511 bytes" "nul.txt:a NUL byte in the line"; do
	file=${c%%:*} want=${c#*:}
	run bench --workload chess --chess-file "$tmp/$file" --chess-depth 2 --threads 1 --repeat 1 --stockfish off \
		--plot none --no-progress --out "$tmp/file-$file"
	if [ "$status" -eq 1 ] && [ -z "$stdout" ] && one_line "$stderr" && [[ $stderr == *": $file:1: $want"* ]]; then
		ok "--chess-file, $want: $(show "${stderr%$'\n'}")"
	else
		fail "--chess-file, $want: exit $status: $(show "$stderr")"
	fi
done

# Every search of a sweep over the three workloads, repeated by the `cutoff search` line
# that searches.txt gives for it: the serial rows' nodes, move and value, position by
# position (positions.csv), for chess (pruning, quiescence, iterative deepening), Connect
# Four (the weak solve's window) and random trees.
out="$tmp/all"
run bench --workload chess,connect4,rtree --positions 2 --chess-depth 5 --rtree-depth 6 \
	--threads 1 --drivers serial --repeat 1 --quality-ms 0 --stockfish off --plot none \
	--no-progress --out "$out"
if [ "$status" -eq 0 ] && [ -s "$out/searches.txt" ] && [ -s "$out/positions.csv" ]; then
	ok "a sweep of the three workloads writes searches.txt and positions.csv"
else
	fail "sweep of the three workloads: exit $status: $stderr"
fi
# json_move: best_move's value, string or number, from the JSON on stdin.
json_move() { grep -o '"best_move":"\?[^",]*' | head -n 1 | cut -d: -f2 | tr -d '"'; }
n=0
agree=0
declare -A seen=()
while IFS= read -r line; do
	[[ $line == "cutoff search "* ]] || continue
	eval "set -- ${line#cutoff }"
	workload=$3 # "search --game WORKLOAD ..."
	seen[$workload]=$((${seen[$workload]:-0} + 1))
	row=$(awk -F, -v w="$workload" -v k="${seen[$workload]}" \
		'$1 == w && $2 == "serial" && $5 == k { print $7 " " $10 " " $11; exit }' "$out/positions.csv")
	json=$("$cutoff" "$@" --json)
	got="$(json_num nodes <<<"$json") $(json_move <<<"$json") $(json_num value <<<"$json")"
	if [ "$workload" = connect4 ]; then
		# the bench records the weak score (-1, 0, 1); search the fail-soft value
		v=${got##* }
		got="${got% *} $(((v > 0) - (v < 0)))"
	fi
	n=$((n + 1))
	if [ -n "$row" ] && [ "$got" = "$row" ]; then
		agree=$((agree + 1))
	else
		fail "cutoff $* gives '$got' (nodes move value), the bench's serial row '$row'"
	fi
done <"$out/searches.txt"
if [ "$n" -eq 6 ] && [ "$agree" -eq 6 ]; then
	ok "the 6 searches (2 a workload) repeated by cutoff search: the same nodes, move and value"
else
	fail "searches.txt: $agree of $n searches agree (expected 6 of 6)"
fi

# More threads than cores are allowed, and flagged.
cores=$("$cutoff" topo --json | json_num cores)
over=$((cores + 1))
run bench --workload rtree --rtree-depth 3 --positions 1 --hash 1 --threads "$over" --drivers ybw \
	--repeat 1 --stockfish off --plot none --no-progress --out "$tmp/over"
if [ "$status" -eq 0 ] && grep -q "^ybw  *$over\*" "$tmp/over/report.txt" &&
	grep -q "rtree,ybw,$over,1," "$tmp/over/results.csv"; then
	ok "$over threads on $cores cores: run and flagged"
else
	fail "$over threads on $cores cores: exit $status: $stderr"
fi

# The report folder (issue 25, items 3 and 4). tiny ARGS...: the smallest sweep (one tree,
# the serial search), with its progress lines on stderr, so that a refusal before the
# sweep is seen as one line and nothing else.
tiny() {
	run bench --workload rtree --rtree-branching 6 --rtree-depth 3 --positions 1 --hash 1 \
		--threads 1 --drivers serial --repeat 1 --stockfish off --plot none "$@"
}
# before_sweep WHAT STATUS NEEDLE: the last run stopped before its sweep with STATUS, one
# line on stderr (no progress line) containing NEEDLE, nothing on stdout.
before_sweep() {
	if [ "$status" -eq "$2" ] && [ -z "$stdout" ] && one_line "$stderr" && [[ $stderr == *"$3"* ]]; then
		ok "$1: exit $2 before the sweep: $(show "${stderr%$'\n'}")"
	else
		fail "$1: exit $status (expected $2 before the sweep, one line with '$3'): stderr $(show "$stderr"), stdout $(show "$stdout")"
	fi
}
# A folder that cannot be written is said before the sweep, for root too: /proc/self is a
# folder in which no file can be made, whoever asks.
tiny --out /proc/self
before_sweep "--out /proc/self" 1 "cannot write into the folder '/proc/self'"
# A folder without write permission: as this user, or, as root (whom permissions do not
# stop), as nobody through setpriv when it can run the command.
mkdir -p "$tmp/shared/ro" && chmod 755 "$tmp" "$tmp/shared" && chmod 555 "$tmp/shared/ro"
if [ "$(id -u)" -ne 0 ]; then
	tiny --out "$tmp/shared/ro"
	before_sweep "--out a folder without write permission" 1 "cannot write into the folder"
elif command -v setpriv >/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups "$cutoff" --help >/dev/null 2>&1; then
	printf '#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups "%s" "$@"\n' \
		"$cutoff" >"$tmp/shared/nobody.sh"
	chmod +x "$tmp/shared/nobody.sh"
	cutoff_itself=$cutoff
	cutoff=$tmp/shared/nobody.sh
	tiny --out "$tmp/shared/ro"
	cutoff=$cutoff_itself
	before_sweep "--out a folder without write permission (as nobody)" 1 "cannot write into the folder"
else
	echo "skipped: running as root without setpriv for nobody: a folder without write permission"
fi
chmod 700 "$tmp"

# A folder that stops being one after the sweep (gnuplot, the last program before the
# report's files, replaces it by a file): the table is printed all the same, then one line
# says which file could not be written, and the status is 1.
printf '#!/bin/sh\nd=$PWD; cd / && rm -rf "$d" && : >"$d"\n' >"$tmp/gone.sh"
chmod +x "$tmp/gone.sh"
GNUPLOT=$tmp/gone.sh tiny --plot svg --no-progress --out "$tmp/gone"
if [ "$status" -eq 1 ] && [[ $stdout == *"== rtree"* ]] && one_line "$stderr" &&
	[[ $stderr == *"cannot write report.txt into the report folder '$tmp/gone'"* ]]; then
	ok "a folder gone after the sweep: the table printed, exit 1, $(show "${stderr%$'\n'}")"
else
	fail "a folder gone after the sweep: exit $status, table printed: $([[ $stdout == *"== rtree"* ]] && echo yes || echo no), stderr $(show "$stderr")"
fi

# A second report into the same folder: refused before its sweep unless --replace, which
# removes exactly the first report's files (report-files.txt lists them), not the user's.
# The first draws its plots with a stand-in for gnuplot, so that the pictures and
# plots.log are among its files.
printf '#!/bin/sh\nfor f in speedup node-rate-per-thread time-split; do echo x >$f.svg; done\n' >"$tmp/draw.sh"
chmod +x "$tmp/draw.sh"
again=$tmp/again
GNUPLOT=$tmp/draw.sh tiny --plot svg --no-progress --out "$again"
listed=$(grep -v '^#' "$again/report-files.txt" 2>/dev/null | sort | tr '\n' ' ')
present=$(ls "$again" | sort | tr '\n' ' ')
if [ "$status" -eq 0 ] && [ -n "$listed" ] && [ "$listed" = "$present" ] &&
	[[ $listed == *"speedup-rtree.dat"*"speedup.svg"* ]] && [[ $listed == *"plots.log"* ]]; then
	ok "report-files.txt lists every file of the folder, pictures and plots.log among them"
else
	fail "report-files.txt: exit $status, lists '$listed', the folder holds '$present'"
fi
echo "mine" >"$again/notes.txt"
mkdir "$again/data" && echo "mine" >"$again/data/report.txt"
cp "$again/report.txt" "$tmp/first-report.txt"
run bench --workload connect4 --positions 1 --threads 1 --drivers serial --repeat 1 \
	--stockfish off --plot none --out "$again"
before_sweep "a second report into the folder" 2 "holds a report already (report.txt): give --replace"
if cmp -s "$again/report.txt" "$tmp/first-report.txt"; then ok "the refused run left the first report as it was"; else fail "the refused run changed the first report"; fi
run bench --workload connect4 --positions 1 --threads 1 --drivers serial --repeat 1 \
	--stockfish off --plot none --no-progress --out "$again" --replace
listed=$(grep -v '^#' "$again/report-files.txt" 2>/dev/null | sort | tr '\n' ' ')
present=$(ls "$again" | grep -vx -e notes.txt -e data | sort | tr '\n' ' ')
if [ "$status" -eq 0 ] && [ -n "$listed" ] && [ "$listed" = "$present" ] &&
	[[ $listed != *rtree* ]] && [[ $listed != *svg* ]] && grep -q "^== connect4" "$again/report.txt"; then
	ok "--replace: the first report's files gone (rtree, pictures, plots.log), only the second's listed and there"
else
	fail "--replace: exit $status, lists '$listed', the folder holds '$present': $(show "$stderr")"
fi
if [ "$(cat "$again/notes.txt" "$again/data/report.txt" 2>/dev/null)" = "mine"$'\n'"mine" ]; then
	ok "--replace kept the user's notes.txt and data/report.txt"
else
	fail "--replace removed or changed the user's files"
fi
# A report without report-files.txt (written before there were lists, or cut short):
# --replace removes the names a report writes, nothing else; a list that names other
# files is read through the same names.
rm "$again/report-files.txt"
: >"$again/speedup.png"
tiny --no-progress --out "$again" --replace
if [ "$status" -eq 0 ] && [ ! -e "$again/speedup.png" ] && [ ! -e "$again/speedup-connect4.dat" ] &&
	[ -s "$again/notes.txt" ] && [ -s "$again/data/report.txt" ]; then
	ok "--replace without a list: the report's names removed, the user's files kept"
else
	fail "--replace without a list: exit $status: $(show "$stderr"); $(ls "$again" | tr '\n' ' ')"
fi
printf 'notes.txt\n../first-report.txt\ndata\nreport.txt\n' >>"$again/report-files.txt"
tiny --no-progress --out "$again" --replace
if [ "$status" -eq 0 ] && [ -s "$again/notes.txt" ] && [ -s "$tmp/first-report.txt" ] &&
	[ -s "$again/data/report.txt" ] && [ -s "$again/report.txt" ]; then
	ok "--replace with a list naming the user's files: they are kept"
else
	fail "--replace with an edited list: exit $status: $(show "$stderr")"
fi

# Two runs at once (issue 43, item 7). The same --out: the second is refused before its
# sweep while the first holds the folder, and the folder is free again once the first
# has ended. The first waits in its sweep, past the folder's check, for a Stockfish that
# says it has started and then nothing until the test lets it exit.
printf '#!/bin/sh\n: >"%s/sf-started"\nwhile [ ! -e "%s/sf-go-on" ]; do sleep 0.05; done\nexit 3\n' \
	"$tmp" "$tmp" >"$tmp/sf-wait"
chmod +x "$tmp/sf-wait"
timeout 120 "$cutoff" bench --workload chess --positions 1 --threads 1 --repeat 1 --drivers serial \
	--quality-ms 0 --plot none --no-progress --stockfish "$tmp/sf-wait" --stockfish-timeout 60 \
	--out "$tmp/busy" >"$tmp/first-out" 2>"$tmp/first-err" &
first=$!
for _ in $(seq 1200); do
	[ -e "$tmp/sf-started" ] || ! kill -0 "$first" 2>/dev/null && break
	sleep 0.05
done
if [ -e "$tmp/sf-started" ]; then
	tiny --no-progress --out "$tmp/busy"
	before_sweep "the same --out as a run that is writing it" 2 \
		"the folder '$tmp/busy' is in use by another cutoff bench or sim that is running"
else
	fail "the first of two runs into one folder did not reach its Stockfish: $(show "$(cat "$tmp/first-err")")"
fi
: >"$tmp/sf-go-on"
wait "$first"
first_status=$?
if [ "$first_status" -eq 1 ] && grep -q "exited with status 3" "$tmp/first-err" && [ ! -e "$tmp/busy/.cutoff-claim" ]; then
	ok "the first run ended (its Stockfish exited) and gave its folder back"
else
	fail "the first run: exit $first_status, $(show "$(cat "$tmp/first-err")"); $(ls -A "$tmp/busy" | tr '\n' ' ')"
fi
tiny --no-progress --out "$tmp/busy"
if [ "$status" -eq 0 ] && [ -s "$tmp/busy/report.txt" ]; then ok "the folder, given back, takes the next run's report"; else fail "after the first run: exit $status: $(show "$stderr")"; fi
# Without --out, each run makes a new folder: bench-report-DATE-TIME taken (made here, as
# a run started in the same second would, for each of the next 60 s), the run takes
# that name with -2.
mkdir "$tmp/cwd"
now=$(date -u +%s)
for s in $(seq 0 60); do
	mkdir "$tmp/cwd/bench-report-$(date -u -d "@$((now + s))" +%Y%m%d-%H%M%S)"
done
case $cutoff in /*) ;; *) cutoff=$PWD/$cutoff ;; esac
cd "$tmp/cwd" || exit 2
tiny --no-progress
cd - >/dev/null || exit 2
made=$(sed -n 's/^report folder: //p' <<<"$stdout")
if [ "$status" -eq 0 ] && [[ $made == bench-report-*-2 ]] && [ -d "$tmp/cwd/${made%-2}" ] &&
	[ -s "$tmp/cwd/$made/report.txt" ] && [ -z "$(find "$tmp/cwd" -mindepth 2 -not -path "$tmp/cwd/$made/*")" ]; then
	ok "without --out, the default folder taken: the run made $made, the taken ones left empty"
else
	fail "without --out, the default folder taken: exit $status, report folder '$made': $(show "$stderr"); $(find "$tmp/cwd" -mindepth 2 | head -3 | tr '\n' ' ')"
fi

# A Stockfish that hangs, or dies, ends the bench with one line naming what it waited for,
# within --stockfish-timeout, and leaves no process behind (its process group is killed:
# the sleep it started goes too). Each run is bounded by `timeout`, so that a bench that
# waits for ever (as it did before the UCI client had deadlines) fails instead of hanging.
fake_sf() { # NAME BODY: a fake engine, its input loop's cases
	printf '#!/bin/bash\n# %s\nwhile read -r line; do\n\tcase $line in\n%s\n\tquit) exit 0 ;;\n\tesac\ndone\n' \
		"$1" "$2" >"$tmp/$1"
	chmod +x "$tmp/$1"
}
fake_sf sf-mute '*) sleep 1000 ;;'
fake_sf sf-no-bestmove 'uci) echo "id name Stuck"; echo uciok ;;
isready) echo readyok ;;
go*) sleep 1000 ;;'
fake_sf sf-dies 'uci) echo "id name Dies"; echo uciok ;;
isready) echo readyok ;;
go*) exit 3 ;;'
for sf in sf-mute:"said nothing for 1 s, waiting for uciok" \
	sf-no-bestmove:"said nothing for 1 s, waiting for bestmove" \
	sf-dies:"exited with status 3, waiting for bestmove"; do
	name=${sf%%:*} want=${sf#*:}
	start=$SECONDS
	status=0
	timeout 60 "$cutoff" bench --workload chess --positions 1 --threads 1 --repeat 1 \
		--drivers serial --quality-ms 0 --plot none --no-progress --stockfish "$tmp/$name" \
		--stockfish-timeout 1 --out "$tmp/$name-report" >"$tmp/out" 2>"$tmp/err" || status=$?
	took=$((SECONDS - start))
	left=$(pgrep -f "$tmp/$name" || true)
	errline=$(grep -v 'warning: --threads' "$tmp/err" || true)
	if [ "$status" -eq 124 ]; then
		fail "stockfish $name: the bench still waited after 60 s"
	elif [ "$status" -eq 0 ] || ! one_line "$errline"$'\n' || [[ $errline != *"$want"* ]]; then
		fail "stockfish $name: exit $status, stderr $(show "$(cat "$tmp/err")")"
	elif [ -n "$left" ]; then
		fail "stockfish $name: processes left: $left"
		kill -9 $left 2>/dev/null
	else
		ok "stockfish $name: exit $status in ${took} s, nothing left: $errline"
	fi
done

run bench --help
if [ "$status" -eq 0 ] && [[ $stdout == usage:* ]] && [ -z "$stderr" ] &&
	[[ $stdout == *"--profile-tt-writers"*"6 to 10 %"* ]] && [[ $stdout == *"--hog N"* ]] &&
	[[ $stdout == *"--replace"* ]]; then
	ok "bench --help (with what --profile-tt-writers costs, --hog and --replace)"
else
	fail "bench --help: exit $status"
fi

report
