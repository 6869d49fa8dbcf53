#!/bin/bash
# SPDX-License-Identifier: MIT
# report_keys.sh PATH-TO-CUTOFF — the reports keep their keys: the JSON keys (as paths,
# arrays collapsed to []) and CSV columns of `cutoff search --json` (serial and two parallel
# drivers), `cutoff bench` and `cutoff sim` (results.json, results.csv, runs.csv,
# threads.csv) are those of tests/data/report-keys.txt, written by main at 33bbcd1, before
# the counters became one list in the library (issue 26): the reports of 0.1.0, whose
# keys no change since had touched. A key may be added to the file when a report gains
# one; none may be renamed or dropped. Skipped without python3.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u
here=$(cd "$(dirname "$0")" && pwd)
# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, skip_all, $python and the counters (lib.bash).
. "$here/lib.bash"
want=$here/../data/report-keys.txt
[ -n "$python" ] || skip_all "python3 not found"

# KEYS LABEL FILE: the key paths of a JSON file, one "LABEL PATH" a line.
keys() {
	"$python" - "$1" "$2" <<'PY'
import json, sys
label, path = sys.argv[1], sys.argv[2]
out = set()
def walk(v, p):
    if isinstance(v, dict):
        for k, x in v.items():
            q = p + "." + k if p else k
            out.add(q)
            walk(x, q)
    elif isinstance(v, list):
        for x in v:
            walk(x, p + "[]")
walk(json.load(open(path)), "")
for k in sorted(out):
    print(label, k)
PY
}
# COLUMNS LABEL FILE: the columns of a CSV file's header, one "LABEL csv:NAME" a line.
columns() { head -n 1 "$2" | tr ',' '\n' | sed "s/^/$1 csv:/"; }

"$cutoff" search --game rtree --depth 6 --json >"$tmp/serial.json" 2>/dev/null &&
	"$cutoff" search --game rtree --depth 6 --algo ybw --threads 2 --json >"$tmp/ybw.json" 2>/dev/null &&
	"$cutoff" search --game rtree --depth 6 --algo abdada --threads 2 --json >"$tmp/abdada.json" 2>/dev/null ||
	fail "cutoff search --json did not run"
sweep=(--workload rtree --rtree-branching 6 --rtree-depth 5 --positions 2 --hash 1
	--threads 1,2 --drivers serial,lazysmp,ybw,abdada --repeat 1 --plot none --no-progress)
"$cutoff" bench "${sweep[@]}" --stockfish off --quality-ms 0 --out "$tmp/bench" \
	>/dev/null 2>&1 || fail "cutoff bench did not run"
have_sim=false
if "$cutoff" sim --help >/dev/null 2>&1; then
	have_sim=true
	"$cutoff" sim "${sweep[@]}" --out "$tmp/sim" >/dev/null 2>&1 || fail "cutoff sim did not run"
fi
{
	for d in serial ybw abdada; do keys "search-$d" "$tmp/$d.json"; done
	for r in bench sim; do
		[ "$r" = sim ] && ! $have_sim && continue
		keys "$r" "$tmp/$r/results.json"
		for c in results runs threads; do columns "$r-$c" "$tmp/$r/$c.csv"; done
	done
} 2>/dev/null | LC_ALL=C sort -u >"$tmp/have"

# The reports walk the library's list of counters: each "counters" object holds exactly
# the names `cutoff drivers --counters --json` lists, and runs.csv a column for each
# driver's counter, so that a driver's new counter, one line in its own file, reaches
# every report.
"$cutoff" drivers --counters --json >"$tmp/list.json" 2>/dev/null || fail "drivers --counters"
"$python" - "$tmp" "$have_sim" >"$tmp/walk" 2>&1 <<'PY'
import csv, json, sys
tmp, have_sim = sys.argv[1], sys.argv[2] == "true"
names = [c["name"] for c in json.load(open(tmp + "/list.json"))]
drivers = [c["name"] for c in json.load(open(tmp + "/list.json"))
           if c["counted_by"] not in ("search", "profiler")]
bad = []
for d in ("serial", "ybw", "abdada"):
    if list(json.load(open(f"{tmp}/{d}.json"))["counters"]) != names:
        bad.append(f"search {d}")
for r in ["bench"] + (["sim"] if have_sim else []):
    runs = [x for x in json.load(open(f"{tmp}/{r}/results.json"))["runs"] if "counters" in x]
    if not runs:
        bad.append(f"{r}: no run with counters")
    for run in runs:
        if list(run["counters"]) != names:
            bad.append(f"{r} run {run.get('driver')}")
    head = next(csv.reader(open(f"{tmp}/{r}/runs.csv")))
    if [c for c in head if c in drivers] != drivers:
        bad.append(f"{r} runs.csv")
print(len(names), len(drivers), " ".join(sorted(set(bad))) or "none")
PY
read -r nlist ndrivers walk_bad <"$tmp/walk"
if [ "$walk_bad" = none ] && [ "$nlist" -gt 0 ] && [ "$ndrivers" -gt 0 ]; then
	ok "every report's counters are the list's $nlist, runs.csv has the drivers' $ndrivers"
else
	fail "reports that do not walk the list of counters: $(show "$(cat "$tmp/walk")")"
fi

if [ "${REPORT_KEYS_WRITE:-}" = 1 ]; then # how the file was made
	cp "$tmp/have" "$want"
	echo "wrote $want"
fi
$have_sim || grep -v '^sim' "$want" >"$tmp/want-nosim" || true
compare=$want
$have_sim || compare=$tmp/want-nosim
gone=$(LC_ALL=C comm -23 "$compare" "$tmp/have")
added=$(LC_ALL=C comm -13 "$compare" "$tmp/have")
n=$(wc -l <"$compare")
if [ -z "$gone" ]; then
	ok "every one of the $n keys and columns of the reports before is still there"
else
	fail "keys or columns gone: $(show "$gone")"
fi
if [ -z "$added" ]; then
	ok "no key or column beyond those"
else
	fail "new keys or columns (add them to tests/data/report-keys.txt if meant): $(show "$added")"
fi
report
