#!/bin/bash
# SPDX-License-Identifier: MIT
# match_hostile.sh CUTOFF — `cutoff match` against engines that behave as no engine should
# (issue 25): an engine whose name and moves hold bytes that are not UTF-8 and control
# bytes; an engine that stops reading its input and leaves a child behind when the
# referee is killed; an engine that rejects an option it was given.
#
# Checked: the JSON is valid (Python's strict UTF-8 decoder and json.load), the name in
# it is exactly what Python's "replace" decoding of the bytes gives, and the PGN is UTF-8
# with no control byte; SIGTERM, SIGINT and SIGHUP end the referee with status 128+signal
# and leave no engine and no engine's child running, with --concurrency 1 and 2, also
# when the engine and its child ignore SIGTERM; an option the engine rejects (cutoff
# uci's "info string error: setoption: ..." and Stockfish's "No such option: ...")
# fails the match before any game, exit 2, one line on stderr quoting the engine, unless
# --ignore-option-errors, which plays on with a warning and the engine's lines in the
# JSON ("option_errors"). Nothing is timed: the waits are bounds for a hang.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"

# ---- item 6: bytes that are not UTF-8 ------------------------------------------------
# The name: 0xff, a 3-byte sequence cut short, an overlong '/', a surrogate, control bytes
# (SOH, ESC, DEL), well-formed 2-, 3- and 4-byte characters, and a 2-byte sequence cut by
# the end of the line. The move: e2, 0xff, e4 (illegal, quoted in the reason).
name='bad\xff \xe2\x82 \xc0\xaf \xed\xa0\x80 ctl\x01\x1b[1m\x7f ok \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 end\xc3'
cat >"$tmp/bytes.sh" <<EOF
while IFS= read -r line; do
	case \$line in
	uci) printf 'id name $name\n'; printf 'id author \xfe\xfe\n'; echo uciok ;;
	isready) echo readyok ;;
	go*) printf 'info string \xff\nbestmove e2\xffe4\n' ;;
	quit) exit 0 ;;
	esac
done
EOF
if [ -z "$python" ]; then
	echo "skip - python3 is not available: the UTF-8 checks need it"
else
	run match --engine "bash $tmp/bytes.sh" --engine "bash $tmp/bytes.sh" --games 2 --json --pgn "$tmp/bytes.pgn"
	printf '%s' "$stdout" >"$tmp/bytes.json"
	check=$("$python" - "$tmp/bytes.json" "$tmp/bytes.pgn" "$name" <<'EOF' 2>&1
import json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))  # strict: raises on a bad byte
want = sys.argv[3].encode("latin-1").decode("unicode_escape").encode("latin-1")
want = want.decode("utf-8", "replace")
names = [e["name"] for e in doc["engines"]]
if names != [want, want]:
    print("names %r, expected %r" % (names, want)); sys.exit(1)
reasons = [g["reason"] for g in doc["games"]]
if len(reasons) != 2 or not all("illegal move 'e2\ufffde4'" in r for r in reasons):
    print("reasons %r" % reasons); sys.exit(1)
pgn = open(sys.argv[2], encoding="utf-8").read()  # strict too
bad = [c for c in pgn if (ord(c) < 0x20 and c != "\n") or ord(c) == 0x7f]
tag = '[White "' + "".join(" " if ord(c) < 0x20 or ord(c) == 0x7f else c for c in want) + '"]'
if bad or tag not in pgn:
    print("PGN: control bytes %r, or no %r in %r" % (bad, tag, pgn)); sys.exit(1)
print("ok")
EOF
)
	if [ "$status" -eq 1 ] && [ "$check" = ok ]; then
		ok "a name and a move with bytes that are not UTF-8: the JSON is valid (strict UTF-8, json.load), the name is the bytes decoded with U+FFFD for each broken sequence, the PGN is UTF-8 without control bytes"
	else
		fail "bytes that are not UTF-8: exit $status: $(show "$check")"
	fi
fi

