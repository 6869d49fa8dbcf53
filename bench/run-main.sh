#!/bin/bash
# SPDX-License-Identifier: MIT
# run-main.sh BUILD_DIR [OUT_DIR] — the main benchmark job (`make bench`): `cutoff bench` on
# its defaults (threads 1 .. number of cores; the serial driver, lazy SMP and YBW; chess,
# Connect Four and random trees; 3 interleaved repeats; Stockfish beside it when installed;
# quality at equal time for chess), writing its report folder (report.txt, results.json,
# results.csv, runs.csv, plots). About five minutes on a 2-core machine.
#
#   OUT_DIR     the report folder; default cutoff bench's, a new bench-report-YYYYMMDD-
#               HHMMSS (UTC) here (-2, -3, ... when another run has that name). A folder
#               that holds a report, or that another run is writing, is refused before the
#               sweep; BENCH_ARGS=--replace replaces that report (its files only)
#   BENCH_ARGS  more options for `cutoff bench` (e.g. BENCH_ARGS="--repeat 5")
#
# Data: $CUTOFF_DATA_DIR, else ../shared/data beside the repository when it is there (the
# Connect Four positions come from its Test_L1_R2; without it, from the lines built into the
# command). Plots need gnuplot: as root, with apt-get, this installs gnuplot-nox when it is
# missing; otherwise the report says how to get it and the plots' data and script are still
# written. Prints figures only: a benchmark never decides pass or fail.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 BUILD_DIR [OUT_DIR]" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cutoff="$1/cutoff"
if [ ! -x "$cutoff" ]; then
	echo "run-main.sh: $cutoff not found; build first (make build)" >&2
	exit 1
fi
out=()
[ $# -lt 2 ] || out=(--out "$2")

if [ -z "${CUTOFF_DATA_DIR:-}" ] && [ -d "$repo/../shared/data" ]; then
	CUTOFF_DATA_DIR=$(cd "$repo/../shared/data" && pwd)
	export CUTOFF_DATA_DIR
fi

if ! command -v gnuplot >/dev/null 2>&1 && [ -z "${GNUPLOT:-}" ]; then
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "run-main.sh: installing gnuplot-nox for the plots" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			gnuplot-nox >&2 || echo "run-main.sh: could not install gnuplot-nox" >&2
	else
		echo "run-main.sh: no gnuplot: the plots will not be drawn" \
			"(sudo apt-get install gnuplot-nox)" >&2
	fi
fi

commit=$(git -C "$repo" describe --always --dirty 2>/dev/null || echo "unknown")
note="commit $commit; load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
# shellcheck disable=SC2086
"$cutoff" bench "${out[@]}" --note "$note" ${BENCH_ARGS:-}
