#!/bin/bash
# SPDX-License-Identifier: MIT
# quality_suite.sh CUTOFF — checks `cutoff bench --quality-suite FILE` (no timing is
# asserted): on a suite of three positions it reports, per driver and thread count, the
# moves equal to the reference's best, the centipawn loss and the depth, in report.txt,
# results.json, quality.csv and quality-positions.csv; a mate in one found is a loss of 0,
# and a move outside the reference's list is counted at its last move's loss and flagged.
# A bad suite file (unreadable, empty, a bad FEN, a finished game, no refs, an illegal or
# repeated reference move, a move without a score or with one out of range, a bad depth,
# a NUL byte, a line too long) is one line on stderr that names the file and its line (the
# file's line, however long), exit 1, before any search; an empty operation is skipped,
# and every prefix of a good line is read or refused so (never a crash); the option without the chess
# workload or a quality time is a usage error. `cutoff sim` runs them on virtual time: the
# same figures in two sweeps; bench/quality-curves.py gathers a split sweep's files (and
# refuses two that disagree, and a file that is missing, a folder or not its kind, in one
# line).
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"
unset CUTOFF_DATA_DIR GNUPLOT

common=(bench --workload chess --positions 1 --chess-depth 2 --repeat 1 --stockfish off
	--plot none --no-progress --quality-ms 30)

# A mate in one (Qh7#... here Qxf7#), the start position with a reference list that leaves
# out every move cutoff would play but a2a3, and a quiet middlegame.
cat >"$tmp/suite.epd" <<'EOF'
# a test suite: header lines are skipped
r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4 id "mate"; acd 20; refs "h5f7 #1 d2d3 -30";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 id "start"; refs "a2a3 50 h2h3 40";

r1bq1rk1/2ppbppp/p1p5/2n1N3/2P5/3P4/PP3PPP/RNBQ1RK1 w - - 1 10 c0 "no id"; refs "b1c3 70 d3d4 24 f1e1 2";
EOF

out=$tmp/r1
run "${common[@]}" --drivers lazysmp,ybw --threads 1,2 --quality-suite "$tmp/suite.epd" --out "$out"
if [ "$status" -eq 0 ] && grep -q "each of the 3 positions of $tmp/suite.epd" "$out/report.txt"; then
	ok "a suite of 3 positions runs and report.txt says so"
else
	fail "the suite run: exit $status: $(show "$stderr")"
fi
# quality.csv: the baseline at 1 thread, ybw at 1 and 2; every row 3 positions.
rows=$(tail -n +2 "$out/quality.csv" 2>/dev/null | wc -l)
bad_rows=$(tail -n +2 "$out/quality.csv" 2>/dev/null | awk -F, '$4 != 3' | wc -l)
if [ "$rows" -eq 3 ] && [ "$bad_rows" -eq 0 ]; then
	ok "quality.csv: a row per driver and thread count, 3 positions each"
else
	fail "quality.csv: $rows rows, $bad_rows without 3 positions: $(show "$(cat "$out/quality.csv" 2>&1)")"
fi
# quality-positions.csv: driver,threads,position,id,depth,nodes,move,ref_move,agree,loss_cp,loss_bound
pos=$out/quality-positions.csv
mate=$(awk -F, '$4 == "mate" && !($7 == "h5f7" && $9 == 1 && $10 == 0 && $11 == 0)' "$pos" | wc -l)
if [ -s "$pos" ] && [ "$(awk -F, '$4 == "mate"' "$pos" | wc -l)" -eq 3 ] && [ "$mate" -eq 0 ]; then
	ok "the mate in one is found by every run: agree, loss 0"
else
	fail "the mate in one: $(show "$(grep mate "$pos" 2>&1)")"
fi
# The start position: a2a3 agrees (loss 0), h2h3 loses 10, anything else is beyond the list
# and counted at h2h3's loss.
start=$(awk -F, '$4 == "start" && !(($7 == "a2a3" && $10 == 0 && $11 == 0) ||
	($7 == "h2h3" && $10 == 10 && $11 == 0) || ($7 != "a2a3" && $7 != "h2h3" && $10 == 10 && $11 == 1))' "$pos" | wc -l)
