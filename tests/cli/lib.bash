# lib.bash — what the command tests share (sourced, not a test: the glob registers *.sh).
#
# Before sourcing, a script sets `cutoff` (the command under test) and `tmp` (its own
# temporary folder). It then gets:
#   ok WHAT / fail WHAT   print "ok - WHAT" or "FAIL - WHAT" and count it
#   run ARGS...           run "$cutoff" ARGS: status, stdout and stderr in $status,
#                         $stdout and $stderr (the outputs also in $tmp/out, $tmp/err)
# and ends with `echo "$passed passed, $failed failed"` and a status of its own choosing.

passed=0
failed=0
ok() {
	echo "ok - $*"
	passed=$((passed + 1))
}
fail() {
	echo "FAIL - $*"
	failed=$((failed + 1))
}

run() {
	"$cutoff" "$@" >"$tmp/out" 2>"$tmp/err"
	status=$?
	IFS= read -r -d '' stdout <"$tmp/out"
	IFS= read -r -d '' stderr <"$tmp/err"
}
