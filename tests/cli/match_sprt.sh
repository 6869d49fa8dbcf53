#!/bin/bash
# SPDX-License-Identifier: MIT
# match_sprt.sh CUTOFF — `cutoff match --sprt` stops on its own, with the right decision,
# against fake engines whose results are drawn from a known distribution.
#
# The fake engines (fake.sh ENGINE SCHEDULE) read the outcome of game k, from engine 1's
# side, from line k of SCHEDULE: 1 a win, = a draw, 0 a loss. Both engines of a match read
# the same file and count the games by the ucinewgame they are sent; engine 1 has white in
# odd games (the referee's rule), so each knows which colour is to win, and plays its half
# of a line that ends so: 1.e4 f6 2.d4 g5 3.Qh5# for white, 1.f3 e5 2.g4 Qh4# for black,
# and the knights' dance that repeats the start position a third time for a draw. So the
# match's results are the schedule's, game for game.
#
# The schedules are drawn with bash's $RANDOM from a fixed seed, game by game, independently:
#   better  engine 1 wins 60 %, draws 20 %, loses 20 % (score 0.70: about +147 Elo)
#   equal   35 % / 30 % / 35 % (score 0.50: 0 Elo)
# and --sprt 0,50 (logistic Elo, alpha = beta = 0.05) must accept H1 for the first and H0
# for the second before --games 1000, the bound; the match's JSON must say so (decision,
# an LLR beyond the bound it names), the text report's SPRT line too, and a progress line
# must come on stderr after each pair. Also: the results of the JSON are the schedule's;
# an undecided test ends at --games with "continue"; bad --sprt values are usage errors
# (exit 2, one line); --sprt-elo normalized decides the better engine too.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"

cat >"$tmp/fake.sh" <<'EOF'
me=$1 # 1 or 2
schedule=$2
mapfile -t outcome <"$schedule"
white_wins=(e2e4 f7f6 d2d4 g7g5 d1h5)
black_wins=(f2f3 e7e5 g2g4 d8h4)
draw=(g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3)
game=-1
pos=""
while IFS= read -r line; do
	case $line in
	uci) echo "id name fake $me" && echo "uciok" ;;
	isready) echo "readyok" ;;
	ucinewgame) game=$((game + 1)) ;;
	position*) pos=$line ;;
	go*)
		n=0
		if [[ $pos == *" moves "* ]]; then
			read -r -a played <<<"${pos#* moves }"
			n=${#played[@]}
		fi
		# engine 1 has white in games 0, 2, ...: the winner's colour from the outcome
		case ${outcome[$game]} in
		1) winner=$((game % 2)) ;;       # engine 1's colour: 0 white
		0) winner=$((1 - game % 2)) ;;   # engine 2's
		*) winner=draw ;;
		esac
		case $winner in
		0) echo "bestmove ${white_wins[$n]}" ;;
		1) echo "bestmove ${black_wins[$n]}" ;;
		*) echo "bestmove ${draw[$n]}" ;;
		esac
		;;
	quit) exit 0 ;;
	esac
done
EOF

# schedule FILE SEED WIN% DRAW%: 1000 outcomes, drawn independently.
schedule() {
	local file=$1 win=$3 drawn=$4 r
	RANDOM=$2
	: >"$file"
	for ((k = 0; k < 1000; k++)); do
		r=$((RANDOM % 100))
		if [ "$r" -lt "$win" ]; then
			echo 1
		elif [ "$r" -lt $((win + drawn)) ]; then
			echo =
		else
			echo 0
		fi
	done >>"$file"
}

