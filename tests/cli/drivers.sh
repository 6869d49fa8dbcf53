#!/bin/bash
# SPDX-License-Identifier: MIT
# drivers.sh CUTOFF — the parallel drivers through the `cutoff` command.
#
# `cutoff tree` checks every tree's value against a full negamax of the tree, so a run with
# no mismatches is an exactness test of the driver: every driver of the library's registry
# (as `cutoff drivers --names` lists them: serial, lazysmp, ybw, ...) with every algorithm, at 1 to 4 threads, on naturally and worst-ordered trees, in one
# search and by iterative deepening, and with YBW's split rules at their extremes. `cutoff
# search` must find tic-tac-toe's value (0, exact) with each of them, and its per-thread
# counts must add up to the total, as must the profiler's figures in both commands. The figures of the serial driver are those of
# cli_errors.sh; here only the values are oracles, since parallel node counts vary.
# The registry reaches every command: each driver is taken by --algo, an unknown one's
# error lists them all, and each driver option is taken as --NAME VALUE by every command
# that takes --threads, and refused out of its range (exit 2, one line naming the option
# and the range), whatever the options are called.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"

# sums WHAT: with python3, the per-thread node counts of the last JSON output add up to its
# total (search: per_thread[].nodes = nodes; tree: per_thread_nodes_mean[] = nodes_mean).
sums() {
	[ -n "$python" ] || return 0
	if "$python" -c '
import json, sys
d = json.load(open(sys.argv[1]))
if "per_thread" in d:
    parts, whole, n = [t["nodes"] for t in d["per_thread"]], d["nodes"], d["threads"]
else:
    parts, whole, n = d["per_thread_nodes_mean"], d["nodes_mean"], d["threads"]
sys.exit(0 if len(parts) == n and abs(sum(parts) - whole) <= 1e-6 * max(1, whole) else 1)
' "$out" 2>/dev/null; then
		ok "$1: per-thread nodes add up to the total"
	else
		fail "$1: per-thread nodes do not add up: $(show "$stdout")"
	fi
}

# The drivers, from the library's registry; the parallel ones are all but the default.
mapfile -t drivers < <("$cutoff" drivers --names)
default=$("$cutoff" drivers --json | grep -o '"name":"[^"]*","description":"[^"]*","default":true' |
	cut -d'"' -f4)
parallel=()
for d in "${drivers[@]}"; do
	[ "$d" = "$default" ] || parallel+=("$d")
