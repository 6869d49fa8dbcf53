/* SPDX-License-Identifier: MIT */
/*
 * cutoff_chess_parse_epd, the one reader of chess position lines (EPD suites, the quality
 * suite, the bench's positions, the perft file):
 *
 *   - good lines: EPD (four fields) and FEN (six) positions, with and without operations;
 *     the forms of each suite the project reads (bm/am/id, refs/acd, depth/ref/sf/id,
 *     D1 ..); quoted strings that hold ';' and blanks; empty operations; a ';' right after
 *     a field or an opcode; no final ';'; blanks of every kind; repeated opcodes; a
 *     position where the game is over (the caller's concern); exactly
 *     CUTOFF_CHESS_EPD_MAX_OPS operations; a line of 200,000 bytes;
 *   - every kind of malformed line, each with its out->error and its one-line message: a
 *     NULL argument, fewer than 4 fields (0 to 3, and a ';' among them), a FEN the chess
 *     reader refuses (out->position then names it), a bad opcode (shown quoted and cut,
 *     control bytes escaped), a string without its closing quote, too many operations;
 *     a message cut to a small err buffer, and none asked for;
 *   - every prefix of good lines and random mutations of them: read, or refused with a
 *     one-line message and out->error set (run it under `make asan`).
 *
 * cutoff-test-labels: chess
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cutoff_games.h"
#include "random.h"

#define WAC1 "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - -"
#define START CUTOFF_CHESS_START_FEN

static const cutoff_chess_t *chess;

/* The line read from a copy of `text` (the reader cuts its line), kept in buf. */
static int parse(const char *text, char *buf, size_t size, cutoff_chess_epd_t *out, char *err,
                 size_t errlen)
{
	snprintf(buf, size, "%s", text);
	return cutoff_chess_parse_epd(chess, buf, out, err, errlen);
}

/* True when operation i of e is (opcode, operands, quoted). */
static bool op_is(const cutoff_chess_epd_t *e, int i, const char *opcode, const char *operands,
                  bool quoted)
{
	return i < e->nops && strcmp(e->op[i].opcode, opcode) == 0 &&
	       strcmp(e->op[i].operands, operands) == 0 && e->op[i].quoted == quoted;
}

/* True when the position read is the one `fen` gives. */
static bool same_state(const cutoff_chess_epd_t *e, const char *fen)
{
	cutoff_chess_state_t st;
	return cutoff_chess_parse_fen(chess, fen, &st, NULL, 0) == 0 &&
	       memcmp(&st, &e->state, sizeof(st)) == 0;
}

