#!/bin/bash
# SPDX-License-Identifier: MIT
# profile_overhead.sh [ROUNDS] — what the profiler costs in nodes per second (docs/
# measurements.md, section (f)). Builds the library twice, with the profiler (build/) and
# without (build-noprof/, -DCUTOFF_PROFILE=OFF), links bench/profile_nps.c against each,
# then runs the three workloads ROUNDS times (default 21) in rotating order: off, on (the
# default configuration) and writers (on, with config.profile_tt_writers). WORKLOADS (in the
# environment) picks a subset of "chess tree-ab tree-pvs". Prints figures only:
#   "# load ..."                         the load average (uptime) before the first round
#   "WORKLOAD VARIANT NODES CPU-NPS WALL-NPS"   one line per run
#   "# load ..."                         the load average after the last round
# then, with python3, for each workload: whether every run of it counted the same nodes;
# the median rate of off in M nodes per CPU-second with its range; and for on and for
# writers the median rate, and the ratio to off of the same round (rate / off - 1): its
# median, its quartiles and a 95 % confidence interval of that median (distribution-free:
# the order statistics k and n+1-k of the n sorted ratios, k the largest with
# P(Binomial(n, 1/2) < k) <= 2.5 %; it needs n >= 6).
#   profile_overhead.sh --analyse FILE...   only the analysis, of the run lines of earlier
#                                           outputs taken together (rounds pooled in order)
set -euo pipefail
if [ "${1:-}" = --analyse ]; then
	shift
	analyse_only=$(mktemp "${TMPDIR:-/tmp}/profile_overhead.XXXXXX")
	trap 'rm -f "$analyse_only"' EXIT
	cat "$@" | grep -E '^(chess|tree-ab|tree-pvs) (off|on|writers) [0-9]+ [0-9]+ [0-9]+$' \
		>"$analyse_only" || true
fi
rounds=${1:-21}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ -z "${analyse_only:-}" ]; then
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake -S . -B build-noprof -DCMAKE_BUILD_TYPE=Release -DCUTOFF_PROFILE=OFF \
		-DCUTOFF_BUILD_TESTS=OFF >/dev/null
	cmake --build build -j2 --target cutoff_static >/dev/null
	cmake --build build-noprof -j2 --target cutoff_static >/dev/null
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/profile_overhead.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	libs=$(pkg-config --libs ck hwloc)
	# shellcheck disable=SC2086
	cc -O2 bench/profile_nps.c -Iinclude build/libcutoff.a $libs -lpthread -lm -o "$tmp/on"
	# shellcheck disable=SC2086
	cc -O2 bench/profile_nps.c -Iinclude build-noprof/libcutoff.a $libs -lpthread -lm -o "$tmp/off"

	log=$tmp/runs
	workloads=${WORKLOADS:-chess tree-ab tree-pvs}
	echo "# load $(uptime | sed 's/.*load average: //')"
	for round in $(seq 1 "$rounds"); do
		case $((round % 3)) in
		0) order="on off writers" ;;
		1) order="off writers on" ;;
		*) order="writers on off" ;;
		esac
		for m in $workloads; do
			for v in $order; do
				if [ "$v" = writers ]; then
					echo "$m $v $(NPS_WRITERS=1 "$tmp/on" "$m")"
				else
					echo "$m $v $("$tmp/$v" "$m")"
				fi
			done
		done
	done | tee "$log"
	echo "# load $(uptime | sed 's/.*load average: //')"
else
	log=$analyse_only
fi

command -v python3 >/dev/null || exit 0
python3 - "$log" <<'PY'
import collections, math, statistics as st, sys
runs = collections.defaultdict(list)   # (workload, variant) -> CPU nps, in order
nodes = collections.defaultdict(set)   # workload -> node counts seen
for line in open(sys.argv[1]):
    w, v, n, cpu, _ = line.split()
    runs[(w, v)].append(float(cpu))
    nodes[w].add(int(n))

def median_ci(xs):
    # Distribution-free 95 % interval of the median: sorted xs[k-1], xs[n-k].
    n = len(xs)
    below, k = 0.0, 0
    while True:
        below += math.comb(n, k) / 2 ** n   # P(Binomial(n, 1/2) <= k)
        if below > 0.025:
            break
        k += 1
    return (xs[k - 1], xs[n - k]) if k >= 1 else (float("nan"), float("nan"))

for w in [w for w in ("chess", "tree-ab", "tree-pvs") if runs[(w, "off")]]:
    off = runs[(w, "off")]
    same = "same nodes in every run" if len(nodes[w]) == 1 else f"NODE COUNTS DIFFER: {sorted(nodes[w])}"
    print(f"{w}: {same}; off median {st.median(off) / 1e6:.2f} M ({min(off) / 1e6:.2f} - {max(off) / 1e6:.2f})")
    for v in ("on", "writers"):
        x = runs[(w, v)]
        ratios = sorted(a / b - 1 for a, b in zip(x, off))
        q = lambda f: ratios[min(len(ratios) - 1, int(f * len(ratios)))]
        lo, hi = median_ci(ratios)
        print(f"  {v}: median {st.median(x) / 1e6:.2f} M ({min(x) / 1e6:.2f} - {max(x) / 1e6:.2f}),"
              f" per-round ratio to off: median {st.median(ratios):+.1%},"
              f" quartiles {q(0.25):+.1%} .. {q(0.75):+.1%}, 95 % CI of the median {lo:+.1%} .. {hi:+.1%}")
PY
