#!/bin/bash
# SPDX-License-Identifier: MIT
# epd.sh CUTOFF — checks `cutoff epd`: a small suite written here (two mates in one, a hanging
# queen, a poisoned capture to avoid) is solved at depth 4 by every driver, with 1 and 2
# threads; the JSON report has its fields; the text report its totals; malformed lines are
# named by number and skipped (exit 1); usage errors are one line (exit 2); and, when
# $CUTOFF_DATA_DIR/chess/wac.epd exists, the first 5 Win at Chess positions run (WAC.004 and
# WAC.005, mates in two that start with a check, must be solved at depth 4; nothing is
# asserted of the others, whose outcome at that depth depends on the pruning).
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"

# The suite: a comment, a blank line, a line with the two move counters, black to move.
cat >"$tmp/small.epd" <<'EOF'
# four positions whose answer no search can miss at depth 4
6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "mate.white";

4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1 bm Nxd5; id "hanging.queen";
r5k1/8/8/8/8/8/5PPP/6K1 b - - bm Ra1#; id "mate.black";
4k3/8/2p5/3n4/8/8/8/3QK3 w - - am Qxd5; id "poisoned"; c0 "the knight is defended; keep the queen";
EOF

# solved_all WHAT ARGS...: the JSON report says 4 of 4 solved, nothing on stderr.
solved_all() {
	local what=$1
	shift
	run epd --file "$tmp/small.epd" --depth 4 --hash 4 --json "$@"
	if [ "$status" -ne 0 ] || [ -n "$stderr" ]; then
		fail "$what: exit $status: $stderr"
	elif [[ $stdout != *'"total":4,"solved":4,'* ]]; then
		fail "$what: not 4 of 4 solved: $stdout"
	else
		ok "$what: 4 of 4 solved at depth 4"
	fi
}

solved_all "serial" --algo serial
solved_all "serial, 2 threads" --algo serial --threads 2
solved_all "lazysmp, 1 thread" --algo lazysmp --threads 1
solved_all "lazysmp, 2 threads" --algo lazysmp --threads 2
solved_all "ybw, 1 thread" --algo ybw --threads 1
solved_all "ybw, 2 threads" --algo ybw --threads 2
solved_all "ybw/alphabeta, 2 threads" --algo ybw/alphabeta --threads 2
solved_all "serial, pruning off" --pruning off
solved_all "serial, null move only, aspiration 30" --pruning null --aspiration 30
solved_all "serial, no table" --hash 0
solved_all "serial, 64 MiB table" --hash 64

# The JSON fields, from one serial run.
run epd --file "$tmp/small.epd" --depth 4 --json
for field in '"file":' '"algo":"pvs"' '"driver":"serial"' '"threads":1' '"hash_mb":64' \
	'"pruning":"null,lmr"' '"movetime_ms":null' '"depth_limit":4' '"positions":[' \
	'"line":2,"id":"mate.white"' '"bm":["Ra8#"],"am":[]' '"move":"Ra8#","move_uci":"a1a8"' \
	'"solved":true' '"score_cp":null,"mate":1' '"id":"hanging.queen"' '"move":"Nxd5"' \
	'"line":5,"id":"mate.black"' '"move":"Ra1#","move_uci":"a8a1"' \
	'"id":"poisoned"' '"bm":[],"am":["Qxd5"]' '"score_cp":' '"seldepth":' \
	'"solved_depth":' '"solved_time_s":' '"nodes":' '"time_s":' '"pv":"' \
	'"total":4,"solved":4,"malformed_lines":0,"nodes":' '"nps":'; do
	if [[ $stdout == *"$field"* ]]; then
		ok "JSON has $field"
	else
		fail "JSON lacks $field: $stdout"
	fi
done
body=${stdout%$'\n'}
if [ "$status" -eq 0 ] && [[ $body == '{'*'}' ]] && [[ $body != *$'\n'* ]]; then
	ok "JSON: one object on one line"
else
	fail "JSON: not one object on one line (exit $status)"
fi

# The text report: one line per position, then the totals.
run epd --file "$tmp/small.epd" --depth 4 --hash 4
if [ "$status" -eq 0 ] && [ -z "$stderr" ] &&
	grep -q '^ *1  mate\.white  *Ra8#  *Ra8#  *yes  *[0-9]* mate 1 ' "$tmp/out" &&
	grep -q '^ *4  poisoned  *not Qxd5 ' "$tmp/out" &&
	grep -q '^solved  *4 of 4 (100.0 %)$' "$tmp/out" &&
	grep -q '^nodes per second  *[0-9]*$' "$tmp/out"; then
	ok "text report: positions and totals"
else
	fail "text report (exit $status): $stdout $stderr"
fi

# A time limit, and --limit.
run epd --file "$tmp/small.epd" --movetime 50 --limit 2 --hash 4 --json
if [ "$status" -eq 0 ] && [[ $stdout == *'"movetime_ms":50'* ]] && [[ $stdout == *'"total":2,'* ]]; then
	ok "--movetime 50 --limit 2: two positions searched"
else
	fail "--movetime 50 --limit 2 (exit $status): $stdout $stderr"
fi