done
if [ ${#drivers[@]} -ge 3 ] && [ -n "$default" ]; then
	ok "cutoff drivers --names: ${drivers[*]} (default $default)"
else
	fail "cutoff drivers: '${drivers[*]}', default '$default'"
fi

# --- the registry through the command line ---------------------------------------------------
for driver in "${drivers[@]}"; do
	what="cutoff drivers lists $driver with its description"
	if good "$what" drivers && [[ $stdout =~ (^|$'\n')$driver\ +[^\ ] ]]; then
		ok "$what"
	else
		fail "$what: $(show "$stdout")"
	fi
done
run search --algo no-such-driver
listed=0
for driver in "${drivers[@]}"; do
	[[ $stderr == *"$driver"* ]] && listed=$((listed + 1))
done
if [ "$status" -eq 2 ] && [ -z "$stdout" ] && one_line "$stderr" && [ "$listed" -eq ${#drivers[@]} ]; then
	ok "an unknown driver: exit 2, one line listing the ${#drivers[@]} drivers"
else
	fail "an unknown driver: exit $status, $(show "$stderr")"
fi

# Each option of `cutoff drivers`: "  --NAME MIN..MAX ..." or "  --NAME WORD|WORD ...".
opt_lines=$("$cutoff" drivers | sed -n 's/^  --\([a-z0-9-]*\) \([^ ]*\) .*/\1 \2/p')
nopts=0
while read -r name range; do
	[ -n "$name" ] || continue
	nopts=$((nopts + 1))
	if [[ $range =~ ^(-?[0-9]+)\.\.(-?[0-9]+)$ ]]; then
		min=${BASH_REMATCH[1]}
		max=${BASH_REMATCH[2]}
		low=$((min - 1))
		for cmd in search tree solve epd bench; do
			run "$cmd" "--$name" "$low"
			if [ "$status" -eq 2 ] && [ -z "$stdout" ] && one_line "$stderr" &&
				[[ $stderr == *"--$name"*"$min..$max"*"'$low'"* ]]; then
				ok "$cmd --$name $low: exit 2, one line naming the option and $min..$max"
			else
				fail "$cmd --$name $low: exit $status: $(show "$stderr")"
			fi
		done
		run search "--$name" $((max + 1))
		if [ "$status" -eq 2 ] && [[ $stderr == *"--$name"*"$min..$max"* ]]; then
			ok "search --$name $((max + 1)): refused"
		else
			fail "search --$name $((max + 1)): exit $status: $(show "$stderr")"
		fi
		given=$min
	else
		given=${range%%|*}
		run search "--$name" no-such-word
		if [ "$status" -eq 2 ] && one_line "$stderr" &&
			[[ $stderr == *"--$name"*"${range//|/, }"* ]]; then
			ok "search --$name no-such-word: exit 2, one line listing ${range//|/, }"
		else
			fail "search --$name no-such-word: exit $status: $(show "$stderr")"
		fi
	fi
	# Taken by every driver's search (each reads only its own), and shown in the JSON.
	for driver in "${drivers[@]}"; do
		what="search --algo $driver --threads 2 --$name $given"
		if good "$what" search --algo "$driver" --threads 2 "--$name" "$given" --depth 4 --json; then
			if json_field value 0 && [[ $stdout == *"\"driver_options\":{"*"\"$name\":"* ]]; then
				ok "$what: the value, and $name in driver_options"
			else
				fail "$what: $(show "$stdout")"
			fi
		fi
	done
done <<<"$opt_lines"
if [ "$nopts" -ge 3 ]; then ok "cutoff drivers lists $nopts options"; else fail "cutoff drivers lists $nopts options: $opt_lines"; fi

# --- tree: exact at 1..4 threads -----------------------------------------------------------
for driver in "${drivers[@]}"; do
	for algo in minimax alphabeta pvs mtdf; do
		for threads in 1 2 3 4; do
			what="tree --algo $driver/$algo --threads $threads"
			if good "$what" tree --algo $driver/$algo --threads $threads \
				--depth 5 --trees 6 --order worst --json; then
				if json_field mismatches 0 && json_field threads $threads &&
					json_field driver "\"$driver\""; then
					ok "$what: exact on every tree"
				else
					fail "$what: $(show "$stdout")"
				fi
				[ "$threads" -eq 3 ] && sums "$what"
			fi
		done
	done
done

for driver in "${parallel[@]}"; do
	what="tree --algo $driver --threads 3 --iterate --ordering all --aspiration 10"
	if good "$what" tree --algo $driver --threads 3 --iterate --ordering all \
		--aspiration 10 --model incremental --trees 8 --json; then
		if json_field mismatches 0; then
			ok "$what: exact on every tree"
		else
			fail "$what: $(show "$stdout")"
		fi
	fi
done

for split in "--min-split 1 --max-helpers 1" "--min-split 1 --max-helpers 8" \
	"--min-split 127"; do
	what="tree --algo ybw --threads 4 $split"
	# shellcheck disable=SC2086
	if good "$what" tree --algo ybw --threads 4 $split --branching 5 --depth 7 --trees 4 \
		--json; then
		if json_field mismatches 0; then
			ok "$what: exact on every tree"
		else
			fail "$what: $(show "$stdout")"
		fi
	fi
done

# At --min-split 127 no node of a depth-7 tree qualifies: YBW never splits.
if json_field splits_mean 0; then
	ok "ybw --min-split 127 makes no split point"
else
	fail "ybw --min-split 127 made split points: $(show "$stdout")"
fi

for placement in compact scatter; do
	what="tree --algo ybw --threads 2 --placement $placement"
	if good "$what" tree --algo ybw --threads 2 --placement $placement --trees 4 --json; then
		if json_field mismatches 0 && json_field placement "\"$placement\""; then
			ok "$what: exact on every tree"
		else
			fail "$what: $(show "$stdout")"
		fi
	fi
done

# profiled WHAT: with python3, the profiler's part of the last JSON output is whole: the
# summed counters are the per-thread ones added up, the typed nodes add up to the nodes
# (less quiescence), and every thread's times add up to its span.
profiled() {
	[ -n "$python" ] || return 0
	if "$python" -c '
import json, sys
d = json.load(open(sys.argv[1]))
c, threads = d["counters"], d["per_thread_profile"]
ok = d["profiled"] and len(threads) == d["threads"]
for key in ("nodes", "leaves", "splits", "split_helpers", "nodes_cut", "cut_nodes_wrong"):
    ok = ok and sum(t["counters"][key] for t in threads) == c[key]
ok = ok and c["nodes_pv"] + c["nodes_cut"] + c["nodes_all"] == c["nodes"] - c["qnodes"]
for t in threads:
    p = t["profile"]
    parts = p["search_s"] + p["idle_s"] + p["split_wait_s"] + p["lock_s"]
    ok = ok and abs(parts - p["time_s"]) <= 1e-6 + 1e-9 * p["time_s"]
sys.exit(0 if ok else 1)
' "$out" 2>/dev/null; then
		ok "$1: the profile adds up"
	else
		fail "$1: the profile does not add up: $(show "$stdout")"
	fi
}

for driver in "${drivers[@]}"; do
	what="tree --algo $driver --threads 3 --json: profile"
	if good "$what" tree --algo $driver --threads 3 --branching 6 --depth 6 --trees 4 --json; then
		profiled "$what"
	fi
	what="search --algo $driver --threads 2 --json: profile"
	if good "$what" search --algo $driver --threads 2 --json; then
		profiled "$what"
	fi
done

# --- search: tic-tac-toe's value with every driver -----------------------------------------
for driver in "${drivers[@]}"; do
	for algo in alphabeta pvs mtdf; do
		for threads in 1 2 4; do
			what="search --algo $driver/$algo --threads $threads"
			if good "$what" search --algo $driver/$algo --threads $threads --json; then
				if json_field value 0 && json_field bound '"exact"'; then
					ok "$what: value 0, exact"
				else
					fail "$what: $(show "$stdout")"
				fi
				[ "$threads" -eq 4 ] && sums "$what"
			fi
		done
	done
done

# The label: the algorithm alone under the default driver, DRIVER/ALGO otherwise.
pairs=("$default:\"pvs\"" "$default/minimax:\"minimax\"")
for driver in "${parallel[@]}"; do
	pairs+=("$driver:\"$driver/pvs\"" "$driver/mtdf:\"$driver/mtdf\"")
done
for pair in "${pairs[@]}"; do
	given=${pair%%:*}
	label=${pair#*:}
	if good "search --algo $given" search --algo "$given" --depth 3 --json && json_field algo "$label"; then
		ok "search --algo $given is labelled $label"
	else
		fail "search --algo $given: expected algo $label in $(show "$stdout")"
	fi
done

# --- text reports ----------------------------------------------------------------------------
# (YBW's counters show where it made split points: on a tree big enough for the helper to
# join; each by its name in the library's list.)
if good "search text, ybw on 2 threads" search --game rtree --algo ybw --threads 2; then
	if [[ $stdout == *$'\n'"thread 0 "* && $stdout == *$'\n'"thread 1 "* &&
		$stdout == *$'\n'"splits "*" split points"$'\n'"split_helpers "* &&
		$stdout == *$'\n'"driver options "* ]]; then
		ok "search text report has a line per thread, the driver's options and YBW's counters"
	else
		fail "search text report lacks the thread lines: $(show "$stdout")"
	fi
fi
if good "search text, default" search; then
	if [[ $stdout != *"thread 0"* && $stdout != *"threads"* ]]; then
		ok "the default search text report has no thread lines"
	else
		fail "the default search text report changed: $(show "$stdout")"
	fi
fi
if good "tree text, lazysmp on 3 threads" tree --algo lazysmp --threads 3 --trees 3; then
	if [[ $stdout == *$'\n'"thread 2 "* && $stdout =~ $'\n'mismatches\ +0$'\n' ]]; then
		ok "tree text report has a line per thread and no mismatches"
	else
		fail "tree text report: $(show "$stdout")"
	fi
fi

report
