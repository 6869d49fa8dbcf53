#!/bin/bash
# SPDX-License-Identifier: MIT
# quality_stats.sh CUTOFF — checks the statistics of bench/quality-curves.py (issue 46) on
# quality-positions.csv files made here by hand, whose answers are known:
#   - McNemar's exact p: b = 10, c = 2 is 2 (1 + 12 + 66) / 2^12 = 0.0386; b = 7, c = 0 is
#     2 / 2^7 = 0.0156; b = 12, c = 0 is 2 / 2^12 = 0.0005;
#   - Holm over a family of 6 (those three and three losses of p 1, their paired differences
#     summing to 0): 6 x 0.00049 = 0.0029 survives (marked), 5 x 0.0156 = 0.0781 and
#     4 x 0.0386 = 0.1543 do not; on its own, (0.01, 0.04, 0.03, 0.005) adjust to (0.03,
#     0.06, 0.06, 0.02) (0.04 x 1 is raised to 0.06: the step-down is monotone);
#   - the detectable difference in agreement at n = 42 with m = 7 discordant positions:
#     the exact test rejects only b = 0 or 7 (b = 1: p = 0.125), so 80 % power needs
#     q^7 + (1 - q)^7 = 0.8, q = 0.8^(1/7) = 0.96863, and (7 / 42)(2q - 1) = 15.6 points;
#     at m = 5 the test cannot reject (2 / 32 > 0.05): none; for the loss at n = 20, ten
#     differences of -10 and two of +50, 2.80 x sqrt(6000 / 19 / 20) = 11.1 cp;
#   - labels: two files of the driver lazysmp, given as X=FILE and Y=FILE, are two settings
#     X and Y (serial/1, in both, once, and not renamed); a label on a file of two drivers
#     is refused;
#   - the Elo scale: a doubling whose 'self' gain is 20 of 100 positions (+20 points, se
#     100 sqrt(16 / 99) / 10 = 4.02), at 100 Elo (55 .. 149: se 23.98), is 5.00 Elo a
#     point, Fieller's interval 2.46 .. 9.38 (the roots of (100 - 20 r)^2 = 1.96^2 (23.98^2
#     + 4.02^2 r^2)); a gain of 0 is unusable; the pair 2B/1 - B/1, +20 points, is +100 Elo.
#   - bench/quality-plot.sh draws a --csv with 'self' columns (a line per setting's driver)
#     and refuses one without them (exit 2), when gnuplot is there.
# The output is the same bytes in two runs. Prints one "ok - ..." or "FAIL - ..." line per
# check and ends with "N passed, M failed".
set -u

# The usage check (one argument: PATH-TO-CUTOFF), $cutoff, $tmp (removed at exit), and
# ok, fail, run, good, bad, json_field, one_line, show, $python, $out and $err (lib.bash).
. "$(dirname "$0")/lib.bash"

curves=$(dirname "$0")/../../bench/quality-curves.py
if [ -z "$python" ]; then
	skip_all "no python3"
fi

header=driver,threads,position,id,depth,nodes,move,ref_move,agree,loss_cp,loss_bound
# row DRIVER THREADS POSITION MOVE AGREE LOSS: one line of a quality-positions.csv (the
# reference's move is e2e4).
row() {
	echo "$1,$2,$3,p$3,6,1000,$4,e2e4,$5,$6,0"
}

# Two runs of lazysmp, X and Y, each with the same serial/1 rows.
# At 2 threads, 20 positions: X alone agrees on 1-10 (Y loses 10 cp there), both on 11-18,
# Y alone on 19-20 (X loses 50): b = 10, c = 2, losses X - Y summing to 0.
# At 4 threads, 42 positions: X alone agrees on 1-7 (Y loses 10); on 8-14 neither, X loses
# 20, Y 10; elsewhere both play a3 for 30: b = 7, c = 0, losses summing to 0.
# At 8 threads, 24 positions: X alone agrees on 1-12 (Y loses 10); on 13-24 neither, X
# loses 20, Y 10: b = 12, c = 0, losses summing to 0.
{
	echo "$header"
	for i in $(seq 1 20); do row serial 1 "$i" a2a3 0 30; done
	for i in $(seq 1 20); do
		if [ "$i" -le 18 ]; then row lazysmp 2 "$i" e2e4 1 0; else row lazysmp 2 "$i" d2d4 0 50; fi
	done
	for i in $(seq 1 42); do
		if [ "$i" -le 7 ]; then row lazysmp 4 "$i" e2e4 1 0
		elif [ "$i" -le 14 ]; then row lazysmp 4 "$i" d2d4 0 20
		else row lazysmp 4 "$i" a2a3 0 30; fi
	done
	for i in $(seq 1 24); do
		if [ "$i" -le 12 ]; then row lazysmp 8 "$i" e2e4 1 0; else row lazysmp 8 "$i" d2d4 0 20; fi
	done
} >"$tmp/x.csv"
{
	echo "$header"
	for i in $(seq 1 20); do row serial 1 "$i" a2a3 0 30; done
	for i in $(seq 1 20); do
		if [ "$i" -le 10 ]; then row lazysmp 2 "$i" h2h3 0 10; else row lazysmp 2 "$i" e2e4 1 0; fi
	done
	for i in $(seq 1 42); do
		if [ "$i" -le 14 ]; then row lazysmp 4 "$i" h2h3 0 10; else row lazysmp 4 "$i" a2a3 0 30; fi
	done
	for i in $(seq 1 24); do row lazysmp 8 "$i" h2h3 0 10; done
} >"$tmp/y.csv"

