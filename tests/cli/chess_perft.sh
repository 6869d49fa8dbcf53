#!/bin/bash
# SPDX-License-Identifier: MIT
# chess_perft.sh CUTOFF — checks `cutoff perft`: its errors (one line on stderr naming the
# option or the FEN field, nothing on stdout, exit 2) and its counts, which are oracles
# (Chess Programming Wiki, "Perft Results"): 197281 leaves at depth 4 from the start,
# 97862 at depth 3 from Kiwipete, 20 root moves that divide them, the same with threads.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"

# nodes EXPECTED WHAT ARGS...: --json output with "nodes":EXPECTED.
nodes() {
	local want=$1 what=$2
	shift 2
	run "$@" --json
	if [ "$status" -ne 0 ] || [ -n "$stderr" ]; then
		fail "$what: exit $status: $stderr"
	elif [[ $stdout != *"\"nodes\":$want,"* ]]; then
		fail "$what: expected $want nodes in $stdout"
	else
		ok "$what: $want nodes"
	fi
}

kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

bad "--depth is required" perft
bad "--depth" perft --depth 0
bad "--depth" perft --depth 33
bad "--threads" perft --depth 1 --threads 0
bad "--threads" perft --depth 1 --threads 257
bad "piece placement" perft --depth 1 --fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1"
bad "side to move" perft --depth 1 --fen "4k3/8/8/8/8/8/8/4K3 x - - 0 1"
bad "castling" perft --depth 1 --fen "4k3/8/8/8/8/8/8/4K3 w K - 0 1"
bad "en passant" perft --depth 1 --fen "4k3/8/8/8/8/8/8/4K3 w - e3 0 1"
bad "halfmove clock" perft --depth 1 --fen "4k3/8/8/8/8/8/8/4K3 w - - x 1"
bad "fullmove number" perft --depth 1 --fen "4k3/8/8/8/8/8/8/4K3 w - - 0 0"
bad "FEN: 2 fields" perft --depth 1 --fen "4k3/8/8/8/8/8/8/4K3 w"
bad "unknown option" perft --depth 1 --bogus

nodes 197281 "start, depth 4" perft --depth 4
nodes 197281 "start, depth 4, 2 threads" perft --depth 4 --threads 2
nodes 97862 "kiwipete, depth 3, 3 threads, divide" perft --fen "$kiwipete" --depth 3 --threads 3 --divide
nodes 48 "kiwipete, depth 1, divide" perft --fen "$kiwipete" --depth 1 --divide

run perft --depth 3 --divide
lines=$(grep -c '^[a-h][1-8][a-h][1-8][qrbn]\?: [0-9]*$' "$tmp/out")
sum=$(awk -F': ' '/^[a-h][1-8][a-h][1-8]/ { s += $2 } END { print s + 0 }' "$tmp/out")
if [ "$status" -eq 0 ] && [ "$lines" -eq 20 ] && [ "$sum" -eq 8902 ] &&
	grep -q '^a2a3: 380$' "$tmp/out" && grep -q '^nodes  *8902$' "$tmp/out"; then
	ok "divide: 20 root moves (a2a3: 380) adding up to 8902"
else
	fail "divide at depth 3: $stdout"
fi
run perft --help
if [ "$status" -eq 0 ] && [[ $stdout == usage:* ]] && [ -z "$stderr" ]; then
	ok "perft --help"
else
	fail "perft --help: exit $status"
fi

report
