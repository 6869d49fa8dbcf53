#!/bin/bash
# SPDX-License-Identifier: MIT
# man.sh CUTOFF OUTDIR — the manual pages of the `cutoff` command, made from its own --help
# by help2man (Debian's help2man): OUTDIR/cutoff.1 for the command and its list of commands,
# and OUTDIR/cutoff-NAME.1 for each command that list names (`cutoff NAME --help`), its
# NAME line the list's description; a command whose --help fails in this build gets none. The option lines are the --help text itself, which
# the parser's tables print: a page cannot list an option the command does not take, nor
# miss one it does (tests/cli/man.sh checks both). The build runs this after linking
# `cutoff` (CMakeLists.txt, target cutoff_man); `cmake --install` puts the pages in
# share/man/man1.
set -euo pipefail

if [ $# -ne 2 ]; then
	echo "usage: $0 CUTOFF OUTDIR" >&2
	exit 2
fi
cutoff=$1
out=$2
mkdir -p "$out"
version=$("$cutoff" --version)

# The commands and their one-line descriptions: the "commands:" block of `cutoff --help`.
commands=$("$cutoff" --help | awk '/^commands:/ { m = 1; next } m && /^  [a-z]/ { print } m && /^$/ { exit }')

page() { # page FILE NAME DESCRIPTION HELP-OPTION
	local file=$1 name=$2 what=$3 help=$4 upper
	upper=$(printf '%s' "$name" | tr '[:lower:]' '[:upper:]')
	help2man --no-info --no-discard-stderr --name="$what" --help-option="$help" \
		--version-string="$version" "$cutoff" |
		sed -e "1,/^\.SH NAME/ s/^\.TH CUTOFF /.TH $upper /" \
			-e "/^\.SH NAME/ { n; s/^cutoff /$name / }" >"$file.tmp"
	mv "$file.tmp" "$file"
}

page "$out/cutoff.1" cutoff "parallel alpha-beta game-tree search" --help
while read -r name what; do
	# A command this build lacks (`cutoff sim` without cutoff-sim: no Boost.Context, or a
	# ThreadSanitizer build) fails its --help: no page, and the build says so.
	if ! "$cutoff" "$name" --help >/dev/null 2>&1; then
		echo "man.sh: skipped: cutoff-$name.1 ('cutoff $name --help' fails in this build)" >&2
		rm -f "$out/cutoff-$name.1"
		continue
	fi
	page "$out/cutoff-$name.1" "cutoff-$name" "$what" "$name --help"
done <<<"$commands"