static void good_lines(void)
{
	char buf[1024], err[256];
	cutoff_chess_epd_t e;

	int rc = parse(WAC1 " bm Qg6; id \"WAC.001\";", buf, sizeof(buf), &e, err, sizeof(err));
	CHECK(rc == 0 && e.error == CUTOFF_CHESS_EPD_OK && e.fields == 4 &&
	              strcmp(e.position, WAC1) == 0 && same_state(&e, WAC1) && e.nops == 2 &&
	              op_is(&e, 0, "bm", "Qg6", false) && op_is(&e, 1, "id", "WAC.001", true),
	      "an EPD line of Win at Chess: 4 fields, bm and id (%s)", err);

	rc = parse(START " ; depth 12 ; ref e2e4 14 ; sf 20 ; id sf_bench 1", buf, sizeof(buf), &e,
	           err, sizeof(err));
	CHECK(rc == 0 && e.fields == 6 && strcmp(e.position, START) == 0 && e.nops == 4 &&
	              op_is(&e, 0, "depth", "12", false) && op_is(&e, 1, "ref", "e2e4 14", false) &&
	              op_is(&e, 2, "sf", "20", false) && op_is(&e, 3, "id", "sf_bench 1", false),
	      "a bench position: a FEN, then depth, ref, sf and an id with a blank (%s)", err);

	rc = parse(START " ;D1 20 ;D2 400 ;D3 8902\n", buf, sizeof(buf), &e, err, sizeof(err));
	CHECK(rc == 0 && e.fields == 6 && e.nops == 3 && op_is(&e, 0, "D1", "20", false) &&
	              op_is(&e, 2, "D3", "8902", false),
	      "a perft line: D1 .. D3, and the newline left out (%s)", err);

	rc = parse("r1bqk2r/1pp2ppp/p4n2/2p5/3bP3/2N2N2/PPPP1PPP/R1BQ1RK1 w kq - 0 10 id "
	           "\"sp01.08\"; c0 \"self-play, built-in opening 1\"; acd 20; refs \"c3e2 224 "
	           "h2h3 184\";",
	           buf, sizeof(buf), &e, err, sizeof(err));
	CHECK(rc == 0 && e.fields == 6 && e.nops == 4 && op_is(&e, 0, "id", "sp01.08", true) &&
	              op_is(&e, 1, "c0", "self-play, built-in opening 1", true) &&
	              op_is(&e, 2, "acd", "20", false) &&
	              op_is(&e, 3, "refs", "c3e2 224 h2h3 184", true),
	      "a quality-suite line: counters, then id, c0, acd and refs (%s)", err);

	rc = parse("\t " WAC1 " \r\n", buf, sizeof(buf), &e, err, sizeof(err));
	CHECK(rc == 0 && e.fields == 4 && e.nops == 0 && strcmp(e.position, WAC1) == 0,
	      "a position alone, blanks of every kind around it: no operation (%s)", err);
	rc = parse(START, buf, sizeof(buf), &e, err, sizeof(err));
	CHECK(rc == 0 && e.fields == 6 && e.nops == 0 && same_state(&e, START),
	      "a FEN alone: 6 fields (%s)", err);
	rc = parse("4k3/8/8/8/8/8/8/4K3\tb  -\t- 7   30", buf, sizeof(buf), &e, err, sizeof(err));
	CHECK(rc == 0 && e.fields == 6 &&
	              strcmp(e.position, "4k3/8/8/8/8/8/8/4K3\tb  -\t- 7   30") == 0 &&
	              same_state(&e, "4k3/8/8/8/8/8/8/4K3 b - - 7 30"),
	      "tabs and runs of blanks between fields: kept in the position as written (%s)", err);

	rc = parse(WAC1 " c0 \"a;b; c\"; bm Qg6", buf, sizeof(buf), &e, err, sizeof(err));
	CHECK(rc == 0 && e.nops == 2 && op_is(&e, 0, "c0", "a;b; c", true) &&
	              op_is(&e, 1, "bm", "Qg6", false),
	      "a quoted string holds ';' and blanks; the last ';' may be left out (%s)", err);
	rc = parse(WAC1 ";; bm Qg6;;; id  \"a  b\"  ;;", buf, sizeof(buf), &e, err, sizeof(err));
	CHECK(rc == 0 && e.nops == 2 && op_is(&e, 0, "bm", "Qg6", false) &&
	              op_is(&e, 1, "id", "a  b", true),
	      "empty operations skipped, a ';' right after the last field (%s)", err);
	rc = parse(START ";noop; bm e4 d4", buf, sizeof(buf), &e, err, sizeof(err));
	CHECK(rc == 0 && e.fields == 6 && e.nops == 2 && op_is(&e, 0, "noop", "", false) &&
	              op_is(&e, 1, "bm", "e4 d4", false),
	      "a ';' right after the counters and after an opcode: no operands (%s)", err);
	rc = parse(WAC1 " pv \"Qg6\" \"fxg6\"; id \"\"; c1 \"x", buf, sizeof(buf), &e, err,
	           sizeof(err));
	CHECK(rc != 0 && e.error == CUTOFF_CHESS_EPD_QUOTE, "(an odd number of quotes: refused)");
	rc = parse(WAC1 " pv \"Qg6\" \"fxg6\"; id \"\"; bm Qg6; bm Qd3; A_9 x", buf, sizeof(buf),
	           &e, err, sizeof(err));
	CHECK(rc == 0 && e.nops == 5 && op_is(&e, 0, "pv", "\"Qg6\" \"fxg6\"", false) &&
	              op_is(&e, 1, "id", "", true) && op_is(&e, 2, "bm", "Qg6", false) &&
	              op_is(&e, 3, "bm", "Qd3", false) && op_is(&e, 4, "A_9", "x", false),
	      "two strings kept with their quotes, an empty string, an opcode twice, A_9 (%s)",
	      err);

	rc = parse("7k/6Q1/6K1/8/8/8/8/8 b - - bm Kh8", buf, sizeof(buf), &e, err, sizeof(err));
	CHECK(rc == 0 && e.nops == 1, "a position where the game is over is read (%s)", err);
	rc = parse("8/8/8/8/8/8/8/K1k5 w - - 0 1 0 1", buf, sizeof(buf), &e, err, sizeof(err));
	CHECK(rc != 0 && e.error == CUTOFF_CHESS_EPD_OPCODE && strstr(err, "bad opcode '0'"),
	      "numbers after the counters are operations, and bad ones: %s", err);

	cutoff_chess_epd_t copy;
	rc = parse(WAC1 " bm Qg6;", buf, sizeof(buf), &e, err, sizeof(err));
	copy = e;
	CHECK(rc == 0 && copy.op[0].opcode == buf + strlen(WAC1) + 1 && copy.position == buf &&
	              op_is(&copy, 0, "bm", "Qg6", false),
	      "the strings point into the line; a copy of the result reads the same");
	printf("good lines: EPD, FEN, the bench's, the perft file's and the quality suite's "
	       "forms, quotes, blanks, empty operations\n");
}