# ---- item 8: an option the engine rejects ---------------------------------------------
# opts.sh: declares Threads (1..4) and Hash; answers a bad Threads as cutoff uci does and
# any Hash as Stockfish does an option it does not know; plays fool's mate. FAKE_PIDFILE
# gets its PID.
cat >"$tmp/opts.sh" <<'EOF'
moves=(f2f3 e7e5 g2g4 d8h4)
echo $$ >>"$FAKE_PIDFILE"
while IFS= read -r line; do
	case $line in
	uci)
		echo "id name opts"
		echo "option name Threads type spin default 1 min 1 max 4"
		echo "option name Hash type spin default 1 min 1 max 16"
		echo uciok
		;;
	"setoption name Threads value "[1-4]) ;;
	"setoption name Threads value "*) echo "info string error: setoption: Threads: expected an integer in 1..4, got ${line##* }" ;;
	"setoption name Hash value "*) echo "No such option: Hash" ;;
	isready) echo readyok ;;
	position*) pos=$line ;;
	go*)
		n=0
		[[ $pos == *" moves "* ]] && read -r -a played <<<"${pos#* moves }" && n=${#played[@]}
		echo "bestmove ${moves[$n]}"
		;;
	quit) exit 0 ;;
	esac
done
EOF
: >"$tmp/opts.pids"
opts="env FAKE_PIDFILE=$tmp/opts.pids bash $tmp/opts.sh"
# rejected WHAT PATTERN ARGS...: exit 2, nothing on stdout, one line on stderr that
# matches the glob PATTERN, no game begun (no ucinewgame in the log), no engine left.
rejected() {
	local what=$1 pattern=$2
	shift 2
	run match --games 2 --log "$tmp/opts.log" "$@"
	if [ "$status" -eq 2 ] && [ -z "$stdout" ] && one_line "$stderr" && [[ ${stderr%$'\n'} == $pattern ]] &&
		! grep -q ucinewgame "$tmp/opts.log"; then
		ok "$what: exit 2 before any game, one line: ${stderr%$'\n'}"
	else
		fail "$what: exit $status, expected 2 and a line like '$pattern': $(show "$stdout $stderr")"
	fi
	reaped "$tmp/opts.pids" "$what"
}
rejected "--option Threads=abc, rejected as cutoff uci does" \
	"cutoff match: engine 1 ('env *') rejects an option: 'info string error: setoption: Threads: expected an integer in 1..4, got abc'; no game played (--ignore-option-errors plays on)" \
	--engine "$opts" --engine "$opts" --option Threads=abc
rejected "--option2 Hash=8, rejected as Stockfish does" "cutoff match: engine 2 (*) rejects an option: 'No such option: Hash'; no game*" \
	--engine "$opts" --engine "$opts" --option1 Threads=2 --option2 Hash=8
rejected "two options rejected: the first, and the count of the others" "cutoff match: engine 1 (*got 0' (and 1 more); no game*" \
	--engine "$opts" --engine "$opts" --option Threads=0 --option Hash=2 --concurrency 2

run match --engine "$opts" --engine "$opts" --games 2 --option Threads=2 --option1 Threads=1 --option2 Threads=1 --json
if [ "$status" -eq 0 ] && [ -z "$stderr" ] && [[ $stdout == *'"option_errors":[]}'* ]]; then
	ok "options the engine accepts: exit 0, nothing on stderr, \"option_errors\":[]"
else
	fail "accepted options: exit $status: $(show "$stdout $stderr")"
fi
want='"option_errors":["info string error: setoption: Threads: expected an integer in 1..4, got x"]'
for n in 1 2; do
	run match --engine "$opts" --engine "$opts" --games 4 --option Threads=x --ignore-option-errors --json --concurrency $n
	nwarn=$(grep -cF "warning: engine " "$tmp/err")
	nwant=$(grep -cF "rejects an option: 'info string error: setoption: Threads: expected an integer in 1..4, got x'; playing on (--ignore-option-errors)" "$tmp/err")
	if [ "$status" -eq 0 ] && [ "$nwarn" -eq 2 ] && [ "$nwant" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 2 ] &&
		[ "$(grep -oF "$want" <<<"$stdout" | wc -l)" -eq 2 ] && [[ $stdout == *'"games":4,"wins":2,"draws":0,"losses":2,'* ]]; then
		ok "--ignore-option-errors --concurrency $n: 4 games played, exit 0, one warning per engine, $want for each"
	else
		fail "--ignore-option-errors --concurrency $n: exit $status, $nwarn warnings: $(show "$stdout $stderr")"
	fi
done
reaped "$tmp/opts.pids" "--ignore-option-errors"
run match --engine "$opts" --engine "$opts" --games 2 --option Threads=x --ignore-option-errors
if [ "$status" -eq 0 ] && [[ $stdout == *$'\nengine 1 rejected '*"'info string error: setoption: Threads: expected an integer in 1..4, got x'"$'\n'* ]]; then
	ok "--ignore-option-errors, text report: the rejection under the engine's line"
else
	fail "--ignore-option-errors, text report: $(show "$stdout")"
