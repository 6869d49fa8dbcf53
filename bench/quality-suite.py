#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""quality-suite.py — builds the position suite of the quality-at-equal-time measure
(docs/benchmarks.md, "Which driver plays better at N threads") and its reference answers.

The positions, in this order:
  1. self-play: one game of `cutoff uci` against itself from each of the 41 built-in
     openings (`cutoff match --openings builtin`), every move searched to a fixed node
     count (--nodes) on one thread, so the games depend only on the cutoff build; from
     each game --per-game positions drawn by a seeded random choice among its plies
     (after the opening, before ply --max-plies);
  2. Stockfish 15.1's bench positions (../shared/data/chess/sf_bench_resolved.fen);
  3. Bratko-Kopec (../shared/data/chess/bk.epd);
  4. every --wac-every'th position of Win at Chess (../shared/data/chess/wac.epd), so that
     some are tactical but most are not.
Positions whose first four FEN fields repeat an earlier one are dropped, and so are those
where the game is over by cutoff's rules (mate, stalemate, a draw by rule: its `go depth
1` searches depth 0) and those with fewer than two legal moves (the reference finds fewer
than two lines).

The reference: Stockfish (a measuring instrument, never a dependency of cutoff) on one
thread with a cleared table (ucinewgame) and Hash --ref-hash, `go depth --ref-depth` with
MultiPV --multipv: the best --multipv moves with their scores at that depth, best first.
Single-threaded and from a cleared table, Stockfish's fixed-depth search is deterministic,
so the suite is regenerable: same seed, same builds, same file.

Output (--out, default bench/quality-suite.epd): EPD, one position a line: the FEN's six
fields, then operations
    id "NAME"; c0 "SOURCE"; acd DEPTH; refs "MOVE SCORE MOVE SCORE ...";
MOVE in UCI notation, SCORE in centipawns from the side to move, or #N / #-N for a mate
in N moves for / against it; refs lists the reference's moves best first, so the first is
the reference's best move. Lines starting with # are the header (provenance).

Usage: bench/quality-suite.py [--cutoff build/cutoff] [--stockfish /usr/games/stockfish]
                              [--seed 1] [--nodes 30000] [--per-game 7] [--max-plies 80]
                              [--wac-every 10] [--ref-depth 20] [--multipv 6]
                              [--ref-hash 64] [--jobs 2] [--shared ../shared] [--out F]
"""
import argparse
import datetime
import multiprocessing
import os
import random
import re
import subprocess
import sys
import tempfile


def die(msg):
    sys.exit("quality-suite.py: " + msg)


class Uci:
    """A UCI engine on pipes: send lines, read until a line matches."""

    def __init__(self, cmd):
        try:
            self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as e:
            die("cannot run %s: %s" % (cmd[0], e))
        self.send("uci")
        self.hello = self.until(lambda l: l == "uciok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, stop):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                die("the engine closed its output (%d lines read)" % len(lines))
            line = line.strip()
            lines.append(line)
            if stop(line):
                return lines

    def ready(self):
        self.send("isready")
        self.until(lambda l: l == "readyok")

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.p.kill()
            self.p.wait()


def builtin_openings(cutoff):
    """The FENs of the built-in openings, in the book's order: from a match of one-ply
    games (its PGN gives each game's start as a FEN tag; each opening is played twice)."""
    with tempfile.TemporaryDirectory() as d:
        pgn = os.path.join(d, "o.pgn")
        eng = "%s uci" % cutoff
        r = subprocess.run([cutoff, "match", "--engine", eng, "--engine", eng, "--openings",
                            "builtin", "--games", "82", "--depth", "1", "--max-moves", "1",
                            "--pgn", pgn], capture_output=True, text=True)
        if r.returncode != 0:
            die("cutoff match failed: " + r.stderr[-1000:])
        fens = []
        names = []
        for line in open(pgn):
            m = re.match(r'\[FEN "(.*)"\]', line)
            if m and (not fens or fens[-1] != m.group(1)):
                fens.append(m.group(1))
        # The opening names are not in the PGN: the book's index names them.
        names = ["opening %d" % (i + 1) for i in range(len(fens))]
        return list(zip(fens, names))


def self_play(cutoff, fen, nodes, max_plies):
    """One game of cutoff against itself from fen: the FEN before each ply (the last one
    is the final position), at most max_plies plies."""
    e = Uci([cutoff, "uci"])
    e.send("setoption name Threads value 1")
    e.send("setoption name Hash value 16")
    e.send("ucinewgame")
    e.ready()
    moves, fens = [], []
    for _ in range(max_plies):
        e.send("position fen %s%s" % (fen, (" moves " + " ".join(moves)) if moves else ""))
        e.send("d")
        line = e.until(lambda l: l.startswith("info string fen "))[-1]
        fens.append(line[len("info string fen "):])
        e.send("go nodes %d" % nodes)
        best = e.until(lambda l: l.startswith("bestmove"))[-1].split()
        if len(best) < 2 or best[1] in ("0000", "(none)"):
            break
        moves.append(best[1])
    e.close()
    return fens


def read_fens(path, epd):
    """FENs (six fields) of a FEN or EPD file: EPD lines get the counters 0 1."""
    out = []
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        die("cannot read %s: %s" % (path, e))
    for n, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        f = line.split()
        if epd:
            out.append((" ".join(f[:4]) + " 0 1", "%s:%d" % (os.path.basename(path), n)))
        else:
            if len(f) < 6:
                f = f[:4] + ["0", "1"]
            out.append((" ".join(f[:6]), "%s:%d" % (os.path.basename(path), n)))
    return out


def over_for_cutoff(cutoff, fens):
    """The FENs in which cutoff's chess adapter says the game is over (mate, stalemate,
    a draw by rule such as insufficient material): its `go depth 1` searches depth 0
    there. Stockfish may still search some of them (three bishops of one colour)."""
    e = Uci([cutoff, "uci"])
    over = set()
    for fen in fens:
        e.send("position fen " + fen)
        e.send("go depth 1")
        lines = e.until(lambda l: l.startswith("bestmove"))
        if not any(l.startswith("info depth 1 ") for l in lines):
            over.add(fen)
    e.close()
    return over


def reference(args):
    """Stockfish's top moves of one position at a fixed depth: [(move, score text)]."""
    fen, sf, depth, multipv, hash_mb = args
    e = Uci([sf])
    e.send("setoption name Threads value 1")
    e.send("setoption name Hash value %d" % hash_mb)
    e.send("setoption name MultiPV value %d" % multipv)
    e.send("ucinewgame")
    e.ready()
    e.send("position fen " + fen)
    e.send("go depth %d" % depth)
    lines = e.until(lambda l: l.startswith("bestmove"))
    e.close()
    best = {}
    for l in lines:
        m = re.match(r"info depth (\d+) .*?multipv (\d+) score (cp|mate) (-?\d+)(.*?) pv (\S+)", l)
        if not m or int(m.group(1)) != depth or "bound" in m.group(5):
            continue
        score = m.group(4) if m.group(3) == "cp" else "#" + m.group(4)
        best[int(m.group(2))] = (m.group(6), score)
    return [best[k] for k in sorted(best)]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cutoff", default=os.path.join(root, "build", "cutoff"))
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(root), "shared"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=30000)
    ap.add_argument("--per-game", type=int, default=7)
    ap.add_argument("--max-plies", type=int, default=80)
    ap.add_argument("--wac-every", type=int, default=10)
    ap.add_argument("--ref-depth", type=int, default=20)
    ap.add_argument("--multipv", type=int, default=6)
    ap.add_argument("--ref-hash", type=int, default=64)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default=os.path.join(here, "quality-suite.epd"))
    a = ap.parse_args()
    for path in (a.cutoff, a.stockfish):
        if not os.access(path, os.X_OK):
            die("%s is not an executable (build cutoff first; Stockfish: apt-get install "
                "stockfish)" % path)
    chess = os.path.join(a.shared, "data", "chess")
    if not os.path.isdir(chess):
        die("%s not found (--shared)" % chess)

    # The commit the self-play games come from (the build is assumed to be of it).
    rev = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True).stdout.strip() or "unknown"
    rng = random.Random(a.seed)
    positions = []  # (fen, id, source)
    openings = builtin_openings(a.cutoff)
    for k, (fen, name) in enumerate(openings):
        sys.stderr.write("\rself-play: game %d of %d" % (k + 1, len(openings)))
        fens = self_play(a.cutoff, fen, a.nodes, a.max_plies)
        plies = list(range(len(fens)))
        for p in sorted(rng.sample(plies, min(a.per_game, len(plies)))):
            positions.append((fens[p], "sp%02d.%02d" % (k + 1, p),
                              "self-play, built-in opening %d, ply %d after it" % (k + 1, p)))
    sys.stderr.write("\n")
    for fen, where in read_fens(os.path.join(chess, "sf_bench_resolved.fen"), False):
        positions.append((fen, "sf." + where.split(":")[1], "Stockfish bench, " + where))
    for fen, where in read_fens(os.path.join(chess, "bk.epd"), True):
        positions.append((fen, "bk." + where.split(":")[1], "Bratko-Kopec, " + where))
    wac = read_fens(os.path.join(chess, "wac.epd"), True)
    for fen, where in wac[::a.wac_every]:
        positions.append((fen, "wac." + where.split(":")[1], "Win at Chess, " + where))

    seen, unique = set(), []
    for p in positions:
        key = " ".join(p[0].split()[:4])
        if key not in seen:
            seen.add(key)
            unique.append(p)
    over = over_for_cutoff(a.cutoff, [p[0] for p in unique])
    playable = [p for p in unique if p[0] not in over]

    jobs = [(fen, a.stockfish, a.ref_depth, a.multipv, a.ref_hash) for fen, _, _ in playable]
    refs = []
    with multiprocessing.Pool(a.jobs) as pool:
        for i, r in enumerate(pool.imap(reference, jobs)):
            refs.append(r)
            sys.stderr.write("\rreference: %d of %d" % (i + 1, len(jobs)))
    sys.stderr.write("\n")

    sf = Uci([a.stockfish])
    sf_id = next((l for l in sf.hello if l.startswith("id name")), "")
    sf.close()
    kept = [(p, r) for p, r in zip(playable, refs) if len(r) >= 2]
    with open(a.out, "w") as out:
        out.write("# cutoff quality suite: positions and reference answers (bench/quality-suite.py)\n")
        out.write("# generated %s by: bench/quality-suite.py --seed %d --nodes %d --per-game %d "
                  "--max-plies %d --wac-every %d --ref-depth %d --multipv %d --ref-hash %d\n" %
                  (datetime.date.today().isoformat(), a.seed, a.nodes, a.per_game, a.max_plies,
                   a.wac_every, a.ref_depth, a.multipv, a.ref_hash))
        out.write("# self-play games: %s (commit %s), one thread, go nodes %d\n" %
                  (subprocess.run([a.cutoff, "--version"], capture_output=True,
                                  text=True).stdout.strip() or "?", rev, a.nodes))
        out.write("# reference: %s, Threads 1, Hash %d, ucinewgame, go depth %d, MultiPV %d\n" %
                  (sf_id[len("id name "):] or "Stockfish", a.ref_hash, a.ref_depth, a.multipv))
        out.write("# positions: %d (%d drawn, %d repeated, %d over by cutoff's rules, %d "
                  "with fewer than 2 moves)\n" %
                  (len(kept), len(positions), len(positions) - len(unique),
                   len(unique) - len(playable), len(playable) - len(kept)))
        out.write("# refs: the reference's best moves, best first: UCI move, then centipawns "
                  "from the side to move or #N (mate in N, negative: mated)\n")
        for (fen, pid, src), r in kept:
            out.write('%s id "%s"; c0 "%s"; acd %d; refs "%s";\n' %
                      (fen, pid, src, a.ref_depth, " ".join("%s %s" % m for m in r)))
    print("%s: %d positions" % (a.out, len(kept)))


if __name__ == "__main__":
    main()