/* A line of n operations "o0 0; o1 1; ...". */
static char *many_ops(int n)
{
	size_t size = strlen(WAC1) + 16 * (size_t)n + 2;
	char *s = malloc(size);
	if (!s)
		return NULL;
	size_t o = (size_t)snprintf(s, size, "%s", WAC1);
	for (int i = 0; i < n; i++)
		o += (size_t)snprintf(s + o, size - o, " o%d %d;", i, i);
	return s;
}

static void long_lines(void)
{
	char err[256];
	cutoff_chess_epd_t e;
	enum {
		LONG = 200000
	};
	char *line = malloc(LONG + 256);
	CHECK(line != NULL, "memory for a long line");
	if (!line)
		return;
	size_t o = (size_t)sprintf(line, "%s c0 \"", WAC1);
	memset(line + o, 'x', LONG);
	o += LONG;
	sprintf(line + o, "\"; bm Qg6");
	int rc = cutoff_chess_parse_epd(chess, line, &e, err, sizeof(err));
	CHECK(rc == 0 && e.nops == 2 && strlen(e.op[0].operands) == LONG &&
	              op_is(&e, 1, "bm", "Qg6", false),
	      "a line of %d bytes is read whole (%s)", LONG + 40, err);

	char *s = many_ops(CUTOFF_CHESS_EPD_MAX_OPS);
	rc = s ? cutoff_chess_parse_epd(chess, s, &e, err, sizeof(err)) : -1;
	CHECK(rc == 0 && e.nops == CUTOFF_CHESS_EPD_MAX_OPS &&
	              op_is(&e, CUTOFF_CHESS_EPD_MAX_OPS - 1, "o63", "63", false),
	      "%d operations are read (%s)", CUTOFF_CHESS_EPD_MAX_OPS, err);
	free(s);
	s = many_ops(CUTOFF_CHESS_EPD_MAX_OPS + 1);
	rc = s ? cutoff_chess_parse_epd(chess, s, &e, err, sizeof(err)) : 0;
	CHECK(rc == CUTOFF_EINVAL && e.error == CUTOFF_CHESS_EPD_TOO_MANY &&
	              strcmp(err, "more than 64 operations") == 0,
	      "%d operations are refused: '%s'", CUTOFF_CHESS_EPD_MAX_OPS + 1, err);
	free(s);

	/* A placement of 10,000 bytes: the FEN reader's message is one short line. */
	memset(line, 'p', 10000);
	sprintf(line + 10000, " w - - bm e4");
	rc = cutoff_chess_parse_epd(chess, line, &e, err, sizeof(err));
	CHECK(rc == CUTOFF_EINVAL && e.error == CUTOFF_CHESS_EPD_FEN && strlen(err) < 200 &&
	              !strchr(err, '\n') && strlen(e.position) == 10000 + 6,
	      "a 10,000-byte placement: refused by the FEN reader in one line: '%s'", err);
	free(line);
	printf("long lines: %d bytes, %d operations, a 10,000-byte field\n", LONG + 40,
	       CUTOFF_CHESS_EPD_MAX_OPS);
}

