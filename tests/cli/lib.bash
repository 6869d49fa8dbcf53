# SPDX-License-Identifier: MIT
# lib.bash — what the command tests share (sourced, not a test: the glob registers *.sh);
# the scripts of tests/repo/ and tests/cluster/ source it too, for ok, fail and report.
#
# A command test sources it first thing, with its own arguments: the one argument is the
# command under test (`cutoff`, which must be an executable; else the usage, exit 2), and
# `tmp` is made, a temporary folder of its own removed at exit (a script that needs more
# at exit sets its own EXIT trap, removing $tmp too). A script that sets `tmp` before
# sourcing (tests/repo, tests/cluster) keeps its own arguments, `cutoff` and trap. It
# then gets:
#   ok WHAT / fail WHAT   print "ok - WHAT" or "FAIL - WHAT" and count it
#   run ARGS...           run "$cutoff" ARGS: status, stdout and stderr in $status,
#                         $stdout and $stderr (the outputs also in $tmp/out and
#                         $tmp/err, named $out and $err until a script reuses the names);
#                         the warning that --threads exceeds the CPUs (which depends on
#                         the machine, not on the command) is moved from both into
#                         $threads_warning, so that a check of a silent stderr holds on
#                         any machine
#   one_line TEXT         true when TEXT is exactly one line ending in a newline
#   show TEXT             TEXT cut short and on one line, for a FAIL message
#   $python               the python3 interpreter, or "" when there is none
#   report                the last command: prints "N passed, M failed" and returns 0
#                         only when every check passed and at least one ran (a script
#                         that checked nothing must not pass; one whose whole subject is
#                         missing says so with `skip_all WHY`, which exits 77, CTest's
#                         SKIP_RETURN_CODE, so that it counts as skipped, not passed)
# and the checks that several scripts make (each written once, here):
#   bad NEEDLE ARGS...    `cutoff ARGS` is a usage error: exit 2, nothing on stdout, one
#                         line on stderr that contains NEEDLE
#   good WHAT ARGS...     `cutoff ARGS` exits 0 with nothing on stderr (false after a FAIL)
#   good_json WHAT ARGS...  the same, and stdout is one line of valid JSON
#   json_field NAME VALUE   true when the last output has "NAME":VALUE (VALUE a regex)
#   has NAME VALUE WHAT   json_field as a check
#   reaped PIDFILE WHAT   every process of PIDFILE's lines has ended (any left is killed)
#   sweep DIR ARGS...     a small `cutoff sim` sweep ($sweep_args) into DIR (false after a
#                         FAIL)
#   same WHAT A B         two report folders of `cutoff sim` agree on every virtual
#                         figure (virtual FILE: a CSV file without its $real_columns)

