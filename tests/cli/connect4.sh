#!/bin/bash
# SPDX-License-Identifier: MIT
# connect4.sh CUTOFF — `cutoff solve --game connect4` on its command line.
#
# Bad move strings and bad options must exit 2 with exactly one line on stderr that names
# the offending move (by its 1-based position in the string) or option, and print nothing
# on stdout. Good runs must exit 0 and print the known scores; every --json output must be
# one JSON document (checked with `python3 -m json.tool` when python3 is there). Oracles:
#   4455          18   README of the test sets (Pons' worked example): the first player
#                      wins with his 4th stone, 22 - 4; best move column 3 or 6 (both
#                      make two threats at once)
#   44455554221  -15   the README's other example: the opponent wins with his 7th stone
#   112233        18   a win at once (column 4) with the 4th stone: known without a search
#   444333555222111666777  1   not an oracle but a consistency check: the serial solver's
#                      score (some 25,000 nodes), which every driver must give too
#   --each        a line per position of a file, in its order, with the scores above
#   bench/connect4-vs-pons.sh  its errors without Pons' solver, and a run against a stand-in
#                 (this cutoff answering in Pons' line format): same nodes, no bad score
#   a file        0 mismatches: a few lines of Test_L3_R1 when CUTOFF_DATA_DIR has them
#                 (skipped otherwise), and a made-up file with a wrong score, which must
#                 fail with exit 1
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"

# --- bad move strings: each names its position --------------------------------------------
bad "move 4 ('8'): column outside 1..7" solve --game connect4 --moves 4458
bad "move 1 ('0'): column outside 1..7" solve --moves 0
bad "move 3 ('x'): not a column" solve --moves 44x
bad "move 2 (' '): not a column" solve --moves "4 4"
bad "move 7 ('4'): column 4 is full" solve --moves 4444444
bad "move 8 ('2'): the game is over: the first player has four in a row after move 7" \
	solve --moves 12121212
bad "move 43 ('1'): the game is over: the board is full" \
	solve --moves 1417241652222354634421164137733775735566561

# --- bad options ---------------------------------------------------------------------------
bad "--game" solve --game chess --moves 4
bad "give --moves MOVES or --file PATH" solve --game connect4
bad "exclude each other" solve --moves 4 --file /dev/null
bad "--method" solve --moves 4 --method fastest
bad "--algo" solve --moves 4 --algo quick
bad "--threads" solve --moves 4 --threads 0
bad "--hash" solve --moves 4 --hash 0
bad "--ordering" solve --moves 4 --ordering centre
bad "--limit goes with --file" solve --moves 4 --limit 3
bad "--no-clear goes with --file" solve --moves 4 --no-clear
bad "--each goes with --file" solve --moves 4 --each
bad "--each and --json exclude each other" solve --file /dev/null --each --json
bad "--limit" solve --file /dev/null --limit 0
bad "--file '$tmp/missing': cannot read it: No such file or directory" solve --file "$tmp/missing"
bad "--file '$tmp': cannot read it: Is a directory" solve --file "$tmp"
bad "no position in it" solve --file /dev/null
printf '4453 18\n12345678 3\n' >"$tmp/badmove"
bad "line 2: move 8 ('8'): column outside 1..7" solve --file "$tmp/badmove"
printf '4453 eighteen\n' >"$tmp/badline"
bad "line 1: expected '<moves> <score>'" solve --file "$tmp/badline"
bad "unknown option" solve --moves 4 --depth 3

# --- help ----------------------------------------------------------------------------------
run solve --help
if [ "$status" -eq 0 ] && [[ $stdout == usage:* ]] && [ -z "$stderr" ]; then
	ok "solve --help prints the usage"
else
	fail "solve --help: exit $status: $(show "$stderr")"
fi

# --- good solves ---------------------------------------------------------------------------
if good_json "solve 4455 --json" solve --game connect4 --moves 4455 --json; then
	has score 18 "4455"
	has best_column "(3|6)" "4455"
	has stones 4 "4455"