# sprt NAME SCHEDULE EXPECTED [ARGS...]: a match on SCHEDULE with --sprt 0,50 that must
# stop with EXPECTED (H0 or H1) before the 1000 games.
sprt() {
	local name=$1 sched=$2 want=$3
	shift 3
	run match --engine "bash $tmp/fake.sh 1 $sched" --engine "bash $tmp/fake.sh 2 $sched" \
		--games 1000 --depth 1 --sprt 0,50 --json "$@"
	local json=$stdout progress=$stderr
	if [ "$status" -ne 0 ]; then
		fail "$name: exit $status: $(show "$stderr")"
		return
	fi
	local games decision llr lower upper
	games=$(grep -o '"totals":{"games":[0-9]*' <<<"$json" | grep -o '[0-9]*$')
	decision=$(grep -o '"decision":"[A-Za-z0-9]*"' <<<"$json" | cut -d'"' -f4)
	llr=$(grep -o '"llr":[-0-9.e]*' <<<"$json" | cut -d: -f2)
	lower=$(grep -o '"lower":[-0-9.e]*' <<<"$json" | cut -d: -f2)
	upper=$(grep -o '"upper":[-0-9.e]*' <<<"$json" | cut -d: -f2)
	if [ "$decision" != "$want" ]; then
		fail "$name: decision '$decision', expected $want (games $games, LLR $llr)"
	elif [ -z "$games" ] || [ "$games" -ge 1000 ] || [ $((games % 2)) -ne 0 ]; then
		fail "$name: stopped after '$games' games, expected an even number below 1000"
	elif ! awk -v l="$llr" -v lo="$lower" -v hi="$upper" -v w="$want" \
		'BEGIN { exit !(w == "H1" ? l >= hi : l <= lo) }'; then
		fail "$name: LLR $llr is not beyond the bound of $want ($lower, $upper)"
	elif [[ $json != *'"stopped":"SPRT: '"$want"' accepted after '"$games"' games"'* ]]; then
		fail "$name: the JSON does not say why it stopped: $(show "$json")"
	elif [ "$(grep -c '^cutoff match: [0-9]* games .*LLR' <<<"$progress")" -ne $((games / 2)) ]; then
		fail "$name: expected $((games / 2)) progress lines on stderr, got: $(show "$progress")"
	else
		ok "$name: $want accepted after $games games, LLR $llr (bounds $lower, $upper)"
	fi
	# The results are the schedule's, game for game.
	local w d l
	w=$(head -n "$games" "$sched" | grep -c '^1$')
	d=$(head -n "$games" "$sched" | grep -c '^=$')
	l=$(head -n "$games" "$sched" | grep -c '^0$')
	if [[ $json == *"\"wins\":$w,\"draws\":$d,\"losses\":$l,"* ]]; then
		ok "$name: $w wins, $d draws, $l losses, as scheduled"
	else
		fail "$name: the results are not the schedule's ($w, $d, $l): $(show "$json")"
	fi
}

schedule "$tmp/better" 17 60 20
schedule "$tmp/equal" 17 35 30
sprt "a clearly better engine 1 (+147 Elo)" "$tmp/better" H1
sprt "equal engines" "$tmp/equal" H0
sprt "a clearly better engine 1, normalized Elo" "$tmp/better" H1 --sprt-elo normalized

# --games is the most a test plays: undecided after 10 games, it reports "continue".
run match --engine "bash $tmp/fake.sh 1 $tmp/equal" --engine "bash $tmp/fake.sh 2 $tmp/equal" \
	--games 10 --depth 1 --sprt 0,50 --json
if [ "$status" -eq 0 ] && [[ $stdout == *'"totals":{"games":10,'* ]] &&
	[[ $stdout == *'"decision":"continue"'* ]] && [[ $stdout == *'"stopped":null'* ]]; then
	ok "undecided within --games 10: 10 games played, decision continue, not stopped"
else
	fail "undecided within --games 10: exit $status, $(show "$stdout")"
fi

# The text report names the test and its decision.
run match --engine "bash $tmp/fake.sh 1 $tmp/better" --engine "bash $tmp/fake.sh 2 $tmp/better" \
	--games 1000 --depth 1 --sprt 0,50,0.05,0.05
if [ "$status" -eq 0 ] && [[ $stdout == *"SPRT"*"elo0 0, elo1 50 (logistic Elo"*"H1 accepted"* ]] &&
	[[ $stdout == *"Elo (pairs)"* ]] && [[ $stdout == *"pairs "*"0: "*", 2: "* ]]; then
	ok "the text report has the pairs, their Elo and the SPRT's decision"
else
	fail "the text report lacks the SPRT or the pairs: $(show "$stdout")"
fi

# Bad values: exit 2 and one line naming the option.
for bad in "" "10" "10,0" "0,10,0.5,0.6" "0,10,1,0.05" "a,b" "0,10,0.05" "0,10,0.05,0.05,1" "nan,10"; do
	run match --engine "bash $tmp/fake.sh 1 $tmp/better" --engine "bash $tmp/fake.sh 2 $tmp/better" \
		--games 10 --depth 1 --sprt "$bad"
	if [ "$status" -eq 2 ] && [[ $stderr == *"--sprt"* ]] && one_line "$stderr" && [ -z "$stdout" ]; then
		ok "--sprt '$bad' -> exit 2: ${stderr%$'\n'}"
	else
		fail "--sprt '$bad': exit $status, stderr $(show "$stderr")"
	fi
done
run match --engine "bash $tmp/fake.sh 1 $tmp/better" --engine "bash $tmp/fake.sh 2 $tmp/better" \
	--games 10 --depth 1 --sprt-elo normalized
if [ "$status" -eq 2 ] && [[ $stderr == *"--sprt-elo needs --sprt"* ]]; then
	ok "--sprt-elo without --sprt -> exit 2"
else
	fail "--sprt-elo without --sprt: exit $status, $(show "$stderr")"
fi

report
