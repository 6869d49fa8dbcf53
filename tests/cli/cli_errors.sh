#!/bin/bash
# SPDX-License-Identifier: MIT
# cli_errors.sh CUTOFF — checks the `cutoff` command's handling of its command line.
#
# Bad invocations must exit non-zero, print exactly one line on stderr that names the
# offending option or value, and print nothing on stdout; an input file that cannot be
# read (missing, a directory, a read error, no permission) exits 2 for every command that
# reads one (solve, epd, match, bench). Good ones must exit 0 and print the known figures;
# every --json output must be one JSON document (checked with `python3 -m json.tool` when
# python3 is there). The figures are oracles, not snapshots:
#   549946 nodes   a full negamax of tic-tac-toe from the empty board (every position the
#                  search visits, the root included; the classic count)
#   18297 nodes    fail-soft alpha-beta over the same tree, moves in square order
#   431 leaves     Knuth and Moore's minimal tree for b = d = 6, 6^3 + 6^3 - 1, which
#                  alpha-beta reads exactly when the best move always comes first
#   2 passes       MTD(f) started at the true value: one pass fails high at it, one fails
#                  low just above it
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"

# good_help ARGS...: usage on stdout, nothing on stderr, exit 0.
good_help() {
	run "$@"
	if [ "$status" -eq 0 ] && [ -z "$stderr" ] && [[ $stdout == usage:* ]]; then
		ok "cutoff $* prints its usage"
	else
		fail "cutoff $* -> exit $status, stdout: $(show "$stdout"), stderr: $(show "$stderr")"
	fi
}

# --- the top level ---------------------------------------------------------------------
bad "foo" foo
bad "unknown command" foo
bad "missing command"
bad "'--frobnicate'" --frobnicate
bad "'foo'" help foo
good_help --help
good_help help
good_help help tree
good_help search --help
good_help tree --help
good_help version --help
run --help
if [[ $stdout == *$'\n  search '* && $stdout == *$'\n  tree '* && $stdout == *$'\n  version '* ]]; then
	ok "cutoff --help lists search, tree and version"
else
	fail "cutoff --help does not list the commands: $(show "$stdout")"
fi
run version
if [ "$status" -eq 0 ] && [[ $stdout =~ ^cutoff\ [0-9]+\.[0-9]+\.[0-9]+$'\n'$ ]]; then
	ok "cutoff version prints the version"
else
	fail "cutoff version -> exit $status: $(show "$stdout")"
fi
bad "'--x'" version --x