fi
if good_json "solve 44455554221" solve --moves 44455554221 --json; then
	has score -15 "44455554221"
fi
for algo in serial lazysmp ybw ybw/alphabeta mtdf; do
	if good_json "solve 444333555222111666777 --algo $algo --threads 2" solve \
		--moves 444333555222111666777 --algo "$algo" --threads 2 --json; then
		has score 1 "444333555222111666777 ($algo)"
	fi
done
if good_json "solve 112233 --json" solve --moves 112233 --json; then
	has score 18 "112233"
	has best_column 4 "112233"
	has known true "112233"
fi
if good_json "solve 4455 --weak --method mtdf" solve --moves 4455 --weak --method mtdf --json; then
	has score 1 "4455 weak"
fi
# The solve's algorithm is MTD(f) unless named, a driver alone included; the weak solve of a
# Test_L1_R2 line then asks its two questions: a win? (0, 1), then a draw? (-1, 0).
if good_json "solve --weak (default algo)" solve --moves 32751571231557 --weak --json; then
	has algo '"mtdf"' "solve's default algorithm"
	has score -1 "32751571231557 weak (lost)"
	mtdf=$(grep -o '"nodes":[0-9]*' <<<"$stdout" | cut -d: -f2)
	run solve --moves 32751571231557 --weak --algo pvs --json
	pvs=$(grep -o '"nodes":[0-9]*' <<<"$stdout" | cut -d: -f2)
	if [ -n "$pvs" ] && [ "$pvs" != "$mtdf" ]; then
		ok "weak: MTD(f)'s two questions ($mtdf nodes) are not PVS's one window ($pvs)"
	else
		fail "weak: the default and --algo pvs searched alike ('$mtdf', '$pvs')"
	fi
fi
if good_json "solve --algo ybw" solve --moves 4455 --algo ybw --threads 2 --json; then
	has algo '"ybw/mtdf"' "a driver alone searches with mtdf"
fi
run solve --moves 4455
if [ "$status" -eq 0 ] && [[ $stdout == *"score                 18"* ]]; then
	ok "solve 4455: text report"
else
	fail "solve 4455 text report: exit $status: $(show "$stdout")"
fi

# --- files ---------------------------------------------------------------------------------
printf '4455 18\n44455554221 -15\n\n112233 18\n' >"$tmp/good"
if good_json "solve --file (3 positions)" solve --file "$tmp/good" --json; then
	has positions 3 "file"
	has mismatches 0 "file"
	has cleared true "file"
fi
if good_json "solve --file --limit 2 --no-clear" solve --file "$tmp/good" --limit 2 --no-clear \
	--json; then
	has positions 2 "file --limit 2"
	has cleared false "file --no-clear"
fi
# --each: one line '<moves> <score> <nodes> <microseconds> <etc probes>' per position, in the file's order,
# then the report; the known position 112233 searches nothing.
run solve --file "$tmp/good" --each
each=$(grep -E '^[1-7]+ -?[0-9]+ [0-9]+ [0-9]+ [0-9]+$' <<<"$stdout")
if [ "$status" -eq 0 ] && [ "$(cut -d' ' -f1,2 <<<"$each" | tr '\n' ,)" = "4455 18,44455554221 -15,112233 18," ] &&
	[ "$(sed -n 3p <<<"$each" | cut -d' ' -f3)" = 0 ] && [ "$(sed -n 1p <<<"$each" | cut -d' ' -f3)" -gt 0 ] &&
	[[ $stdout == *"mismatches            0"* ]]; then
	ok "solve --file --each: a line per position, then the report"
else
	fail "solve --file --each: exit $status: $(show "$stdout")"