if [ -z "${tmp-}" ]; then
	if [ $# -ne 1 ] || [ ! -x "$1" ]; then
		echo "usage: $0 PATH-TO-CUTOFF (an executable)" >&2
		exit 2
	fi
	cutoff=$1
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/cli_$(basename "$0" .sh).XXXXXX") || exit 2
	trap 'rm -rf "$tmp"' EXIT
fi

passed=0
failed=0
out=$tmp/out
err=$tmp/err

# python3 may be a version manager's shim that takes a second to start; ask it once for
# the interpreter itself.
python=
if command -v python3 >/dev/null 2>&1; then
	python=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || python=
	if [ -z "$python" ] || [ ! -x "$python" ]; then
		python=python3
	fi
fi

ok() {
	echo "ok - $*"
	passed=$((passed + 1))
}
fail() {
	echo "FAIL - $*"
	failed=$((failed + 1))
}

# Only bash builtins besides cutoff itself: a process costs more than most checks.
# (Always $tmp/out and $tmp/err, even where a script reuses the names $out and $err.)
run() {
	"$cutoff" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	IFS= read -r -d '' stdout <"$tmp/out"
	IFS= read -r -d '' stderr <"$tmp/err"
	threads_warning=
	if [[ $stderr == *": warning: --threads "* ]]; then
		local line rest=
		while IFS= read -r line; do
			if [[ $line == "cutoff "*": warning: --threads "*" exceeds the "*" CPU"* ]]; then
				threads_warning+=$line$'\n'
			else
				rest+=$line$'\n'
			fi
		done <<<"${stderr%$'\n'}"
		stderr=$rest
		printf '%s' "$stderr" >"$tmp/err"
	fi
}

one_line() {
	local body=${1%$'\n'}
	[ -n "$body" ] && [ "$body" != "$1" ] && [[ $body != *$'\n'* ]]
}

show() {
	local t=${1:0:300}
	printf '%s' "${t//$'\n'/\\n}"
}

report() {
	echo "$passed passed, $failed failed"
	if [ $((passed + failed)) -eq 0 ]; then
		echo "FAIL - no check ran (a script with nothing to check calls skip_all)"
		return 1
	fi
	[ "$failed" -eq 0 ]
}

skip_all() {
	if [ "$failed" -gt 0 ]; then
		report
		exit
	fi
	echo "skipped: $* ($passed checks passed before)"
	exit 77
}

# --- the checks that several scripts make ------------------------------------------------

# bad NEEDLE ARGS...: `cutoff ARGS` is refused as a usage error: exit 2, nothing on stdout,
# one line on stderr that contains NEEDLE.
bad() {
	local needle=$1
	shift
	local what="cutoff $*"
	what=${what//$'\n'/\\n}
	run "$@"
	if [ "$status" -ne 2 ]; then
		fail "$what: exit $status, expected 2: $(show "$stderr")"
	elif [ -n "$stdout" ]; then
		fail "$what: printed on stdout: $(show "$stdout")"
	elif ! one_line "$stderr"; then
		fail "$what: stderr is not exactly one line: $(show "$stderr")"
	elif [[ $stderr != *"$needle"* ]]; then
		fail "$what: stderr does not mention '$needle': $(show "$stderr")"
	else
		ok "$what -> exit 2, $(show "${stderr%$'\n'}")"
	fi
}

# good WHAT ARGS...: `cutoff ARGS` exits 0 with nothing on stderr; false after a FAIL line.
good() {
	local what=$1
	shift
	run "$@"
	if [ "$status" -ne 0 ]; then
		fail "$what: exit status $status: $(show "$stderr")"
		return 1
	fi
	if [ -n "$stderr" ]; then
		fail "$what: printed on stderr: $(show "$stderr")"
		return 1
	fi
	return 0
}

# good_json WHAT ARGS...: as good, and stdout is one JSON document on one line (its syntax
# checked where there is python3); an ok line, or false after a FAIL line. The output
# stays in $stdout for the checks that follow.
good_json() {
	local what=$1
	shift
	good "$what" "$@" || return 1
	if ! one_line "$stdout"; then
		fail "$what: the JSON output is not one line: $(show "$stdout")"
		return 1
	fi
	if [ -n "$python" ]; then
		if ! "$python" -m json.tool <"$tmp/out" >/dev/null 2>&1; then
			fail "$what: the output is not valid JSON: $(show "$stdout")"
			return 1
		fi
		ok "$what: valid JSON"
	else
		ok "$what: ran (python3 missing: JSON syntax not checked)"
	fi
	return 0
}

# json_field NAME VALUE: true when the last JSON output has "NAME":VALUE (VALUE a regex).
json_field() {
	local re="\"$1\":$2[,}]"
	[[ $stdout =~ $re ]]
}

# has NAME VALUE WHAT: json_field as a check.
has() {
	if json_field "$1" "$2"; then
		ok "$3: $1 = $2"
	else
		fail "$3: expected $1 = $2 in: $(show "$stdout")"
	fi
}

# reaped PIDFILE WHAT: every process whose PID is a line of PIDFILE (the engines that
# `cutoff match` started) has ended; any still running fails the check and is killed.
reaped() {
	local pid alive=""
	while read -r pid; do
		kill -0 "$pid" 2>/dev/null && alive="$alive $pid"
	done <"$1"
	if [ -n "$alive" ]; then
		fail "$2: engines still running after the match:$alive"
		kill $alive 2>/dev/null
	else
		ok "$2: all $(wc -l <"$1") engine processes gone after the match"
	fi
}

# The small sweep (every driver at 1, 2, 7 and 16 virtual threads on random trees) and the
# columns of results.csv that are real time, not virtual.
sweep_args=(--workload rtree --rtree-branching 6 --rtree-depth 7 --positions 2 --threads 1,2,7,16
	--no-progress --plot none)
real_columns=sim_nodes_per_real_s

# sweep DIR ARGS...: the small sweep of `cutoff sim` into DIR, ARGS added; false after a
# FAIL line.
sweep() {
	local dir=$1
	shift
	run sim "${sweep_args[@]}" --out "$dir" "$@"
	[ "$status" -eq 0 ] && return 0
	fail "cutoff sim $*: exit $status: $(show "$stderr")"
	return 1
}

# virtual FILE: the CSV file FILE without the real_columns (by the header's names).
virtual() {
	awk -F, -v drop="$real_columns" 'BEGIN { n = split(drop, d, ",") ; for (i = 1; i <= n; i++) skip[d[i]] = 1 }
		NR == 1 { for (i = 1; i <= NF; i++) keep[i] = !($i in skip) }
		{ line = ""; sep = ""
		  for (i = 1; i <= NF; i++) if (keep[i]) { line = line sep $i; sep = "," }
		  print line }' "$1"
}

# same WHAT A B: the report folders A and B agree on every virtual figure: results.csv
# without the real_columns, runs.csv, threads.csv and positions.csv byte for byte, and
# (where python3 is) results.json but for its real-time keys (date, wall_s, the load
# averages, the cores and PUs it could use, which a taskset changes, settings.jobs, each
# row's real_columns). A column of results.csv whose name says "real" and is not among
# real_columns fails, so that a new real-time figure is seen here and dropped on purpose.
same() {
	local what=$1 a=$2 b=$3 f col header others bad= why=
	header=$(head -n 1 "$a/results.csv")
	for col in ${real_columns//,/ }; do
		[[ ,$header, == *",$col,"* ]] ||
			fail "$what: results.csv has no column $col (renamed? update real_columns)"
	done
	others=$(tr , '\n' <<<"$header" | grep -i real | grep -vxF -e "${real_columns//,/$'\n'}")
	[ -z "$others" ] || fail "$what: results.csv has real-time columns not dropped here: $others"
	if ! cmp -s <(virtual "$a/results.csv") <(virtual "$b/results.csv"); then
		bad+=" results.csv"
		why+="results.csv: "$(diff <(virtual "$a/results.csv") <(virtual "$b/results.csv") | head -n 4 | tr '\n' ' ')
	fi
	for f in runs.csv threads.csv positions.csv; do
		if [ ! -s "$a/$f" ]; then
			bad+=" $f (none)"
		elif ! cmp -s "$a/$f" "$b/$f"; then
			bad+=" $f"
			why+="$f: "$(diff "$a/$f" "$b/$f" | head -n 4 | tr '\n' ' ')
		fi
	done
	if [ -n "$python" ]; then
		if ! "$python" - "$a/results.json" "$b/results.json" "$real_columns" >"$tmp/json-diff" <<'PY'; then
import json, sys
real = {"date", "wall_s", "machine.load_before", "machine.load_after", "machine.cores",
        "machine.pus", "settings.jobs"}
real |= {"rows[]." + c for c in sys.argv[3].split(",")}
def walk(x, y, p, out):
    if p in real:
        return
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            q = p + "." + k if p else k
            if k not in x or k not in y:
                out.append(q)
            else:
                walk(x[k], y[k], q, out)
    elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for u, v in zip(x, y):
            walk(u, v, p + "[]", out)
    elif x != y:
        out.append(p)
out = []
walk(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), "", out)
print(" ".join(sorted(set(out))))
sys.exit(1 if out else 0)
PY
			bad+=" results.json"
			why+="results.json: "$(cat "$tmp/json-diff")
		fi
	fi
	if [ -z "$bad" ]; then
		ok "$what: the same virtual figures ($(($(wc -l <"$a/results.csv") - 1)) rows, without $real_columns; CSV files${python:+ and results.json})"
	else
		fail "$what: differ in$bad: $(show "$why")"
	fi
}