beyond=$(awk -F, '$4 == "start" && $11 == 1' "$pos" | wc -l)
if [ "$start" -eq 0 ] && [ "$beyond" -ge 1 ]; then
	ok "a move outside the reference's list: counted at its last move's loss (10), flagged"
else
	fail "the start position: $(show "$(grep start "$pos" 2>&1)")"
fi
if awk -F, '$3 == 3 && $4 == "line 5"' "$pos" | grep -q .; then
	ok "a position without an id is named by its line"
else
	fail "the unnamed position: $(show "$(cat "$pos")")"
fi
if grep -q '"quality_rows"' "$out/results.json" && grep -q '"loss_cp"' "$out/results.json" &&
	grep -q "\"quality_suite\":\"$tmp/suite.epd\"" "$out/results.json"; then
	ok "results.json: the suite, each position's loss and the rows' sums"
else
	fail "results.json lacks the quality rows or the suite"
fi

# bad_suite NEEDLE LINE-TEXT...: a suite of those lines is refused: exit 1, nothing on
# stdout, one line on stderr naming the file, and NEEDLE.
bad_suite() {
	local needle=$1
	shift
	printf '%s\n' "$@" >"$tmp/bad.epd"
	bad_suite_file "$needle"
}
# bad_suite_file NEEDLE: the same for $tmp/bad.epd as it is.
bad_suite_file() {
	local needle=$1
	run "${common[@]}" --drivers lazysmp --threads 1 --quality-suite "$tmp/bad.epd" \
		--out "$tmp/bad-$RANDOM"
	if [ "$status" -eq 1 ] && [ -z "$stdout" ] && one_line "$stderr" &&
		[[ $stderr == *"$tmp/bad.epd$needle"* ]]; then
		ok "refused: $(show "${stderr%$'\n'}")"
	else
		fail "a suite with '$needle': exit $status, stdout $(show "$stdout"), stderr $(show "$stderr")"
	fi
}
start='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
bad_suite ":2: piece placement" "# header" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1 refs \"e2e4 1\";"
bad_suite ":1: a FEN needs" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"
bad_suite ":2: no refs" "$start refs \"e2e4 1\";" "$start id \"x\"; acd 20;"
bad_suite ":1: refs: move 'e2e5'" "$start refs \"e2e4 30 e2e5 20\";"
bad_suite ":1: refs: move 'e2e4' listed twice" "$start refs \"e2e4 30 e2e4 20\";"
bad_suite ":1: refs: move 'd2d4' has no score" "$start refs \"e2e4 30 d2d4\";"
bad_suite ":1: refs: move 'd2d4' has no score" "$start refs \"e2e4 30 d2d4 x30\";"
# A score out of range is said to be so, not missing (issue 43, item 12a).
bad_suite ":1: refs: move 'd2d4': score '#0' out of range (centipawns in -999999..999999, or #N / #-N with N in 1..999)" \
	"$start refs \"e2e4 30 d2d4 #0\";"
