#!/bin/bash
# SPDX-License-Identifier: MIT
# sim_cost_model.sh CUTOFF — `cutoff sim --cost-model FILE` reads the files of
# docs/simulation.md ("The cost model") and refuses the others (issue 25, item 5).
#
# Read: a comment line of any length (600 bytes, and 100 KiB) before, between and after
# the values, with the value after it in force (the report's cost-model line shows it).
# Refused, each with exit 2 and one line on stderr naming FILE:LINE, the right line
# however long the lines before it, and what was wrong: a hex value, inf, nan, a NUL byte
# with text after it, an unknown name, a name twice, a yield under 10 ns, a net_epoch under
# 1 us (issue 43: they made a run crawl). A refused file runs nothing.
# Ranks (issue 43): an epoch shorter than the latency is the latency's (the report's
# line, the same virtual figures as epoch = latency); with every field at 1e9 ns a
# cluster row ends with exit 0 (it failed on a 20-second time-out in virtual time).
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"
unset CUTOFF_DATA_DIR GNUPLOT

long=$(head -c 600 /dev/zero | tr '\0' x)
huge=$(head -c 102400 /dev/zero | tr '\0' y)

# accepted NAME FILE: a one-search sweep under the model reads it, and node.rtree is 123.5.
accepted() {
	local what=$1 file=$2
	run sim --cost-model "$file" --workload rtree --rtree-branching 4 --rtree-depth 3 \
		--positions 1 --threads 1 --drivers serial --plot none --no-progress --out "$tmp/r$RANDOM"
	if [ "$status" -eq 0 ] && [[ $stdout == *"cost model $file: "*"rtree 123.5 ns"* ]]; then
		ok "$what: read, node.rtree 123.5 ns in force"
	else
		fail "$what: exit $status, stderr $(show "$stderr")"
	fi
}

# refused WHAT LINE NEEDLE: the file $tmp/bad is refused with one line naming it at LINE
# and saying NEEDLE, exit 2, nothing on stdout, no report folder.
refused() {
	local what=$1 line=$2 needle=$3 never=$tmp/never$RANDOM
	run sim --cost-model "$tmp/bad" --workload rtree --rtree-depth 3 --positions 1 \
		--threads 1 --drivers serial --plot none --no-progress --out "$never"
	if [ "$status" -eq 2 ] && [ -z "$stdout" ] && one_line "$stderr" &&
		[[ $stderr == *"$tmp/bad:$line: "*"$needle"* ]] && [ ! -e "$never" ]; then
		ok "$what: refused, $(show "${stderr%$'\n'}")"
	else
		fail "$what: exit $status, expected 2 and '$tmp/bad:$line: ...$needle...': $(show "$stderr")"
	fi
}

printf '# %s\nnode.rtree 123.5\n' "$long" >"$tmp/long.txt"
accepted "a 600-byte comment line, then the value" "$tmp/long.txt"
printf 'node.rtree 123.5   # %s\n#%s' "$long" "$huge" >"$tmp/last.txt"
accepted "a value with a 600-byte comment, a 100 KiB comment last (no newline)" "$tmp/last.txt"
printf '# %s\n\n   \t\n# %s\nnode.rtree 123.5\nnode 100 # %s\n' "$huge" "$long" "$long" >"$tmp/mixed.txt"
accepted "100 KiB and 600-byte comments, blank lines, two values" "$tmp/mixed.txt"

printf '# %s\nnode.rtree 0x10\n' "$long" >"$tmp/bad"
refused "a hex value after a 600-byte comment" 2 "not a decimal number"
printf 'node 1\nnode.rtree 0X1p4\n' >"$tmp/bad"
refused "a hex float" 2 "not a decimal number"
printf 'node.rtree inf\n' >"$tmp/bad"
refused "inf" 1 ""
printf 'tt_probe 1\nnode.rtree nan\n' >"$tmp/bad"
refused "nan" 2 ""
printf 'node.rtree 5\0 and text after a NUL\n' >"$tmp/bad"
refused "text after a NUL byte" 1 "NUL"
printf '# %s\n# %s\nnode.rtree 5\nnode.rtre 5\n' "$huge" "$long" >"$tmp/bad"
refused "an unknown name on line 4, after 100 KiB and 600-byte comments" 4 "unknown name"
printf 'node.rtree 5 # %s\nnode.rtree 6\n' "$long" >"$tmp/bad"
refused "a name twice, the first with a 600-byte comment" 2 "twice"
printf 'node.rtree -1\n' >"$tmp/bad"
refused "a negative value" 1 "0 .. 1e9"
printf 'node.rtree 5 6\n' >"$tmp/bad"
refused "two values" 1 "expected 'name value-in-ns'"

