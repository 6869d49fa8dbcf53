#!/bin/bash
# SPDX-License-Identifier: MIT
# match.sh CUTOFF — checks `cutoff match`, the UCI referee, against fake engines: small bash
# scripts that play a fixed list of moves (one per ply, whatever the position), answer an
# illegal or malformed move, never answer, exit, or never finish the handshake. The games
# they play are oracles by construction: fool's mate ends in checkmate after 4 plies, a
# knight dance from the start repeats the start position a third time after 8, and one
# move from a set-up position gives stalemate, the fifty-move rule or a bare king.
# Checked: results and reasons, W/D/L from engine 1's side with colours alternating, the
# openings file cycled and each opening played twice, PGN openings (tags, comments,
# variations, NAGs, results, [FEN], --plies; a bad move or file named by its line) and
# the built-in set (its size as documented, each position distinct, legal and level), the
# fault counts (illegal moves, time losses, crashes, no answers, engine errors) and exit
# status 1 for any fault, PGN in SAN, odds (each engine's own limit, in go, the report, JSON and PGN), the usage errors (one line on stderr, exit 2). --concurrency 2 and 3:
# every game played, recorded in game order and the same as with one slot (results,
# PGN), each opening's pair with the colours reversed, the log tagged by slot; four slow
# games at once on clocks that only separate clocks survive; a stop when an engine cannot
# be started again; every engine process gone after each match; the unfair-clock warning
# exactly when the slots times the engines' Threads exceed the CPUs. When `cutoff uci`
# exists, real games of cutoff against itself (two at depth 3, every game over by the
# rules; two on a clock; four from the built-in openings at depth 1); with
# Stockfish installed, one game of Stockfish against itself. Nothing here asserts a time:
# the fake engines answer at once (or after a fixed sleep, with at least 1.2 s to spare on
# the clock), a time loss is an engine that never does, and the real games on a clock
# allow a 2 s margin.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"

# The fake engine: fake.sh MODE [MOVE...]. MODE script plays MOVE number n at ply n of the
# game (counted from the position it was given); the other modes misbehave at the first go.
# From its environment (for --concurrency): FAKE_PIDFILE, a file it appends its PID to;
# FAKE_MAXSTARTS=N, exit at once when that file holds more than N PIDs (a start that
# fails); FAKE_DELAY, seconds to sleep before each bestmove; FAKE_THREADS, declare Threads.
cat >"$tmp/fake.sh" <<'EOF'
mode=$1
shift
moves=("$@")
pos=""
[ -z "${FAKE_PIDFILE:-}" ] || echo $$ >>"$FAKE_PIDFILE"
if [ -n "${FAKE_MAXSTARTS:-}" ] && [ "$(wc -l <"$FAKE_PIDFILE")" -gt "$FAKE_MAXSTARTS" ]; then
	exit 1
fi
while IFS= read -r line; do
	case $line in
	uci)
		echo "noise on stderr, which the referee must not show" >&2
		if [ "$mode" = nouciok ]; then
			echo "hello, I am not a UCI engine"
			continue
		fi
		echo "id name fake $mode"
		echo "option name Hash type spin default 1 min 1 max 16"
		echo "option name Clear Hash type button"
		[ -z "${FAKE_THREADS:-}" ] || echo "option name Threads type spin default 1 min 1 max 4096"
		echo "uciok"
		;;
	isready) echo "readyok" ;;
	position*) pos=$line ;;
	go*)
		[ -z "${FAKE_DELAY:-}" ] || sleep "$FAKE_DELAY"
		case $mode in
		script)
			n=0
			if [[ $pos == *" moves "* ]]; then
				read -r -a played <<<"${pos#* moves }"
				n=${#played[@]}
			fi
			echo "info depth 1 score cp 0 pv ${moves[$n]}"
			echo "bestmove ${moves[$n]} ponder a1a1"
			;;
		illegal) echo "bestmove e2e5" ;;
		empty) echo "bestmove" ;;
		garbage) echo "bestmove zz" ;;
		silent) ;;
		exit) exit 3 ;;
		esac
		;;
	quit) exit 0 ;;
	esac
done
EOF
fake="bash $tmp/fake.sh"
fool="$fake script f2f3 e7e5 g2g4 d8h4"

# has_text TEXT WHAT: the last output holds TEXT (in a --json run, "FIELD":VALUE pairs
# written out; lib.bash's has reads one pair by its name).
has_text() {
	local want=$1 what=$2
	if [[ $stdout == *"$want"* ]]; then
		ok "$what: $want"
	else
		fail "$what: no $want in: $stdout"
	fi
}

# Fool's mate, twice: black mates in both games, so engine 1 (white in game 1, black in
# game 2) scores 1 W 0 D 1 L.
run match --engine "$fool" --engine "$fool" --json --pgn "$tmp/fool.pgn" --log "$tmp/fool.log"
if [ "$status" -eq 0 ] && [ -z "$stderr" ]; then
	ok "fool's mate: exit 0, nothing on stderr (the engines' stderr is not shown)"
else
	fail "fool's mate: exit $status: $stderr"
