#!/bin/bash
# SPDX-License-Identifier: MIT
# cluster.sh CUTOFF — the command line's cluster (`--algo cluster` and UCI under mpirun,
# docs/cluster.md), registered only where MPI was found. Checked, with 2-3 ranks on this
# machine (oversubscribed):
#   - `cutoff search --algo cluster` on random trees and Connect Four gives the serial
#     value, for each exchange (ring, all, none) and for ABDADA inside the ranks; only rank
#     0 prints (one report), with a per-rank table and a JSON "ranks" array;
#   - `cutoff solve --algo cluster` on Pons' Test_L2_R1 (skipped without ../shared);
#   - usage errors: a bad --exchange or --cluster-driver, and either without --algo cluster
#     (exit 2, one line on stderr);
#   - `mpirun -np 2 cutoff uci`: Algorithm defaults to cluster, a search answers a legal
#     move, and `cutoff match` plays two games on a clock between it and a one-process
#     engine without an illegal move, a time loss, a crash or a missing answer;
#   - without mpirun, UCI refuses Algorithm cluster with a message;
#   - `mpirun -np 2 cutoff bench --drivers lazysmp,cluster`: rows cluster/1 and cluster/2
#     (the default --ranks), the ranks' table and JSON, one report folder; --ranks beyond
#     the world and --drivers cluster without mpirun refused.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
# cutoff-test-labels: concurrent
# cutoff-test-timeout: 600
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
# Under AddressSanitizer: the MPI library's own allocations at exit are not ours.
[ -n "${ASAN_OPTIONS:-}" ] && export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"
mpirun=$(command -v mpirun || command -v mpiexec)

# mpi N ARGS...: cutoff ARGS under mpirun with N ranks, into stdout, stderr, status.
mpi() {
	local n=$1
	shift
	timeout 300 "$mpirun" -np "$n" --oversubscribe "$cutoff" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	IFS= read -r -d '' stdout <"$tmp/out"
	IFS= read -r -d '' stderr <"$tmp/err"
}

value_of() { sed -n 's/^value  *\(-*[0-9]*\).*/\1/p' <<<"$1"; }

# The serial values.
run search --game rtree --depth 9 --seed 5
serial_tree=$(value_of "$stdout")
run search --game connect4 --position 2252576253462244111563365343671351441 --window -1,1
serial_c4=$(value_of "$stdout")
[ -n "$serial_tree" ] && [ -n "$serial_c4" ] && ok "serial values: tree $serial_tree, Connect Four $serial_c4" ||
	fail "serial values not read: '$serial_tree' '$serial_c4'"

for setup in "3 --exchange ring" "3 --exchange all --threads 2" "2 --exchange none" \
	"3 --cluster-driver abdada --threads 2"; do
	set -- $setup
	n=$1
	shift
	mpi "$n" search --game rtree --depth 9 --seed 5 --algo cluster "$@"
	v=$(value_of "$stdout")
	reports=$(grep -c '^value ' <<<"$stdout")
	if [ "$status" -eq 0 ] && [ "$v" = "$serial_tree" ] && [ "$reports" = 1 ] &&
		grep -q "^per rank ($n ranks)" <<<"$stdout"; then
		ok "tree, $n ranks $*: value $v, one report with the ranks' table"
	else
		fail "tree, $n ranks $*: status $status, value '$v' (serial $serial_tree), $reports reports: $(show "$stdout$stderr")"
	fi
	mpi "$n" search --game connect4 --position 2252576253462244111563365343671351441 --window -1,1 --algo cluster "$@"
	v=$(value_of "$stdout")
	[ "$status" -eq 0 ] && [ "$v" = "$serial_c4" ] && ok "Connect Four, $n ranks $*: $v" ||
		fail "Connect Four, $n ranks $*: status $status, value '$v' (serial $serial_c4): $(show "$stderr")"
done

mpi 2 search --game rtree --depth 8 --algo cluster --json
# json_check PROGRAM: the python check when there is python3, else true (the grep beside
# each call is then the check: a fresh Debian has no python3).
json_check() {
	if [ -z "$python" ]; then
		echo "note: no python3: the JSON is checked by grep only"
		return 0
	fi
	"$python" -c "$@" 2>"$tmp/py"
}
: >"$tmp/py"
if [ "$status" -eq 0 ] && grep -q '"ranks":\[{"rank":0' <<<"$stdout" &&
	json_check 'import json,sys; d=json.load(sys.stdin); r=d["ranks"]; assert len(r)==2 and all(x["nodes"]>0 for x in r); assert sum(x["sent_entries"] for x in r)==sum(x["received_entries"] for x in r)' <<<"$stdout"; then
	ok "--json: a ranks array of 2, every entry sent received"
else
	fail "--json: status $status: $(show "$stdout") $(cat "$tmp/py")"
fi

# solve --algo cluster against Pons' scores (when the data is there).
set2=$(dirname "$0")/../../../shared/data/connect4/Test_L2_R1
if [ -r "$set2" ]; then
	mpi 2 solve --algo cluster --file "$set2" --limit 25
	if [ "$status" -eq 0 ] && grep -q '^mismatches  *0$' <<<"$stdout" &&
		grep -q '^cluster  *2 ranks' <<<"$stdout"; then
		ok "solve --algo cluster, 2 ranks: 25 positions of Test_L2_R1, no mismatch"
	else
		fail "solve --algo cluster: status $status: $(show "$stdout$stderr")"
	fi