fi
# bench/connect4-vs-pons.sh: without Pons' solver it says how to get it; with a stand-in
# that answers in his line format (this cutoff, one position at a time), both columns
# agree: the same scores (bad 0) and, serially, the same nodes (ratio 1.000).
vs="$(dirname "$0")/../../bench/connect4-vs-pons.sh"
build=$(dirname "$cutoff")
run_vs() { status=0; stdout=$("$@" 2>"$tmp/vs.err") || status=$?; stderr=$(cat "$tmp/vs.err"); }
run_vs "$vs" "$build"
if [ "$status" -eq 2 ] && [[ $stderr == *"git clone https://github.com/PascalPons/connect4"* ]]; then
	ok "connect4-vs-pons.sh without Pons' solver: exit 2, how to get it"
else
	fail "connect4-vs-pons.sh without Pons' solver: exit $status: $(show "$stderr")"
fi
run_vs "$vs" "$build" "$tmp/no-such-solver"
if [ "$status" -eq 2 ] && [[ $stderr == *"'$tmp/no-such-solver' is not an executable"* ]] &&
	[[ $stderr == *"git checkout 514a128"* ]]; then
	ok "connect4-vs-pons.sh with a missing solver: exit 2, named, how to get it"
else
	fail "connect4-vs-pons.sh with a missing solver: exit $status: $(show "$stderr")"
fi
mkdir -p "$tmp/data/connect4"
printf '4455 18\n44455554221 -15\n' >"$tmp/data/connect4/Test_L3_R1"
printf '444333555222111666777 1\n4455 18\n' >"$tmp/data/connect4/Test_L2_R1"
cat >"$tmp/pons" <<'EOF2'
#!/bin/bash
w=
[ "${1:-}" = -w ] && w=--weak
while read -r m; do
	j=$("$C4VP_TEST_CUTOFF" solve --game connect4 --moves "$m" --hash 16 $w --json)
	s=$(grep -o '"score":-\?[0-9]*' <<<"$j" | cut -d: -f2)
	n=$(grep -o '"nodes":[0-9]*' <<<"$j" | cut -d: -f2)
	echo "$m $s $n 100"
done
EOF2
chmod +x "$tmp/pons"
C4VP_TEST_CUTOFF=$cutoff CUTOFF_DATA_DIR="$tmp/data" C4VP_CONFIGS="serial weak" \
	C4VP_SETS="Test_L3_R1 Test_L2_R1" run_vs "$vs" "$build" "$tmp/pons" 2 1 1 16
rows=$(grep -cE '^Test_L(3_R1|2_R1) +(serial|weak) +2 .* 1\.000 +0$' <<<"$stdout")
if [ "$status" -eq 0 ] && [ "$rows" -eq 4 ]; then
	ok "connect4-vs-pons.sh against a stand-in: 4 rows, same nodes, no bad score"
else
	fail "connect4-vs-pons.sh against a stand-in: exit $status, $rows good rows: $(show "$stdout$stderr")"
fi
printf '4455 17\n' >"$tmp/wrong"
run solve --file "$tmp/wrong"
if [ "$status" -eq 1 ] && [[ $stderr == *"score 18, the file says 17"* ]]; then
	ok "a wrong score in the file: exit 1, named"
else
	fail "a wrong score in the file: exit $status: $(show "$stderr")"
fi
set_file=${CUTOFF_DATA_DIR:-}/connect4/Test_L3_R1
if [ -n "${CUTOFF_DATA_DIR:-}" ] && [ -r "$set_file" ]; then
	if good_json "solve --file Test_L3_R1 --limit 20 --algo ybw --threads 2" solve --game connect4 \
		--file "$set_file" --limit 20 --algo ybw --threads 2 --json; then
		has positions 20 "Test_L3_R1"
		has mismatches 0 "Test_L3_R1"
	fi
	run solve --file "$set_file" --limit 3 --progress
	if [ "$status" -eq 0 ] && [[ $stdout == *"mismatches            0"* ]]; then
		ok "solve --file --progress: text report"
	else
		fail "solve --file --progress: exit $status: $(show "$stderr")"
	fi
else
	echo "skip - Test_L3_R1: data not found"
fi

report
