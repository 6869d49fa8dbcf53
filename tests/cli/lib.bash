# SPDX-License-Identifier: MIT
# lib.bash — what the command tests share (sourced, not a test: the glob registers *.sh).
#
# Before sourcing, a script sets `cutoff` (the command under test) and `tmp` (its own
# temporary folder). It then gets:
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
#   bad NEEDLE ARGS...    a check: `cutoff ARGS` is a usage error (exit 2, nothing on
#                         stdout, one line on stderr that contains NEEDLE)
#   good WHAT ARGS...     `cutoff ARGS` exits 0 with nothing on stderr (false after a FAIL)
#   good_json WHAT ARGS...  the same, and stdout is one line of valid JSON: a check
#   json_field NAME VALUE   true when the last output has "NAME":VALUE (VALUE a regex)
#   has NAME VALUE WHAT   json_field as a check
#   reaped PIDFILE WHAT   a check: every process of PIDFILE's lines has ended (any left
#                         is killed)
#   $python               the python3 interpreter, or "" when there is none
#   report                the last command: prints "N passed, M failed" and returns 0
#                         only when every check passed and at least one ran (a script
#                         that checked nothing must not pass; one whose whole subject is
#                         missing says so with `skip_all WHY`, which exits 77, CTest's
#                         SKIP_RETURN_CODE, so that it counts as skipped, not passed)

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
