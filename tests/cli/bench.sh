#!/bin/bash
# bench.sh CUTOFF — checks `cutoff bench` on tiny sweeps (no timing is asserted): its usage
# errors (one line on stderr naming the option, nothing on stdout, exit 2); that a sweep
# writes its report folder (report.txt, results.json, results.csv, runs.csv) with the
# fields it promises; that the figures are consistent (the serial search at 1 thread has a
# speed-up and an overhead of exactly 1); that its node counts are those of `cutoff tree`
# and `cutoff solve` for the same searches (the serial search is deterministic); and that
# without gnuplot it still succeeds and says how to get it.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
	echo "usage: $0 PATH-TO-CUTOFF" >&2
	exit 2
fi
cutoff=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
unset CUTOFF_DATA_DIR GNUPLOT

passed=0
failed=0
ok() {
	echo "ok - $*"
	passed=$((passed + 1))
}
fail() {
	echo "FAIL - $*"
	failed=$((failed + 1))
}

run() {
	"$cutoff" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	IFS= read -r -d '' stdout <"$tmp/out"
	IFS= read -r -d '' stderr <"$tmp/err"
}

# bad NEEDLE ARGS...: exit 2, nothing on stdout, one line on stderr containing NEEDLE.
bad() {
	local needle=$1
	shift
	run "$@"
	local body=${stderr%$'\n'}
	if [ "$status" -ne 2 ]; then
		fail "cutoff $*: exit $status, expected 2"
	elif [ -n "$stdout" ]; then
		fail "cutoff $*: printed on stdout"
	elif [ -z "$body" ] || [[ $body == *$'\n'* ]] || [ "$body" = "$stderr" ]; then
		fail "cutoff $*: stderr is not one line: $stderr"
	elif [[ $stderr != *"$needle"* ]]; then
		fail "cutoff $*: stderr does not mention '$needle': $stderr"
	else
		ok "cutoff $* -> $body"
	fi
}

# field FILE CSV-HEADER-NAME ROW-PREFIX: the value of a column in the row starting so.
field() {
	awk -F, -v name="$2" -v prefix="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
		NR > 1 && index($0, prefix) == 1 { print $c; exit }' "$1"
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
bad "--drivers" bench --drivers serial,abdada
bad "--repeat" bench --repeat 0
bad "--repeat" bench --repeat three
bad "--plot" bench --plot jpeg
bad "--stockfish" bench --stockfish "$tmp/no-such-stockfish"
bad "--positions" bench --positions 0
bad "--frobnicate" bench --frobnicate

# A tiny sweep without gnuplot (PATH holds nothing): the report is written and says so.
out="$tmp/report"
PATH=/nonexistent run bench --workload rtree --rtree-branching 6 --rtree-depth 5 --positions 2 \
	--hash 1 --threads 1,2 --repeat 1 --stockfish off --no-progress --out "$out"
if [ "$status" -ne 0 ]; then
	fail "tiny rtree sweep: exit $status: $stderr"
else
	ok "tiny rtree sweep: exit 0"
fi
for f in report.txt results.json results.csv runs.csv; do
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
	thread_nps_min thread_nps_median thread_nps_max idle_share minimal_tree_ratio ebf; do
	if grep -q "\"$key\":" "$out/results.json"; then ok "results.json has $key"; else fail "results.json lacks $key"; fi
done
if grep -q '"idle_share":null' "$out/results.json" && grep -q ',n/a,n/a,' "$out/results.csv"; then
	ok "idle and sync shares read n/a (null in JSON) until the library profiles"
else
	fail "idle and sync shares are not n/a"
fi
rows=$(grep -c '^rtree,' "$out/results.csv")
if [ "$rows" -eq 5 ]; then ok "results.csv: 5 rows (serial/1, lazysmp/1,2, ybw/1,2)"; else fail "results.csv: $rows rows"; fi
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

# Connect Four: the built-in positions (no data folder), against `cutoff solve --weak`.
out="$tmp/c4"
run bench --workload connect4 --positions 1 --threads 1 --repeat 1 --stockfish off --plot none \
	--no-progress --out "$out"
mine=$(field "$out/runs.csv" nodes connect4,serial,1,1,)
solve=$("$cutoff" solve --game connect4 --moves 32751571231557 --weak --json | json_num nodes)
if [ "$status" -eq 0 ] && [ -n "$mine" ] && [ "$mine" = "$solve" ]; then
	ok "connect4 serial nodes $mine = cutoff solve --weak's"
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

run bench --help
if [ "$status" -eq 0 ] && [[ $stdout == usage:* ]] && [ -z "$stderr" ]; then
	ok "bench --help"
else
	fail "bench --help: exit $status"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