# --- search: bad command lines -----------------------------------------------------------
startfen='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
bad "'go'" search --game go
bad "--game" search --game go
bad "--fen" search --fen x
bad "--fen is not an option of --game ttt" search --fen 8/8/8/8/8/8/8/8
bad "--position and --fen" search --game chess --position "$startfen" --fen "$startfen"
bad "--moves" search --game chess --moves 4
bad "--seed" search --game connect4 --seed 3
bad "kings" search --game chess --fen '8/8/8/8/8/8/8/8 w - - 0 1'
bad "--position" search --game chess --position 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1'
bad "'8'" search --game connect4 --moves 448
bad "--position" search --game connect4 --position 4444444
bad "'abc'" search --game rtree --seed abc
bad "'-1'" search --game rtree --seed -1
bad "cutoff search: --seed: expected an integer" search --game rtree --seed -1
bad "cutoff search: --seed: expected an integer" search --game pgame --seed x
bad "'44'" search --game connect4 --depth 44
bad "1..43" search --game connect4 --depth 44
bad "'31'" search --game rtree --depth 31
bad "'128'" search --game chess --depth 128
bad "--branching" search --game chess --branching 4
bad "--model" search --game connect4 --model iid
bad "'1'" search --game rtree --branching 1
bad "'65'" search --game rtree --branching 65
bad "'3,3'" search --game connect4 --window 3,3
bad "'5,2'" search --window 5,2
bad "'1'" search --window 1
bad "'a,b'" search --window a,b
bad "'1,32001'" search --window 1,32001
bad "'1,2,3'" search --window 1,2,3
bad "'maybe'" search --iterate maybe
bad "'0'" search --time 0
bad "'xyz'" search --game chess --pruning xyz
bad "'foo'" search --algo foo
bad "--algo" search --algo foo
bad "'abc'" search --depth abc
bad "'12x'" search --depth 12x
bad "--depth" search --depth ''
bad "--depth" search --depth=
bad "'-'" search --depth -
bad "'-3'" search --depth -3
bad "'0'" search --depth 0
bad "'10'" search --depth 10
bad "'99999999999999999999'" search --depth 99999999999999999999
bad "' 5'" search --depth ' 5'
bad "--depth needs a value" search --depth
bad "--depth needs a value" search --depth --json
bad "'--foo'" search --foo
bad "'--foo'" search --foo=3
bad "'-x'" search -x
bad "'stray'" search stray
bad "'stray'" search --json stray
bad "--json" search --json=yes
bad "--hash" search --hash 65537
bad "'-1'" search --hash -1
bad "'1.5'" search --hash 1.5
bad "'xx'" search --position xx
bad "--position" search --position ''
bad "'xxxxxxxxxx'" search --position xxxxxxxxxx
bad "'xoxzooxxx'" search --position xoxzooxxx
bad "'xxxxxxxxx'" search --position xxxxxxxxx
bad "'oo.......'" search --position oo.......
bad "'xxxooo...'" search --position xxxooo...
bad "--position" search --position "$(printf 'x\no.......')"
bad "--position needs a value" search --position
bad "'spread'" search --algo spread
bad "'ybw/foo'" search --algo ybw/foo
bad "'foo/pvs'" search --algo foo/pvs
bad "'pvs/ybw'" search --algo pvs/ybw
bad "'ybw/'" search --algo ybw/
bad "'/pvs'" search --algo /pvs
bad "'ybw/pvs/x'" search --algo ybw/pvs/x
bad "DRIVER/ALGO" search --algo lazy
bad "'0'" search --threads 0
bad "'2000'" search --threads 2000
bad "--threads" search --threads 1025
bad "--threads needs a value" search --threads
bad "'spread'" search --placement spread
bad "--placement" search --placement ''
bad "'0'" search --min-split 0
bad "'129'" search --min-split 129
bad "'0'" search --max-helpers 0
bad "'1025'" search --max-helpers 1025

# --- tree: bad command lines ---------------------------------------------------------------
bad "'sideways'" tree --order sideways
bad "'quick'" tree --algo quick
bad "'0'" tree --branching 0
bad "'65'" tree --branching 65
bad "'-6'" tree --branching -6
bad "'31'" tree --depth 31
bad "'-1'" tree --depth -1
bad "'6x'" tree --depth 6x
bad "'0'" tree --trees 0
bad "'1000001'" tree --trees 1000001
bad "'-1'" tree --seed -1
bad "'18446744073709551616'" tree --seed 18446744073709551616
bad "'+1'" tree --seed +1
bad "--seed" tree --seed ''
# The seeds S..S+N-1 are a plain range: one that would pass 2^64-1 is refused.
bad "--seed 18446744073709551615 with --trees 3: the seeds S..S+N-1 would pass 2^64-1" \
	tree --seed 18446744073709551615 --trees 3
bad "use --seed at most 18446744073709551605" tree --seed 18446744073709551610 --trees 11
bad "'maybe'" tree --guess maybe
bad "'True'" tree --guess True
bad "'99999'" tree --guess 99999
bad "--guess needs a value" tree --guess
bad "'40000'" tree --min 40000
bad "'-40000'" tree --max -40000
bad "--min 5" tree --min 5 --max 3
bad "--hash" tree --hash 1e3
bad "--branching 64" tree --branching 64 --depth 30
bad "--algo minimax" tree --algo minimax --branching 10 --depth 10
bad "--order worst" tree --order worst --branching 10 --depth 9
bad "'--size'" tree --size 3
bad "'6'" tree 6
bad "'fast'" tree --algo fast
bad "'ybw/foo'" tree --algo ybw/foo
bad "'foo/pvs'" tree --algo foo/pvs
bad "'0'" tree --threads 0
bad "'2000'" tree --threads 2000
bad "'spread'" tree --placement spread
bad "'0'" tree --min-split 0
bad "'x'" tree --max-helpers x