fi
has_text '"result":"0-1","winner":2,"reason":"checkmate","fault":null,"plies":4,"moves":"f2f3 e7e5 g2g4 d8h4"' "fool's mate, game 1"
has_text '"game":2,"white":2,"black":1' "colours alternate"
has_text '"result":"0-1","winner":1,"reason":"checkmate"' "fool's mate, game 2"
has_text '"wins":1,"draws":0,"losses":1' "W/D/L from engine 1's side"
has_text '"illegal_moves":0,"time_losses":0,"crashes":0,"no_answers":0' "no faults"
has_text '"name":"fake script"' "engine name from 'id name'"
if grep -q '^1\. f3 e5 2\. g4 Qh4# *$' "$tmp/fool.pgn" && [ "$(grep -c '^\[Result "0-1"\]$' "$tmp/fool.pgn")" -eq 2 ] &&
	grep -q '^\[Termination "normal"\]$' "$tmp/fool.pgn"; then
	ok "PGN: 1. f3 e5 2. g4 Qh4#, two games, Result 0-1"
else
	fail "PGN: $(cat "$tmp/fool.pgn")"
fi
if grep -q ' 1> uci$' "$tmp/fool.log" && grep -q ' 2< uciok$' "$tmp/fool.log" &&
	grep -q 'bestmove d8h4' "$tmp/fool.log" && grep -q 'noise on stderr' "$tmp/fool.log"; then
	ok "--log: both directions and the engines' stderr"
else
	fail "--log: $(head -20 "$tmp/fool.log")"
fi

run match --engine "$fool" --engine "$fool" --games 1 --tc 5+0.05
if [ "$status" -eq 0 ] && [[ $stdout == *"0-1"*"checkmate"* ]] &&
	[[ $stdout == *$'\nillegal moves '*' 0 (engine 1 0, engine 2 0)'* ]] &&
	[[ $stdout == *$'\ntime losses '*' 0 (engine 1 0, engine 2 0)'* ]]; then
	ok "text report: the game line and the fault totals"
else
	fail "text report: exit $status: $stdout"
fi

# One-move endings from set-up positions (engine 1 is white and makes the move).
endgame() {
	local what=$1 fen=$2 move=$3 want=$4
	echo "$fen" >"$tmp/one.fen"
	run match --engine "$fake script $move" --engine "$fake script" --games 1 --openings "$tmp/one.fen" --json
	if [ "$status" -eq 0 ] && [[ $stdout == *"$want"* ]]; then
		ok "$what: $want"
	else
		fail "$what: exit $status: $stdout $stderr"
	fi
}
endgame stalemate "7k/5Q2/8/8/8/8/8/K7 w - - 0 1" f7g6 '"result":"1/2-1/2","winner":null,"reason":"stalemate","fault":null,"plies":1'
endgame "fifty-move rule" "4k3/8/8/8/8/8/8/R3K3 w - - 99 80" a1a2 '"result":"1/2-1/2","winner":null,"reason":"fifty-move rule"'
endgame "insufficient material" "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1" e1d2 '"result":"1/2-1/2","winner":null,"reason":"insufficient material"'
endgame "mate from a FEN" "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1" a1a8 '"result":"1-0","winner":1,"reason":"checkmate","fault":null,"plies":1'

dance="$fake script g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3"
run match --engine "$dance" --engine "$dance" --games 1 --json
has_text '"reason":"threefold repetition","fault":null,"plies":8' "threefold repetition of the start position"
run match --engine "$dance" --engine "$dance" --games 1 --json --max-moves 2
has_text '"reason":"move limit (2 moves each)","fault":null,"plies":4' "--max-moves 2"

# Openings: two positions that are over already (white mated; black stalemated), an EPD
# line with operations, a comment and a blank line. Five games: 1-2 the first, 3-4 the
# second, 5 the first again; engine 1 loses 1 and 5, wins 2, draws 3 and 4.
cat >"$tmp/openings.epd" <<'EOF'
# two finished games
rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - bm e4; id "mated";

7k/8/6Q1/8/8/8/8/K7 b - - 0 1
EOF
run match --engine "$fool" --engine "$fool" --games 5 --openings "$tmp/openings.epd" --json
has_text '"wins":1,"draws":2,"losses":2' "openings cycled, each twice: W/D/L"
has_text '"game":5,"white":1,"black":2,"fen":"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 0 1","result":"0-1"' "game 5 from the first opening again"
has_text '"game":4,"white":2,"black":1,"fen":"7k/8/6Q1/8/8/8/8/K7 b - - 0 1","result":"1/2-1/2","winner":null,"reason":"stalemate"' "game 4 from the second opening"