# Values that made a simulation crawl (issue 43): refused with the field, its least and why.
printf 'yield 0\n' >"$tmp/bad"
refused "yield 0 (a 50-us spin window of 1-ps looks)" 1 "yield 0 ns: below its least value, 10 ns (range 10 .. 1e9)"
printf 'node 100\nyield 9.999\n' >"$tmp/bad"
refused "yield 9.999" 2 "yield 9.999 ns: below its least value, 10 ns"
printf '# %s\nnet_epoch 0\n' "$long" >"$tmp/bad"
refused "net_epoch 0 (a barrier of the ranks every 1 ns)" 2 "net_epoch 0 ns: below its least value, 1000 ns (range 1000 .. 1e9)"
printf 'node.rtree 123.5\nyield 10\nnet_epoch 1000\n' >"$tmp/least.txt"
accepted "yield 10 and net_epoch 1000: their least" "$tmp/least.txt"

# cluster NAME FILE DIR: a cluster row (2 simulated ranks of 2 threads) under FILE into DIR.
cluster() {
	run sim --cost-model "$2" --workload rtree --rtree-branching 4 --rtree-depth 6 \
		--positions 1 --threads 2 --drivers cluster --ranks 2 --plot none --no-progress \
		--jobs 1 --out "$3"
	if [ "$status" -ne 0 ] || [ ! -s "$3/runs.csv" ]; then
		fail "$1: exit $status: $(show "$stderr")"
		return 1
	fi
	return 0
}

# An epoch shorter than the latency is the latency's: the same virtual figures, and the
# report says so (1 us barriers under a 1 ms latency were 1,000 real meetings a message).
printf 'net_epoch 1000\nnet_latency 1e6\n' >"$tmp/short.txt"
printf 'net_epoch 1e6\nnet_latency 1e6\n' >"$tmp/even.txt"
if cluster "epoch 1 us, latency 1 ms" "$tmp/short.txt" "$tmp/short" &&
	short_out=$stdout && cluster "epoch = latency = 1 ms" "$tmp/even.txt" "$tmp/even"; then
	if [[ $short_out == *"ranks' messages 1000000.0 ns, barriers every 1000000.0 ns"* ]]; then
		ok "epoch 1 us under a latency of 1 ms: barriers every 1 ms"
	else
		fail "epoch 1 us under a latency of 1 ms: $(grep -o "ranks' messages[^;]*" <<<"$short_out")"
	fi
	for f in runs.csv threads.csv positions.csv; do
		if cmp -s "$tmp/short/$f" "$tmp/even/$f"; then
			ok "epoch 1 us and 1 ms under a latency of 1 ms: the same $f"
		else
			fail "epoch 1 us and 1 ms under a latency of 1 ms: $f differs: $(diff "$tmp/short/$f" "$tmp/even/$f" | head -n 4 | tr '\n' ' ')"
		fi
	done
fi

# Every field at its most: the cluster's waits are not a 20-second time-out on the
# virtual clock, where thread 0 polls every 1024 nodes of seconds each (it failed: "round 1
# of the stop vote not completed in 20000 ms").
for f in node node.chess node.connect4 node.rtree tt_probe tt_store tt_store_other \
	tt_visible lock lock_handoff spin yield split join wake start quantum line_transfer \
	atomic numa_transfer net_latency net_epoch; do
	echo "$f 1e9"
done >"$tmp/most.txt"
printf 'node_jitter 100\nsockets 64\n' >>"$tmp/most.txt"
if cluster "every field at its most" "$tmp/most.txt" "$tmp/most"; then
	ok "every field at its most: a cluster row of 2 ranks ends, exit 0"
fi

report
