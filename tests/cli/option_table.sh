#!/bin/bash
# SPDX-License-Identifier: MIT
# option_table.sh CUTOFF — one option model: every engine option says the same range,
# words and default wherever a user meets it.
#
# The library's registry (`cutoff drivers --json`: each driver option's range or words
# and default, read from the library's one row of it) is the truth. Each option must
# appear once, and agree with it, in the --help of every command that takes the engine's
# settings (search, tree, solve, epd: "--NAME N ... MIN..MAX; default D" or "--NAME
# W1|W2 ... default W") and in UCI's answer to `uci` ("option name NAME type spin default
# D min MIN max MAX" or "type combo default W var W1 var W2"). The engine's own settings
# agree between --help and UCI too: --threads (its range and default) with Threads,
# --placement (its words and default) with Placement. UCI lists no option that is neither
# one of its own nor the library's. And every command's --help states the range its
# parser checks: for each option whose help gives one range A..B, `cutoff CMD --NAME B+1`
# is a usage error (exit 2) naming A..B (or 0..B, for an option taking "0 or A..B"). And
# the per-game defaults `search --help` names (--algo, --iterate, --solve, --hash,
# --ordering, --pruning) are those `cutoff search --game G` reports searching with.
# Prints one "ok - ..." or "FAIL - ..." line per check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"

[ -n "$python" ] || skip_all "no python3: the tables are compared in Python"

"$cutoff" drivers --json > "$tmp/lib.json" || fail "cutoff drivers --json"
printf 'uci\nquit\n' | "$cutoff" uci > "$tmp/uci.txt" || fail "cutoff uci"
commands="search tree ttbench topo solve perft match epd bench"
for c in $commands; do
	"$cutoff" $c --help > "$tmp/help-$c.txt" || fail "cutoff $c --help"
done

# The comparison prints "ok - ..." / "FAIL - ..." lines; lib.bash counts them.
while IFS= read -r line; do
	case $line in
	"ok - "*) ok "${line#ok - }" ;;
	*) fail "${line#FAIL - }" ;;
	esac