bad_suite ":1: refs: move 'e2e4': score '#-1000' out of range" "$start refs \"e2e4 #-1000\";"
bad_suite ":1: refs: move 'e2e4': score '1000000' out of range" "$start refs \"e2e4 1000000\";"
bad_suite ":1: refs: move 'e2e4': score '-99999999999' out of range" "$start refs \"e2e4 -99999999999\";"
# A line longer than the reader's buffer, with a NUL byte after a good start: named as
# line 1 of this one-line file, and the NUL byte said (issue 43, item 12b); a short one
# too (its rest was dropped unread); without the NUL, the length.
{ printf '%s refs "e2e4 1";' "$start" && printf '\0' && head -c 5000 /dev/zero | tr '\0' x && echo; } >"$tmp/bad.epd"
bad_suite_file ":1: a NUL byte in the line"
{ printf '%s refs "e2e4 1";' "$start" && printf '\0 refs "e2e4 1";\n'; } >"$tmp/bad.epd"
bad_suite_file ":1: a NUL byte in the line"
{ printf '%s refs "e2e4 1"; id "' "$start" && head -c 5000 /dev/zero | tr '\0' x && echo '";'; } >"$tmp/bad.epd"
bad_suite_file ":1: a line longer than 4095 bytes"
bad_suite ":1: refs: no move" "$start refs \"\";"
bad_suite ":1: refs given twice" "$start refs \"e2e4 1\"; refs \"d2d4 1\";"
bad_suite ":1: acd" "$start acd deep; refs \"e2e4 1\";"
bad_suite ":1: the game is over" "8/3k4/8/8/8/4B3/4KB2/2B5 w - - 0 1 refs \"e2d1 0\";"
bad_suite ":1: the game is over" "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1 refs \"h8g7 0\";"
bad_suite ": holds no position" "# only a header" ""
# An empty operation is skipped; every prefix of a good line is read or refused with a
# message naming the file (exit 0 or 1: never a crash).
printf '%s\n' "$start refs \"e2e4 1\";; id \"x\";" >"$tmp/semi.epd"
run "${common[@]/30/1}" --drivers serial --threads 1 --quality-suite "$tmp/semi.epd" --out "$tmp/semi"
if [ "$status" -eq 0 ]; then
	ok "an empty operation (;;) is skipped"
else
	fail "an empty operation: exit $status, $(show "$stderr")"