else
	echo "skipped: data not found ($set2): solve --algo cluster"
fi

# cutoff bench under mpirun: the cluster's rows and the per-rank table; rank 0 writes.
mkdir -p "$tmp/bench" && cd "$tmp/bench" || exit 2
mpi 2 bench --workload rtree --positions 2 --threads 1,2 --repeat 1 --drivers lazysmp,cluster \
	--quality-ms 0 --out rep
if [ "$status" -eq 0 ] && grep -q '^== the cluster: cluster/R is R ranks' <<<"$stdout" &&
	grep -Eq '^rtree +cluster/1 ' <<<"$stdout" && grep -Eq '^rtree +cluster/2 ' <<<"$stdout" &&
	[ "$(ls "$tmp/bench")" = rep ] &&
	grep -q '"driver":"cluster/2"' rep/results.json &&
	json_check 'import json; d=json.load(open("rep/results.json")); assert d["machine"]["ranks"]==2; rs=[r for r in d["runs"] if r["driver"].startswith("cluster/")]; assert len(rs)==4 and all(len(r["ranks"])==int(r["driver"][8:]) and r["ranks"][-1]["nodes"]>0 for r in rs)'; then
	ok "mpirun -np 2 cutoff bench --drivers lazysmp,cluster: rows cluster/1 and cluster/2, the ranks' table, one report"
else
	fail "bench under mpirun: status $status: $(show "$stdout$stderr") $(cat "$tmp/py")"
fi
cd "$tmp" || exit 2
mpi 2 bench --workload rtree --drivers lazysmp,cluster --ranks 3 --out "$tmp/nope"
[ "$status" -ne 0 ] && [[ $stderr == *--ranks* ]] && [ ! -e "$tmp/nope" ] &&
	ok "bench --ranks 3 under mpirun -np 2: refused" ||
	fail "bench --ranks 3 under mpirun -np 2: exit $status: $(show "$stderr")"
run bench --workload rtree --drivers cluster --out "$tmp/nope"
[ "$status" -eq 2 ] && one_line "$stderr" && [[ $stderr == *mpirun* ]] &&
	ok "bench --drivers cluster without mpirun: exit 2, $(show "$stderr")" ||
	fail "bench --drivers cluster without mpirun: exit $status: $(show "$stderr")"

# Usage errors: exit 2, one line on stderr naming the option.
for args in "--algo cluster --exchange sideways" "--algo cluster --cluster-driver ybw" \
	"--exchange ring" "--cluster-driver abdada" "--share-depth 3"; do
	run search --game rtree --depth 4 $args
	if [ "$status" -eq 2 ] && one_line "$stderr" && [[ $stderr == *-* ]]; then
		ok "search $args: exit 2, $(show "$stderr")"
	else
		fail "search $args: exit $status: $(show "$stderr")"
	fi
done

# UCI under mpirun.
printf 'uci\nisready\nposition startpos moves e2e4\ngo depth 6\n' >"$tmp/in"
(
	cat "$tmp/in"
	sleep 2
	echo quit
) | timeout 120 "$mpirun" -np 2 --oversubscribe "$cutoff" uci >"$tmp/uci" 2>"$tmp/uci.err"
status=$?
if [ "$status" -eq 0 ] && grep -q '^option name Algorithm type combo default cluster' "$tmp/uci" &&
	grep -Eq '^bestmove [a-h][1-8][a-h][1-8]' "$tmp/uci" && [ "$(grep -c '^uciok' "$tmp/uci")" = 1 ]; then
	ok "mpirun -np 2 cutoff uci: Algorithm cluster by default, one uciok, a bestmove"
else
	fail "mpirun -np 2 cutoff uci: status $status: $(show "$(cat "$tmp/uci" "$tmp/uci.err")")"
fi
printf 'setoption name Algorithm value cluster\nisready\nquit\n' | "$cutoff" uci >"$tmp/uci1" 2>&1
grep -q 'cluster runs under mpirun only' "$tmp/uci1" && ok "without mpirun: Algorithm cluster refused" ||
	fail "without mpirun: $(show "$(cat "$tmp/uci1")")"

timeout 300 "$cutoff" match --engine "$mpirun -np 2 --oversubscribe $cutoff uci" \
	--engine "$cutoff uci" --games 2 --tc 2+0.05 >"$tmp/match" 2>&1
status=$?
faults=$(grep -E '^(illegal moves|time losses|crashes|no answer) ' "$tmp/match" | sed -E 's/^[a-z ]+ ([0-9]+).*/\1/' | tr -d '\n')
games=$(grep -E '^ +[12] +[12] +[12] ' "$tmp/match" | wc -l)
if [ "$status" -eq 0 ] && [ "$faults" = 0000 ] && [ "$games" = 2 ]; then
	ok "cutoff match: 2 games of 'mpirun -np 2 cutoff uci' on a clock, no fault"
else
	fail "cutoff match: status $status, faults '$faults', $games games: $(show "$(cat "$tmp/match")")"
fi

report
