#!/bin/bash
# SPDX-License-Identifier: MIT
# spdx.sh --check|--apply [ROOT] — every source file of cutoff names its licence in its
# first lines: "SPDX-License-Identifier: MIT" (LICENSE holds the text).
#
# Source files: the C files (*.c, *.h) of src, include, tests, bench and docs/examples; the
# scripts (*.sh, *.bash, *.py) there and in tools/ and .ci/; and the build's files
# (CMakeLists.txt, *.cmake, cmake/*.in, Makefile). Data, reports and documents are not
# source and carry no line.
#   --check   lists each file none of whose first three lines is the identifier's line (as
#             --apply writes it); exit 1 if any
#   --apply   adds it: "/* SPDX-License-Identifier: MIT */" as a C file's first line,
#             "# SPDX-License-Identifier: MIT" after a script's #! line or first otherwise;
#             a file that has it is left alone, so a second --apply changes nothing
# ROOT defaults to the repository that holds this script. Exit 2 on a usage error.
set -euo pipefail

id="SPDX-License-Identifier: MIT"
mode=${1:-}
root=${2:-"$(cd "$(dirname "$0")/.." && pwd)"}
case $mode in
--check | --apply) ;;
*)
	echo "usage: $0 --check|--apply [ROOT]" >&2
	exit 2
	;;
esac
if [ ! -d "$root" ]; then
	echo "spdx.sh: '$root' is not a folder" >&2
	exit 2
fi
cd "$root"

sources() {
	local dirs=() d
	for d in src include tests bench docs/examples tools .ci cmake; do
		[ -d "$d" ] && dirs+=("$d")
	done
	{
		[ ${#dirs[@]} -gt 0 ] && find "${dirs[@]}" -type f \( -name '*.[ch]' -o -name '*.sh' \
			-o -name '*.bash' -o -name '*.py' -o -name 'CMakeLists.txt' -o -name '*.cmake' \
			-o -name '*.in' -o -path '.ci/*' \)
		for d in CMakeLists.txt Makefile; do
			[ -f "$d" ] && echo "$d"
		done
	} | LC_ALL=C sort -u
}

# The line itself, as --apply writes it (a mention in a comment does not count).
has_id() { head -n 3 "$1" | grep -qE "^(/\* |# )$id( \*/)?\$"; }

add_id() {
	local f=$1 tmp
	tmp=$(mktemp "$f.spdx.XXXXXX")
	case $f in
	*.c | *.h) { printf '/* %s */\n' "$id"; cat "$f"; } >"$tmp" ;;
	*)
		if head -n 1 "$f" | grep -q '^#!'; then
			{ head -n 1 "$f"; printf '# %s\n' "$id"; tail -n +2 "$f"; } >"$tmp"
		else
			{ printf '# %s\n' "$id"; cat "$f"; } >"$tmp"
		fi
		;;
	esac
	chmod --reference="$f" "$tmp"
	mv "$tmp" "$f"
}

missing=0 total=0 added=0
while IFS= read -r f; do
	total=$((total + 1))
	has_id "$f" && continue
	if [ "$mode" = --apply ]; then
		add_id "$f"
		added=$((added + 1))
	else
		echo "spdx.sh: no '$id' in the first lines of $f"
		missing=$((missing + 1))
	fi
done < <(sources)

if [ "$mode" = --apply ]; then
	echo "spdx.sh: $total source files, the identifier added to $added"
	exit 0
fi
echo "spdx.sh: $total source files, $missing without the identifier"
[ "$total" -gt 0 ] && [ "$missing" -eq 0 ]
