#!/bin/bash
# SPDX-License-Identifier: MIT
# solve.sh CUTOFF — `cutoff search --solve` from the command line: the game with passes
# solved with no depth (its value is its oracle's, the report says solved), by iterative
# deepening too, under the parallel drivers; --solve off without a depth and the game's
# options on another game are refused with a message and exit 2; Connect Four's weak
# solve of 3246313 with no depth is solved as a loss (<= -1).
set -u
# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run and the counters (lib.bash).
. "$(dirname "$0")/lib.bash"

field() { # field NAME: the value of a text report's line "NAME   value"
	sed -n "s/^$1  *//p" "$tmp/out" | head -1
}

for args in "" "--iterate on" "--algo ybw --threads 3" "--algo lazysmp --threads 4" \
	"--algo mtdf" "--hash 0"; do
	for seed in 1 7; do
		# shellcheck disable=SC2086
		run search --game pgame --cells 12 --seed $seed $args
		oracle=$(field oracle | sed 's/^value \(-\{0,1\}[0-9]*\),.*/\1/')
		value=$(field value | sed 's/^\(-\{0,1\}[0-9]*\) .*/\1/')
		solved=$(field solved)
		if [ $status -eq 0 ] && [ -n "$oracle" ] && [ "$value" = "$oracle" ] &&
			[[ $solved == yes* ]]; then
			ok "pgame seed $seed $args: value $value is the oracle's, solved"
		else
			fail "pgame seed $seed $args: status $status value '$value' oracle '$oracle' solved '$solved': $(show "$stderr")"
		fi
	done
done

run search --game pgame --solve off
if [ $status -eq 2 ] && one_line "$stderr" && [[ $stderr == *--depth* ]]; then
	ok "pgame with --solve off and no depth: refused, exit 2, one line naming --depth"
else
	fail "pgame --solve off: status $status, $(show "$stderr")"
fi
run search --game chess --cells 4
if [ $status -eq 2 ] && one_line "$stderr" && [[ $stderr == *--cells* ]]; then
	ok "--cells on chess: refused, exit 2"
else
	fail "--cells on chess: status $status, $(show "$stderr")"
fi
run search --game pgame --cells 23
if [ $status -eq 2 ] && one_line "$stderr" && [[ $stderr == *--cells* ]]; then
	ok "--cells 23: refused, exit 2"
else
	fail "--cells 23: status $status, $(show "$stderr")"
fi

run search --game connect4 --moves 3246313 --window -1,1 --solve on
value=$(field value | sed 's/^\(-\{0,1\}[0-9]*\) .*/\1/')
if [ $status -eq 0 ] && [[ $(field solved) == yes* ]] && [ -n "$value" ] && [ "$value" -le -1 ]; then
	ok "connect4 3246313 weak solve with no depth: solved, value $value"
else
	fail "connect4 solve: status $status value '$value' solved '$(field solved)'"
fi

report
