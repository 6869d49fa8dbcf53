/* SPDX-License-Identifier: MIT */
/*
 * clock.c — the time control of `cutoff match`: --tc parsed into ns, the go command each
 * move is asked with, and a move's time charged to the side that took it.
 *
 * Timing. A move's time runs on the referee's CLOCK_MONOTONIC from the moment just before
 * `go` is written to the moment the read() that brought the `bestmove` line returned. The
 * engine's clock loses that time, then gains the increment. A move that takes longer than
 * the clock held (plus --margin) loses on time, whether or not a bestmove came later: the
 * referee stops waiting at that instant. Under --movetime the limit is the movetime plus
 * the margin; under --depth and --nodes no clock runs, and the limit is --timeout, past
 * which the engine gave no answer (a fault, but not a loss on time).
 *
 * Each engine has its own time control (m->tc[i], engine i): of one mode for both, the
 * limits may differ. Under a clock, the go command gives each side its own increment.
 *
 * Owns nothing: the clocks are the game's (game_t), the totals the engines' and the
 * game record's.
 */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "match/referee.h"

/* "10", "1.5", "0.01": seconds into ns, at most MATCH_TC_MAX_S s and 9 decimals; no sign. */
static bool parse_seconds(const char *s, size_t n, int64_t *ns)
{
	size_t i = 0;
	int64_t whole = 0, frac = 0, scale = NS_PER_S;
	if (n == 0 || !isdigit((unsigned char)s[0]))
		return false;
	for (; i < n && isdigit((unsigned char)s[i]); i++) {
		whole = whole * 10 + (s[i] - '0');
		if (whole > MATCH_TC_MAX_S)
			return false;
	}
	if (i < n && s[i] == '.') {
		i++;
		if (i == n || !isdigit((unsigned char)s[i]))
			return false;
		for (; i < n && isdigit((unsigned char)s[i]); i++) {
			if (scale == 1)
				return false;
			scale /= 10;
			frac += (s[i] - '0') * scale;
		}
	}
	if (i != n || (whole == MATCH_TC_MAX_S && frac > 0))
		return false;
	*ns = whole * NS_PER_S + frac;
	return true;
}

bool match_tc_parse(const char *text, int64_t *base, int64_t *inc)
{
	const char *plus = strchr(text, '+');
	size_t bl = plus ? (size_t)(plus - text) : strlen(text);
	if (!parse_seconds(text, bl, base) || *base <= 0)
		return false;
	*inc = 0;
	return !plus || parse_seconds(plus + 1, strlen(plus + 1), inc);
}

bool match_tc_timed(const tc_t *tc) { return tc->mode == TC_CLOCK || tc->mode == TC_MOVETIME; }

bool match_tc_same(const tc_t *a, const tc_t *b)
{
	return a->mode == b->mode && a->base == b->base && a->inc == b->inc &&
	       a->movetime == b->movetime && a->depth == b->depth && a->nodes == b->nodes;
}

int64_t match_tc_go(const tc_t *const by_colour[2], const int64_t clock[2], int colour, char *go,
                    size_t size)
{
	const tc_t *tc = by_colour[colour];
	switch (tc->mode) {
	case TC_CLOCK: {
		int64_t w = clock[0] / NS_PER_MS, b = clock[1] / NS_PER_MS;
		snprintf(go, size,
		         "go wtime %" PRId64 " btime %" PRId64 " winc %" PRId64 " binc %" PRId64,
		         w > 0 ? w : 1, b > 0 ? b : 1, by_colour[0]->inc / NS_PER_MS,
		         by_colour[1]->inc / NS_PER_MS);
		return clock[colour] + tc->margin;
	}
	case TC_MOVETIME:
		snprintf(go, size, "go movetime %" PRId64, tc->movetime / NS_PER_MS);
		return tc->movetime + tc->margin;
	case TC_DEPTH:
		snprintf(go, size, "go depth %" PRId64, tc->depth);
		return tc->timeout;
	default:
		snprintf(go, size, "go nodes %" PRIu64, tc->nodes);
		return tc->timeout;
	}
}

bool match_tc_charge(game_t *gm, engine_t *e, int colour, int64_t took, int64_t limit)
{
	const tc_t *tc = game_tc(gm, colour);
	game_rec_t *g = gm->g;
	g->used[colour] += took;
	e->used += took;
	if (!match_tc_timed(tc))
		return true;
	int64_t left = (tc->mode == TC_CLOCK ? gm->clock[colour] : tc->movetime) - took;
	if (tc->mode == TC_CLOCK)
		gm->clock[colour] = left;
	if (left < g->min_clock[colour])
		g->min_clock[colour] = left;
	if (left < e->min_clock)
		e->min_clock = left;
	if (took > limit)
		return false;
	if (tc->mode == TC_CLOCK)
		gm->clock[colour] += tc->inc;
	return true;
}