fi
line='r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4 id "m"; acd 20; refs "h5f7 #1 d2d3 -30";'
wrong=""
for ((k = 1; k < ${#line}; k += 3)); do
	printf '%s\n' "${line:0:k}" >"$tmp/cut.epd"
	run "${common[@]/30/1}" --drivers serial --threads 1 --quality-suite "$tmp/cut.epd" \
		--out "$tmp/cut-$k"
	if ! { [ "$status" -eq 0 ] || { [ "$status" -eq 1 ] && one_line "$stderr" &&
		[[ $stderr == *"$tmp/cut.epd"* ]]; }; }; then
		wrong+=" $k:$status"
	fi
done
if [ -z "$wrong" ]; then
	ok "every prefix of a suite line: read, or refused naming the file"
else
	fail "prefixes of a suite line that went wrong (length:exit):$wrong"
fi
run "${common[@]}" --drivers lazysmp --threads 1 --quality-suite "$tmp/none.epd" --out "$tmp/n"
if [ "$status" -eq 1 ] && one_line "$stderr" && [[ $stderr == *"$tmp/none.epd: cannot be read"* ]]; then
	ok "a suite that cannot be read: $(show "${stderr%$'\n'}")"
else
	fail "a missing suite: exit $status, $(show "$stderr")"
fi
run bench --workload rtree --quality-ms 30 --quality-suite "$tmp/suite.epd" --stockfish off \
	--out "$tmp/u"
if [ "$status" -eq 2 ] && one_line "$stderr" && [[ $stderr == *"needs the chess workload"* ]]; then
	ok "without the chess workload: a usage error"
else
	fail "--quality-suite without chess: exit $status, $(show "$stderr")"
fi
# The suite of the repository (bench/quality-suite.epd) is read whole and has at least
# 300 positions: searched for 1 ms each by the serial search alone.
suite=$(dirname "$0")/../../bench/quality-suite.epd
if [ -f "$suite" ]; then
	run "${common[@]/30/1}" --drivers serial --threads 1 --quality-suite "$suite" --out "$tmp/r2"
	n=$(tail -n +2 "$tmp/r2/quality-positions.csv" 2>/dev/null | wc -l)
	if [ "$status" -eq 0 ] && [ "$n" -ge 300 ]; then
		ok "bench/quality-suite.epd: $n positions, every one read and searched"
	else
		fail "bench/quality-suite.epd: exit $status, $n positions: $(show "$stderr")"
	fi
fi

# In the simulator the time is virtual: two sweeps give the same moves, depths and nodes.
sim=(sim --workload chess --positions 1 --chess-depth 2 --plot none --no-progress
	--quality-ms 5 --quality-suite "$tmp/suite.epd" --drivers ybw --threads 1,4)
run "${sim[@]}" --out "$tmp/s1"
first=$status
run "${sim[@]}" --jobs 1 --out "$tmp/s2"
if [ "$first" -eq 0 ] && [ "$status" -eq 0 ] && [ "$(wc -l <"$tmp/s1/quality-positions.csv")" -eq 7 ] &&
	cmp -s "$tmp/s1/quality-positions.csv" "$tmp/s2/quality-positions.csv"; then
	ok "cutoff sim: the quality runs on virtual time, the same in two sweeps"
else
	fail "sim quality: exit $first/$status, $(show "$stderr"); $(show "$(cat "$tmp/s1/quality-positions.csv" 2>&1)")"
fi
# bench/quality-curves.py gathers the files of a split sweep: each setting once, the
# serial row shared; 'self' against the serial run is 100 % for the serial run itself;
# lazysmp/4 and ybw/4 are paired (or listed as playing the same moves); two files whose
# shared setting has other moves are refused. (Its statistics: quality_stats.sh.)
curves=$(dirname "$0")/../../bench/quality-curves.py
if command -v python3 >/dev/null && [ -f "$curves" ]; then
	run "${sim[@]/ybw/lazysmp}" --threads 4 --out "$tmp/s3"
	table=$(python3 "$curves" --reference "serial/1=$tmp/s1/quality-positions.csv" \
		"$tmp/s1/quality-positions.csv" "$tmp/s3/quality-positions.csv" 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && [ "$(grep -c '^| serial |' <<<"$table")" -eq 1 ] &&
		grep -q '^| serial | 1 | 3 | .* | 100.0 (' <<<"$table" && grep -q '^| lazysmp | 4 | 3 |' <<<"$table" &&
		grep -Eq '^\| 4 \| lazysmp/4 \| ybw/4 \| 3 \||lazysmp/4 = ybw/4 \(3\)' <<<"$(sed -n '/^Every pair/,$p' <<<"$table")"; then
		ok "quality-curves.py: two runs gathered, the serial row once, 'self' 100 % for its reference, lazysmp/4 paired with ybw/4"
	else
		fail "quality-curves.py: exit $rc: $(show "$table")"
	fi
	awk -F, 'NR == 2 { $7 = ($7 == "a1a2" ? "a1a3" : "a1a2") } 1' OFS=, \
		"$tmp/s1/quality-positions.csv" >"$tmp/other.csv"
	table=$(python3 "$curves" "$tmp/s1/quality-positions.csv" "$tmp/other.csv" 2>&1)
	rc=$?
	if [ "$rc" -ne 0 ] && [[ $table == *"serial/1, position "*": move "*"(not the same runs)"* ]]; then
		ok "quality-curves.py: files whose common setting differs are refused: $(show "$table")"
	else
		fail "quality-curves.py with a changed move: exit $rc: $(show "$table")"
	fi
	# A file that is not there, a folder, a file that is not a quality-positions.csv: one
	# line naming it and exit 1, no traceback (issue 43, item 12c).
	printf 'driver,threads\nserial,one\n' >"$tmp/not-quality.csv"
	for path in "$tmp/no-such.csv|: cannot read it: No such file or directory" \
		"$tmp|: cannot read it: Is a directory" \
		"$tmp/not-quality.csv|:2: not a quality-positions.csv line (its threads is 'one')"; do
		file=${path%%|*} want=${path#*|}
		table=$(python3 "$curves" "$file" 2>&1)
		rc=$?
		if [ "$rc" -eq 1 ] && one_line "$table"$'\n' && [ "$table" = "quality-curves.py: $file$want" ]; then
			ok "quality-curves.py: $(show "$table")"
		else
			fail "quality-curves.py $file: exit $rc: $(show "$table")"
		fi
	done
fi
report