# line_of TEXT PATTERN: the one line of TEXT that starts with PATTERN (a fixed string).
line_of() {
	grep -F -- "$2" <<<"$1" | head -n 1
}

table=$("$python" "$curves" --pairs-csv "$tmp/pairs.csv" "X=$tmp/x.csv" "Y=$tmp/y.csv" 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && [ "$(grep -c '^| serial | 1 | 20 |' <<<"$table")" -eq 1 ] &&
	grep -q '^| X | 2 | 20 |' <<<"$table" && grep -q '^| Y | 8 | 24 |' <<<"$table" &&
	! grep -q 'lazysmp' <<<"$table"; then
	ok "labels: lazysmp in X=FILE and Y=FILE is two settings, X and Y; serial/1 once"
else
	fail "labels: exit $rc: $(show "$table")"
fi
if grep -q "family of the 6 tests below (suite 3, loss 3)" <<<"$table"; then
	ok "Holm's family: 6 tests, said"
else
	fail "Holm's family: $(show "$(grep -i family <<<"$table")")"
fi
suite=$(sed -n "/^agreement with the suite/,/^centipawn/p" <<<"$table")
loss=$(sed -n "/^centipawn/,\$p" <<<"$table")
want2='| 2 | X/2 | Y/2 | 20 | 10 / 2 | +40.0 (+10.2 .. +69.8) | 0.0386 | 0.1543 |'
want4='| 4 | X/4 | Y/4 | 42 | 7 / 0 | +16.7 (+5.3 .. +28.1) | 0.0156 | 0.0781 | 15.6 |'
want8='| 8 | X/8 | Y/8 | 24 | 12 / 0 | +50.0 (+29.6 .. +70.4) | 0.0005 | 0.0029 * |'
for want in "$want2" "$want4" "$want8"; do
	if [[ $(line_of "$suite" "${want:0:12}") == "$want"* ]]; then
		ok "McNemar, Holm and detectable: $want"
	else
		fail "expected $want, got $(show "$(line_of "$suite" "${want:0:12}")")"
	fi
done
want='| 2 | X/2 | Y/2 | 20 | +0.0 (-7.8 .. +7.8) | 1.0000 | 1.0000 | 11.1 |'
if [ "$(line_of "$loss" "| 2 | X/2")" = "$want" ]; then
	ok "the loss: p 1, Holm 1, detectable 2.80 se = 11.1 cp: $want"
else
	fail "the loss at 2 threads: expected $want, got $(show "$(line_of "$loss" "| 2 | X/2")")"
fi
if grep -q '^suite,8,X/8,Y/8,24,12,0,50,.*,0.00292969,1,' "$tmp/pairs.csv" &&
	grep -q '^suite,2,X/2,Y/2,20,10,2,40,.*,0.0385742,0.154297,0,' "$tmp/pairs.csv" &&
	[ "$(wc -l <"$tmp/pairs.csv")" -eq 7 ]; then
	ok "--pairs-csv: a row per test, Holm's p and whether it survives"
else
	fail "--pairs-csv: $(show "$(cat "$tmp/pairs.csv" 2>&1)")"
fi
again=$("$python" "$curves" --pairs-csv "$tmp/pairs2.csv" "X=$tmp/x.csv" "Y=$tmp/y.csv" 2>&1)
if [ "$again" = "$table" ] && cmp -s "$tmp/pairs.csv" "$tmp/pairs2.csv"; then
	ok "the same input gives the same bytes"
else
	fail "two runs differ"
fi

# The statistics' functions on their own.
checks=$("$python" - "$curves" <<'EOF'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("curves", sys.argv[1])
qc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(qc)
close = lambda a, b: abs(a - b) < 1e-9
print("holm", all(map(close, qc.holm([0.01, 0.04, 0.03, 0.005]), [0.03, 0.06, 0.06, 0.02])))
print("mdd7", close(qc.mcnemar_detectable(42, 7), 7 / 42 * (2 * 0.8 ** (1 / 7) - 1)))
print("mdd5", qc.mcnemar_detectable(42, 5) is None)
print("mcnemar", close(qc.mcnemar(10, 2), 2 * 79 / 4096))
EOF
)
for name in holm mdd7 mdd5 mcnemar; do
	if grep -qx "$name True" <<<"$checks"; then
		ok "function: $name"
	else
		fail "function: $name: $(show "$checks")"
	fi
done

# A label on a file of two drivers (besides serial) is refused.
{ cat "$tmp/x.csv" && row ybw 2 1 e2e4 1 0; } >"$tmp/two.csv"
out=$("$python" "$curves" "Z=$tmp/two.csv" 2>&1)
rc=$?
want="quality-curves.py: Z=$tmp/two.csv: a label names one driver, the file holds lazysmp, ybw"
if [ "$rc" -eq 1 ] && [ "$out" = "$want" ]; then
	ok "a label on a file of two drivers: $(show "$out")"
else
	fail "a label on two drivers: exit $rc: $(show "$out")"
fi

# The Elo scale: serial at B and 2B, 100 positions; 2B alone plays the reference's move on
# 1-20, both on 21-100; neither agrees with the suite, both lose 30 (a gain of 0).
{
	echo "$header"
	for i in $(seq 1 100); do row serial 1 "$i" g1f3 0 30; done
} >"$tmp/ref.csv"
{
	echo "$header"
	for i in $(seq 1 100); do
		if [ "$i" -le 20 ]; then row serial 1 "$i" b1c3 0 30; else row serial 1 "$i" g1f3 0 30; fi
	done
} >"$tmp/b.csv"
table=$("$python" "$curves" --reference "$tmp/ref.csv" --elo-doubling "$tmp/b.csv" "$tmp/ref.csv" \
	"B=$tmp/b.csv" "2B=$tmp/ref.csv" 2>&1)
rc=$?
scale=$(sed -n '/^Elo scale/,$p' <<<"$table")
want='| self | points | +20.00 (+12.12 .. +27.88) | +5.00 Elo per point (+2.46 .. +9.38) |'
if [ "$rc" -eq 0 ] && [ "$(line_of "$scale" "| self |")" = "$want" ]; then
	ok "the Elo scale, Fieller's interval: $want"
else
	fail "the Elo scale: exit $rc: expected $want, got $(show "$scale")"
fi
if [[ $(line_of "$scale" "| suite |") == *"| unusable: the gain's interval contains 0"* ]]; then
	ok "a gain of 0: the scale is unusable, and why"
else
	fail "a gain of 0: $(show "$(line_of "$scale" "| suite |")")"
fi
self=$(sed -n "/^agreement with the 'self'/,/^centipawn/p" <<<"$table")
want='| threads | first | other | positions | b / c | difference (95 %) | p | p Holm | detectable'
if [[ $(line_of "$self" "| 1 | 2B/1 | B/1 |") == "| 1 | 2B/1 | B/1 | 100 | 20 / 0 | +20.0 "*"| +100 / "* ]] &&
	[ "$(line_of "$self" "| threads |")" = "$want | Elo / detectable |" ]; then
	ok "a usable scale: the pairs' differences in Elo (+20 points, +100 Elo)"
else
	fail "the Elo column: $(show "$self")"
fi
# bench/quality-plot.sh draws the --csv of a run with --reference: a line a setting's
# driver (B and 2B here), three panels; without 'self' columns it refuses the file.
plot=$(dirname "$0")/../../bench/quality-plot.sh
if command -v gnuplot >/dev/null 2>&1; then
	"$python" "$curves" --reference "$tmp/ref.csv" --csv "$tmp/curves.csv" \
		"B=$tmp/b.csv" "2B=$tmp/ref.csv" >/dev/null 2>&1
	out=$("$plot" "$tmp/curves.csv" "$tmp/curves.svg" 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q ">2B<" "$tmp/curves.svg" &&
		grep -q ">B<" "$tmp/curves.svg"; then
		ok "quality-plot.sh: an SVG with a line for B and for 2B"
	else
		fail "quality-plot.sh: exit $rc: $(show "$out")"
	fi
	"$python" "$curves" --csv "$tmp/noself.csv" "B=$tmp/b.csv" >/dev/null 2>&1
	out=$("$plot" "$tmp/noself.csv" "$tmp/x.svg" 2>&1)
	rc=$?
	if [ "$rc" -eq 2 ] && [[ $out == *"has no 'self' columns"* ]]; then
		ok "quality-plot.sh: a CSV without 'self' is refused"
	else
		fail "quality-plot.sh without 'self': exit $rc: $(show "$out")"
	fi
fi
out=$("$python" "$curves" --elo 100,150,149 "$tmp/b.csv" 2>&1)
rc=$?
want="quality-curves.py: --elo 100,150,149: expected LO < ELO < HI"
if [ "$rc" -eq 1 ] && [ "$out" = "$want" ]; then
	ok "a bad --elo: $(show "$out")"
else
	fail "a bad --elo: exit $rc: $(show "$out")"
fi
report