# PGN openings. Four games: tags, a comment over two lines, ';' comments, nested
# variations (one holding a comment with a ')' in it), NAGs, "!?", a black move number
# ("3..."), move numbers glued to their move ("1.d4"), each kind of result and none at
# the end; a game set up with [SetUp]/[FEN]; one shorter than 8 plies. The positions
# after 8 plies (or the last) are written out by hand. The fake engines answer an illegal
# move, so each game ends at once, by a fault, from its opening.
cat >"$tmp/games.pgn" <<'EOF'
[Event "Ruy Lopez"]
[Site "?"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 {best by test,
over two lines} e5 $1 2. Nf3 (2. f4 exf4 {gambit} (2... d5) 3. Nf3) Nc6
3. Bb5 ; the Spanish
3... a6!? 4. Ba4 Nf6 5. O-O Be7 $10 6. Re1 1-0

[Event "set up"]
[SetUp "1"]
[FEN "7k/8/8/8/8/8/8/K5R1 w - - 0 1"]

1. Rh1+ Kg7 *
[Event "short"]
1.d4 d5 2.c4 1/2-1/2

1. e4 c5 (1... e5 {a comment with ) in it} 2. Nf3) 2. Nf3 d6 $14 3. d4 cxd4
4. Nxd4 Nf6 5. Nc3 a6
EOF
ruy8="r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 5"
setup="8/6k1/8/8/8/8/8/K6R w - - 2 2"
short="rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2"
sicilian8="rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5"
# fens: each game's start position in the last --json run, one a line.
fens() { grep -o '"fen":"[^"]*"' <<<"$stdout" | sed 's/^"fen":"//; s/"$//'; }
# openings_are WHAT FEN...: the last run played each FEN twice, in order, and no more.
openings_are() {
	local what=$1 want="" f
	shift
	for f in "$@"; do want+="$f"$'\n'"$f"$'\n'; done
	if [ "$status" -eq 1 ] && [ "$(fens)"$'\n' = "$want" ]; then
		ok "$what: $# position(s), each played twice"
	else
		fail "$what: exit $status: $(show "$(fens | tr '\n' '|')") $stderr"
	fi
}
run match --engine "$fake illegal" --engine "$fake illegal" --games 8 --openings "$tmp/games.pgn" --json --log "$tmp/pgn.log"
openings_are "PGN openings (tags, comments, variations, NAGs, results, [FEN], a short game)" "$ruy8" "$setup" "$short" "$sicilian8"
if grep -q "> position fen $ruy8\$" "$tmp/pgn.log" && grep -q "> position fen $setup\$" "$tmp/pgn.log"; then
	ok "PGN openings: the engines are sent the position after the plies as a FEN"
else
	fail "PGN openings: no 'position fen $ruy8' in the log: $(grep position "$tmp/pgn.log" | head -3)"
fi
run match --engine "$fake illegal" --engine "$fake illegal" --games 8 --openings "$tmp/games.pgn" --json --plies 3
openings_are "--plies 3" "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2" "$setup" "$short" \
	"rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
sed -n '/^1\. e4 c5/,$p' "$tmp/games.pgn" >"$tmp/games.txt"
run match --engine "$fake illegal" --engine "$fake illegal" --games 2 --openings "$tmp/games.txt" --json
openings_are "PGN told by its first line (a move number), not its name" "$sicilian8"

# Bad PGN: exit 2, one line naming the file, the line and what is wrong.
pgn_bad() {
	local needle=$1 text=$2
	shift 2
	printf '%s\n' "$text" >"$tmp/bad.pgn"
	bad "--openings '$tmp/bad.pgn': $needle" match --engine "$fool" --engine "$fool" --openings "$tmp/bad.pgn" "$@"
}
pgn_bad "line 3: 'Nf9' is not a move here (game 1, ply 3): " $'[Event "x"]\n\n1. e4 e5 2. Nf9 Nc6 *'
pgn_bad "line 2: 'Bb5' is not a move here (game 2, ply 6): no black bishop" $'1. d4 *\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Bb5 *'
pgn_bad "line 2: the FEN tag: " $'[Event "x"]\n[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n1. e4 *'
pgn_bad "line 1: expected a tag" $'[Event "x"\n1. e4 *'
pgn_bad "line 2: a comment '{' is never closed" $'1. e4\ne5 {oops\n2. Nf3 *'
pgn_bad "line 1: a variation '(' is never closed" $'1. e4 (1. d4 d5\n*'
pgn_bad "line 1: a ')' closes no variation" $'1. e4 ) e5 *'
pgn_bad "line 1: [Variant 'Chess960']: only standard chess" $'[Variant "Chess960"]\n1. e4 *'
bad "--plies: '$tmp/one.fen' holds FEN/EPD lines" match --engine "$fool" --engine "$fool" --openings "$tmp/one.fen" --plies 4
bad "--plies needs --openings" match --engine "$fool" --engine "$fool" --plies 4
bad "--plies: expected" match --engine "$fool" --engine "$fool" --openings "$tmp/games.pgn" --plies 0
bad "--plies: the builtin openings are played whole" match --engine "$fool" --engine "$fool" --openings builtin --plies 4

