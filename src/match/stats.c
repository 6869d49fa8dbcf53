/* SPDX-License-Identifier: MIT */
/*
 * stats.c — the statistics of a match (stats.h): a model's counts read as a discrete law of
 * sample scores, its mean and variance, and from them the Elo difference, its interval, the
 * likelihood of superiority, the normalized Elo, and the SPRT's log-likelihood ratio.
 * docs/match-statistics.md derives each formula and names its source.
 *
 * One shape for both models. A sample (a game, or a pair) takes one of k outcomes (k = 3 or
 * 5), outcome i scoring a_i = i / (k - 1) points per game; the counts n_i give the empirical
 * law. Everything below works on that law, so that the trinomial and pentanomial figures
 * come from the same lines and differ only in k and in the games per sample (1 or 2).
 *
 * The log-likelihood ratio is fishtest's generalized SPRT: the likelihood of the counts
 * under the most likely law of sample scores that satisfies H1, over the same under H0.
 * That law is the empirical one reweighted, p_i = phat_i / (1 + x b_i), with x the root of
 * a secular equation found by bisection (logistic Elo: b_i = a_i - s, the mean fixed), or
 * by a fixed point over such roots (normalized Elo: the t-value (mu - 1/2) / sigma fixed).
 * A count of 0 is taken as 0.001 there (fishtest's regularization) so that every outcome
 * has a weight and both laws exist.
 *
 * Invariants: no state, no allocation, no I/O; a figure that does not exist is NAN or
 * +-INFINITY as stats.h says, never the result of a division by zero.
 */
#include <math.h>
#include <stddef.h>

#include "match/stats.h"

enum {
	MAX_OUTCOMES = 5
};

/* nElo per unit of the per-game t-value (mu - 1/2) / sigma: 800 / ln 10. */
#define NELO_PER_T (800.0 / 2.302585092994045684)
/* What a zero count weighs in the log-likelihood ratio. */
#define REGULARIZE 1e-3

/* A model's counts as a law over k outcomes scoring a[i] per game. */
typedef struct law {
	int k;
	int games; /* per sample */
	double n[MAX_OUTCOMES];
	double a[MAX_OUTCOMES];
} law_t;

static bool law_of(const match_stats_counts_t *c, match_stats_model_t model, law_t *l)
{
	const int64_t *src;
	int64_t tri[3];
	if (model == MATCH_STATS_TRINOMIAL) {
		tri[0] = c->losses;
		tri[1] = c->draws;
		tri[2] = c->wins;
		src = tri;
		l->k = 3;
		l->games = 1;
	} else {
		src = c->pairs;
		l->k = 5;
		l->games = 2;
	}
	for (int i = 0; i < l->k; i++) {
		if (src[i] < 0)
			return false;
		l->n[i] = (double)src[i];
		l->a[i] = (double)i / (double)(l->k - 1);
	}
	return true;
}

static double sum(const double *x, int k)
{
	double s = 0;
	for (int i = 0; i < k; i++)
		s += x[i];
	return s;
}

/* Mean and variance of the scores a[] under weights w[] (any positive total). */
static void moments(const double *a, const double *w, int k, double *mean, double *var)
{
	double total = sum(w, k), m = 0, v = 0;
	for (int i = 0; i < k; i++)
		m += w[i] * a[i];
	m /= total;
	for (int i = 0; i < k; i++)
		v += w[i] * (a[i] - m) * (a[i] - m);
	*mean = m;
	*var = v / total;
}

