#!/bin/bash
# match_hostile.sh CUTOFF — `cutoff match` against engines that behave as no engine should
# (issue 25): an engine whose name and moves hold bytes that are not UTF-8 and control
# bytes; an engine that stops reading its input and leaves a child behind when the
# referee is killed; an engine that rejects an option it was given.
#
# Checked: the JSON is valid (Python's strict UTF-8 decoder and json.load), the name in
# it is exactly what Python's "replace" decoding of the bytes gives, and the PGN is UTF-8
# with no control byte; SIGTERM, SIGINT and SIGHUP end the referee with status 128+signal
# and leave no engine and no engine's child running, with --concurrency 1 and 2, also
# when the engine and its child ignore SIGTERM; an option the engine rejects (cutoff
# uci's "info string error: setoption: ..." and Stockfish's "No such option: ...")
# fails the match before any game, exit 2, one line on stderr quoting the engine, unless
# --ignore-option-errors, which plays on with a warning and the engine's lines in the
# JSON ("option_errors"). Nothing is timed: the waits are bounds for a hang.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
	echo "usage: $0 PATH-TO-CUTOFF" >&2
	exit 2
fi
cutoff=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/match_hostile.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# ok, fail, run, show and $python (lib.bash).
. "$(dirname "$0")/lib.bash"

# ---- item 6: bytes that are not UTF-8 ------------------------------------------------
# The name: 0xff, a 3-byte sequence cut short, an overlong '/', a surrogate, control bytes
# (SOH, ESC, DEL), well-formed 2-, 3- and 4-byte characters, and a 2-byte sequence cut by
# the end of the line. The move: e2, 0xff, e4 (illegal, quoted in the reason).
name='bad\xff \xe2\x82 \xc0\xaf \xed\xa0\x80 ctl\x01\x1b[1m\x7f ok \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 end\xc3'
cat >"$tmp/bytes.sh" <<EOF
while IFS= read -r line; do
	case \$line in
	uci) printf 'id name $name\n'; printf 'id author \xfe\xfe\n'; echo uciok ;;
	isready) echo readyok ;;
	go*) printf 'info string \xff\nbestmove e2\xffe4\n' ;;
	quit) exit 0 ;;
	esac
done
EOF
if [ -z "$python" ]; then
	echo "skip - python3 is not available: the UTF-8 checks need it"
else
	run match --engine "bash $tmp/bytes.sh" --engine "bash $tmp/bytes.sh" --games 2 --json --pgn "$tmp/bytes.pgn"
	printf '%s' "$stdout" >"$tmp/bytes.json"
	check=$("$python" - "$tmp/bytes.json" "$tmp/bytes.pgn" "$name" <<'EOF' 2>&1
import json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))  # strict: raises on a bad byte
want = sys.argv[3].encode("latin-1").decode("unicode_escape").encode("latin-1")
want = want.decode("utf-8", "replace")
names = [e["name"] for e in doc["engines"]]
if names != [want, want]:
    print("names %r, expected %r" % (names, want)); sys.exit(1)
reasons = [g["reason"] for g in doc["games"]]
if len(reasons) != 2 or not all("illegal move 'e2\ufffde4'" in r for r in reasons):
    print("reasons %r" % reasons); sys.exit(1)
pgn = open(sys.argv[2], encoding="utf-8").read()  # strict too
bad = [c for c in pgn if (ord(c) < 0x20 and c != "\n") or ord(c) == 0x7f]
tag = '[White "' + "".join(" " if ord(c) < 0x20 or ord(c) == 0x7f else c for c in want) + '"]'
if bad or tag not in pgn:
    print("PGN: control bytes %r, or no %r in %r" % (bad, tag, pgn)); sys.exit(1)
print("ok")
EOF
)
	if [ "$status" -eq 1 ] && [ "$check" = ok ]; then
		ok "a name and a move with bytes that are not UTF-8: the JSON is valid (strict UTF-8, json.load), the name is the bytes decoded with U+FFFD for each broken sequence, the PGN is UTF-8 without control bytes"
	else
		fail "bytes that are not UTF-8: exit $status: $(show "$check")"
	fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