# --- search: the figures -------------------------------------------------------------------
# The other games: values known by hand, and Connect Four's weak solve through its window.
if good_json "search chess mate in 1" search --game chess --fen '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1' --depth 3 --json; then
	has best_move '"a1a8"' "back-rank mate in 1"
	has bound '"exact"' "back-rank mate in 1"
	has value 30999 "back-rank mate in 1 (CUTOFF_WIN - 1: mate at ply 1)"
fi
if good_json "search chess stalemate" search --game chess --fen '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1' --json; then
	has terminal true "stalemate"
	has value 0 "stalemate"
	has best_move null "stalemate"
fi
if good_json "search connect4 weak window" search --game connect4 --moves 32751571231557 --window -1,1 --etc-min-depth 10 --json; then
	solve=$("$cutoff" solve --game connect4 --moves 32751571231557 --weak --algo pvs --json)
	n=$(grep -o '"nodes":[0-9]*' <<<"$solve" | head -n 1 | cut -d: -f2)
	has nodes "$n" "connect4 --window -1,1 --etc-min-depth 10 (the nodes of solve --weak --algo pvs, whose default it is)"
	has value -1 "connect4 Test_L1_R2 line 1 (score -3: lost)"
fi
if good_json "search connect4 full window" search --game connect4 --moves 2252576253462244111563365343671351441 --algo ybw --threads 2 --json; then
	has value -1 "connect4 Test_L3_R1 line 1, full window, ybw on 2 threads (Pons' score -1)"
	has bound '"exact"' "connect4 full window"
fi
want=$("$cutoff" search --game rtree --seed 7 --depth 6 --branching 5 --model iid --algo minimax --iterate off --json |
	grep -o '"value":[-0-9]*' | head -n 1 | cut -d: -f2)
if good_json "search rtree" search --game rtree --seed 7 --depth 6 --branching 5 --model iid --algo lazysmp --threads 3 --json; then
	has value "$want" "rtree seed 7: lazysmp on 3 threads = minimax ($want)"
fi
if good_json "search ttt minimax --json" search --game ttt --algo minimax --json; then
	has nodes 549946 "ttt minimax"
	has value 0 "ttt minimax"
	has bound '"exact"' "ttt minimax"
fi
if good_json "search ttt alphabeta --json" search --game ttt --algo alphabeta --json; then
	has nodes 18297 "ttt alphabeta"
	has value 0 "ttt alphabeta"
fi
for algo in pvs mtdf; do
	if good_json "search ttt $algo --json" search --game ttt --algo $algo --json; then
		has value 0 "ttt $algo"
		has bound '"exact"' "ttt $algo"
	fi
done
if good_json "search of a won position" search --position xx.oo.... --algo alphabeta --json; then
	has value 1 "x to move wins at once"
	has best_move 2 "x to move wins at once"
fi
if good_json "search of a finished game" search --position xxxoo.... --json; then
	has best_move null "finished game"
	has value -1 "finished game"
	has terminal true "finished game"
fi
run search --position xxxoo....
if [ "$status" -eq 0 ] && [[ $stdout == *"game is over"* ]]; then
	ok "search of a finished game says there is no move"
else
	fail "search of a finished game -> exit $status: $(show "$stdout")"
fi
if good_json "search ybw --threads 2 --json" search --algo ybw --threads 2 --json; then
	has value 0 "ybw/pvs on 2 threads"
	has bound '"exact"' "ybw/pvs on 2 threads"
	has algo '"ybw/pvs"' "ybw/pvs on 2 threads"
	has driver '"ybw"' "ybw/pvs on 2 threads"
	has threads 2 "ybw/pvs on 2 threads"
	re='"per_thread":\[\{"thread":0,[^{}]*\},\{"thread":1,[^{}]*\}\]'
	if [[ $stdout =~ $re ]]; then
		ok "ybw/pvs on 2 threads: per_thread has 2 entries"
	else
		fail "ybw/pvs on 2 threads: expected a per_thread array of 2 in: $(show "$stdout")"
	fi
fi
if good_json "search serial/alphabeta --json" search --algo serial/alphabeta --json; then
	has nodes 18297 "serial/alphabeta"
	has algo '"alphabeta"' "serial/alphabeta"
	has driver '"serial"' "serial/alphabeta"
	has threads 1 "serial/alphabeta"
