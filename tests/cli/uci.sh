#!/bin/bash
# SPDX-License-Identifier: MIT
# uci.sh CUTOFF — checks `cutoff uci`, the UCI chess engine, through live sessions: the
# engine runs as a coprocess, each command is written to it and each answer awaited with a
# timeout, so no check depends on how fast the machine is (the timeouts are generous: 5 to
# 20 s for what takes milliseconds). The oracles: the UCI specification (what must answer
# what, and when), the legality of every move answered (played back through `position`,
# whose move reader is checked by test_chess_fen), published mates (a mate in 2 with its
# key move, a checkmated and a stalemated root) and positions built so that the answer is
# forced (one legal move; a repetition that is the only way out of a lost position).
# No check asserts a time: the game at wtime 100 winc 10 checks the engine's time plan
# (debug on) against the clock it was given, and bounds each answer only by 2 s, 20 times
# the clock; whether the answers kept the clock is printed, and measured by
# bench/uci-games.sh.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"
trap 'stop_engine; rm -rf "$tmp"' EXIT

# A session: start_engine runs `cutoff uci` as a coprocess; send writes lines to it;
# expect REGEX [SECONDS] reads its lines until one matches REGEX (extended regular
# expression, whole-line anchors up to the caller), keeping every line read in $got and
# the matching one in $line; it fails at end of output or after SECONDS (default 10).
engine_pid=
start_engine() {
	coproc ENGINE { exec "$cutoff" uci 2>"$tmp/stderr"; }
	engine_pid=$ENGINE_PID
	# Our own copies of the pipes, the coprocess's closed: closing to_engine is then the
	# engine's end of input.
	exec {to_engine}>&"${ENGINE[1]}" {from_engine}<&"${ENGINE[0]}"
	eval "exec ${ENGINE[1]}>&- ${ENGINE[0]}<&-"
}
send() {
	printf '%s\n' "$@" >&"$to_engine"
}
expect() {
	local re=$1 seconds=${2:-10} text
	local deadline=$((SECONDS + seconds))
	got=
	line=
	while [ "$SECONDS" -lt "$deadline" ]; do
		IFS= read -r -t $((deadline - SECONDS)) text <&"$from_engine" || return 1
		got+=$text$'\n'
		if [[ $text =~ $re ]]; then
			line=$text
			return 0
		fi
	done
	return 1
}
# Waits (up to SECONDS) for the engine to exit; its status in $status.
wait_exit() {
	local seconds=${1:-10} i
	for ((i = 0; i < seconds * 20; i++)); do
		if ! kill -0 "$engine_pid" 2>/dev/null; then
			wait "$engine_pid" 2>/dev/null
			status=$?
			engine_pid=
			exec {to_engine}>&- {from_engine}<&- 2>/dev/null
			return 0
		fi
		sleep 0.05
	done
	return 1
}
stop_engine() {
	if [ -n "$engine_pid" ]; then
		send quit 2>/dev/null
		if ! wait_exit 10; then
			kill "$engine_pid" 2>/dev/null
			wait "$engine_pid" 2>/dev/null
			engine_pid=
		fi
	fi
}
# legal FEN-OR-startpos MOVES... MOVE: true when MOVE is legal after MOVES (asked of the
# engine: `position` refuses an illegal move with an error).
legal() {
	local where=$1 move=${!#}
	send "position $where moves ${*:2}" "isready"
	expect '^readyok$' 10 && [[ $got != *"info string error"* ]] && [[ $move =~ ^[a-h][1-8][a-h][1-8][qrbn]?$ ]]
}
# The last info line before bestmove: the answer's depth and score (iterative deepening
# may end early, once a mate is proven).
final_info() {
	grep '^info depth ' <<<"$got" | tail -n 1
}
bestmove_of() {
	[[ $line =~ ^bestmove\ ([^ ]+) ]] && echo "${BASH_REMATCH[1]}"
}
info_re='^info depth [0-9]+ seldepth [0-9]+ score (cp -?[0-9]+|mate -?[0-9]+)( lowerbound| upperbound)? nodes [0-9]+ nps [0-9]+ hashfull [0-9]+ time [0-9]+ pv( [a-h][1-8][a-h][1-8][qrbn]?)+$'

mate2="6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1"
one_move="k7/8/8/8/8/8/1r6/K7 w - - 0 1"
mated="rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
stalemate="7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
lost="6k1/8/8/8/8/8/5PPP/3Q2K1 b - - 0 1"

# The drivers and their options, from the library's registry (`cutoff drivers`): the
# Algorithm combo lists every driver, and every driver option is an option of its own.
mapfile -t drivers < <("$cutoff" drivers --names)
algorithm="Algorithm type combo default lazysmp"
for d in "${drivers[@]}"; do
	algorithm+=" var $d"
done
# "NAME MIN..MAX" or "NAME WORD|WORD", one a line
driver_options=$("$cutoff" drivers | sed -n 's/^  --\([a-z0-9-]*\) \([^ ]*\) .*/\1 \2/p')

# --- the handshake, isready, a search with info lines --------------------------------
start_engine
send uci
if expect '^uciok$' 10 && [[ $got == "id name cutoff "* ]] && [[ $got == *$'\nid author '* ]]; then
	missing=
	for o in "Threads type spin default 1 min 1" "Hash type spin default 16" \
		"$algorithm" \
		"Placement type combo default none var none var compact var scatter" \
		"Pruning type combo default all" "Move Overhead type spin default" \
		"Clear Hash type button"; do
		[[ $got == *"option name $o"* ]] || missing+=" [$o]"
	done
	if [ -z "$missing" ]; then
		ok "uci: id name, id author, the 7 options (Algorithm: ${drivers[*]}), uciok"
	else
		fail "uci: missing options:$missing in: $got"
	fi
	missing=
	while read -r name range; do
		[ -n "$name" ] || continue
		if [[ $range =~ ^(-?[0-9]+)\.\.(-?[0-9]+)$ ]]; then
			o="$name type spin default [-0-9]+ min ${BASH_REMATCH[1]} max ${BASH_REMATCH[2]}"
		else
			o="$name type combo default [a-z0-9-]+ var ${range//|/ var }"
		fi
		[[ $got =~ (^|$'\n')"option name "$o$'\n' ]] || missing+=" [$o]"
	done <<<"$driver_options"
	if [ -z "$missing" ] && [ -n "$driver_options" ]; then
		ok "uci: every driver option of 'cutoff drivers', spin or combo with its range"
	else
		fail "uci: missing driver options:$missing in: $got"
	fi
else
	fail "uci: no uciok: $got"
fi
# (A small table: every engine made below is then made quickly.)
send "setoption name Hash value 1" isready
if expect '^readyok$' 5 && [ "$got" = $'readyok\n' ]; then
	ok "isready -> readyok"
else
	fail "isready: $got"
fi

send "position startpos moves e2e4 e7e5" "go depth 4"
if expect '^bestmove ' 20; then
	depths=$(grep -c '^info depth [1-4] ' <<<"$got")
	bad=$(grep '^info' <<<"$got" | grep -Evc "$info_re")
	best=$(bestmove_of)
	if [ "$depths" -ge 4 ] && [ "$bad" -eq 0 ] && [[ $got == *$'\ninfo depth 4 '* ]] &&
		legal startpos e2e4 e7e5 "$best"; then
		ok "go depth 4 after 1.e4 e5: $depths info lines to depth 4, all well-formed, legal bestmove $best"
	else
		fail "go depth 4: depths $depths, $bad malformed lines, bestmove '$best': $got"
	fi
else
	fail "go depth 4: no bestmove: $got"
fi

# --- go infinite: isready answered during the search, bestmove only after stop ---------
send "position startpos" "go infinite"
if expect '^info depth 2 ' 10; then
	send isready
	if expect '^(readyok|bestmove.*)$' 5 && [ "$line" = readyok ]; then
		ok "go infinite: isready answered while searching, before any bestmove"
	else
		fail "go infinite + isready: $got"
	fi
	send stop
	if expect '^bestmove ' 5 && answer=$line && legal startpos "$(bestmove_of)"; then
		ok "go infinite: stop -> legal $answer within 5 s"
	else
		fail "go infinite: stop: $got"
	fi
else
	fail "go infinite: no info line: $got"
fi

# A search that ends by itself under `infinite` still waits for stop (UCI).
send "position startpos" "go infinite depth 2"
if expect '^info depth 2 ' 10; then
	send isready
	if expect '^(readyok|bestmove.*)$' 5 && [ "$line" = readyok ]; then
		send stop
		if expect '^bestmove ' 5; then
			ok "go infinite depth 2: the search ends, bestmove waits for stop"
		else
			fail "go infinite depth 2: no bestmove after stop: $got"
		fi
	else
		fail "go infinite depth 2: bestmove before stop: $got"
	fi
else
	fail "go infinite depth 2: $got"
fi

# --- stop when idle is ignored (the engine's stop would otherwise stay pending) --------
send "position startpos" "stop" "stop" "go depth 3"
if expect '^bestmove ' 10 && [[ $got == *$'info depth 3 '* ]] && [[ $got != *"info nodes"* ]]; then
	ok "stop while idle is ignored: the next go depth 3 reaches depth 3"
else
	fail "stop while idle: $got"
fi
# Stops racing the end of a search: a burst of 2000 after each `go depth 1`, so that the
# main thread takes the lock for a stop again and again while the search returns, and some
# stops land after the search cleared the engine's flag (case (c) at the top of
# uci/search_thread.c). The next search must still reach its depth. Without the engine's cutoff_engine_cancel_stop()
# in `go`, this failed in 12 runs of 12 (1 to 15 of the 100 rounds stopped at once; with
# 200 stops and 40 rounds, in only 1 run of 5).
stops=$(printf 'stop\n%.0s' {1..2000})
races=0
rounds=100
for ((i = 0; i < rounds; i++)); do
	send "go depth 1" "${stops%$'\n'}"
	expect '^bestmove ' 10 || break
	send "go depth 3"
	expect '^bestmove ' 10 || break
	[[ $got == *$'info depth 3 '* ]] && races=$((races + 1))
done
if [ "$races" -eq "$rounds" ]; then
	ok "2000 stops racing the end of each of $rounds searches never stop the next one"
else
	fail "stops racing the end of a search: $races of $rounds rounds reached depth 3: $got"
fi

# --- stop, then go at once: both answered, in order ----------------------------------
# A GUI in analysis mode sends stop, isready and the next go without waiting for the old
# bestmove. The old search's bestmove must come first, readyok after it (a GUI that syncs
# on readyok must not take the old answer for the new one's), then the new search's. Before
# the fix the go was refused ("a search is already running") and never answered: in 20 of
# 20 tries of `go infinite`, 0.3 s, `stop`, `isready`, `go depth 2`.
rounds=10
in_order=0
for ((i = 0; i < rounds; i++)); do
	send "position startpos" "go infinite"
	expect '^info depth 1 ' 10
	send stop isready "go depth 2"
	if expect '^(bestmove .*|readyok)$' 10 && [[ $line == bestmove* ]] && first=$(bestmove_of) &&
		expect '^(bestmove .*|readyok)$' 10 && [ "$got" = $'readyok\n' ] &&
		expect '^bestmove ' 10 && [[ $got == *$'info depth 2 '* ]] &&
		[[ $got != *"info string error"* ]] && legal startpos "$first"; then
		in_order=$((in_order + 1))
	else
		fail "stop, isready, go depth 2 (round $((i + 1))): $got"
		break
	fi
done
[ "$in_order" -eq "$rounds" ] &&
	ok "go infinite, stop, isready, go depth 2: bestmove, readyok, bestmove after depth 2, in each of $rounds rounds"
# 1000 `go infinite` / `stop` pairs in one burst, then isready: 1000 legal bestmoves, all
# before readyok, and no error (before the fix: 1 or 2 bestmoves).
burst=$(printf 'go infinite\nstop\n%.0s' {1..1000})
send "position startpos" "${burst%$'\n'}" isready
if expect '^readyok$' 120; then
	answers=$(grep -c '^bestmove ' <<<"$got")
	errors=$(grep -c '^info string error' <<<"$got")
	moves=$(sed -n 's/^bestmove \([^ ]*\).*/\1/p' <<<"$got" | sort -u)
	illegal=0
	for m in $moves; do
		legal startpos "$m" || illegal=$((illegal + 1))
	done
	if [ "$answers" -eq 1000 ] && [ "$errors" -eq 0 ] && [ "$illegal" -eq 0 ]; then
		ok "1000 go infinite / stop pairs: 1000 bestmoves before readyok, all legal ($(wc -w <<<"$moves") different moves)"
	else
		fail "1000 go infinite / stop pairs: $answers bestmoves, $errors errors, $illegal illegal moves before readyok"
	fi
else
	fail "1000 go infinite / stop pairs: no readyok"
fi

# --- errors: each named, the last good position kept ---------------------------------
send "position startpos moves e2e4" "isready"
expect '^readyok$' 5
errors_ok=0
errors_total=0
bad_line() { # bad_line NEEDLE LINE: an error line mentioning NEEDLE, then readyok
	local needle=$1
	errors_total=$((errors_total + 1))
	printf '%s\n' "$2" "isready" >&"$to_engine"
	if expect '^readyok$' 5 && [[ $got == "info string error: "*"$needle"*$'\n'readyok$'\n' ]] &&
		[[ ${got#*$'\n'} == $'readyok\n' ]]; then
		errors_ok=$((errors_ok + 1))
	else
		fail "bad line $(printf '%q' "$2"): expected one error naming '$needle', got: $got"
	fi
}
bad_line "'xyzzy'" "xyzzy"
bad_line "'\\x01\\xff\\xfe'" $'\x01\xff\xfe'
bad_line "position fen" "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1"
bad_line "side to move" "position fen 4k3/8/8/8/8/8/8/4K3 x - - 0 1"
bad_line "'e2e5'" "position startpos moves e2e4 e7e5 e2e5"
bad_line "'e7e8'" "position startpos moves e7e8"
bad_line "'bogus'" "position bogus"
# A bad `go` is answered at once with the first legal move, unsearched (docs/chess.md):
# the error, then bestmove, then readyok; the moves are checked below.
fallbacks=()
bad_go() { # bad_go NEEDLE LINE
	local needle=$1 lines
	errors_total=$((errors_total + 1))
	printf '%s\n' "$2" "isready" >&"$to_engine"
	if expect '^readyok$' 5 && mapfile -t lines <<<"${got%$'\n'}" && [ "${#lines[@]}" -eq 3 ] &&
		[[ ${lines[0]} == "info string error: "*"$needle"* ]] &&
		[[ ${lines[1]} =~ ^bestmove\ ([a-h][1-8][a-h][1-8][qrbn]?)$ ]]; then
		fallbacks+=("${BASH_REMATCH[1]}")
		errors_ok=$((errors_ok + 1))
	else
		fail "bad go $(printf '%q' "$2"): expected one error naming '$needle', bestmove, readyok; got: $got"
	fi
}
bad_go "depth needs a value" "go depth"
bad_go "'x'" "go depth x"
bad_go "'0'" "go depth 0"
bad_go "'-1'" "go depth -1"
bad_go "'-5'" "go movetime -5"
bad_go "'0'" "go nodes 0"
bad_go "'99999999999999999999'" "go wtime 99999999999999999999 btime 1000"
bad_go "'sideways'" "go sideways"
bad_go "'sideways'" "go infinite sideways"
bad_go "'a1a1'" "go searchmoves a1a1 depth 2"
bad_line "'Foo'" "setoption name Foo value 1"
bad_line "Threads" "setoption name Threads value 0"
bad_line "'ybw2'" "setoption name Algorithm value ybw2"
# every driver option: out of its range (or not one of its words), one error naming it
while read -r name range; do
	[ -n "$name" ] || continue
	if [[ $range =~ ^(-?[0-9]+)\.\.(-?[0-9]+)$ ]]; then
		bad_line "$name: expected an integer in $range, got '$((BASH_REMATCH[1] - 1))'" \
			"setoption name $name value $((BASH_REMATCH[1] - 1))"
	else
		bad_line "$name: expected one of ${range//|/, }, got 'no-such-word'" \
			"setoption name $name value no-such-word"
	fi
done <<<"$driver_options"
bad_line "Hash" "setoption name Hash value -1"
bad_line "'maybe'" "debug maybe"
bad_go "btime is missing" "go wtime 1000"
long=$(head -c 6000 /dev/zero | tr '\0' 'a')
bad_line "'aaaa" "$long"
# blank lines and a line of blanks say nothing
send "" "   " $'\t\r' "isready"
if expect '^readyok$' 5 && [ "$got" = $'readyok\n' ]; then
	errors_ok=$((errors_ok + 1))
else
	fail "blank lines: $got"
fi
errors_total=$((errors_total + 1))
[ "$errors_ok" -eq "$errors_total" ] && ok "$errors_total bad lines: each one error naming the token, then readyok (after a bad go, its bestmove first)"
# The position is still 1.e4 (the bad `position` lines changed nothing).
send d
if expect '^info string fen ' 5 &&
	[ "$line" = "info string fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1" ]; then
	ok "after the bad lines the position is still the last good one (1.e4)"
else
	fail "position after bad lines: $got"
fi
send "go depth 2"
if expect '^bestmove ' 10 && answer=$line && legal startpos e2e4 "$(bestmove_of)"; then
	ok "and the engine answers there: $answer"
else
	fail "go after bad lines: $got"
fi
illegal=
for m in "${fallbacks[@]}"; do
	legal startpos e2e4 "$m" || illegal+=" $m"
done
if [ "${#fallbacks[@]}" -gt 0 ] && [ -z "$illegal" ]; then
	ok "the ${#fallbacks[@]} answers to bad gos are legal after 1.e4 (${fallbacks[*]})"
else
	fail "answers to bad gos: illegal:$illegal"
fi
# UCI: unknown words before a command are skipped.
send "joho isready"
if expect '^readyok$' 5 && [[ $got == *"'joho'"* ]]; then
	ok "'joho isready': joho reported, isready answered"
else
	fail "joho isready: $got"
fi

# --- forced answers -------------------------------------------------------------------
send "position fen $one_move" "go depth 1"
if expect '^bestmove ' 10 && [ "$line" = "bestmove a1b2" ]; then
	ok "one legal move, go depth 1 -> bestmove a1b2"
else
	fail "one legal move: $got"
fi
send "position fen $one_move" "go wtime 60000 btime 60000"
if expect '^bestmove ' 10 && [ "$line" = "bestmove a1b2" ]; then
	ok "one legal move on the clock -> bestmove a1b2 at once"
else
	fail "one legal move, clock: $got"
fi
send "position fen $mated" "go depth 3"
if expect '^bestmove ' 10 && [ "$line" = "bestmove 0000" ] && [[ $got == *"score mate 0"* ]]; then
	ok "checkmated root -> score mate 0, bestmove 0000"
else
	fail "checkmated root: $got"
fi
send "position fen $stalemate" "go infinite"
send isready
expect '^readyok$' 5
send stop
if expect '^bestmove ' 5 && [ "$line" = "bestmove 0000" ]; then
	ok "stalemated root, go infinite, stop -> bestmove 0000"
else
	fail "stalemated root: $got"
fi
send "position fen $mate2" "go depth 5"
if expect '^bestmove ' 20 && [[ $line == "bestmove g2g1"* ]] &&
	[[ $(final_info) == *" score mate 2 "* ]]; then
	ok "mate in 2: score mate 2, bestmove g2g1"
else
	fail "mate in 2: $got"
fi
send "position fen $mate2 moves g2g1" "go depth 5"
if expect '^bestmove ' 20 && [[ $line == "bestmove h1g1" || $line == "bestmove h1g1 ponder "* ]] &&
	[[ $(final_info) == *" score mate -1 "* ]]; then
	ok "mated in 1: score mate -1, bestmove h1g1"
else
	fail "mated in 1: $got"
fi
# History: black, a queen down, can only save the game by repeating a position of the
# game; without the game's history it would not know.
send "position fen $lost moves g8h8 d1d2 h8g8 d2d1" "go depth 4"
if expect '^bestmove ' 10 && [ "$line" = "bestmove g8h8" ] &&
	[[ $(final_info) == "info depth 4 "*" score cp 0 "* ]]; then
	ok "repetition through the game's history: bestmove g8h8, score cp 0"
else
	fail "repetition: $got"
fi
send "position fen $lost" "go depth 4"
if expect '^bestmove ' 10 && [[ $(final_info) =~ ^info\ depth\ 4\ .*score\ cp\ -[0-9]{3,} ]]; then
	ok "the same position without history: lost (score ${BASH_REMATCH[0]##*score })"
else
	fail "lost position: $got"
fi

# --- options --------------------------------------------------------------------------
options_ok=0
settings=("Threads value 2")
for d in "${drivers[@]}"; do
	settings+=("Algorithm value $d")
done
# each driver option at its least value (a word option: its last word), under the last
# driver
while read -r name range; do
	[ -n "$name" ] || continue
	if [[ $range == *..* ]]; then
		settings+=("$name value ${range%%..*}")
	else
		settings+=("$name value ${range##*|}")
	fi
done <<<"$driver_options"
settings+=("Placement value compact" "Pruning value none" "Hash value 1" "Move Overhead value 50"
	"Clear Hash" "threads value 1")
for setting in "${settings[@]}"; do
	send "setoption name $setting" "position startpos moves d2d4" "go depth 5"
	if expect '^bestmove ' 20 && [[ $got != *"info string error"* ]] &&
		[[ $got == *$'info depth 5 '* ]] && legal startpos d2d4 "$(bestmove_of)"; then
		options_ok=$((options_ok + 1))
	else
		fail "setoption name $setting, go depth 5: $got"
	fi
done
[ "$options_ok" -eq ${#settings[@]} ] && ok "setoption Threads 2, Algorithm ${drivers[*]}, every driver option, Placement, Pruning, Hash, Move Overhead, Clear Hash: each then searches to depth 5"
send "setoption name Threads value 2" "setoption name Algorithm value ybw" "position startpos" "go infinite"
expect '^info depth 1 ' 10
send "setoption name Threads value 3" "ucinewgame" "isready"
if expect '^readyok$' 5 && [[ $got != *"info string error"* ]] && [[ $got != *bestmove* ]] &&
	send stop && expect '^bestmove ' 5 && send isready d && expect '^info string engine ' 5 &&
	[[ $line == *"Threads 3, Hash 1, Algorithm ybw,"* ]]; then
	ok "setoption Threads during a search: taken, in force once the search is over"
else
	fail "setoption during a search: $got"
fi
# A go while a search runs (no stop between) ends that search first, as stop would: two
# bestmoves, in order, the second after the new search's depth 1.
send "go infinite" "go depth 1" "isready"
if expect '^readyok$' 10 && [[ $got != *"info string error"* ]] &&
	answers=$(grep -c '^bestmove ' <<<"$got") && [ "$answers" -ge 1 ] &&
	{ [ "$answers" -eq 2 ] || expect '^bestmove ' 5; } && [[ $got == *$'info depth 1 '* ]]; then
	ok "go during a search ends it: two bestmoves, the second after depth 1"
else
	fail "go during a search: $got"
fi

# --- the engine's build is not charged to the search (issue 12, item 3) -----------------
# setoption then go without isready: the engine (threads, table) is built at the go. The
# plan (debug on) must be made from the clock less the build, B ms: target = (10000 - B -
# 150) / 30 - excess, exactly (uci/time_plan.c, the reserve 3 x 50 ms); and a movetime
# search keeps its whole hard limit (300 - 50 ms) whatever B, and is searched (an info depth
# line before bestmove). Before, the build was counted against the search: twelve such
# processes with 8 threads each on 2 CPUs all answered unsearched.
send "setoption name Threads value 3" "setoption name Hash value 8" "debug on" \
	"position startpos" "go wtime 10000 btime 10000"
if expect '^bestmove ' 20 &&
	[[ $got =~ target\ ([0-9]+)\ ms,\ excess\ ([0-9]+)\ ms,\ build\ ([0-9]+)\ ms ]] &&
	target=${BASH_REMATCH[1]} excess=${BASH_REMATCH[2]} build=${BASH_REMATCH[3]} &&
	want=$(((10000 - build - 150) / 30 - excess)) && [ "$target" -eq $((want > 0 ? want : 0)) ] &&
	[[ $got == *$'\ninfo depth '* ]]; then
	ok "setoption Threads 3, Hash 8, go wtime 10000 (no isready): built in $build ms, planned on the clock less the build (target $target ms), searched"
else
	fail "build at go, on a clock: $got"
fi
send "setoption name Threads value 2" "go movetime 300"
if expect '^bestmove ' 20 && [[ $got == *"hard 250 ms, "*"build "* ]] && [[ $got == *$'\ninfo depth '* ]]; then
	ok "setoption Threads 2, go movetime 300 (no isready): hard limit 250 ms after the build, searched"
else
	fail "build at go, movetime: $got"
fi
send "debug off"

# --- a fast game: wtime 100 winc 10, the engine plays both sides ----------------------
# What is checked is what does not depend on the machine: every move legal, and every plan
# within the clock — with `debug on` each timed `go` says "info string time: soft S ms,
# hard H ms", and H plus the Move Overhead (50) must fit in the clock the `go` gave (or H
# be 1 ms when the clock is no more than the overhead), S <= H. The answers' times are
# only bounded by 2 s, 20 times the clock, which only an engine that ignores its clock
# exceeds; whether it kept the clock is printed, not judged (a loaded machine or a
# sanitizer build can delay any answer: bench/uci-games.sh measures that).
send "setoption name Threads value 1" "setoption name Algorithm value lazysmp" "ucinewgame" \
	"debug on" "isready"
expect '^readyok$' 10
clock_w=100
clock_b=100
moves=
problem=
plies=0
slowest=0
lowest=100
late=0
for ((ply = 0; ply < 30; ply++)); do
	send "position startpos${moves:+ moves$moves}" isready
	expect '^readyok$' 10
	if ((ply % 2 == 0)); then clock=$clock_w; else clock=$clock_b; fi
	start=${EPOCHREALTIME/./}
	send "go wtime $((clock_w > 0 ? clock_w : 1)) btime $((clock_b > 0 ? clock_b : 1)) winc 10 binc 10"
	if ! expect '^bestmove ' 10; then
		problem="no bestmove at ply $ply: $got"
		break
	fi
	spent=$(((${EPOCHREALTIME/./} - start) / 1000))
	[ "$spent" -gt "$slowest" ] && slowest=$spent
	if ! [[ $got =~ info\ string\ time:\ soft\ ([0-9]+)\ ms,\ hard\ ([0-9]+)\ ms ]]; then
		problem="no time plan at ply $ply: $got"
		break
	fi
	soft=${BASH_REMATCH[1]} hard=${BASH_REMATCH[2]} given=$((clock > 0 ? clock : 1))
	if ((soft < 1 || soft > hard || (hard + 50 > given && hard != 1))); then
		problem="ply $ply: soft $soft ms, hard $hard ms with $given ms on the clock"
		break
	fi
	if [ "$spent" -gt 2000 ]; then
		problem="ply $ply: the answer took $spent ms with $given ms on the clock"
		break
	fi
	clock=$((clock - spent))
	[ "$clock" -lt "$lowest" ] && lowest=$clock
	[ "$clock" -lt 0 ] && late=$((late + 1))
	if ((ply % 2 == 0)); then clock_w=$((clock + 10)); else clock_b=$((clock + 10)); fi
	best=$(bestmove_of)
	[ "$best" = 0000 ] && break
	moves+=" $best"
	plies=$((ply + 1))
done
send "debug off"
if [ -z "$problem" ] && legal startpos $moves; then
	ok "a game at 100 ms + 10 ms: $plies legal plies, every plan within the clock (slowest answer $slowest ms, lowest clock $lowest ms, $late answers past the clock)"
elif [ -z "$problem" ]; then
	fail "fast game: an illegal move in: $moves"
else
	fail "fast game: $problem"
fi
send "position startpos" "go movetime 200"
if expect '^bestmove ' 10; then
	ok "go movetime 200 -> $line"
else
	fail "go movetime: $got"
fi

# --- quit during a search, end of input during a search --------------------------------
send "position startpos" "go infinite"
expect '^info depth 3 ' 10
send quit
if wait_exit 5 && [ "$status" -eq 0 ]; then
	ok "quit during go infinite: exit 0 within 5 s"
else
	fail "quit during a search: status ${status:-none}"
fi
if [ -s "$tmp/stderr" ]; then
	fail "stderr is not empty: $(head -c 300 "$tmp/stderr")"
fi

start_engine
send "setoption name Threads value 2" "position startpos" "go infinite"
expect '^info depth 3 ' 10
exec {to_engine}>&-
if wait_exit 5 && [ "$status" -eq 0 ]; then
	ok "end of input during go infinite (2 threads): exit 0 within 5 s"
else
	fail "end of input during a search: status ${status:-none}"
fi
if [ -s "$tmp/stderr" ]; then
	fail "stderr is not empty: $(head -c 300 "$tmp/stderr")"
fi

run uci --help
if [ "$status" -eq 0 ] && grep -q '^usage: cutoff uci' "$tmp/out" && [ ! -s "$tmp/err" ]; then
	ok "uci --help"
else
	fail "uci --help: exit $status"
fi
run uci --bogus
if [ "$status" -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "unknown option '--bogus'" "$tmp/err"; then
	ok "uci --bogus: exit 2, one line on stderr"
else
	fail "uci --bogus: exit $status"
fi
printf 'uci\n' | "$cutoff" uci >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q '^uciok$' "$tmp/out"; then
	ok "uci on a pipe that ends: uciok, exit 0"
else
	fail "uci on a closed pipe"
fi

report
