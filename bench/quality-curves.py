#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""quality-curves.py — the quality curves of one or several quality runs, gathered, and
every pair of settings compared (docs/benchmarks.md, "Which driver plays better at N
threads").

A sweep of `cutoff sim --quality-suite` is often split over processes (one per thread
count); this reads their quality-positions.csv files together. A setting is a driver at a
thread count; one found in two files must have the same moves there (the runs are
deterministic, so a difference means the files do not belong together). A file given as
LABEL=FILE has its driver named LABEL (letters, digits, '.', '_', '+', '-'), so that two
forms of one driver run into separate folders stay apart (lazysmp-vote=v/quality-positions.csv):
the label renames the file's one driver other than serial (serial/1, the baseline of every
run, keeps its name and is checked across files), or serial when the file holds it alone.

First, per setting (a markdown table):
  - agree: the share of moves equal to the suite's reference (Wilson 95 % interval);
  - loss: the mean centipawn loss against the suite's reference (normal 95 % interval);
  - with --reference [DRIVER/THREADS=]FILE: "self", the share of moves equal to the move of
    that run (one setting, e.g. the serial search at a far larger budget: cutoff's own
    deeper choice), with its Wilson interval; positions the reference did not search are
    left out everywhere;
  - the mean depth thread 0 completed.

Then every pair of settings at each thread count (with --against DRIVER, only the pairs
with DRIVER, as the other), on the positions both searched, one table per measure: the
suite's reference move ("suite"), --reference's move ("self", when given), the loss. For a
pair, x_i and y_i are the first's and the other's values at position i of the n common ones
(1/0 for a move that agrees or not, the loss in cp), d_i = x_i - y_i, and:
  - difference: mean(d) with the normal 95 % interval mean +- 1.96 sd(d) / sqrt(n) (for
    agreement in percentage points: (b - c) / n, b the positions where only the first
    agrees, c only the other);
  - p, agreement: McNemar's exact two-sided p, 2 P(Bin(b + c, 1/2) <= min(b, c)), capped at
    1 (bench/quality-paired.py's definition); p, loss: the normal approximation,
    erfc(|mean(d)| / se / sqrt(2)), se = sd(d) / sqrt(n);
  - detectable, agreement: the smallest difference in agreement (points) that McNemar's
    exact test at alpha 0.05 two-sided detects with 80 % power at this n and the
    discordance observed, m = b + c discordant positions. By an exact binomial power
    search, conditional on m (the test is): the test rejects for b <= k or b >= m - k, k the
    largest with 2 P(Bin(m, 1/2) <= k) <= 0.05; under an alternative each discordant
    position goes the first's way with probability q, power(q) = P(Bin(m, q) <= k) +
    P(Bin(m, q) >= m - k), which rises with q from 1/2; q* is the q where it reaches 0.80
    (bisection), and the detectable difference is (m / n)(2 q* - 1) = E(b - c) / n. "none"
    when m is too small for the test to reject at all (m <= 5: 2 / 2^m > 0.05): at so
    little discordance nothing can be seen, and a real difference would have made more.
    (Connor's 1987 closed form, n = (1.96 sqrt(psi) + 0.84 sqrt(psi - d^2))^2 / d^2 with
    psi = m / n, solved for d, is within 0.2 points of this at m = 25, n = 377, but at
    small m it gives a d above psi, a difference larger than the discordance allows.)
    Loss: (1.960 + 0.842) se = 2.80 se (normal approximation, 80 % power, alpha 0.05
    two-sided).
  - Holm's adjusted p over the family of every test printed (the count is printed: each
    measure x each pair x each thread count): the p's sorted p(1) <= ... <= p(M), adjusted
    p(i) = max over j <= i of min(1, (M - j + 1) p(j)); '*' marks an adjusted p <= 0.05,
    a difference that survives the correction. Pairs with the same moves at every common
    position (no test could reject: nothing differs) are listed, not tested.