fi
if good_json "search minimax --threads 3 --json" search --algo minimax --threads 3 --json; then
	has nodes 549946 "serial minimax on 3 threads (the others only clear the table)"
fi
run search --algo minimax
if [ "$status" -eq 0 ] && [ -z "$stderr" ] && [[ $stdout =~ $'\n'nodes\ +549946$'\n' ]]; then
	ok "search text report shows 549946 nodes"
else
	fail "search text report -> exit $status: $(show "$stdout")"
fi

# --- tree: the figures ---------------------------------------------------------------------
if good_json "tree --order best --json" tree --order best --algo alphabeta --json; then
	has leaves_mean 431 "alpha-beta on best-ordered b=d=6 trees"
	has leaves_min 431 "alpha-beta on best-ordered b=d=6 trees"
	has leaves_max 431 "alpha-beta on best-ordered b=d=6 trees"
	has minimal_tree 431 "b=d=6"
	has mismatches 0 "alpha-beta, best order"
fi
if good_json "tree mtdf --guess true --json" tree --algo mtdf --guess true --json; then
	has passes_mean 2 "MTD(f) with a perfect guess"
	has mismatches 0 "MTD(f) with a perfect guess"
fi
for algo in minimax alphabeta pvs mtdf; do
	for order in natural worst; do
		if good_json "tree --algo $algo --order $order --depth 5 --json" \
			tree --algo $algo --order $order --depth 5 --trees 5 --json; then
			has mismatches 0 "$algo, $order order"
		fi
	done
done
if good_json "tree --algo ybw --threads 4 --json" tree --algo ybw --threads 4 --json; then
	has mismatches 0 "ybw/pvs on 4 threads"
	has algo '"ybw/pvs"' "ybw/pvs on 4 threads"
	has threads 4 "ybw/pvs on 4 threads"
fi
if good_json "tree --algo lazysmp --threads 3 --json" tree --algo lazysmp --threads 3 --json; then
	has mismatches 0 "lazysmp/pvs on 3 threads"
	has driver '"lazysmp"' "lazysmp/pvs on 3 threads"
fi
if good_json "tree --order best --algo serial/alphabeta --json" \
	tree --order best --algo serial/alphabeta --json; then
	has leaves_mean 431 "serial/alphabeta on best-ordered b=d=6 trees"
fi
run tree --seed 18446744073709551613 --trees 3 --depth 4
if [ "$status" -eq 0 ] && [ -z "$stderr" ] &&
	[[ $stdout == *"(seeds 18446744073709551613..18446744073709551615)"* ]]; then
	ok "tree --seed 2^64-3 --trees 3: seeds up to 2^64-1, the last one allowed"
else
	fail "tree --seed 2^64-3 --trees 3 -> exit $status: $(show "$stdout$stderr")"
fi
run tree --trees 3
if [ "$status" -eq 0 ] && [ -z "$stderr" ] && [[ $stdout =~ $'\n'mismatches\ +0$'\n' ]]; then
	ok "tree text report shows no mismatches"
else
	fail "tree text report -> exit $status: $(show "$stdout")"
fi

# --- ttbench: bad command lines, and one short run -----------------------------------------
bad "'0'" ttbench --threads 0
bad "--threads" ttbench --threads 1025
bad "'65537'" ttbench --mb 65537
bad "'0.05'" ttbench --seconds 0.05
bad "'1e3'" ttbench --seconds 1e3
bad "--seconds" ttbench --seconds 601
bad "--keys" ttbench --keys 0
bad "--keys needs a value" ttbench --keys
good_help ttbench --help
if good_json "ttbench --json" ttbench --threads 2 --mb 1 --seconds 0.1 --json; then
	has threads 2 "ttbench"
	has corrupt_hits 0 "ttbench"
fi

# --- match --tc: the accepted range in the message ----------------------------------------
# (The engines exit at once: a --tc taken by mistake fails fast instead of playing.)
for tc in 0 1000001 1000000.5 1+1000001 1e9; do
	bad "BASE above 0 and INC from 0, each at most 1000000 s with at most 9 decimals, got '$tc'" \
		match --engine false --engine false --tc "$tc"
done