# Malformed lines: each named with its number and skipped; the rest searched; exit 1.
{
	echo '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "good";'
	echo '6k1/5ppp/8/8/8/8/8/R5K9 w - - bm Ra8#; id "bad fen";'
	echo '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra9#; id "bad san";'
	echo '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Rb8; id "illegal";'
	echo '6k1/5ppp/8/8/8/8/8/R5K1 w - - id "no bm";'
	echo '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "open string;'
	echo '6k1/5ppp/8/8/8/8/8/R5K1 w - ; bm Ra8#;'
	echo '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm;'
	printf '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "nul\0";\n'
	echo '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8# Ra8#; 5x "bad opcode";'
	echo '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; bm Kf1;'
	echo 'R5k1/5ppp/8/8/8/8/8/6K1 w - - bm Kh2;'
} >"$tmp/bad.epd"
run epd --file "$tmp/bad.epd" --depth 2 --hash 4 --json
lines=$(printf '%s' "$stderr" | grep -c '^cutoff epd: .* line [0-9]*: ')
if [ "$status" -ne 1 ]; then
	fail "malformed lines: exit $status, expected 1"
elif [ "$lines" -ne 11 ]; then
	fail "malformed lines: $lines messages, expected 11: $stderr"
elif [[ $stdout != *'"id":"good"'* ]] || [[ $stdout != *'"total":1,"solved":1,"malformed_lines":11,'* ]]; then
	fail "malformed lines: the good line was not searched: $stdout"
else
	ok "malformed lines: 11 reported, skipped, the good one solved, exit 1"
fi
for needle in "line 2: bad FEN: piece placement" "line 3: bm: SAN 'Ra9#': bad syntax" \
	"line 4: bm: SAN 'Rb8': no white rook can move to b8" \
	"line 5: no bm or am operation" "line 6: id: a string without its closing" \
	"line 7: expected a position of 4 fields" "line 8: bm: no move given" \
	"line 9: a NUL byte" "line 10: bad opcode '5x'" "line 11: bm given twice" \
	"line 12: bad FEN: side to move"; do
	if [[ $stderr == *"$needle"* ]]; then
		ok "malformed: $needle"
	else
		fail "malformed: no '$needle' in: $stderr"
	fi
done

# A file without positions, a missing file, a line too long.
: >"$tmp/empty.epd"
run epd --file "$tmp/empty.epd" --depth 2
if [ "$status" -eq 1 ] && [[ $stderr == *"has no position to search"* ]]; then
	ok "empty file: exit 1, named"
else
	fail "empty file: exit $status: $stderr"
fi
run epd --file "$tmp/missing.epd" --depth 2
if [ "$status" -eq 2 ] && [[ $stderr == *"missing.epd"*"cannot read it: No such file"* ]] &&
	[ -z "$stdout" ]; then
	ok "missing file: exit 2, $stderr"
else
	fail "missing file: exit $status: $stderr"
fi
{
	printf '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; c0 "'
	head -c 5000 /dev/zero | tr '\0' 'x'
	echo '";'
	echo '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#;'
} >"$tmp/long.epd"
run epd --file "$tmp/long.epd" --depth 2 --hash 4 --json
if [ "$status" -eq 1 ] && [[ $stderr == *"line 1: line too long"* ]] && [[ $stdout == *'"line":2,"id":"line 2"'* ]]; then
	ok "a line too long: named, skipped; the next line is line 2"
else
	fail "a line too long: exit $status: $stderr"
fi

# Usage errors.
bad "--file is required" epd --depth 2
bad "--movetime and --depth" epd --file "$tmp/small.epd" --depth 2 --movetime 10
bad "--depth" epd --file "$tmp/small.epd" --depth 0
bad "--depth" epd --file "$tmp/small.epd" --depth 128
bad "--movetime" epd --file "$tmp/small.epd" --movetime 0
bad "--threads" epd --file "$tmp/small.epd" --threads 0
bad "--algo" epd --file "$tmp/small.epd" --algo fast
bad "--pruning" epd --file "$tmp/small.epd" --pruning null,fast
bad "--hash" epd --file "$tmp/small.epd" --hash -1
bad "--limit" epd --file "$tmp/small.epd" --limit 0
bad "--aspiration" epd --file "$tmp/small.epd" --aspiration 1001
bad "unknown option" epd --file "$tmp/small.epd" --bogus
bad "unexpected argument" epd "$tmp/small.epd"

run epd --help
if [ "$status" -eq 0 ] && [[ $stdout == usage:* ]] && [ -z "$stderr" ]; then
	ok "epd --help"
else
	fail "epd --help: exit $status"
fi

# The shared Win at Chess suite, when it is there.
wac=${CUTOFF_DATA_DIR:-}/chess/wac.epd
if [ -n "${CUTOFF_DATA_DIR:-}" ] && [ -f "$wac" ]; then
	run epd --file "$wac" --limit 5 --depth 4 --hash 4 --json
	if [ "$status" -eq 0 ] && [ -z "$stderr" ] && [[ $stdout == *'"total":5,'* ]] &&
		[[ $stdout == *'"id":"WAC.004",'*'"bm":["Qxh7+"],"am":[],"move":"Qxh7+",'*'"mate":2,'* ]] &&
		[[ $stdout == *'"id":"WAC.005",'*'"bm":["Qc4+"],"am":[],"move":"Qc4+",'*'"mate":2,'* ]]; then
		ok "wac.epd: the first 5 positions read and searched; WAC.004 and .005 (mates in 2) solved"
	else
		fail "wac.epd, first 5 at depth 4 (exit $status): $stdout $stderr"
	fi
else
	echo "skipped: data not found (\$CUTOFF_DATA_DIR/chess/wac.epd)"
fi

report