With --elo-doubling FILE_B FILE_2B (each [DRIVER/THREADS=]FILE naming one setting: the
serial search at a budget B and at 2B; the 'self' scale needs --reference) and --elo
ELO,LO,HI (default 100,55,149: the project's match of the serial search at twice the
nodes, +100 Elo, 95 %: +55 .. +149), an Elo scale, printed after the tables: for each
measure, the doubling's paired gain G (2B less B, as a difference above, with its 95 %
interval, on the positions both searched) and the ratio R = ELO / G in Elo per point (per
cp for the loss), with Fieller's 95 % interval: ELO taken as normal with
s_E = (HI - LO) / (2 x 1.96), G with s_G = sd(d) / sqrt(n), the two independent (a match
and a suite), R's interval is the set of r with (ELO - r G)^2 <= 1.96^2 (s_E^2 + r^2 s_G^2):
  r = (ELO G +- 1.96 sqrt(s_E^2 a + ELO^2 s_G^2)) / a,   a = G^2 - 1.96^2 s_G^2.
When a <= 0, that is when G's interval contains 0, the set is unbounded: the scale is
printed as unusable, with that reason. When usable, that measure's table of pairs gets a
column "Elo / detectable": the difference and the detectable difference times R's point
value (R's own uncertainty is in the scale's line, not carried into the column).

Same input, same bytes. --csv OUT writes the per-setting rows, --pairs-csv OUT the
comparisons (one row per measure, thread count and pair).

Usage: bench/quality-curves.py [--reference [DRIVER/THREADS=]FILE] [--against DRIVER]
           [--csv OUT] [--pairs-csv OUT] [--elo ELO,LO,HI]
           [--elo-doubling [DRIVER/THREADS=]FILE_B [DRIVER/THREADS=]FILE_2B] [LABEL=]FILE...