fi
if echo quit | "$cutoff" uci >/dev/null 2>&1; then
	rejected "cutoff uci as the engine, --option Threads=abc" \
		"cutoff match: engine 1 ('$cutoff uci') rejects an option: 'info string error: setoption: Threads: expected an integer in 1..*; no game played*" \
		--engine "$cutoff uci" --engine "$cutoff uci" --option Threads=abc --depth 1
	run match --engine "$cutoff uci" --engine "$cutoff uci" --games 2 --depth 1 --max-moves 2 --option2 Threads=abc \
		--ignore-option-errors --json
	if [ "$status" -eq 0 ] && [[ $stdout == *'"option_errors":[]},{"engine":2,'*'"option_errors":["info string error: setoption: Threads: expected an integer in 1..'* ]] &&
		[[ $stdout == *'"games":2,'* ]] && one_line "$stderr"; then
		ok "cutoff uci, --option2 Threads=abc --ignore-option-errors: 2 games, exit 0, engine 2's rejection in the JSON, one warning"
	else
		fail "cutoff uci --ignore-option-errors: exit $status: $(show "$stdout $stderr")"
	fi
else
	echo "skip - 'cutoff uci' is not available"
fi

# ---- item 7: the referee killed by a signal ------------------------------------------
# deaf.sh: a normal handshake; at its first go it starts a child (argv[0] is $marker, a
# sleep that ignores SIGTERM) and stops reading its input for good, without answering.
# With FAKE_STUBBORN=1 it ignores SIGTERM itself too. Nothing of it may outlive the
# referee: the referee must forward the signal to the engines' process groups, SIGKILL
# what ignored it, and end with the status of the signal (128 + its number).
marker="hostile-child-${tmp##*/}"
cat >"$tmp/deaf.sh" <<EOF
[ -z "\${FAKE_STUBBORN:-}" ] || trap '' TERM
while IFS= read -r line; do
	case \$line in
	uci) echo "id name deaf"; echo uciok ;;
	isready) echo readyok ;;
	go*)
		(trap '' TERM; exec -a "$marker" sleep 1000) &
		while :; do sleep 0.2; done
		;;
	quit) exit 0 ;;
	esac
done
EOF
# alive: the PIDs of the live processes of deaf.sh and of its children (a zombie has no
# command line, so pgrep -f does not see one: PID 1 here may not reap the orphans).
alive() { pgrep -f -- "$marker|$tmp/deaf.sh" | tr '\n' ' '; }
default_int=
env --default-signal=INT true 2>/dev/null && default_int="env --default-signal=INT"
# killed SIGNAL NUMBER CONCURRENCY [env ...]: kills the referee with SIGNAL once each
# slot's engine thinks, and checks its status and that nothing of the engines is left.
killed() {
	local sig=$1 num=$2 n=$3 what
	shift 3
	what="SIG$sig with --concurrency $n${*:+ ($*)}"
	# A background job of a script starts with SIGINT ignored (and keeps it ignored, as a
	# program should): env --default-signal=INT gives it the default back.
	$default_int "$cutoff" match --engine "env $* bash $tmp/deaf.sh" --engine "env $* bash $tmp/deaf.sh" \
		--games 4 --concurrency "$n" --tc 1000 >"$tmp/out" 2>"$tmp/err" &
	local pid=$! i st left
	for ((i = 0; i < 100; i++)); do
		[ "$(pgrep -fc -- "$marker")" -ge "$n" ] && break
		sleep 0.1
	done
	kill -s "$sig" "$pid"
	wait "$pid" 2>/dev/null # (no "Hangup" from bash)
	st=$?
	for ((i = 0; i < 50; i++)); do
		left=$(alive)
		[ -z "$left" ] && break
		sleep 0.1
	done
	if [ "$st" -eq $((128 + num)) ] && [ -z "$left" ]; then
		ok "$what: the referee ends with status $st, and no engine or engine's child is left"
	else
		fail "$what: status $st (expected $((128 + num))), left running: ${left:-none}; $(show "$(cat "$tmp/err")")"
		[ -z "$left" ] || kill -9 $left 2>/dev/null
	fi
}
killed TERM 15 1
killed TERM 15 2
killed TERM 15 2 FAKE_STUBBORN=1
killed HUP 1 1
killed HUP 1 2 FAKE_STUBBORN=1
if [ -n "$default_int" ]; then
	killed INT 2 1
	killed INT 2 2 FAKE_STUBBORN=1
else
	echo "skip - env --default-signal is missing: no SIGINT check"
fi

report
