/* SPDX-License-Identifier: MIT */
/*
 * stats.h — the statistics of a match between two engines, from the counts of its results:
 * the score, its variance, the Elo difference with a 95 % interval, the likelihood of
 * superiority, the draw ratio and the normalized Elo, under two models (the trinomial one
 * over games, the pentanomial one over game pairs), and the sequential probability ratio
 * test (SPRT) that stops a match once the results decide between two hypotheses.
 * docs/match-statistics.md gives every formula, its source and a worked example.
 *
 * Pure functions over counts: no I/O, no allocation, no state; safe to call from any
 * thread. Every figure is of engine 1 (the first --engine) against engine 2.
 *
 * The two models. The trinomial model counts games: losses, draws and wins (0, 1/2 and 1
 * point). The pentanomial model counts game pairs, an opening played twice with the colours
 * reversed, by the points engine 1 took from the pair: 0, 1/2, 1, 3/2 or 2. The two games of
 * a pair are correlated (an opening that favours one side gives one game to each engine),
 * which the trinomial model ignores; the pentanomial variance sees it, and gives the
 * narrower, honest interval. A pair left incomplete counts only in the trinomial figures.
 *
 * Scale. A sample is a game (trinomial) or a pair (pentanomial); its score is the points per
 * game engine 1 took from it, so 0, 1/2, 1 for a game and 0, 1/4, 1/2, 3/4, 1 for a pair.
 * `score` is the mean of those, `variance` their variance (per game for the trinomial, per
 * pair for the pentanomial), `se` the standard error of `score`.
 *
 * Values that do not exist. No samples: every figure NAN. A score of 1 (or 0): Elo +INFINITY
 * (-INFINITY); an interval end whose score reaches 1 (0) is +INFINITY (-INFINITY). A sample
 * without variance (every game drawn, every pair 1-1, every game won): the interval, the
 * normalized Elo and its interval are NAN, since nothing measured how far the score may
 * move. Nothing divides by zero: each such case is tested before.
 */
#ifndef CUTOFF_MATCH_STATS_H
#define CUTOFF_MATCH_STATS_H

#include <stdbool.h>
#include <stdint.h>

/* The two-sided 95 % quantile of the standard normal law. */
#define MATCH_STATS_Z95 1.959963984540054

/* The results of a match, of engine 1. pairs[k]: the pairs in which engine 1 took k/2
 * points (k = 0 .. 4). Every count is >= 0. */
typedef struct match_stats_counts {
	int64_t wins, draws, losses;
	int64_t pairs[5];
} match_stats_counts_t;

typedef enum match_stats_model {
	MATCH_STATS_TRINOMIAL,  /* samples are games: losses, draws, wins */
	MATCH_STATS_PENTANOMIAL /* samples are pairs: pairs[0 .. 4] */
} match_stats_model_t;

/* The figures of one model; see the opening comment for the scale and for NAN and
 * INFINITY. Elo is logistic Elo; the intervals are 95 %. */
typedef struct match_stats {
	int64_t samples;         /* games or pairs */
	double score;            /* points per game, 0 .. 1 */
	double variance;         /* of one sample's score (per game or per pair) */
	double se;               /* standard error of score: sqrt(variance / samples) */
	double elo;              /* -400 log10(1 / score - 1) */
	double elo_lo, elo_hi;   /* Elo of score -/+ MATCH_STATS_Z95 * se */
	double los;              /* likelihood of superiority, 0 .. 1 */
	double draw_ratio;       /* drawn games, or pairs of 1 point, over samples */
	double nelo;             /* normalized Elo: (score - 1/2) / sigma per game * 800 / ln 10 */
	double nelo_lo, nelo_hi; /* the same of score -/+ MATCH_STATS_Z95 * se */
} match_stats_t;

/* Adds one finished game to the trinomial counts: `half_points` is engine 1's points
 * doubled (0 loss, 1 draw, 2 win). Returns false (and counts nothing) for another value. */
bool match_stats_add_game(match_stats_counts_t *c, int half_points);

/* Adds one finished pair (both games of an opening, colours reversed) to the pentanomial
 * counts: engine 1's doubled points in each game (0, 1 or 2). Adds to pairs[] only, not to
 * the trinomial counts (add each game with match_stats_add_game). Returns false (and counts
 * nothing) for a value out of range. */
bool match_stats_add_pair(match_stats_counts_t *c, int half_points_a, int half_points_b);

/* Logistic Elo of a score per game: -400 log10(1/s - 1); +INFINITY at s >= 1, -INFINITY
 * at s <= 0, NAN for NAN. */
double match_stats_elo(double score);

/* The inverse: the expected score per game at an Elo difference, 1 / (1 + 10^(-elo/400)). */
double match_stats_score(double elo);

/* The figures of `c` under `model` into *out. Returns 0, or -1 (and *out all NAN, samples
 * 0) when a count is negative. */
int match_stats_compute(const match_stats_counts_t *c, match_stats_model_t model,
                        match_stats_t *out);

/* ---- SPRT ------------------------------------------------------------------------------ */

/* A test of H0: Elo = elo0 against H1: Elo = elo1 (elo0 < elo1), logistic Elo or, with
 * `normalized`, normalized Elo; alpha is the chance of accepting H1 when H0 holds, beta of
 * accepting H0 when H1 holds. */
typedef struct match_sprt {
	double elo0, elo1;
	double alpha, beta;
	bool normalized;
} match_sprt_t;

typedef enum match_sprt_decision {
	MATCH_SPRT_CONTINUE,
	MATCH_SPRT_H0, /* the lower bound was reached: accept H0 */
	MATCH_SPRT_H1  /* the upper bound was reached: accept H1 */
} match_sprt_decision_t;

/* NULL when the test is sound, else a one-line reason ("elo0 must be below elo1", ...):
 * finite elo0 < elo1, 0 < alpha, 0 < beta, alpha + beta < 1. */
const char *match_sprt_check(const match_sprt_t *t);

/* The bounds of the log-likelihood ratio: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha). */
double match_sprt_lower(const match_sprt_t *t);
double match_sprt_upper(const match_sprt_t *t);

/* The generalized log-likelihood ratio of H1 against H0 for the counts of `model`: the log
 * of the likelihood of the results under the most likely distribution of sample scores
 * whose Elo is elo1, over the same under elo0 (the GSPRT of fishtest). 0 without samples;
 * NAN when the test is unsound or, in normalized Elo, when a hypothesis admits no
 * distribution near the results (it has none within the scores' range). */
double match_sprt_llr(const match_sprt_t *t, const match_stats_counts_t *c,
                      match_stats_model_t model);

/* What to do at `llr`: continue, or accept H0 (llr <= lower) or H1 (llr >= upper). NAN
 * continues. */
match_sprt_decision_t match_sprt_decide(const match_sprt_t *t, double llr);

#endif
