#!/bin/bash
# SPDX-License-Identifier: MIT
# connect4-vs-pons.sh BUILD PONS [N] [N_HARD] [ROUNDS] [HASH] — cutoff's Connect Four solver
# against Pascal Pons' (github.com/PascalPons/connect4), side by side on the same lines of his
# six test sets: interleaved rounds, each program pinned to the same CPU, the table cleared
# before every position and only the solve timed (both programs time the solve alone and
# leave the clearing out). Prints, per set and configuration, the median time per position
# over the rounds (with min-max), the mean nodes per position, and cutoff's ratios to Pons.
#
#   BUILD    a cutoff build folder (holding `cutoff`)
#   PONS     Pons' solver built by you: the c4solver binary of a checkout (see below)
#   N        lines of each set (the first N); default 100
#   N_HARD   lines of Test_L1_R3 (seconds each); default 10
#   ROUNDS   interleaved rounds; default 3
#   HASH     cutoff's table in MiB; default 16 (Pons' part-12 table is 2^23 entries, 42 MB)
#
# Configurations (C4VP_CONFIGS, blank-separated; default "serial weak ybw2 abdada2"):
#   serial   cutoff solve, one thread                      against  c4solver
#   weak     cutoff solve --weak, one thread               against  c4solver -w
#   ybw2     cutoff solve --algo ybw --threads 2 (2 CPUs)  against  c4solver (1 CPU)
#   abdada2  cutoff solve --algo abdada --threads 2        against  c4solver (1 CPU)
# Sets (C4VP_SETS; default all six, hardest last). CPUs: C4VP_CPUS, default "0 1" (the first
# for one thread, both for two). C4VP_CUTOFF_ARGS: more options for every cutoff solve (say
# '--etc-min-depth 0': without enhanced transposition cut-offs).
#
# Pons' code is never part of cutoff; to get his solver (part 12 of his blog series is commit
# 514a128, the version behind his published table; the newest commit adds an opening book,
# which his main does not load for these sets):
#   git clone https://github.com/PascalPons/connect4 && cd connect4
#   git checkout 514a128 && make        # builds ./c4solver
# The data: $CUTOFF_DATA_DIR/connect4, else ../shared/data/connect4 beside the repository.
# Every score both programs print is checked against the file's (the bad column; in weak
# mode the signs, as Pons' -w prints a position won at once with its whole score).
set -euo pipefail

usage() {
	echo "usage: $0 BUILD PONS [N] [N_HARD] [ROUNDS] [HASH]" >&2
	echo "  PONS: Pons' c4solver, built from a checkout of github.com/PascalPons/connect4:" >&2
	echo "    git clone https://github.com/PascalPons/connect4 && cd connect4" >&2
	echo "    git checkout 514a128 && make    # part 12; then pass .../connect4/c4solver" >&2
	exit 2
}
[ $# -ge 2 ] || usage
cutoff="$1/cutoff"
pons="$2"
n="${3:-100}"
n_hard="${4:-10}"
rounds="${5:-3}"
hash="${6:-16}"
here=$(cd "$(dirname "$0")" && pwd)
data="${CUTOFF_DATA_DIR:-$here/../../shared/data}/connect4"
configs="${C4VP_CONFIGS:-serial weak ybw2 abdada2}"
sets="${C4VP_SETS:-Test_L3_R1 Test_L2_R1 Test_L2_R2 Test_L1_R1 Test_L1_R2 Test_L1_R3}"
read -r cpu1 cpu2 <<<"${C4VP_CPUS:-0 1}"
extra="${C4VP_CUTOFF_ARGS:-}"
cpu2="${cpu2:-$cpu1}"

if [ ! -x "$cutoff" ]; then
	echo "connect4-vs-pons.sh: $cutoff not found; build first (make build)" >&2
	exit 1
fi
if [ ! -x "$pons" ] || [ -d "$pons" ]; then
	echo "connect4-vs-pons.sh: Pons' solver '$pons' is not an executable" >&2
	usage
fi
if [ ! -r "$data/Test_L3_R1" ]; then
	echo "connect4-vs-pons.sh: the test sets are not in $data (set CUTOFF_DATA_DIR)" >&2
	exit 1
fi
for c in $configs; do
	case "$c" in serial | weak | ybw2 | abdada2) ;; *)
		echo "connect4-vs-pons.sh: unknown configuration '$c' (serial, weak, ybw2, abdada2)" >&2
		exit 2
		;;
	esac