"""
import argparse
import collections
import csv
import importlib.util
import itertools
import math
import os
import re
import sys

# McNemar's exact test, as bench/quality-paired.py computes it (one definition of it).
_spec = importlib.util.spec_from_file_location(
    "quality_paired", os.path.join(os.path.dirname(os.path.abspath(__file__)), "quality-paired.py"))
_paired = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_paired)
mcnemar = _paired.mcnemar

Z = 1.959964  # the normal quantile of 0.975: 95 % intervals, alpha 0.05 two-sided
Z_POWER = 0.841621  # the normal quantile of 0.80: 80 % power
ALPHA = 0.05
POWER = 0.80


def wilson(k, n):
    if n == 0:
        return float("nan"), float("nan")
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return c - h, c + h


def mean_se(xs):
    """The mean of xs and its standard error sd / sqrt(n) (sd with n - 1; nan below 2)."""
    n = len(xs)
    if n == 0:
        return float("nan"), float("nan")
    m = sum(xs) / n
    if n == 1:
        return m, float("nan")
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) / math.sqrt(n)


def mean_half(xs):
    """The mean of xs and the half-width of its normal 95 % interval, Z se."""
    m, se = mean_se(xs)
    return m, Z * se


def normal_p(mean, se):
    """The two-sided p of mean against 0 with standard error se (normal approximation):
    erfc(|mean| / se / sqrt(2)); 1 for a mean of 0, 0 for a nonzero one with se 0."""
    if mean == 0:
        return 1.0
    if se == 0:
        return 0.0
    return math.erfc(abs(mean) / se / math.sqrt(2))


def binomial_pmf(m, k, q):
    """P(Bin(m, q) = k), in logarithms (no overflow at large m)."""
    if q <= 0 or q >= 1:
        return 1.0 if k == (0 if q <= 0 else m) else 0.0
    return math.exp(math.lgamma(m + 1) - math.lgamma(k + 1) - math.lgamma(m - k + 1) +
                    k * math.log(q) + (m - k) * math.log(1 - q))


def mcnemar_region(m):
    """The largest k for which McNemar's exact test of m discordant pairs rejects b <= k
    (and b >= m - k) at ALPHA, or None when it rejects nothing."""
    k = None
    for b in range(m // 2 + 1):
        if mcnemar(b, m - b) > ALPHA:
            break
        k = b
    return k


def mcnemar_power(m, k, q):
    """P(Bin(m, q) <= k) + P(Bin(m, q) >= m - k): the power of the region of mcnemar_region."""
    return sum(binomial_pmf(m, b, q) for b in range(k + 1)) + \
        sum(binomial_pmf(m, b, q) for b in range(m - k, m + 1))


def mcnemar_detectable(n, m):
    """The smallest difference in agreement rate (a share, not points) that McNemar's exact
    test detects at ALPHA two-sided with POWER, given n positions of which m discordant:
    (m / n)(2 q* - 1), q* the share of the discordant ones won by the first at which the
    test's power reaches POWER (bisection; the power rises with q from 1/2). None when the
    test cannot reject with m discordant pairs."""
    k = mcnemar_region(m) if m > 0 else None
    if k is None:
        return None
    lo, hi = 0.5, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if mcnemar_power(m, k, mid) >= POWER:
            hi = mid
        else:
            lo = mid
    return m / n * (2 * hi - 1)


def holm(ps):
    """Holm's step-down adjusted p's, in the order given: p(1) <= ... <= p(M) sorted,
    adjusted p(i) = max over j <= i of min(1, (M - j + 1) p(j))."""
    order = sorted(range(len(ps)), key=lambda i: (ps[i], i))
    out = [0.0] * len(ps)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        out[i] = running
    return out


def fieller(e, se_e, g, se_g):
    """Fieller's 95 % interval of e / g for independent normal e and g: the roots of
    (e - r g)^2 = Z^2 (se_e^2 + r^2 se_g^2), (e g +- Z sqrt(se_e^2 a + e^2 se_g^2)) / a,
    a = g^2 - Z^2 se_g^2. None when a <= 0 (g's interval contains 0: unbounded)."""
    a = g * g - Z * Z * se_g * se_g
    if not a > 0:
        return None
    root = Z * math.sqrt(se_e * se_e * a + e * e * se_g * se_g)
    return (e * g - root) / a, (e * g + root) / a


def open_or_exit(path, mode="r"):
    """path opened (text, for csv), or the one-line error naming it and exit 1: a missing
    file, a folder or an unreadable one is said, not a traceback."""
    try:
        return open(path, mode, newline="")
    except OSError as e:
        sys.exit("quality-curves.py: %s: cannot %s it: %s" %
                 (path, "read" if mode == "r" else "write", e.strerror or e))


# The columns read of each quality-positions.csv line, and those that are integers.
COLUMNS = ("driver", "threads", "position", "depth", "move", "agree", "loss_cp")
INTEGERS = ("threads", "depth", "loss_cp")
LABEL = re.compile(r"[A-Za-z0-9_.+-]+\Z")


def read_rows(path):
    """The lines of one quality-positions.csv, checked: the one-line error naming the file
    and the line and exit 1 for a file that is not one."""
    with open_or_exit(path) as f:
        try:
            rows = list(csv.DictReader(f))
        except (csv.Error, UnicodeDecodeError) as e:
            sys.exit("quality-curves.py: %s: not a quality-positions.csv: %s" % (path, e))
    for line, r in enumerate(rows, start=2):
        for c in COLUMNS:
            if r.get(c) is None or (c in INTEGERS and not r[c].lstrip("-").isdigit()):
                sys.exit("quality-curves.py: %s:%d: not a quality-positions.csv line (its "
                         "%s is %s)" % (path, line, c, "missing" if r.get(c) is None
                                        else repr(r[c])))
    return rows


def split_label(arg):
    """(label, path) of a file argument LABEL=FILE, or (None, arg) for a FILE alone (a
    part before '=' with a '/' is a path's)."""
    label, sep, path = arg.partition("=")
    if not sep or "/" in label:
        return None, arg
    if not LABEL.match(label):
        sys.exit("quality-curves.py: %s: a label is letters, digits, '.', '_', '+' or '-'"
                 % arg)
    return label, path


def relabel(rows, label, arg):
    """rows with the driver renamed label: the file's one driver other than serial, or
    serial when it is the only one; exit 1 when the file holds two others."""
    drivers = sorted({r["driver"] for r in rows})
    others = [d for d in drivers if d != "serial"] or drivers
    if len(others) != 1:
        sys.exit("quality-curves.py: %s: a label names one driver, the file holds %s" %
                 (arg, ", ".join(others) or "none"))
    for r in rows:
        if r["driver"] == others[0]:
            r["driver"] = label
    return rows


def read(args):
    """{(driver, threads): {position id: row}} of the file arguments ([LABEL=]FILE); a
    setting in two files must match. Positions are told by their id, so runs on a suite and
    on a subset of it go together."""
    settings = {}
    for arg in args:
        label, path = split_label(arg)
        rows = read_rows(path)
        if label is not None:
            rows = relabel(rows, label, arg)
        for r in rows:
            key = (r["driver"], int(r["threads"]))
            per = settings.setdefault(key, {})
            pid = r.get("id") or r["position"]
            old = per.get(pid)
            if old is not None and old["move"] != r["move"]:
                sys.exit("quality-curves.py: %s/%d, position %s: move %s in one file, "
                         "%s in another (not the same runs)" %
                         (key[0], key[1], pid, old["move"], r["move"]))
            per[pid] = r
    return settings


def read_one(arg, option):
    """((driver, threads), {position: row}) of [DRIVER/THREADS=]FILE, which must name or
    hold one setting; exit 1 otherwise."""
    wanted, _, path = arg.rpartition("=")
    rs = {k: v for k, v in read([path]).items() if not wanted or name(k) == wanted}
    if len(rs) != 1:
        sys.exit("quality-curves.py: %s %s holds %d settings: name one as "
                 "DRIVER/THREADS=FILE" % (option, arg, len(rs)))
    ((key, per),) = rs.items()
    return key, per


def name(key):
    """DRIVER/THREADS of a setting's key."""
    return "%s/%d" % key


def setting_order(key):
    """The tables' order of settings: serial first, then by driver and thread count."""
    return (key[0] != "serial", key[0], key[1])


# The measures compared: name, title, unit, whether it is an agreement (McNemar) or a
# loss (normal), and its value at one position from the setting's row and the reference's.
Measure = collections.namedtuple("Measure", "name title unit per agreement value")
MEASURES = (
    Measure("suite", "agreement with the suite's reference move", "points", "point", True,
            lambda r, s: 1 if r["agree"] == "1" else 0),
    Measure("self", "agreement with the 'self' reference's move", "points", "point", True,
            lambda r, s: 1 if r["move"] == s["move"] else 0),
    Measure("loss", "centipawn loss against the suite's reference", "cp", "cp", False,
            lambda r, s: int(r["loss_cp"])),
)


def measures(ref):
    """The measures that can be had: 'self' only with a reference."""
    return [m for m in MEASURES if ref is not None or m.name != "self"]


def common(first, other, ref):
    """The positions both settings searched (and the reference, when given), sorted."""
    return sorted(p for p in first if p in other and (ref is None or p in ref))


def paired(measure, first, other, positions, ref):
    """The paired difference of measure, first less other, at positions: positions, mean,
    lo95, hi95, se (in points for an agreement), b and c for an agreement."""
    s = ref or {}
    xs = [measure.value(first[p], s.get(p)) for p in positions]
    ys = [measure.value(other[p], s.get(p)) for p in positions]
    factor = 100 if measure.agreement else 1
    mean, se = mean_se([factor * (x - y) for x, y in zip(xs, ys)])
    row = {"positions": len(positions), "difference": mean, "lo95": mean - Z * se,
           "hi95": mean + Z * se, "se": se}
    if measure.agreement:
        row["b"] = sum(1 for x, y in zip(xs, ys) if x > y)
        row["c"] = sum(1 for x, y in zip(xs, ys) if x < y)
    return row


def compare(measure, first, other, positions, ref):
    """paired() with the test's p and the smallest detectable difference (see the module's
    docstring): McNemar's for an agreement, the normal approximation for the loss."""
    row = paired(measure, first, other, positions, ref)
    n = row["positions"]
    if measure.agreement:
        row["p"] = mcnemar(row["b"], row["c"])
        mdd = mcnemar_detectable(n, row["b"] + row["c"])
        row["detectable"] = None if mdd is None else 100 * mdd
    else:
        se = row["se"]
        row["p"] = normal_p(row["difference"], se) if n > 1 else float("nan")
        row["detectable"] = (Z + Z_POWER) * se if n > 1 else None
    return row


def pairs(settings, against):
    """(threads, first, other) of every pair of settings at a thread count, in the tables'
    order; with against, only those whose other is against."""
    out = []
    for threads in sorted({k[1] for k in settings}):
        keys = sorted((k for k in settings if k[1] == threads), key=setting_order)
        for first, other in itertools.combinations(keys, 2):
            if against is None or against == other[0]:
                out.append((threads, first, other))
            elif against == first[0]:
                out.append((threads, other, first))
    return out


def comparisons(settings, ref, against):
    """The rows of the pairs' tables, with Holm's adjusted p over all of them, and the
    pairs not tested (identical moves, or no position in common)."""
    rows, untested = [], []
    for threads, first, other in pairs(settings, against):
        positions = common(settings[first], settings[other], ref)
        if not positions or all(settings[first][p]["move"] == settings[other][p]["move"]
                                for p in positions):
            untested.append((first, other, len(positions)))
            continue
        for m in measures(ref):
            row = compare(m, settings[first], settings[other], positions, ref)
            row.update({"measure": m.name, "threads": threads, "first": name(first),
                        "other": name(other)})
            rows.append(row)
    tested = [r for r in rows if not math.isnan(r["p"])]
    for r, adjusted in zip(tested, holm([r["p"] for r in tested])):
        r["holm_p"] = adjusted
    return rows, untested


def elo_scales(doubling, elo, ref):
    """{measure name: scale} of the doubling ((B key, rows), (2B key, rows)): the gain,
    2B less B, paired, and Fieller's interval of elo[0] / gain, or why it is unusable."""
    (kb, b), (k2b, b2) = doubling
    e, lo, hi = elo
    se_e = (hi - lo) / (2 * Z)
    positions = common(b2, b, ref)
    out = {}
    for m in measures(ref):
        gain = paired(m, b2, b, positions, ref)
        scale = {"gain": gain, "usable": False}
        interval = fieller(e, se_e, gain["difference"], gain["se"]) \
            if gain["positions"] > 1 else None
        if interval is None:
            scale["why"] = "the gain's interval contains 0, so Elo / gain has no bound"
        else:
            scale.update({"usable": True, "ratio": e / gain["difference"],
                          "lo95": interval[0], "hi95": interval[1]})
        out[m.name] = scale
    return out


def setting_rows(settings, ref):
    """The per-setting rows of the first table (and --csv)."""
    rows = []
    for key in sorted(settings, key=setting_order):
        per = settings[key]
        pos = [p for p in sorted(per) if ref is None or p in ref]
        n = len(pos)
        k = sum(1 for p in pos if per[p]["agree"] == "1")
        lo, hi = wilson(k, n)
        lm, lh = mean_half([int(per[p]["loss_cp"]) for p in pos])
        depth = sum(int(per[p]["depth"]) for p in pos) / n if n else float("nan")
        row = {"driver": key[0], "threads": key[1], "positions": n, "agree": k,
               "agree_share": k / n if n else float("nan"), "agree_lo95": lo,
               "agree_hi95": hi, "loss_cp": lm, "loss_cp_half95": lh, "mean_depth": depth}
        if ref is not None:
            s = sum(1 for p in pos if per[p]["move"] == ref[p]["move"])
            slo, shi = wilson(s, n)
            row.update({"self": s, "self_share": s / n if n else float("nan"),
                        "self_lo95": slo, "self_hi95": shi})
        rows.append(row)
    return rows


# The columns of text, left-aligned; every other column holds figures, right-aligned.
TEXT_COLUMNS = ("driver", "first", "other", "measure", "unit", "Elo scale (95 %)")


def markdown(header, lines):
    """A markdown table of header and lines (lists of cells)."""
    print("| " + " | ".join(header) + " |")
    print("| " + " | ".join("---" if h in TEXT_COLUMNS else "---:" for h in header) + " |")
    for cells in lines:
        print("| " + " | ".join(cells) + " |")


def print_settings(rows, ref):
    header = ["driver", "threads", "positions", "agree % (95 %)", "loss cp (95 %)"]
    header += ["self % (95 %)"] if ref is not None else []
    lines = []
    for r in rows:
        cells = [r["driver"], "%d" % r["threads"], "%d" % r["positions"],
                 "%.1f (%.1f-%.1f)" % (100 * r["agree_share"], 100 * r["agree_lo95"],
                                       100 * r["agree_hi95"]),
                 "%.1f +- %.1f" % (r["loss_cp"], r["loss_cp_half95"])]
        if ref is not None:
            cells.append("%.1f (%.1f-%.1f)" % (100 * r["self_share"], 100 * r["self_lo95"],
                                               100 * r["self_hi95"]))
        lines.append(cells + ["%.2f" % r["mean_depth"]])
    markdown(header + ["depth"], lines)


def p_text(p):
    return "-" if math.isnan(p) else "<0.0001" if p < 0.0001 else "%.4f" % p


def pair_cells(r, scale):
    """The cells of one comparison: the Elo cell only when scale (a usable one) is given."""
    b_c = ["%d / %d" % (r["b"], r["c"])] if "b" in r else []
    holm_p = r.get("holm_p", float("nan"))
    det = r["detectable"]
    cells = ["%d" % r["threads"], r["first"], r["other"], "%d" % r["positions"]] + b_c + [
        "%+.1f (%+.1f .. %+.1f)" % (r["difference"], r["lo95"], r["hi95"]),
        p_text(r["p"]), p_text(holm_p) + (" *" if holm_p <= ALPHA else ""),
        "none" if det is None else "%.1f" % det]
    if scale is not None:
        cells.append("%+.0f / %s" % (r["difference"] * scale["ratio"], "-" if det is None
                                     else "%.0f" % abs(det * scale["ratio"])))
    return cells


def print_pairs(rows, untested, ref, scales):
    tests = sum(1 for r in rows if "holm_p" in r)
    counts = collections.Counter(r["measure"] for r in rows if "holm_p" in r)
    print("\nEvery pair of settings at each thread count, first less other, on the positions "
          "both searched.\nHolm's correction over the family of the %d tests below (%s); "
          "'*': adjusted p <= 0.05.\ndetectable: the smallest difference found with 80 %% "
          "power at alpha 0.05 (agreement: McNemar's exact test at the discordance "
          "observed; loss: 2.80 se)." %
          (tests, ", ".join("%s %d" % (m.name, counts[m.name]) for m in measures(ref))))
    if untested:
        print("\nnot tested (the same moves at every common position, or none in common): " +
              ", ".join("%s = %s (%d)" % (name(f), name(o), n) for f, o, n in untested))
    for m in measures(ref):
        scale = scales.get(m.name) if scales else None
        scale = scale if scale and scale["usable"] else None
        print("\n%s (difference in %s):\n" % (m.title, m.unit))
        header = ["threads", "first", "other", "positions"]
        header += ["b / c"] if m.agreement else []
        header += ["difference (95 %)", "p", "p Holm", "detectable"]
        header += ["Elo / detectable"] if scale else []
        lines = [pair_cells(r, scale) for r in rows if r["measure"] == m.name]
        if lines:
            markdown(header, lines)
        else:
            print("no pair of settings compared")


def print_scales(scales, doubling, files, elo, ref):
    (kb, b), (k2b, b2) = doubling
    e, lo, hi = elo
    n = len(common(b2, b, ref))
    print("\nElo scale: the doubling from %s of %s (B) to %s of %s (2B), 2B less B on %d "
          "positions, worth %+g Elo (95 %%: %+g .. %+g; taken as normal, sd %.1f); Elo per "
          "unit, Fieller's 95 %% interval:\n" %
          (name(kb), files[0].rpartition("=")[2], name(k2b), files[1].rpartition("=")[2], n,
           e, lo, hi, (hi - lo) / (2 * Z)))
    lines = []
    for m in measures(ref):
        s, g = scales[m.name], scales[m.name]["gain"]
        ratio = ("%+.2f Elo per %s (%+.2f .. %+.2f)" % (s["ratio"], m.per, s["lo95"],
                                                        s["hi95"])
                 if s["usable"] else "unusable: " + s["why"])
        lines.append([m.name, m.unit, "%+.2f (%+.2f .. %+.2f)" % (g["difference"], g["lo95"],
                                                                 g["hi95"]), ratio])
    markdown(["measure", "unit", "gain of the doubling (95 %)", "Elo scale (95 %)"], lines)


def write_csv(path, rows, fields, real):
    """rows written to path as CSV, the columns fields, floats in the format real, None
    empty."""
    with open_or_exit(path, "w") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if v is None else real % v if isinstance(v, float) else v)
                        for k, v in r.items()})