/* Standard normal distribution function. */
static double phi_cdf(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

double match_stats_elo(double score)
{
	if (isnan(score))
		return NAN;
	if (score >= 1)
		return INFINITY;
	if (score <= 0)
		return -INFINITY;
	return -400.0 * log10(1.0 / score - 1.0);
}

double match_stats_score(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

bool match_stats_add_game(match_stats_counts_t *c, int half_points)
{
	switch (half_points) {
	case 0:
		c->losses++;
		return true;
	case 1:
		c->draws++;
		return true;
	case 2:
		c->wins++;
		return true;
	default:
		return false;
	}
}

bool match_stats_add_pair(match_stats_counts_t *c, int half_points_a, int half_points_b)
{
	if (half_points_a < 0 || half_points_a > 2 || half_points_b < 0 || half_points_b > 2)
		return false;
	c->pairs[half_points_a + half_points_b]++;
	return true;
}

static void stats_none(match_stats_t *out)
{
	*out = (match_stats_t){ .samples = 0,
		                .score = NAN,
		                .variance = NAN,
		                .se = NAN,
		                .elo = NAN,
		                .elo_lo = NAN,
		                .elo_hi = NAN,
		                .los = NAN,
		                .draw_ratio = NAN,
		                .nelo = NAN,
		                .nelo_lo = NAN,
		                .nelo_hi = NAN };
}

/* The likelihood of superiority. Trinomial: cutechess-cli's, from the decisive games only,
 * 1/2 (1 + erf((W - L) / sqrt(2 (W + L)))), 1/2 when every game was drawn. Pentanomial:
 * Phi((score - 1/2) / se), which at se = 0 is 1, 0 or 1/2 by the side of 1/2 the score is. */
static double los_of(const law_t *l, const match_stats_t *s)
{
	if (l->k == 3) {
		double w = l->n[2], lo = l->n[0];
		return w + lo > 0 ? 0.5 * (1.0 + erf((w - lo) / sqrt(2.0 * (w + lo)))) : 0.5;
	}
	if (s->se > 0)
		return phi_cdf((s->score - 0.5) / s->se);
	return s->score > 0.5 ? 1.0 : s->score < 0.5 ? 0.0 : 0.5;
}

int match_stats_compute(const match_stats_counts_t *c, match_stats_model_t model,
                        match_stats_t *out)
{
	law_t l;
	stats_none(out);
	if (!law_of(c, model, &l))
		return -1;
	double n = sum(l.n, l.k);
	if (n <= 0)
		return 0;
	out->samples = (int64_t)n;
	moments(l.a, l.n, l.k, &out->score, &out->variance);
	out->se = sqrt(out->variance / n);
	out->elo = match_stats_elo(out->score);
	out->draw_ratio = l.n[(l.k - 1) / 2] / n;
	out->los = los_of(&l, out);
	if (out->se > 0) {
		double d = MATCH_STATS_Z95 * out->se;
		double sigma_game = sqrt(l.games * out->variance);
		out->elo_lo = match_stats_elo(out->score - d);
		out->elo_hi = match_stats_elo(out->score + d);
		out->nelo = (out->score - 0.5) / sigma_game * NELO_PER_T;
		out->nelo_lo = (out->score - d - 0.5) / sigma_game * NELO_PER_T;
		out->nelo_hi = (out->score + d - 0.5) / sigma_game * NELO_PER_T;
	}
	return 0;
}

/* ---- SPRT ------------------------------------------------------------------------------ */

const char *match_sprt_check(const match_sprt_t *t)
{
	if (!isfinite(t->elo0) || !isfinite(t->elo1))
		return "elo0 and elo1 must be finite numbers";
	if (!(t->elo0 < t->elo1))
		return "elo0 must be below elo1";
	if (!(t->alpha > 0 && t->alpha < 1) || !(t->beta > 0 && t->beta < 1))
		return "alpha and beta must lie strictly between 0 and 1";
	if (!(t->alpha + t->beta < 1))
		return "alpha + beta must be below 1";
	return NULL;
}

double match_sprt_lower(const match_sprt_t *t) { return log(t->beta / (1.0 - t->alpha)); }

double match_sprt_upper(const match_sprt_t *t) { return log((1.0 - t->beta) / t->alpha); }

match_sprt_decision_t match_sprt_decide(const match_sprt_t *t, double llr)
{
	if (llr >= match_sprt_upper(t))
		return MATCH_SPRT_H1;
	if (llr <= match_sprt_lower(t))
		return MATCH_SPRT_H0;
	return MATCH_SPRT_CONTINUE;
}

/* The root of sum_i p_i b_i / (1 + x b_i) = 0 with every 1 + x b_i > 0, i.e. x in
 * (-1 / max b, -1 / min b); the sum falls from +inf to -inf there (every p_i > 0), so
 * bisection finds it. NAN unless min b < 0 < max b (then there is no root). */
static double secular(const double *p, const double *b, int k)
{
	double bmin = b[0], bmax = b[0];
	for (int i = 1; i < k; i++) {
		bmin = fmin(bmin, b[i]);
		bmax = fmax(bmax, b[i]);
	}
	if (!(bmin < 0 && bmax > 0))
		return NAN;
	double lo = -1.0 / bmax, hi = -1.0 / bmin;
	for (int iter = 0; iter < 200; iter++) {
		double mid = 0.5 * (lo + hi), f = 0;
		if (mid <= lo || mid >= hi)
			break;
		for (int i = 0; i < k; i++)
			f += p[i] * b[i] / (1.0 + mid * b[i]);
		if (f > 0)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* The most likely law p[] near the empirical one phat[] whose mean is s. */
static bool mle_mean(const law_t *l, const double *phat, double s, double *p)
{
	double b[MAX_OUTCOMES] = { 0 };
	for (int i = 0; i < l->k; i++)
		b[i] = l->a[i] - s;
	double x = secular(phat, b, l->k);
	if (isnan(x))
		return false;
	for (int i = 0; i < l->k; i++)
		p[i] = phat[i] / (1.0 + x * b[i]);
	return true;
}

/* The most likely law p[] near phat[] whose t-value (mu - 1/2) / sigma is t: Van den
 * Bergh's fixed point (normalized_elo_practical.pdf, section 4.1), from the uniform law. */
static bool mle_t_value(const law_t *l, const double *phat, double t, double *p)
{
	double phi[MAX_OUTCOMES], mu, var;
	for (int i = 0; i < l->k; i++)
		p[i] = 1.0 / l->k;
	for (int iter = 0; iter < 100; iter++) {
		moments(l->a, p, l->k, &mu, &var);
		double sigma = sqrt(var), change = 0;
		if (!(sigma > 0))
			return false;
		for (int i = 0; i < l->k; i++) {
			double z = (l->a[i] - mu) / sigma;
			phi[i] = l->a[i] - 0.5 - t * sigma * (1.0 + z * z) / 2.0;
		}
		double x = secular(phat, phi, l->k);
		if (isnan(x))
			return false;
		for (int i = 0; i < l->k; i++) {
			double next = phat[i] / (1.0 + x * phi[i]);
			change = fmax(change, fabs(next - p[i]));
			p[i] = next;
		}
		if (change < 1e-13)
			break;
	}
	moments(l->a, p, l->k, &mu, &var);
	return var > 0 && fabs((mu - 0.5) / sqrt(var) - t) < 1e-6;
}

double match_sprt_llr(const match_sprt_t *t, const match_stats_counts_t *c,
                      match_stats_model_t model)
{
	law_t l;
	double phat[MAX_OUTCOMES], p0[MAX_OUTCOMES], p1[MAX_OUTCOMES];
	if (match_sprt_check(t) || !law_of(c, model, &l))
		return NAN;
	if (sum(l.n, l.k) <= 0)
		return 0;
	for (int i = 0; i < l.k; i++)
		phat[i] = l.n[i] > 0 ? l.n[i] : REGULARIZE;
	double n = sum(phat, l.k);
	for (int i = 0; i < l.k; i++)
		phat[i] /= n;
	bool ok;
	if (t->normalized) {
		/* A pair's t-value is sqrt(2) times the per-game one: its sigma is 1/sqrt(2) of a
		 * game's when the two games are independent, which is how nElo counts a game. */
		double scale = sqrt((double)l.games) / NELO_PER_T;
		ok = mle_t_value(&l, phat, t->elo0 * scale, p0) &&
		     mle_t_value(&l, phat, t->elo1 * scale, p1);
	} else {
		ok = mle_mean(&l, phat, match_stats_score(t->elo0), p0) &&
		     mle_mean(&l, phat, match_stats_score(t->elo1), p1);
	}
	if (!ok)
		return NAN;
	double llr = 0;
	for (int i = 0; i < l.k; i++)
		llr += phat[i] * (log(p1[i]) - log(p0[i]));
	return n * llr;
}
