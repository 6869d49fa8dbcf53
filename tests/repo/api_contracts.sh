#!/bin/bash
# SPDX-License-Identifier: MIT
# api_contracts.sh INCLUDE_DIR — every public function declared in INCLUDE_DIR/*.h has its
# contract: a comment that ends on the line right above its declaration. Functions declared
# one under the other share the comment above the first of them, provided it names each
# of the others ("cutoff_tt_clear does it all"): a group is read as one contract only when
# the contract says so.
#
# A declaration is a line at column 0 that declares a function named cutoff_*: it starts
# with CUTOFF_API, or (cutoff_cluster.h, which has no export macro) with a type and holds
# "cutoff_NAME(". Typedefs, macros, comments and struct members (indented) are not
# declarations. A declaration may go on over further lines up to its ";".
#
# A preprocessor line may stand between a contract and its function (a guard), and a
# comment on the declaration's own line is a contract too.
#
# Then a self-test: a header with a declaration under a blank line, and one with a group
# whose comment does not name its second function, must fail naming both functions, and
# the other forms must pass.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 INCLUDE_DIR" >&2
	exit 2
fi
inc=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/api_contracts.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# ok, fail and the counters (the command tests' lib.bash).
. "$(dirname "$0")/../cli/lib.bash"

# contracts HEADER...: one line a declaration, "covered FILE:LINE NAME" or
# "bare FILE:LINE NAME". POSIX awk (mawk runs it).
contracts() {
	awk '
	FNR == 1 { incomment = 0; cend = -1; ctext = ""; dend = -1; group = ""; indecl = 0 }
	indecl { if ($0 ~ /;/) { indecl = 0; dend = FNR }; next }
	/^#/ { if (cend == FNR - 1) cend = FNR; next } # a guard between a contract and its function
	incomment || /^[ \t]*\/\*/ {
		if (!incomment) ctext = ""
		incomment = 1; ctext = ctext " " $0
		if ($0 ~ /\*\//) { incomment = 0; cend = FNR }
		next
	}
	/^(CUTOFF_API |[a-z_][a-z0-9_ ]*[ *]cutoff_[a-z0-9_]*\()/ && !/^typedef/ {
		name = $0; sub(/\(.*/, "", name); n = split(name, w, /[ \t*]+/); name = w[n]
		if (FNR - 1 == cend) { group = ctext; state = "covered" }
		else if ($0 ~ /;[ \t]*\/\*.*\*\/[ \t]*$/) { group = ""; state = "covered" } # trailing
		else if (FNR - 1 == dend && index(group, name)) state = "covered"
		else { state = "bare"; group = "" }
		printf "%s %s:%d %s\n", state, FILENAME, FNR, name
		if ($0 ~ /;/) dend = FNR; else indecl = 1
		next
	}
	{ group = "" }' "$@"
}

(cd "$inc" && contracts *.h) >"$tmp/all"
n=$(wc -l <"$tmp/all")
bare=$(grep '^bare ' "$tmp/all")
if [ "$n" -lt 10 ]; then
	fail "only $n public functions found in $inc: the check cannot read the headers"
elif [ -z "$bare" ]; then
	ok "the $n public functions of $inc each have a contract comment"
else
	while IFS= read -r l; do
		set -- $l
		fail "$2: $3 has no contract comment right above it (or in its group's comment)"
	done <<<"$bare"
fi

# The self-test.
cat >"$tmp/fake.h" <<'EOF'
/* Does one thing. */
CUTOFF_API int cutoff_one(void);

CUTOFF_API int cutoff_two(void);

/* Does three things; cutoff_four does more. */
CUTOFF_API int cutoff_three(void);
CUTOFF_API int cutoff_four(int x,
                           int y);
/* Does five things. */
CUTOFF_API int cutoff_five(void);
CUTOFF_API int cutoff_six(void);
/* Seven, behind a guard. */
#ifndef CUTOFF_NO_SEVEN
CUTOFF_API int cutoff_seven(void);
#endif

CUTOFF_API void cutoff_eight(void); /* eight, said on its line */
EOF
(cd "$tmp" && contracts fake.h) >"$tmp/fake"
got=$(awk '$1 == "bare" { printf "%s ", $3 }' "$tmp/fake")
if [ "$got" = "cutoff_two cutoff_six " ] && [ "$(wc -l <"$tmp/fake")" -eq 8 ]; then
	ok "self-test: an uncommented declaration and an unnamed one of a group fail, the rest pass"
else
	fail "self-test: expected cutoff_two and cutoff_six bare, got: $(tr '\n' ';' <"$tmp/fake")"
fi

report
