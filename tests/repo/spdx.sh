#!/bin/bash
# SPDX-License-Identifier: MIT
# spdx.sh SOURCE_DIR — every source file names its licence (tools/spdx.sh --check), and
# the check itself works: on a scratch tree, a file without the line fails it, a mention of
# the identifier inside a comment does not count, --apply makes it pass, and a second
# --apply changes nothing.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u
root=$(cd "$1" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spdx.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
. "$root/tests/cli/lib.bash"
spdx=$root/tools/spdx.sh

if "$spdx" --check "$root" >"$tmp/out" 2>&1; then
	ok "the tree: $(tail -n 1 "$tmp/out")"
else
	fail "the tree: $(grep -c 'no ' "$tmp/out") files without the line, e.g. $(show "$(head -n 3 "$tmp/out")")"
fi

mkdir -p "$tmp/t/src" "$tmp/t/tests"
printf '/*\n * a.c — a file\n */\nint a;\n' >"$tmp/t/src/a.c"
printf '#!/bin/bash\n# says SPDX-License-Identifier: MIT in a sentence\necho hi\n' >"$tmp/t/tests/b.sh"
chmod +x "$tmp/t/tests/b.sh"
if "$spdx" --check "$tmp/t" >"$tmp/out" 2>&1; then
	fail "a tree without the line passes the check"
elif grep -q 'src/a.c' "$tmp/out" && grep -q 'tests/b.sh' "$tmp/out"; then
	ok "a file without the line, and one that only mentions it, are named"
else
	fail "the check's list: $(show "$(cat "$tmp/out")")"
fi
"$spdx" --apply "$tmp/t" >/dev/null 2>&1
cp -r "$tmp/t" "$tmp/once"
"$spdx" --apply "$tmp/t" >/dev/null 2>&1
if "$spdx" --check "$tmp/t" >/dev/null 2>&1 && diff -r "$tmp/once" "$tmp/t" >/dev/null &&
	[ "$(head -n 1 "$tmp/t/src/a.c")" = "/* SPDX-License-Identifier: MIT */" ] &&
	[ "$(sed -n 2p "$tmp/t/tests/b.sh")" = "# SPDX-License-Identifier: MIT" ] &&
	[ -x "$tmp/t/tests/b.sh" ]; then
	ok "--apply: the line first (after #!), the mode kept, the check passes, a second run changes nothing"
else
	fail "--apply: $(show "$(head -n 2 "$tmp/t/src/a.c" "$tmp/t/tests/b.sh")")"
fi
report
