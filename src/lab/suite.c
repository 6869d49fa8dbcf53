/* SPDX-License-Identifier: MIT */
/*
 * suite.c — reads a quality suite (bench/quality-suite.py writes one; the format is in its
 * header and in docs/benchmarks.md): EPD lines, the FEN (four fields, or six with the move
 * counters) then operations `opcode operands;` (split by cutoff_chess_parse_epd), of which
 * three are read:
 *   refs "MOVE SCORE MOVE SCORE ..."   the reference's moves best first, UCI notation,
 *                                      SCORE in centipawns or #N / #-N (mate in N for /
 *                                      against the side to move); required
 *   id "NAME"                          the position's name (else "line N")
 *   acd N                              the reference's depth
 * Others (c0, bm, ...) are skipped. Lines that are blank or start with # are skipped.
 *
 * The whole file is checked before it is used: the first bad line stops the read with a
 * message naming the file and the line, so that a bench never spends an hour searching to
 * report a typo at the end. Owns nothing shared; the entries are the caller's.
 */
#include "lab/suite.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/args.h"

enum {
	SUITE_LINE = 4096 /* the longest line read */
};

/* Where a line went wrong: the message in err, "FILE:LINE: what". Returns false. */
static bool fail(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static bool fail(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
{
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (line > 0)
		snprintf(err, errlen, "%s:%d: %s", path, line, what);
	else
		snprintf(err, errlen, "%s: %s", path, what);
	return false;
}

static char *skip_blanks(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* The next blank-separated word of *s (NUL-terminated in place; *s moves past it), or
 * NULL. */
static char *next_word(char **s)
{
	char *w = skip_blanks(*s);
	if (!*w)
		return NULL;
	char *e = w;
	while (*e && *e != ' ' && *e != '\t')
		e++;
	if (*e)
		*e++ = '\0';
	*s = e;
	return w;
}

static bool is_number(const char *w)
{
	if (*w == '-')
		w++;
	if (!*w)
		return false;
	for (; *w; w++)
		if (!isdigit((unsigned char)*w))
			return false;
	return true;
}

/* What read_score made of a word. */
typedef enum score_read {
	SCORE_OK,
	SCORE_NONE,  /* not a score: no number there */
	SCORE_RANGE, /* a number out of range */
} score_read_t;

/* The score ranges, as the errors say them. */
#define SCORE_CP_MAX 999999
#define SCORE_MATE_MAX 999

/* A score: centipawns (-SCORE_CP_MAX..SCORE_CP_MAX), or #N / #-N (N 1..SCORE_MATE_MAX). */
static score_read_t read_score(const char *w, int *out)
{
	bool mate = *w == '#';
	if (mate)
		w++;
	if (!is_number(w))
		return SCORE_NONE;
	long v = strlen(w) > 9 ? LONG_MAX : strtol(w, NULL, 10);
	if (!mate) {
		if (v < -SCORE_CP_MAX || v > SCORE_CP_MAX)
			return SCORE_RANGE;
		*out = (int)v;
		return SCORE_OK;
	}
	if (v == 0 || v > SCORE_MATE_MAX || v < -SCORE_MATE_MAX)
		return SCORE_RANGE;
	*out = v > 0 ? BENCH_SUITE_MATE - (int)v : -BENCH_SUITE_MATE - (int)v;
	return SCORE_OK;
}

/* The operands of `refs`: pairs of a move legal in e->state and a score. */
static bool read_refs(const cutoff_chess_t *chess, char *text, bench_suite_entry_t *e, char *why,
                      size_t whylen)
{
	char *w;
	while ((w = next_word(&text))) {
		if (e->nrefs == BENCH_SUITE_REFS) {
			snprintf(why, whylen, "refs: more than %d moves", BENCH_SUITE_REFS);
			return false;
		}
		char err[160];
		int k = e->nrefs;
		if (cutoff_chess_parse_move(chess, (const cutoff_chess_state_t *)e->state, w,
		                            &e->ref_move[k], err, sizeof(err)) < 0) {
			snprintf(why, whylen, "refs: %s", err);
			return false;
		}
		for (int j = 0; j < k; j++)
			if (e->ref_move[j] == e->ref_move[k]) {
				snprintf(why, whylen, "refs: move '%.16s' listed twice", w);
				return false;
			}
		snprintf(e->ref_text[k], sizeof(e->ref_text[k]), "%s", w);
		char *sc = next_word(&text);
		score_read_t got = sc ? read_score(sc, &e->ref_score[k]) : SCORE_NONE;
		if (got == SCORE_NONE) {
			snprintf(why, whylen,
			         "refs: move '%.16s' has no score (centipawns, or #N for a mate)",
			         w);
			return false;
		}
		if (got == SCORE_RANGE) {
			snprintf(why, whylen,
			         "refs: move '%.16s': score '%.16s' out of range (centipawns in "
			         "%d..%d, or #N / #-N with N in 1..%d)",
			         w, sc, -SCORE_CP_MAX, SCORE_CP_MAX, SCORE_MATE_MAX);
			return false;
		}
		e->nrefs++;
	}
	if (e->nrefs == 0) {
		snprintf(why, whylen, "refs: no move");
		return false;
	}
	return true;
}

/* The operations of a line read (epd): refs, id and acd; the others skipped. */
static bool read_operations(const cutoff_chess_t *chess, const cutoff_chess_epd_t *epd,
                            bench_suite_entry_t *e, char *why, size_t whylen)
{
	bool refs = false;
	for (int i = 0; i < epd->nops; i++) {
		const char *op = epd->op[i].opcode;
		char *arg = epd->op[i].operands;
		if (strcmp(op, "refs") == 0) {
			if (refs) {
				snprintf(why, whylen, "refs given twice");
				return false;
			}
			refs = true;
			if (!read_refs(chess, arg, e, why, whylen))
				return false;
		} else if (strcmp(op, "id") == 0) {
			snprintf(e->id, sizeof(e->id), "%s", arg);
		} else if (strcmp(op, "acd") == 0) {
			if (!is_number(arg) || atoi(arg) < 1 || atoi(arg) > 999) {
				snprintf(why, whylen, "acd: '%.16s' is not a depth", arg);
				return false;
			}
			e->depth = atoi(arg);
		}
	}
	if (!refs)
		snprintf(why, whylen, "no refs operation (the reference's moves and scores)");
	return refs;
}

/* One line (cutoff_chess_parse_epd): the position, then the operations. */
static bool read_entry(const cutoff_chess_t *chess, char *line, bench_suite_entry_t *e, char *why,
                       size_t whylen)
{
	cutoff_chess_epd_t epd;
	char err[160];
	if (cutoff_chess_parse_epd(chess, line, &epd, err, sizeof(err)) < 0) {
		if (epd.error == CUTOFF_CHESS_EPD_FIELDS)
			snprintf(why, whylen, "a FEN needs at least 4 fields");
		else if (epd.error == CUTOFF_CHESS_EPD_FEN)
			snprintf(why, whylen, "%.100s: '%.100s'", err, epd.position);
		else
			snprintf(why, whylen, "%s", err);
		return false;
	}
	memcpy(e->state, &epd.state, sizeof(epd.state));
	const cutoff_game_t *g = cutoff_chess_game(chess);
	int32_t v;
	if (g->terminal(g->ctx, e->state, &v)) {
		snprintf(why, whylen,
		         "the game is over in this position (mate, stalemate, or a "
		         "draw by rule): there is no move to compare: '%.100s'",
		         epd.position);
		return false;
	}
	return read_operations(chess, &epd, e, why, whylen);
}

/* Long: the read loop, its error paths one line each. */
bool bench_suite_load(const cutoff_chess_t *chess, const char *path, bench_suite_t *s, char *err,
                      size_t errlen)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", path);
	FILE *f = fopen(path, "r");
	if (!f)
		return fail(err, errlen, path, 0, "cannot be read: %s", strerror(errno));
	char *line = malloc(SUITE_LINE);
	int cap = 0, no = 0;
	bool ok = line != NULL;
	if (!ok)
		fail(err, errlen, path, 0, "out of memory");
	int n;
	while (ok && (n = cli_read_line(f, line, SUITE_LINE)) != CLI_LINE_END) {
		no++;
		if (n < 0) {
			if (n == CLI_LINE_LONG)
				ok = fail(err, errlen, path, no, "a line longer than %d bytes",
				          SUITE_LINE - 1);
			else
				ok = fail(err, errlen, path, no, "a NUL byte in the line");
			break;
		}
		char *t = skip_blanks(line);
		if (!*t || *t == '#')
			continue;
		if (s->n == cap) {
			cap = cap ? 2 * cap : 256;
			bench_suite_entry_t *e = realloc(s->entries, (size_t)cap * sizeof(*e));
			if (!e) {
				ok = fail(err, errlen, path, no, "out of memory");
				break;
			}
			s->entries = e;
		}
		bench_suite_entry_t *e = &s->entries[s->n];
		memset(e, 0, sizeof(*e));
		e->line = no;
		char why[256];
		if (!read_entry(chess, t, e, why, sizeof(why))) {
			ok = fail(err, errlen, path, no, "%s", why);
			break;
		}
		if (!e->id[0])
			snprintf(e->id, sizeof(e->id), "line %d", no);
		s->n++;
	}
	if (ok && ferror(f))
		ok = fail(err, errlen, path, 0, "cannot be read: %s", strerror(errno));
	if (ok && s->n == 0)
		ok = fail(err, errlen, path, 0, "holds no position");
	fclose(f);
	free(line);
	if (!ok)
		bench_suite_free(s);
	return ok;
}

void bench_suite_free(bench_suite_t *s)
{
	free(s->entries);
	s->entries = NULL;
	s->n = 0;
}

static int clip(int v)
{
	return v > BENCH_SUITE_CLIP    ? BENCH_SUITE_CLIP
	       : v < -BENCH_SUITE_CLIP ? -BENCH_SUITE_CLIP
	                               : v;
}

int bench_suite_loss(const bench_suite_entry_t *e, cutoff_move_t move, bool *bound)
{
	int k = 0;
	while (k < e->nrefs && e->ref_move[k] != move)
		k++;
	*bound = k == e->nrefs;
	if (*bound)
		k = e->nrefs - 1;
	int loss = clip(e->ref_score[0]) - clip(e->ref_score[k]);
	return loss > 0 ? loss : 0;
}

void bench_wilson95(int k, int n, double *lo, double *hi)
{
	const double z = 1.959964;
	double p = (double)k / n, z2n = z * z / n;
	double mid = (p + z2n / 2) / (1 + z2n);
	double half = z * sqrt(p * (1 - p) / n + z2n / (4.0 * n)) / (1 + z2n);
	*lo = mid - half < 0 ? 0 : mid - half;
	*hi = mid + half > 1 ? 1 : mid + half;
}
