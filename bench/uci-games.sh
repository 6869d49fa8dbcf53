#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# uci-games.sh [BUILD_DIR] [GAMES] [TC] — real games through `cutoff match`, to show that
# `cutoff uci` plays whole games legally and never loses on time at fast controls:
#
#   - cutoff (uci, default options: lazy SMP, 1 thread) against Stockfish, whose
#     "Skill Level" is lowered to $SF_SKILL (default 5; at 0 cutoff wins nearly every
#     game, at full strength it loses every one, and neither says much), Hash 16 each;
#   - cutoff against cutoff: Algorithm lazysmp against Algorithm ybw, Threads 2 each (one
#     engine thinks at a time: there is no pondering, so 2 threads run at once).
#
#   BUILD_DIR  where `cutoff` is; default build
#   GAMES      games per pairing and time control (colours alternate); default 10
#   TC         one time control BASE+INC in seconds; default both 2+0.01 and 1+0.01
#
# Stockfish is only a sparring partner, never a dependency: found as $STOCKFISH, as
# `stockfish` on the PATH, or as /usr/games/stockfish; without it only cutoff against
# cutoff is played. Set PGN_DIR to keep the games as PGN, LOG_DIR to keep the referee's
# log of every line with its time (`cutoff match --log`), one file per match.
#
# What to read: the summary at the end. "illegal" and "time losses" must read 0 (a
# benchmark never decides pass or fail, so it only prints them; `cutoff match` itself
# exits 1 when one is not 0). "least left" is the smallest clock either engine of the
# pairing had after a move, in seconds: how close cutoff came to losing on time. The
# referee's clock counts everything from sending `go` to reading `bestmove` (pipes and
# process scheduling included), so run nothing else meanwhile.
set -euo pipefail

build="${1:-build}"
games="${2:-10}"
cutoff="$build/cutoff"
if [[ ! -x "$cutoff" ]]; then
	echo "uci-games.sh: $cutoff not found; build first (usage: $0 [BUILD_DIR] [GAMES] [TC])" >&2
	exit 2
fi
if ! [[ "$games" =~ ^[1-9][0-9]{0,4}$ ]]; then
	echo "uci-games.sh: GAMES must be a number in 1..99999, got '$games'" >&2
	exit 2
fi
if [[ $# -ge 3 ]]; then
	tcs=("$3")
else
	tcs=("2+0.01" "1+0.01")
fi
if ! echo quit | "$cutoff" uci >/dev/null 2>&1; then
	echo "uci-games.sh: '$cutoff uci' does not run: build a cutoff with the uci command" >&2
	exit 2
fi
skill="${SF_SKILL:-5}"

sf="${STOCKFISH:-}"
if [[ -z "$sf" ]]; then
	sf="$(command -v stockfish || true)"
	[[ -z "$sf" && -x /usr/games/stockfish ]] && sf=/usr/games/stockfish
fi
if [[ -n "$sf" && ! -x "$sf" ]]; then
	echo "uci-games.sh: STOCKFISH=$sf is not an executable; playing cutoff against cutoff only" >&2
	sf=""
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/uci-games.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
summary="$tmp/summary"
: >"$summary"

# play LABEL TC ARGS...: one match; its report goes to stdout, a line to the summary.
play() {
	local label=$1 tc=$2
	shift 2
	local extra=() name
	name=$(echo "$label $tc" | tr -c 'A-Za-z0-9.+\n' '_')
	if [[ -n "${PGN_DIR:-}" ]]; then
		mkdir -p "$PGN_DIR"
		extra=(--pgn "$PGN_DIR/$name.pgn")
	fi
	if [[ -n "${LOG_DIR:-}" ]]; then
		mkdir -p "$LOG_DIR"
		extra+=(--log "$LOG_DIR/$name.log")
	fi
	echo
	echo "== $label, $tc, $games games (load average $(cut -d" " -f1-3 /proc/loadavg))"
	echo "   $cutoff match $* --tc $tc --games $games"
	local rc=0
	"$cutoff" match "$@" --tc "$tc" --games "$games" "${extra[@]}" | tee "$tmp/report" || rc=$?
	awk -v label="$label" -v tc="$tc" -v rc="$rc" '
		/^engine 1 score/ { w = $4; d = $6; l = $8 }
		/^illegal moves/ { illegal = $3 }
		/^time losses/ { time = $3 }
		/^crashes/ { crashes = $2 }
		/^no answer/ { hangs = $3 }
		/^games/ { n = $2 }
		/least left/ { v = $(NF - 1); if (least == "" || v + 0 < least + 0) least = v }
		END {
			printf "%-34s %-8s %5s %10s %7s %5s %7s %9s %10s\n", label, tc, n,
			       w "-" d "-" l, illegal, time, crashes + hangs, least, rc
		}' "$tmp/report" >>"$summary"
}

for tc in "${tcs[@]}"; do
	if [[ -n "$sf" ]]; then
		play "cutoff vs Stockfish (Skill $skill)" "$tc" \
			--engine "$cutoff uci" --engine "$sf" \
			--option Hash=16 --option2 "Skill Level=$skill"
	fi
	play "cutoff lazysmp vs ybw (2 threads)" "$tc" \
		--engine "$cutoff uci" --engine "$cutoff uci" --option Threads=2 --option Hash=16 \
		--option1 Algorithm=lazysmp --option2 Algorithm=ybw
done

echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
echo "Summary (W-D-L for the first engine named; 'faults' are crashes and missing answers;"
echo "'least left' the smallest clock after a move, either engine, in s; 'exit' of cutoff match)"
printf "%-34s %-8s %5s %10s %7s %5s %7s %9s %10s\n" pairing tc games W-D-L illegal "time" faults \
	"least" "exit"
printf "%-34s %-8s %5s %10s %7s %5s %7s %9s %10s\n" "" "" "" "" "" losses "" left ""
cat "$summary"