/* A malformed line: refused with `kind`, and a one-line message that holds `want`. */
static void bad(const char *text, cutoff_chess_epd_error_t kind, const char *want)
{
	char buf[1024], err[256];
	cutoff_chess_epd_t e;
	int rc = parse(text, buf, sizeof(buf), &e, err, sizeof(err));
	CHECK(rc == CUTOFF_EINVAL && e.error == kind && strstr(err, want) && !strchr(err, '\n'),
	      "refused (kind %d): '%s' says '%s'", (int)kind, text, err);
}

static void bad_lines(void)
{
	char buf[64] = "x", err[256];
	cutoff_chess_epd_t e;
	e.error = CUTOFF_CHESS_EPD_OK;
	CHECK(cutoff_chess_parse_epd(NULL, buf, &e, err, sizeof(err)) == CUTOFF_EINVAL &&
	              e.error == CUTOFF_CHESS_EPD_NULL && strcmp(err, "EPD: a NULL argument") == 0,
	      "a NULL chess: '%s'", err);
	CHECK(cutoff_chess_parse_epd(chess, NULL, &e, err, sizeof(err)) == CUTOFF_EINVAL &&
	              e.error == CUTOFF_CHESS_EPD_NULL,
	      "a NULL line");
	CHECK(cutoff_chess_parse_epd(chess, buf, NULL, err, sizeof(err)) == CUTOFF_EINVAL &&
	              strcmp(err, "EPD: a NULL argument") == 0 && strcmp(buf, "x") == 0,
	      "a NULL out: the line untouched");

	const char *fields = "expected a position of 4 fields (placement, side, castling, en "
			     "passant), found ";
	char want[160];
	const char *few[] = { "", "  \t\r\n", "8/8/8/8/8/8/8/K1k5", "8/8/8/8/8/8/8/K1k5 w",
		              "8/8/8/8/8/8/8/K1k5 w -" };
	for (int n = 0; n < 5; n++) {
		snprintf(want, sizeof(want), "%s%d", fields, n < 2 ? 0 : n - 1);
		bad(few[n], CUTOFF_CHESS_EPD_FIELDS, want);
	}
	snprintf(want, sizeof(want), "%s3", fields);
	bad("6k1/5ppp/8/8/8/8/8/R5K1 w - ; bm Ra8#;", CUTOFF_CHESS_EPD_FIELDS, want);
	snprintf(want, sizeof(want), "%s0", fields);
	bad("; bm e4", CUTOFF_CHESS_EPD_FIELDS, want);

	bad("6k1/5ppp/8/8/8/8/8/R5K9 w - - bm Ra8#;", CUTOFF_CHESS_EPD_FEN, "piece placement: ");
	bad("R5k1/5ppp/8/8/8/8/8/6K1 w - - bm Kh2;", CUTOFF_CHESS_EPD_FEN, "side to move: ");
	bad("8/8/8/8/8/8/8/K1k5 x - - bm Kb1", CUTOFF_CHESS_EPD_FEN, "side to move: ");
	bad("8/8/8/8/8/8/8/K1k5 w KQ - bm Kb1", CUTOFF_CHESS_EPD_FEN, "castling: ");
	bad("8/8/8/8/8/8/8/K1k5 w - - 200 1", CUTOFF_CHESS_EPD_FEN, "halfmove clock: ");
	int rc = parse("8/8/8/8/8/8/8/K1k5   w - e9 0 1; bm Kb1", buf, sizeof(buf), &e, err,
	               sizeof(err));
	CHECK(rc == CUTOFF_EINVAL && e.error == CUTOFF_CHESS_EPD_FEN &&
	              strcmp(e.position, "8/8/8/8/8/8/8/K1k5   w - e9 0 1") == 0,
	      "a FEN refused: out->position holds it as written ('%s')", e.position);

	bad(WAC1 " bm Qg6; 5x \"bad opcode\";", CUTOFF_CHESS_EPD_OPCODE,
	    "bad opcode '5x' (an opcode is a letter then letters, digits or '_')");
	bad(WAC1 " b-m Qg6;", CUTOFF_CHESS_EPD_OPCODE, "bad opcode 'b-m'");
	bad(WAC1 " id\"x\";", CUTOFF_CHESS_EPD_OPCODE, "bad opcode 'id\"x\"'");
	bad(WAC1 " b\x01m's Qg6;", CUTOFF_CHESS_EPD_OPCODE, "bad opcode 'b\\x01m\\'s'");
	bad(WAC1 " abcdefghijklmnopqrstuvwxyz-", CUTOFF_CHESS_EPD_OPCODE,
	    "bad opcode 'abcdefghijklmnopqrstuvwx' (");
	bad(WAC1 " 0 bm Qg6", CUTOFF_CHESS_EPD_OPCODE, "bad opcode '0'");
	bad(START " 0", CUTOFF_CHESS_EPD_OPCODE, "bad opcode '0'");

	bad(WAC1 " bm Qg6; id \"open string;", CUTOFF_CHESS_EPD_QUOTE,
	    "id: a string without its closing '\"'");
	bad(WAC1 " c0 \"a\" \"b;", CUTOFF_CHESS_EPD_QUOTE, "c0: a string without its closing");

	/* The message cut to the buffer, or not written at all. */
	char small[8];
	rc = parse(WAC1 " 5x;", buf, sizeof(buf), &e, small, sizeof(small));
	CHECK(rc == CUTOFF_EINVAL && strcmp(small, "bad opc") == 0, "cut to 8 bytes: '%s'", small);
	small[0] = 'z';
	rc = parse(WAC1 " 5x;", buf, sizeof(buf), &e, small, 0);
	CHECK(rc == CUTOFF_EINVAL && small[0] == 'z' && e.error == CUTOFF_CHESS_EPD_OPCODE,
	      "errlen 0: nothing written, the kind still said");
	rc = parse(WAC1 " 5x;", buf, sizeof(buf), &e, NULL, 100);
	CHECK(rc == CUTOFF_EINVAL && e.error == CUTOFF_CHESS_EPD_OPCODE, "err NULL");
	printf("malformed lines: NULL arguments, 0 to 3 fields, bad FENs, bad opcodes, open "
	       "strings, too many operations\n");
}