# The built-in openings: as many as the usage text and docs/chess.md say, each played
# twice, all different, each a legal position (cutoff perft finds moves in it) after 6 to
# 10 plies with White to move, and with the material level.
run match --help
nbook=$(tr -s ' \n' ' ' <<<"$stdout" | grep -o -- '--openings builtin:* [0-9]* well-known' | grep -o '[0-9][0-9]*')
ndoc=$(grep -o 'a built-in set of [0-9]* mainline openings' "$(dirname "$0")/../../docs/chess.md" | grep -o '[0-9][0-9]*')
run match --engine "$fake illegal" --engine "$fake illegal" --games $((2 * ${nbook:-1})) --openings builtin --json
book=$(fens | awk 'NR % 2')
nbad=0
while IFS= read -r f; do
	read -r place side _ _ _ move <<<"$f"
	counts=""
	for p in P N B R Q K; do
		w=${place//[^$p]/}
		b=${place//[^${p,}]/}
		counts+="${#w}:${#b} "
		[ "${#w}" -eq "${#b}" ] || nbad=$((nbad + 1))
	done
	if [ "$side" != w ] || [ "$move" -lt 4 ] || [ "$move" -gt 6 ]; then
		nbad=$((nbad + 1))
		echo "# builtin opening not after 6-10 plies with white to move: $f"
	fi
	perft=$("$cutoff" perft --fen "$f" --depth 1 --json 2>&1)
	[[ $perft == *'"nodes":'[1-9]* ]] || { nbad=$((nbad + 1)) && echo "# builtin opening refused by perft: $f: $perft"; }
done <<<"$book"
if [ -n "$nbook" ] && [ "$nbook" = "$ndoc" ] && [ "$status" -eq 1 ] &&
	[ "$(fens | wc -l)" -eq $((2 * nbook)) ] && [ "$(sort -u <<<"$book" | wc -l)" -eq "$nbook" ] &&
	[ "$(fens | awk 'NR % 2 == 0')" = "$book" ] && [ "$nbad" -eq 0 ]; then
	ok "--openings builtin: $nbook openings (as the usage and docs/chess.md say), each twice, all different, legal, 6-10 plies, material level"
else
	fail "--openings builtin: usage says '$nbook', docs '$ndoc'; exit $status; $(fens | wc -l) games, $(sort -u <<<"$book" | wc -l) different; $nbad bad: $(show "$stderr")"
fi
if echo quit | "$cutoff" uci >/dev/null 2>&1; then
	run match --engine "$cutoff uci" --engine "$cutoff uci" --games 4 --openings builtin --depth 1 --max-moves 2 --json
	if [ "$status" -eq 0 ] && [[ $stdout == *'"illegal_moves":0,"time_losses":0,"crashes":0,"no_answers":0'* ]] &&
		[ "$(grep -o '"reason":"move limit (2 moves each)"' <<<"$stdout" | wc -l)" -eq 4 ]; then
		ok "cutoff uci plays from the first two built-in openings (depth 1, 2 moves each): no fault"
	else
		fail "cutoff uci from the built-in openings: exit $status: $(show "$stdout") $stderr"
	fi
fi

# fault NAME COUNT-FIELD REASON ARGS...: exit 1, the count, and the reason of game 1.
fault() {
	local what=$1 count=$2 reason=$3
	shift 3
	run match "$@" --json
	if [ "$status" -ne 1 ]; then
		fail "$what: exit $status, expected 1: $stdout $stderr"
	elif [[ $stdout != *"$count"* ]]; then
		fail "$what: no $count in $stdout"
	elif [[ $stdout != *"$reason"* ]]; then
		fail "$what: no '$reason' in $stdout"
	else
		ok "$what: exit 1, $count, '$reason'"
	fi
}
fault "illegal move (both colours; restarted between games)" '"wins":2,"draws":0,"losses":0,"score":1,"illegal_moves":2,' \
	"\"result\":\"1-0\",\"winner\":1,\"reason\":\"engine 2 (black) played an illegal move 'e2e5'" \
	--engine "$fool" --engine "$fake illegal"
fault "bestmove without a move" '"illegal_moves":1,' '"reason":"engine 2 (black) sent a bestmove without a move","fault":"illegal_move","fault_engine":2' \
	--engine "$fool" --engine "$fake empty" --games 1
fault "malformed bestmove" '"illegal_moves":1,' "engine 1 (white) played an illegal move 'zz'" \
	--engine "$fake garbage" --engine "$fool" --games 1
fault "never answers: loss on time" '"illegal_moves":0,"time_losses":1,' '"result":"1-0","winner":1,"reason":"engine 2 (black) lost on time: no bestmove within the 0.300 s it had","fault":"time"' \
	--engine "$fool" --engine "$fake silent" --games 1 --tc 0.3
fault "never answers a --depth go: no answer" '"no_answers":1' '"reason":"engine 1 (white) sent no bestmove within 1 s","fault":"no_answer"' \
	--engine "$fake silent" --engine "$fool" --games 1 --depth 3 --timeout 1
fault "exits when asked to move: crash" '"crashes":1,' '"reason":"engine 2 (black) exited with status 3 while thinking","fault":"crash"' \
	--engine "$fool" --engine "$fake exit" --games 1

run match --engine "$fool" --engine "$fake nouciok" --timeout 1
if [ "$status" -eq 1 ] && [ -z "$stdout" ] && [[ $stderr == *"engine 2"*"no 'uciok' within 1 s"* ]] &&
	[ "$(wc -l <"$tmp/err")" -eq 1 ]; then
	ok "no uciok: exit 1, one line: ${stderr%$'\n'}"
else
	fail "no uciok: exit $status: $stdout $stderr"
fi

run match --engine "$fool" --engine "$fool" --games 1 --option Hash=8 --option1 "Clear Hash" --option2 hash=4 --json
has_text '"reason":"checkmate"' "--option, --option1 (a button), --option2 (any case) accepted"

bad "--engine is required twice (got 0)" match
bad "--engine is required twice (got 1)" match --engine "$fool"
bad "--engine: given more than twice" match --engine "$fool" --engine "$fool" --engine "$fool"
bad "--engine needs a value" match --engine "$fool" --engine
bad "--engine '': expected a program" match --engine "$fool" --engine ""
bad "unterminated quote" match --engine "$fool" --engine "bash 'x"
bad "cannot run '$tmp/none'" match --engine "$fool" --engine "$tmp/none"
bad "--option2 'Threads=2': engine 2 (fake script) declares no option 'Threads'" match --engine "$fool" --engine "$fool" --option2 Threads=2
bad "--option1: expected NAME=VALUE" match --engine "$fool" --engine "$fool" --option1 =2
# Odds: each engine its own limit (--nodes1, --tc2, ...), of one kind for both. The log
# shows what each engine was asked; the JSON and the PGN name both limits.
run match --engine "$fool" --engine "$fool" --json --nodes 100 --nodes2 250 --log "$tmp/odds.log"
go1=$(grep -c ' 1> go nodes 100$' "$tmp/odds.log") go2=$(grep -c ' 2> go nodes 250$' "$tmp/odds.log")
if [ "$status" -eq 0 ] && [ "$go1" -eq 4 ] && [ "$go2" -eq 4 ] &&
	[[ $stdout == *'"mode":"nodes","nodes":100,"engines":[{"nodes":100},{"nodes":250}]'* ]]; then
	ok "--nodes 100 --nodes2 250: engine 1 asked 'go nodes 100', engine 2 'go nodes 250' (4 moves each), both in the JSON"
else
	fail "--nodes2: exit $status, $go1 and $go2 go lines: $stdout"
fi
run match --engine "$fool" --engine "$fool" --games 2 --tc1 5+0.05 --tc2 7+0.5 --log "$tmp/tcodds.log" --pgn "$tmp/tcodds.pgn"
if [ "$status" -eq 0 ] && grep -q ' 1> go wtime 5000 btime 7000 winc 50 binc 500$' "$tmp/tcodds.log" &&
	grep -q ' 2> go wtime 7000 btime 5000 winc 500 binc 50$' "$tmp/tcodds.log" &&
	grep -q '^\[WhiteTimeControl "7+0.5"\]$' "$tmp/tcodds.pgn" &&
	[[ $stdout == *$'\ntime control 1 '*' 5+0.05 s'*$'\ntime control 2 '*' 7+0.5 s'* ]]; then
	ok "--tc1 5+0.05 --tc2 7+0.5: each side's clock and increment in go, both in the report, White/BlackTimeControl in the PGN"
else
	fail "--tc1/--tc2: exit $status: $stdout $(grep ' go ' "$tmp/tcodds.log" | head -4)"
fi
bad "engine 1 would play under --nodes and engine 2 under --tc" match --engine "$fool" --engine "$fool" --nodes1 100
bad "engine 1 would play under --depth and engine 2 under --nodes" match --engine "$fool" --engine "$fool" --depth 3 --nodes2 10
bad "at most one of --tc2, --movetime2" match --engine "$fool" --engine "$fool" --tc2 1 --movetime2 5
bad "--nodes2: expected a count of at least 1" match --engine "$fool" --engine "$fool" --nodes 5 --nodes2 0
# Counts past 2^63-1, which a UCI engine cannot read (cutoff uci refuses them), are refused
# before any game (issue 43, item 10).
bad "--nodes: expected a count of at least 1 and at most 2^63-1 (9223372036854775807), got '9223372036854775808'" \
	match --engine "$fool" --engine "$fool" --nodes 9223372036854775808
bad "--nodes1: expected a count of at least 1 and at most 2^63-1" match --engine "$fool" --engine "$fool" \
	--nodes1 18446744073709551615 --nodes2 5
bad "--tc1: expected BASE or BASE+INC" match --engine "$fool" --engine "$fool" --tc1 1+x

for tc in abc 1+ 0 -1 1+x 1.2.3 .5 "1 +1" 2000000; do
	bad "--tc: expected BASE or BASE+INC" match --engine "$fool" --engine "$fool" --tc "$tc"
done
bad "at most one of --tc" match --engine "$fool" --engine "$fool" --tc 1 --depth 3
bad "--games" match --engine "$fool" --engine "$fool" --games 0
bad "--nodes" match --engine "$fool" --engine "$fool" --nodes 0
bad "--movetime" match --engine "$fool" --engine "$fool" --movetime 0
bad "--openings '$tmp/none.epd': cannot read it: No such file or directory" match --engine "$fool" --engine "$fool" --openings "$tmp/none.epd"
printf '%s\n' "4k3/8/8/8/8/8/8/4K3 w - - 0 1" "4k3/8/8/8/8/8/8/4K3 x - - 0 1" >"$tmp/bad.fen"
bad "line 2: " match --engine "$fool" --engine "$fool" --openings "$tmp/bad.fen"
printf '# nothing\n\n' >"$tmp/empty.fen"
bad "no positions in it" match --engine "$fool" --engine "$fool" --openings "$tmp/empty.fen"
bad "--pgn" match --engine "$fool" --engine "$fool" --pgn "$tmp/no/such/dir.pgn"
bad "unknown option '--bogus'" match --engine "$fool" --engine "$fool" --bogus

run match --help
if [ "$status" -eq 0 ] && [[ $stdout == usage:* ]] && [ -z "$stderr" ]; then
	ok "match --help"
else
	fail "match --help: exit $status"
fi

# --concurrency: several games at once, each slot with its own two engine processes. The
# fakes here are fake.sh's script mode with its environment set (FAKE_PIDFILE and the
# others, at the top of fake.sh).
conc() { # conc PIDFILE DELAY MOVE...: a scripted fake that logs its PID, sleeps, has Threads
	local pidfile=$1 delay=$2
	shift 2
	echo "env FAKE_PIDFILE=$pidfile FAKE_DELAY=$delay FAKE_THREADS=1 bash $tmp/fake.sh script $*"
}
# The games of the last --json run without their times (number, colours, start, result,
# reason, fault, plies, moves), one a line, then the totals.
summary() {
	grep -o '"game":[0-9]*,"white":[12],"black":[12],"fen":"[^"]*","result":"[^"]*","winner":[^,]*,"reason":"[^"]*","fault":[^,]*,\("fault_engine":[12],\)\{0,1\}"plies":[0-9]*,"moves":"[^"]*"' <<<"$stdout"
	grep -o '"totals":{[^}]*}' <<<"$stdout"
}

# Three openings, each played twice (colours reversed), the file cycled: fool's mate from
# the start (black mates), a stalemate already on the board, and a position where the
# fool's first move f2f3 is illegal (white forfeits; its engine is started again). Eight
# games at 0.1 s a move: 3 W, 2 D, 3 L for engine 1, two illegal moves, exit 1. With 2 and
# 3 slots the games end out of order (the stalemates at once, the mates after 4 moves) and
# must be recorded exactly as with one.
cat >"$tmp/conc.epd" <<'EOF'
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
7k/8/6Q1/8/8/8/8/K7 b - - 0 1
4k3/8/8/8/8/8/8/4K2R w - - 0 1
EOF
for n in 1 2 3; do
	: >"$tmp/pids$n"
	cfool=$(conc "$tmp/pids$n" 0.1 f2f3 e7e5 g2g4 d8h4)
	run match --engine "$cfool" --engine "$cfool" --games 8 --openings "$tmp/conc.epd" --concurrency $n \
		--json --pgn "$tmp/conc$n.pgn" --log "$tmp/conc$n.log"
	summary >"$tmp/summary$n"
	grep -v '^\[Date ' "$tmp/conc$n.pgn" >"$tmp/pgn$n"
	if [ "$status" -ne 1 ] || [ "$(grep -c '"game":' "$tmp/summary$n")" -ne 8 ] ||
		! grep -q '"totals":{"games":8,"wins":3,"draws":2,"losses":3,"score":0.5,"illegal_moves":2,' "$tmp/summary$n"; then
		fail "--concurrency $n: exit $status (1 expected), 8 games, 3 W 2 D 3 L, 2 illegal moves: $(show "$stdout $stderr")"
	elif [ "$n" -gt 1 ] && ! cmp -s "$tmp/summary1" "$tmp/summary$n"; then
		fail "--concurrency $n: games differ from --concurrency 1: $(diff "$tmp/summary1" "$tmp/summary$n" | head -5)"
	elif [ "$n" -gt 1 ] && ! cmp -s "$tmp/pgn1" "$tmp/pgn$n"; then
		fail "--concurrency $n: PGN differs from --concurrency 1: $(diff "$tmp/pgn1" "$tmp/pgn$n" | head -5)"
	else
		ok "--concurrency $n: 8 games, exit 1, 3 W 2 D 3 L, 2 illegal moves$([ "$n" -gt 1 ] && echo ", every game and the PGN as with --concurrency 1")"
	fi
	reaped "$tmp/pids$n" "--concurrency $n"
done
# Each opening's pair: games 2k+1 and 2k+2 from the same position, engine 1 white then black.
pairs=$(sed -n 's/^"game":\([0-9]*\),"white":\([12]\),"black":[12],"fen":"\([^"]*\)".*/\1 \2 \3/p' "$tmp/summary3" |
	awk '{ fen = $0; sub(/^[0-9]+ [12] /, "", fen)
		if ($1 % 2) { f = fen; w = $2 } else if (w == 1 && $2 == 2 && f == fen) n++ }
		END { print n + 0 }')
if [ "$pairs" -eq 4 ]; then
	ok "--concurrency 3: 4 pairs, each one opening with engine 1 white then black"
else
	fail "--concurrency 3: $pairs good pairs of 4: $(cat "$tmp/summary3")"
fi
# Which slot plays which game is the threads' race; that games 1 and 2 overlap is not.
g2_start=$(grep -n -- '-- game 2: slot [1-3],' "$tmp/conc3.log" | cut -d: -f1)
g1_end=$(grep -n -- '-- game 1: 0-1' "$tmp/conc3.log" | cut -d: -f1)
if [ "$(sort -u "$tmp/pids3" | wc -l)" -ne 8 ]; then
	fail "--concurrency 3: $(sort -u "$tmp/pids3" | wc -l) engine PIDs, expected 8 (6 engines, 2 restarts)"
elif ! grep -q ' 3:2> uci$' "$tmp/conc3.log" || ! grep -q ' [1-3]:[12]< bestmove ' "$tmp/conc3.log"; then
	fail "--concurrency 3: the log's engine lines do not name their slots: $(show "$(head -20 "$tmp/conc3.log")")"
elif [ -z "$g2_start" ] || [ -z "$g1_end" ] || [ "$g2_start" -gt "$g1_end" ]; then
	fail "--concurrency 3: game 2 did not start before game 1 ended: $(show "$(grep -- ' -- game' "$tmp/conc3.log")")"
else
	ok "--concurrency 3: 6 engine processes and 2 restarts (8 PIDs), the log tags each slot's lines, game 2 starts before game 1 ends"
fi
run match --engine "$cfool" --engine "$cfool" --games 8 --openings "$tmp/conc.epd" --concurrency 3
if [ "$(awk '$1 ~ /^[0-9]+$/ && NF > 5 { printf "%s ", $1 }' "$tmp/out")" = "1 2 3 4 5 6 7 8 " ] &&
	[[ $stdout == *$'\nconcurrency '*'3 games at once, up to 1 thread an engine'* ]]; then
	ok "--concurrency 3, text: the game lines in game order, and the concurrency line"
else
	fail "--concurrency 3, text: $(show "$stdout")"
fi

# Separate clocks: four games at once, 0.4 s a move, 2 s each on a clock without increment.
# Each side of each game uses 0.8 s (2 moves) and mates or is mated; one clock shared by
# the four games (or by an engine's games) would run out after the fifth move.
: >"$tmp/pids"
slow=$(conc "$tmp/pids" 0.4 f2f3 e7e5 g2g4 d8h4)
run match --engine "$slow" --engine "$slow" --games 4 --concurrency 4 --tc 2 --json --log "$tmp/slow.log"
first_end=$(grep -n -- '-- game [0-9]*: 0-1' "$tmp/slow.log" | head -1 | cut -d: -f1)
last_start=$(grep -n -- '-- game 4: slot [1-4],' "$tmp/slow.log" | cut -d: -f1)
if [ "$status" -eq 0 ] && [[ $stdout == *'"games":4,"wins":2,"draws":0,"losses":2,"score":0.5,"illegal_moves":0,"time_losses":0,'* ]] &&
	[ "$(grep -o '"reason":"checkmate"' <<<"$stdout" | wc -l)" -eq 4 ] &&
	[ -n "$first_end" ] && [ -n "$last_start" ] && [ "$last_start" -lt "$first_end" ]; then
	ok "four slow games at once on 2 s clocks (0.4 s a move): all four side by side, each on its own clock, no time loss"
else
	fail "slow games at once: exit $status: $(show "$stdout $stderr")"
fi
reaped "$tmp/pids" "four slow games at once"

# A stop: engine 2 plays an illegal move in every game and cannot be started again after
# it (its 3rd start exits). Two slots, one game each (engine 1 takes 0.3 s a move, so
# that slot 2 takes game 2 before slot 1 is free): games 1 and 2 are played and recorded,
# the match stops before game 3, and every engine is stopped.
: >"$tmp/pids" && : >"$tmp/pids2"
run match --engine "$(conc "$tmp/pids" 0.3 f2f3 e7e5 g2g4 d8h4)" \
	--engine "env FAKE_MAXSTARTS=2 $(conc "$tmp/pids2" 0 e2e5 e2e5)" --games 6 --concurrency 2 --json
if [ "$status" -eq 1 ] && [[ $stdout == *'"totals":{"games":2,"wins":2,"draws":0,"losses":0,"score":1,"illegal_moves":2,'* ]] &&
	[[ $stdout == *'"stopped":"an engine could not be started again after a fault"'* ]] &&
	[[ $stderr == *"engine 2"* ]]; then
	ok "--concurrency 2, an engine that cannot be started again: 2 games recorded, stopped, exit 1"
else
	fail "--concurrency 2 stop: exit $status: $(show "$stdout $stderr")"
fi
cat "$tmp/pids2" >>"$tmp/pids"
reaped "$tmp/pids" "--concurrency 2, stopped"

# The unfair-clock warning: N games at once times the most Threads an engine is given,
# against the CPUs this process may use (nproc follows the affinity mask, as the referee).
cpus=$(nproc)
cfast=$(conc "$tmp/pids" 0 f2f3 e7e5 g2g4 d8h4)
unfair() { # unfair yes|no ARGS...: a warning on stderr and "unfair_clock" as expected
	local want=$1 flag=false warned=no
	shift
	run match --engine "$cfast" --engine "$cfast" --games 2 --json "$@"
	[[ $stderr == *"warning: "*"the clocks are unfair"* ]] && warned=yes
	[ "$want" = yes ] && flag=true
	if [ "$status" -eq 0 ] && [ "$warned" = "$want" ] && [[ $stdout == *"\"unfair_clock\":$flag"* ]]; then
		ok "$* on $cpus CPUs: warning $want, \"unfair_clock\":$flag"
	else
		fail "$* on $cpus CPUs: exit $status, warning expected: $want: $(show "$stdout $stderr")"
	fi
}
unfair yes --concurrency 2 --option Threads="$cpus"
unfair no --concurrency 1 --option Threads="$cpus"
unfair yes --concurrency 2 --option2 Threads="$cpus"
unfair yes --concurrency 1 --option1 Threads=$((cpus + 1))
# The last Threads an engine is sent is the one it uses.
unfair no --concurrency 1 --option Threads=$((cpus * 4)) --option1 Threads=1 --option2 Threads=1
run match --engine "$cfast" --engine "$cfast" --games 2 --concurrency 2 --option Threads="$cpus"
if [[ $stdout == *$'\nconcurrency '*"2 games at once, up to $cpus thread"*"the clocks are unfair"* ]]; then
	ok "text report: the clocks are unfair"
else
	fail "text report, unfair clocks: $(show "$stdout")"
fi
for n in 0 257 x; do
	bad "--concurrency: expected an integer in 1..256" match --engine "$fool" --engine "$fool" --concurrency $n
done

# Real games. Their moves and endings are judged strictly (no illegal move, no fault, every
# game over by the rules); their times are not, since ctest runs tests side by side and a
# sanitizer build is several times slower: the games on a clock get --margin 2000, so
# that only an engine that ignores its clock (seconds late) loses on time. The tight
# clocks are bench/uci-games.sh's.
ended_by_rules() { # every game of the last --json run ended by the rules
	local reasons
	reasons=$(grep -o '"reason":"[^"]*"' <<<"$stdout")
	[ -n "$reasons" ] && ! grep -Evq '"reason":"(checkmate|stalemate|threefold repetition|fifty-move rule|insufficient material)"' <<<"$reasons"
}
if echo quit | "$cutoff" uci >/dev/null 2>&1; then
	run match --engine "$cutoff uci" --engine "$cutoff uci" --games 2 --depth 3 --json
	if [ "$status" -eq 0 ] && [[ $stdout == *'"illegal_moves":0,"time_losses":0,"crashes":0,"no_answers":0'* ]] &&
		[[ $stdout == *'"games":2,'* ]] && ended_by_rules; then
		ok "cutoff uci against itself, 2 games at depth 3: no illegal move, no fault, each over by the rules ($(grep -o '"reason":"[^"]*"' <<<"$stdout" | tr '\n' ' '))"
	else
		fail "cutoff uci against itself at depth 3: exit $status: $stdout $stderr"
	fi
	run match --engine "$cutoff uci" --engine "$cutoff uci" --games 2 --tc 0.5+0.01 --margin 2000 \
		--max-moves 60 --option1 Threads=2 --option1 Algorithm=ybw --json
	if [ "$status" -eq 0 ] && [[ $stdout == *'"illegal_moves":0,"time_losses":0,"crashes":0,"no_answers":0'* ]] &&
		[[ $stdout == *'"games":2,'* ]]; then
		ok "cutoff uci (ybw, 2 threads) against cutoff uci on a clock of 0.5+0.01 (margin 2 s, at most 60 moves): no illegal move, no fault"
	else
		fail "cutoff uci against itself on a clock: exit $status: $stdout $stderr"
	fi
	# An engine that reports an error instead of searching loses that game, in the report
	# and the exit status (issue 43, item 10): cutoff uci refuses `go depth 200` (its
	# depths are 1..127) with an 'info string error' and its first legal move unsearched.
	run match --engine "$cutoff uci" --engine "$cutoff uci" --games 2 --depth 200 --json
	why="reported an error instead of searching (go: depth: expected an integer in 1..127, got '200')"
	if [ "$status" -eq 1 ] && [[ $stdout == *'"no_answers":0,"engine_errors":2'* ]] &&
		[[ $stdout == *"\"reason\":\"engine 1 (white) $why\",\"fault\":\"engine_error\",\"fault_engine\":1"* ]] &&
		[[ $stdout == *"\"reason\":\"engine 2 (white) $why\",\"fault\":\"engine_error\",\"fault_engine\":2"* ]]; then
		ok "cutoff uci told go depth 200: each game lost by the engine to move, exit 1, \"engine_errors\":2"
	else
		fail "cutoff uci told go depth 200: exit $status: $(show "$stdout") $stderr"
	fi
	run match --engine "$cutoff uci" --engine "$cutoff uci" --games 1 --depth 200
	if [ "$status" -eq 1 ] && [[ $stdout == *$'\nengine errors         1 (engine 1 1, engine 2 0)\n'* ]] &&
		[[ $stdout == *"0-1 "*"engine 1 (white) $why"* ]]; then
		ok "cutoff uci told go depth 200: the text report counts the engine error and gives the reason"
	else
		fail "cutoff uci told go depth 200, text: exit $status: $(show "$stdout")"
	fi
else
	echo "skip - 'cutoff uci' is not available: no real games"
fi

stockfish=$(command -v stockfish || true)
[ -z "$stockfish" ] && [ -x /usr/games/stockfish ] && stockfish=/usr/games/stockfish
if [ -n "$stockfish" ]; then
	run match --engine "$stockfish" --engine "$stockfish" --games 1 --tc 0.5+0.01 --margin 2000 \
		--max-moves 30 --option Hash=4 --json
	if [ "$status" -eq 0 ] && [[ $stdout == *'"illegal_moves":0,"time_losses":0,"crashes":0,"no_answers":0'* ]]; then
		ok "Stockfish against itself, 1 game at 0.5+0.01 (margin 2 s, at most 30 moves): no fault"
	else
		fail "Stockfish game: exit $status: $stdout $stderr"
	fi
else
	echo "skip - Stockfish is not installed"
fi

report
