#!/bin/bash
# profile_overhead.sh [ROUNDS] — what the profiler costs in nodes per second (docs/
# measurements.md, section (f)). Builds the library twice, with the profiler (build/) and
# without (build-noprof/, -DCUTOFF_PROFILE=OFF), links bench/profile_nps.c against each,
# then runs the three workloads ROUNDS times (default 21) in rotating order: off, on (the
# default configuration) and writers (on, with config.profile_tt_writers). Prints one line
# per run, "WORKLOAD VARIANT NODES CPU-NPS WALL-NPS", then (with python3) medians, ranges
# and the median of the per-round ratios against off. Prints figures only.
set -euo pipefail
rounds=${1:-21}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
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
for round in $(seq 1 "$rounds"); do
	case $((round % 3)) in
	0) order="on off writers" ;;
	1) order="off writers on" ;;
	*) order="writers on off" ;;
	esac
	for m in chess tree-ab tree-pvs; do
		for v in $order; do
			if [ "$v" = writers ]; then
				echo "$m $v $(NPS_WRITERS=1 "$tmp/on" "$m")"
			else
				echo "$m $v $("$tmp/$v" "$m")"
			fi
		done
	done
done | tee "$log"

command -v python3 >/dev/null || exit 0
python3 - "$log" <<'PY'
import collections, statistics as st, sys
runs = collections.defaultdict(list)   # (workload, variant) -> CPU nps, in order
for line in open(sys.argv[1]):
    w, v, _, cpu, _ = line.split()
    runs[(w, v)].append(float(cpu))
for w in ("chess", "tree-ab", "tree-pvs"):
    off = runs[(w, "off")]
    print(f"{w}: off median {st.median(off) / 1e6:.2f} M ({min(off) / 1e6:.2f} - {max(off) / 1e6:.2f})")
    for v in ("on", "writers"):
        x = runs[(w, v)]
        ratios = sorted(a / b - 1 for a, b in zip(x, off))
        q = lambda f: ratios[min(len(ratios) - 1, int(f * len(ratios)))]
        print(f"  {v}: median {st.median(x) / 1e6:.2f} M ({min(x) / 1e6:.2f} - {max(x) / 1e6:.2f}),"
              f" per-round ratio to off: median {st.median(ratios):+.1%},"
              f" quartiles {q(0.25):+.1%} .. {q(0.75):+.1%}")
PY