/* Every prefix and random mutations of good lines: read, or refused cleanly. */
static void prefixes_and_mutations(void)
{
	static const char *const good[] = {
		WAC1 " bm Qg6; id \"WAC.001\";",
		START " ; depth 12 ; ref e2e4 14 ; id sf_bench 1",
		("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4 "
		 "id \"m\"; acd 20; refs \"h5f7 #1 d2d3 -30\";"),
	};
	static const char alphabet[] = " \t;\"_-0123456789abkqrKQRwx/\x01";
	uint64_t rng = 12345;
	int read = 0, refused = 0, wrong = 0;
	for (size_t g = 0; g < sizeof(good) / sizeof(good[0]); g++) {
		size_t len = strlen(good[g]);
		for (size_t k = 0; k <= len + 400; k++) {
			char buf[512], err[256];
			if (k <= len) {
				memcpy(buf, good[g], k);
				buf[k] = '\0';
			} else {
				snprintf(buf, sizeof(buf), "%s", good[g]);
				for (int m = 0; m < 3; m++)
					buf[splitmix64(&rng) % len] =
						alphabet[splitmix64(&rng) % (sizeof(alphabet) - 1)];
			}
			cutoff_chess_epd_t e;
			err[0] = 'z';
			int rc = cutoff_chess_parse_epd(chess, buf, &e, err, sizeof(err));
			if (rc == 0 && e.error == CUTOFF_CHESS_EPD_OK && err[0] == '\0' &&
			    (e.fields == 4 || e.fields == 6) && e.nops <= CUTOFF_CHESS_EPD_MAX_OPS)
				read++;
			else if (rc == CUTOFF_EINVAL && e.error != CUTOFF_CHESS_EPD_OK && err[0] &&
			         !strchr(err, '\n'))
				refused++;
			else
				wrong++;
		}
	}
	CHECK(wrong == 0 && read > 0 && refused > 0,
	      "prefixes and mutations: %d read, %d refused cleanly, %d otherwise", read, refused,
	      wrong);
	printf("prefixes and mutations: %d read, %d refused\n", read, refused);
}

int main(void)
{
	int err;
	cutoff_chess_t *c = cutoff_chess_new(&err);
	CHECK(c != NULL, "cutoff_chess_new: %s", cutoff_strerror(err));
	if (!c)
		return check_report();
	chess = c;
	good_lines();
	long_lines();
	bad_lines();
	prefixes_and_mutations();
	cutoff_chess_free(c);
	return check_report();
}