PAIR_FIELDS = ["measure", "threads", "first", "other", "positions", "b", "c", "difference",
               "lo95", "hi95", "p", "holm_p", "survives", "detectable", "elo", "elo_detectable"]


def with_elo(rows, scales):
    """rows with survives, elo and elo_detectable filled for --pairs-csv."""
    for r in rows:
        r["survives"] = int(r.get("holm_p", 1.0) <= ALPHA)
        s = (scales or {}).get(r["measure"])
        if s and s["usable"]:
            r["elo"] = r["difference"] * s["ratio"]
            r["elo_detectable"] = None if r["detectable"] is None else \
                abs(r["detectable"] * s["ratio"])
    return rows


def parse_elo(text):
    try:
        e, lo, hi = (float(x) for x in text.split(","))
    except ValueError:
        sys.exit("quality-curves.py: --elo %s: expected ELO,LO,HI (e.g. 100,55,149)" % text)
    if not lo < e < hi:
        sys.exit("quality-curves.py: --elo %s: expected LO < ELO < HI" % text)
    return e, lo, hi


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("Usage: ")[1].strip())
    ap.add_argument("--reference")
    ap.add_argument("--against")
    ap.add_argument("--csv")
    ap.add_argument("--pairs-csv")
    ap.add_argument("--elo-doubling", nargs=2)
    ap.add_argument("--elo", default="100,55,149")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    elo = parse_elo(a.elo)
    settings = read(a.files)
    if not settings:
        sys.exit("quality-curves.py: %s: no positions" % " ".join(a.files))
    rkey, ref = read_one(a.reference, "--reference") if a.reference else (None, None)
    doubling = [read_one(f, "--elo-doubling") for f in a.elo_doubling or []]
    scales = elo_scales(doubling, elo, ref) if doubling else None
    if ref is not None:
        depth = sum(int(r["depth"]) for r in ref.values()) / len(ref)
        print("reference of 'self': %s of %s, %d positions, mean depth %.2f\n" %
              (name(rkey), a.reference.rpartition("=")[2], len(ref), depth))

    rows = setting_rows(settings, ref)
    print_settings(rows, ref)
    pair_rows, untested = comparisons(settings, ref, a.against)
    print_pairs(pair_rows, untested, ref, scales)
    if doubling:
        print_scales(scales, doubling, a.elo_doubling, elo, ref)

    if a.csv:
        write_csv(a.csv, rows, list(rows[0]), "%.4f")
    if a.pairs_csv:
        write_csv(a.pairs_csv, with_elo(pair_rows, scales), PAIR_FIELDS, "%.6g")


if __name__ == "__main__":
    main()