# --- more threads than CPUs: one warning on stderr (search, tree, solve, epd) -------------
# Run pinned to one CPU of those this test may use (taskset), so that 2 threads exceed it
# on any machine. Not from uci (its stdout is the protocol; the referee warns for matches)
# nor from bench (it sweeps thread counts on purpose). run moves the warning into
# $threads_warning (lib.bash).
cpu=$(taskset -pc $$ 2>/dev/null | sed -n 's/.*: *\([0-9]*\).*/\1/p')
if [ -n "$cpu" ] && taskset -c "$cpu" true 2>/dev/null; then
	# pinned ARGS...: run, on CPU $cpu alone.
	pinned() {
		local saved=$cutoff
		cutoff=taskset
		run -c "$cpu" "$saved" "$@"
		cutoff=$saved
	}
	printf '%s\n' '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "mate";' >"$tmp/one.epd"
	want="warning: --threads 2 exceeds the 1 CPU this process may run on"
	for cmd in "search --game rtree --depth 5" "tree --trees 2 --algo ybw" \
		"solve --moves 2252576253462244111563365343671351441 --algo ybw" \
		"epd --file $tmp/one.epd --depth 2"; do
		set -- $cmd
		pinned "$@" --threads 2
		if [ "$status" -eq 0 ] && [ -z "$stderr" ] && one_line "$threads_warning" &&
			[[ $threads_warning == "cutoff $1: $want"* ]]; then
			ok "$1 --threads 2 on 1 CPU: one warning ($(show "$threads_warning"))"
		else
			fail "$1 --threads 2 on 1 CPU -> exit $status, warning '$(show "$threads_warning")', stderr: $(show "$stderr")"
		fi
		pinned "$@" --threads 1
		if [ "$status" -eq 0 ] && [ -z "$threads_warning$stderr" ]; then
			ok "$1 --threads 1 on 1 CPU: no warning"
		else
			fail "$1 --threads 1 on 1 CPU -> exit $status: $(show "$threads_warning$stderr")"
		fi
	done
	pinned uci <<<$'setoption name Threads value 2\nisready\ngo depth 2\nquit'
	if [ "$status" -eq 0 ] && [ -z "$threads_warning$stderr" ] && [[ $stdout == *$'\nbestmove '* ]]; then
		ok "uci with Threads 2 on 1 CPU: nothing on stderr"
	else
		fail "uci with Threads 2 on 1 CPU -> exit $status: $(show "$threads_warning$stderr")"
	fi
else
	echo "skip - more threads than CPUs (taskset cannot pin this test to one CPU)"
fi

# --- input files that cannot be read: one rule for every command that reads one ----------
# Exit 2 (args.h: a file named on the command line that cannot be read is a usage error),
# nothing on stdout, one line naming the option, the file and the reason: bad.

mkdir "$tmp/dir"
: >"$tmp/locked"
chmod 000 "$tmp/locked"
# input_cases OPT ARGS...: `cutoff ARGS --OPT FILE` for a missing file, a directory, a file
# that fails part way (/proc/self/mem: opened, then EIO at the first read) and one without
# read permission (not when the test runs as root, who may read it anyway).
input_cases() {
	local opt=$1
	shift
	bad "--$opt '$tmp/missing': cannot read it: No such file or directory" \
		"$@" --"$opt" "$tmp/missing"
	bad "--$opt '$tmp/dir': cannot read it: Is a directory" "$@" --"$opt" "$tmp/dir"
	if [ -r /proc/self/mem ]; then
		bad "--$opt '/proc/self/mem': cannot read it: Input/output error" \
			"$@" --"$opt" /proc/self/mem
	fi
	if [ ! -r "$tmp/locked" ]; then
		bad "--$opt '$tmp/locked': cannot read it: Permission denied" \
			"$@" --"$opt" "$tmp/locked"
	fi
}
engine="$cutoff uci"
input_cases file solve --game connect4
input_cases file epd --depth 1
input_cases openings match --engine "$engine" --engine "$engine" --depth 1
input_cases chess-file bench --workload chess --stockfish off --no-progress
input_cases connect4-file bench --workload connect4 --stockfish off --no-progress
if [ -r "$tmp/locked" ]; then
	echo "skip - unreadable files: the permission cases (running as root reads them)"
fi

report