done < <("$python" - "$tmp" "$cutoff" $commands <<'EOF'
import json, os, re, subprocess, sys

tmp, cutoff, commands = sys.argv[1], sys.argv[2], sys.argv[3:]
lib = {}
for d in json.load(open(os.path.join(tmp, "lib.json"))):
    for o in d["options"]:
        lib[o["name"]] = o


def say(good, what):
    print(("ok - " if good else "FAIL - ") + what)


def expected_arg(o):
    return "|".join(o["words"]) if o["words"] else "N"


def help_options(path):
    """{name: (arg, text)} of the --help's last part: "  --NAME ARG" and its text."""
    opts, name = {}, None
    for line in open(path):
        m = re.match(r"  --([a-z][a-z0-9-]*) (\S+)(.*)", line.rstrip("\n"))
        if m and "," not in m.group(2):
            name = m.group(1)
            if name in opts:
                opts[name] = None  # twice: never agrees
            else:
                opts[name] = [m.group(2), m.group(3).strip()]
        elif name and opts.get(name) and line.startswith(" " * 20):
            opts[name][1] = (opts[name][1] + " " + line.strip()).strip()
        else:
            name = None
    return opts


def uci_options(path):
    opts = {}
    for line in open(path):
        m = re.match(r"option name (.+?) type (\S+)(.*)", line.rstrip("\n"))
        if m:
            opts[m.group(1)] = (m.group(2), m.group(3).split())
    return opts


uci = uci_options(os.path.join(tmp, "uci.txt"))
say(len(lib) > 0, "the library's registry lists driver options (%d)" % len(lib))

for c in ("search", "tree", "solve", "epd"):
    h = help_options(os.path.join(tmp, "help-%s.txt" % c))
    bad = []
    for name, o in sorted(lib.items()):
        got = h.get(name)
        if not got:
            bad.append("%s missing or twice" % name)
            continue
        arg, text = got
        want_default = "default %s" % o["default"]
        if arg != expected_arg(o) or not text.endswith(want_default):
            bad.append("%s: '%s %s'" % (name, arg, text))
        elif not o["words"] and "%d..%d" % (o["min"], o["max"]) not in text:
            bad.append("%s: no range %d..%d" % (name, o["min"], o["max"]))
    say(not bad, "cutoff %s --help: every driver option with the library's range and "
        "default%s" % (c, (": " + "; ".join(bad)) if bad else ""))

bad = []
for name, o in sorted(lib.items()):
    got = uci.get(name)
    if o["words"]:
        want = ("combo", ["default", o["default"]] + sum((["var", w] for w in o["words"]), []))
    else:
        want = ("spin", ["default", str(o["default"]), "min", str(o["min"]),
                         "max", str(o["max"])])
    if got != want:
        bad.append("%s: %s, not %s" % (name, got, want))
say(not bad, "UCI: every driver option with the library's range and default%s"
    % ((": " + "; ".join(bad)) if bad else ""))

own = {"Threads", "Hash", "Algorithm", "Placement", "Pruning", "Move Overhead", "Clear Hash"}
stray = sorted(set(uci) - own - set(lib))
say(not stray and own <= set(uci), "UCI lists its own options and the library's, no other%s"
    % ((": " + ", ".join(stray)) if stray else ""))

h = help_options(os.path.join(tmp, "help-search.txt"))
threads = h.get("threads")
m = threads and re.search(r"(\d+)\.\.(\d+); default (\d+)", threads[1])
t = uci.get("Threads")
good = bool(m) and t == ("spin", ["default", m.group(3), "min", m.group(1), "max", m.group(2)])
say(good, "--threads and UCI's Threads: one range, one default%s"
    % ("" if good else " (%s; %s)" % (threads, t)))
placement = h.get("placement")
m = placement and re.search(r"default (\S+)$", placement[1])
p = uci.get("Placement")
words = placement[0].split("|") if placement else []
good = bool(m) and p == ("combo", ["default", m.group(1)] + sum((["var", w] for w in words), []))
say(good, "--placement and UCI's Placement: one word list, one default%s"
    % ("" if good else " (%s; %s)" % (placement, p)))

# search --help's per-game defaults (read from the games' table) against what `cutoff
# search --game G` does: its report's algo, iterate, solve, hash_mb, ordering and pruning.
GAMES = ("ttt", "chess", "connect4", "rtree", "pgame")
BITS = {"ordering": {"none": 0, "all": 15, "tt": 1, "hints": 2, "killers": 4, "history": 8},
        "pruning": {"off": 0, "on": 3, "null": 1, "lmr": 2}}


def per_game(text):
    """{game: value} of a text ending "default V1 for g1; V2 for g2, g3 and g4"."""
    m = re.search(r"[Dd]efault (.*)$", text)
    out = {}
    for part in (m.group(1).split("; ") if m else []):
        v = re.match(r"(\S+)(?: \(.*\))? for (.*)$", part)
        if v:
            for g in re.split(r", | and ", v.group(2)):
                out[g] = v.group(1)
    return out


def as_report(key, word):
    if key in BITS:
        return sum(BITS[key][w] for w in word.split(","))
    if key in ("iterate", "solve"):
        return word == "on"
    return int(word) if key == "hash_mb" else word


h = help_options(os.path.join(tmp, "help-search.txt"))
bad, checked = [], 0
for opt, key in (("algo", "algo"), ("iterate", "iterate"), ("solve", "solve"),
                 ("hash", "hash_mb"), ("ordering", "ordering"), ("pruning", "pruning")):
    said = per_game(h[opt][1]) if h.get(opt) else {}
    if sorted(said) != sorted(GAMES):
        bad.append("--%s names no default for every game: %s" % (opt, said))
        continue
    for g in GAMES:
        r = subprocess.run([cutoff, "search", "--game", g, "--depth", "1", "--json"],
                           capture_output=True, text=True, timeout=60)
        got = json.loads(r.stdout).get(key) if r.returncode == 0 else None
        checked += 1
        if got != as_report(key, said[g]):
            bad.append("--game %s: --%s default %s in --help, %s searched" % (g, opt, said[g], got))
say(checked == 6 * len(GAMES) and not bad, "cutoff search --help: each game's defaults are "
    "those it searches with (%d checked)%s" % (checked, (": " + "; ".join(bad)) if bad else ""))

# Every range a --help states against its parser's. GAME_RANGES: options whose one range
# is a game's, checked by that game's reader (search --position: connect4's columns).
GAME_RANGES = {("search", "position")}
for c in commands:
    blocks, name = {}, None
    for line in open(os.path.join(tmp, "help-%s.txt" % c)):
        line = line.rstrip("\n")
        m = re.match(r"  --([a-z][a-z0-9-]*)(?:[ ,]|$)", line)
        if m:
            name = m.group(1)
            blocks[name] = line
        elif name and line.startswith(" " * 6):
            blocks[name] += " " + line.strip()
        else:
            name = None
    bad, checked = [], 0
    for n, text in sorted(blocks.items()):
        ranges = set(re.findall(r"(?<![\w.^-])(-?\d+)\.\.(\d+)(?![\w.^])", text))
        if len(ranges) != 1 or (c, n) in GAME_RANGES:
            continue  # none, or a game's (ttt 1..9, chess 1..127): not the parser's alone
        a, b = ranges.pop()
        try:
            r = subprocess.run([cutoff, c, "--" + n, str(int(b) + 1)], capture_output=True,
                               text=True, timeout=60)
        except subprocess.TimeoutExpired:
            bad.append("--%s %d ran on" % (n, int(b) + 1))
            continue
        checked += 1
        lows = [a] + (["0"] if re.search(r"\b0\b[^.]* or %s\.\.%s" % (a, b), text) else [])
        if r.returncode != 2 or not any("%s..%s" % (lo, b) in r.stderr for lo in lows):
            bad.append("--%s: help %s..%s, parser: %s" % (n, a, b, r.stderr.strip()[:120]))
    say(checked > 0 and not bad, "cutoff %s: the %d ranges its --help states are its "
        "parser's%s" % (c, checked, (": " + "; ".join(bad)) if bad else ""))
EOF
)
report