done
pin=()
if command -v taskset >/dev/null; then pin=(taskset -c); else echo "(taskset not found: not pinned)"; fi
pinned() { # pinned CPUS CMD...: CMD on those CPUs (or unpinned without taskset)
	local cpus=$1
	shift
	if [ ${#pin[@]} -gt 0 ]; then "${pin[@]}" "$cpus" "$@"; else "$@"; fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

limit_of() { if [ "$1" = Test_L1_R3 ]; then echo "$n_hard"; else echo "$n"; fi; }
for set in $sets; do
	[ -r "$data/$set" ] || { echo "connect4-vs-pons.sh: $data/$set not found" >&2; exit 1; }
	head -n "$(limit_of "$set")" "$data/$set" >"$tmp/$set.lines"
	cut -d' ' -f1 "$tmp/$set.lines" >"$tmp/$set.moves"
done

# run_pons SET WEAK OUT: Pons' lines '<moves> <score> <nodes> <us>' into OUT.
run_pons() {
	local flag=()
	[ "$2" = 1 ] && flag=(-w)
	pinned "$cpu1" "$pons" "${flag[@]}" <"$tmp/$1.moves" >"$3"
}
# run_cutoff SET CONFIG OUT: the same lines from cutoff solve --each.
run_cutoff() {
	local args=() cpus=$cpu1
	case "$2" in
	weak) args=(--weak) ;;
	ybw2) args=(--algo ybw --threads 2) cpus="$cpu1,$cpu2" ;;
	abdada2) args=(--algo abdada --threads 2) cpus="$cpu1,$cpu2" ;;
	esac
	pinned "$cpus" "$cutoff" solve --game connect4 --file "$tmp/$1.lines" --hash "$hash" \
		--each "${args[@]}" $extra 2>/dev/null | grep -E '^[1-7]* -?[0-9]+ [0-9]+ [0-9]+( [0-9]+)?$' >"$3" || true
}
# summary FILE WEAK LINES: "time_per_position_s nodes_mean mismatches lines etc_mean" of one
# run's lines (etc_mean: cutoff's children looked up by enhanced transposition cut-offs, not
# nodes; 0 for Pons, whose lines have no such column).
summary() {
	awk -v weak="$2" 'NR == FNR { want[NR] = $2; next }
		{ i++; w = want[i]; v = $2
		  if (weak) { w = (w > 0) - (w < 0); v = (v > 0) - (v < 0) }
		  bad += (v != w)
		  nodes += $3; us += $4; etc += $5 }
		END { if (i == 0) { print "nan nan nan 0 0"; exit }
		      printf "%.6f %.0f %d %d %.0f\n", us / i / 1e6, nodes / i, bad, i, etc / i }' "$3" "$1"
}

echo "cutoff against Pons' Connect Four solver — $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "host: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //' || uname -m)"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
echo "cutoff: $cutoff (table $hash MiB); Pons: $pons"
echo "lines: the first $n of each set ($n_hard of Test_L1_R3); $rounds interleaved rounds; CPUs $cpu1 (one thread), $cpu1,$cpu2 (two)"
echo "command: $0 $*${extra:+ (C4VP_CUTOFF_ARGS='$extra')}"

declare -A times nodes etcs bad lines
for r in $(seq 1 "$rounds"); do
	for set in $sets; do
		for c in $configs; do
			weak=0
			[ "$c" = weak ] && weak=1
			# Alternate who goes first, round by round.
			if [ $((r % 2)) = 1 ]; then order="pons cutoff"; else order="cutoff pons"; fi
			for who in $order; do
				out="$tmp/out"
				if [ "$who" = pons ]; then run_pons "$set" "$weak" "$out"; else run_cutoff "$set" "$c" "$out"; fi
				read -r t nd mm ln et < <(summary "$out" "$weak" "$tmp/$set.lines")
				k="$set/$c/$who"
				times[$k]="${times[$k]:-} $t"
				nodes[$k]="${nodes[$k]:-} $nd"
				etcs[$k]="${etcs[$k]:-} $et"
				bad[$k]=$(( ${bad[$k]:-0} + ${mm/nan/0} ))
				lines[$k]=$ln
			done
		done
	done
	echo "round $r done ($(date -u '+%H:%M:%S'), load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?'))"
done

# med LIST: "median min max" of the numbers in LIST.
med() { tr ' ' '\n' <<<"$1" | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END {
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%s %s %s\n", m, v[1], v[NR] }'; }

printf '\n%-11s %-8s %5s %22s %22s %12s %12s %12s %7s %7s %5s\n' set config lines \
	"Pons s/pos (min-max)" "cutoff s/pos (min-max)" "Pons nodes" "cutoff nodes" "cutoff etc" \
	speed nodes bad
for set in $sets; do
	for c in $configs; do
		read -r pm plo phi < <(med "${times[$set/$c/pons]}")
		read -r cm clo chi < <(med "${times[$set/$c/cutoff]}")
		read -r pn _ _ < <(med "${nodes[$set/$c/pons]}")
		read -r cn _ _ < <(med "${nodes[$set/$c/cutoff]}")
		read -r ce _ _ < <(med "${etcs[$set/$c/cutoff]}")
		awk -v s="$set" -v c="$c" -v l="${lines[$set/$c/cutoff]}" -v pm="$pm" -v plo="$plo" \
			-v phi="$phi" -v cm="$cm" -v clo="$clo" -v chi="$chi" -v pn="$pn" -v cn="$cn" -v ce="$ce" \
			-v b="$(( ${bad[$set/$c/pons]} + ${bad[$set/$c/cutoff]} ))" 'BEGIN {
			printf "%-11s %-8s %5d %9.6f (%.6f-%.6f) %9.6f (%.6f-%.6f) %12.0f %12.0f %12.0f %7.2f %7.3f %5d\n",
				s, c, l, pm, plo, phi, cm, clo, chi, pn, cn, ce,
				(cm > 0 ? pm / cm : 0), (pn > 0 ? cn / pn : 0), b }'
	done
done
echo
echo "speed: Pons' median time / cutoff's (above 1: cutoff faster); nodes: cutoff's / Pons'"
echo "(Pons counts a node at every call of his negamax, cutoff at every position its search"
echo "visits, the root of each search included: the same count, docs/connect4.md); bad: scores"
echo "of both programs that differ from the file's (must be 0). Two-thread configurations"
echo "report the nodes of both threads, which vary from run to run (the median is shown)."
echo "cutoff etc: the children cutoff's enhanced transposition cut-offs looked up in the table"
echo "without visiting them (not nodes; C4VP_CUTOFF_ARGS='--etc-min-depth 0' turns them off)."
