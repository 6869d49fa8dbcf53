/* SPDX-License-Identifier: MIT */
/*
 * The statistics of `cutoff match` (src/match/stats.c, compiled into this test) against
 * worked examples whose answers are computed here a second, independent way:
 *   - score and variance by listing every game (or pair) and summing over the list, not
 *     from the counts' closed form;
 *   - Elo by bisection on the logistic expected score 1 / (1 + 10^(-e/400)), not the log;
 *   - the likelihood of superiority by Simpson's rule on the normal density, not erf;
 *   - the SPRT's log-likelihood ratio by maximizing the multinomial likelihood directly
 *     (trinomial: over the draw rate, the one free parameter once the hypothesis fixes the
 *     rest; pentanomial, logistic Elo: the concave dual of that maximum, by golden
 *     section), not by the secular-equation root the module solves;
 *   - the worked example of docs/match-statistics.md, whose printed figures must match.
 * Then the claims: equal engines give Elo ~0 with an interval around 0; a 60 % score is
 * +70.4 Elo; correlated pairs give a narrower pentanomial interval; an SPRT over pairs drawn
 * from a known pentanomial law (seeded splitmix64) accepts H1 for a +50 Elo engine and H0
 * for equal engines within a bounded number of pairs; and every degenerate case (no games,
 * all draws, no variance, a score of 0 or 1, bad counts, bad SPRT settings).
 *
 * cutoff-test-labels: core
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "match/stats.h"
#include "random.h"

enum {
	MAX_SAMPLES = 4096
};

static bool near(double a, double b, double tol) { return fabs(a - b) <= tol; }

/* ---- the independent computations ----------------------------------------------------- */

/* Every sample's score per game, listed one by one; returns how many. */
static int list_scores(const match_stats_counts_t *c, match_stats_model_t model, double *out)
{
	int n = 0;
	if (model == MATCH_STATS_TRINOMIAL) {
		for (int64_t i = 0; i < c->wins; i++)
			out[n++] = 1.0;
		for (int64_t i = 0; i < c->draws; i++)
			out[n++] = 0.5;
		for (int64_t i = 0; i < c->losses; i++)
			out[n++] = 0.0;
		return n;
	}
	for (int k = 0; k < 5; k++)
		for (int64_t i = 0; i < c->pairs[k]; i++)
			out[n++] = k / 4.0;
	return n;
}

/* Mean and variance (over n, the population variance) of a listed sample. */
static void list_moments(const double *x, int n, double *mean, double *var)
{
	double m = 0, v = 0;
	for (int i = 0; i < n; i++)
		m += x[i];
	m /= n;
	for (int i = 0; i < n; i++)
		v += (x[i] - m) * (x[i] - m);
	*mean = m;
	*var = v / n;
}

/* The Elo difference whose expected score is s, by bisection on the logistic curve. */
static double elo_bisect(double s)
{
	double lo = -3000, hi = 3000;
	for (int i = 0; i < 200; i++) {
		double mid = 0.5 * (lo + hi);
		if (1.0 / (1.0 + pow(10.0, -mid / 400.0)) < s)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* P(Z <= x) for a standard normal Z, by Simpson's rule on its density from -12. */
static double normal_cdf_simpson(double x)
{
	const int n = 20000;
	double lo = -12, h = (x - lo) / n, s = 0;
	if (x <= lo)
		return 0;
	for (int i = 0; i <= n; i++) {
		double u = lo + i * h, f = exp(-u * u / 2) / sqrt(2 * 3.14159265358979323846);
		s += f * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
	}
	return s * h / 3;
}

/* The maximum of a unimodal f on (lo, hi): a scan of 2000 points, then golden section. */
static double golden_max(double (*f)(const void *, double), const void *ctx, double lo, double hi)
{
	const int scan = 2000;
	double best = lo + (hi - lo) / (scan + 1), fb = f(ctx, best), step = (hi - lo) / (scan + 1);
	for (int i = 2; i <= scan; i++) {
		double x = lo + i * step, fx = f(ctx, x);
		if (fx > fb) {
			best = x;
			fb = fx;
		}
	}
	double a = fmax(lo, best - step), b = fmin(hi, best + step), g = (sqrt(5) - 1) / 2;
	for (int i = 0; i < 200; i++) {
		double x1 = b - g * (b - a), x2 = a + g * (b - a);
		if (f(ctx, x1) < f(ctx, x2))
			a = x1;
		else
			b = x2;
	}
	return fmax(fb, f(ctx, 0.5 * (a + b)));
}

/* Counts with fishtest's regularization (a zero weighs 0.001), low outcome first. */
static int reg_counts(const match_stats_counts_t *c, match_stats_model_t model, double *n)
{
	int k = model == MATCH_STATS_TRINOMIAL ? 3 : 5;
	double raw[5] = { (double)c->losses, (double)c->draws, (double)c->wins };
	for (int i = 0; i < k; i++) {
		double v = k == 3 ? raw[i] : (double)c->pairs[i];
		n[i] = v > 0 ? v : 1e-3;
	}
	return k;
}

/* Trinomial log-likelihood when the hypothesis fixes the mean score s (logistic Elo) or
 * the t-value t (normalized Elo): with the draw rate d, the rest follows. */
typedef struct tri_ctx {
	double n[3];
	double s, t;
	bool normalized;
} tri_ctx_t;

static double tri_loglik(const void *vctx, double d)
{
	const tri_ctx_t *c = vctx;
	double pw, pl;
	if (c->normalized) {
		double delta = c->t * sqrt(1 - d) / sqrt(1 + c->t * c->t);
		pw = (1 - d + delta) / 2;
		pl = (1 - d - delta) / 2;
	} else {
		pw = c->s - d / 2;
		pl = 1 - c->s - d / 2;
	}
	if (pw <= 0 || pl <= 0 || d <= 0)
		return -INFINITY;
	return c->n[0] * log(pl) + c->n[1] * log(d) + c->n[2] * log(pw);
}

static double tri_max(tri_ctx_t *c, double hyp)
{
	double hi;
	if (c->normalized) {
		c->t = hyp;
		hi = 1;
	} else {
		c->s = hyp;
		hi = fmin(2 * hyp, 2 - 2 * hyp);
	}
	return golden_max(tri_loglik, c, 0, hi);
}

/* The trinomial LLR by direct maximization over the draw rate. */
static double tri_llr_brute(const match_sprt_t *t, const match_stats_counts_t *counts)
{
	tri_ctx_t c = { .normalized = t->normalized };
	reg_counts(counts, MATCH_STATS_TRINOMIAL, c.n);
	double h0 = t->normalized ? t->elo0 * log(10) / 800 : 1 / (1 + pow(10, -t->elo0 / 400));
	double h1 = t->normalized ? t->elo1 * log(10) / 800 : 1 / (1 + pow(10, -t->elo1 / 400));
	return tri_max(&c, h1) - tri_max(&c, h0);
}

/* Pentanomial, logistic Elo: the largest log-likelihood at mean s is
 * sum n_i log(n_i / N) - max over x of sum n_i log(1 + x (a_i - s)), a concave maximum. */
typedef struct penta_ctx {
	double n[5];
	double s;
} penta_ctx_t;

static double penta_dual(const void *vctx, double x)
{
	const penta_ctx_t *c = vctx;
	double h = 0;
	for (int i = 0; i < 5; i++) {
		double u = 1 + x * (i / 4.0 - c->s);
		if (u <= 0)
			return -INFINITY;
		h += c->n[i] * log(u);
	}
	return h;
}

static double penta_llr_dual(const match_sprt_t *t, const match_stats_counts_t *counts)
{
	penta_ctx_t c;
	double m[2];
	reg_counts(counts, MATCH_STATS_PENTANOMIAL, c.n);
	for (int h = 0; h < 2; h++) {
		c.s = 1 / (1 + pow(10, -(h ? t->elo1 : t->elo0) / 400));
		m[h] = golden_max(penta_dual, &c, -1 / (1 - c.s), 1 / c.s);
	}
	return m[0] - m[1];
}

/* ---- worked examples ------------------------------------------------------------------ */

/* Score, variance, Elo and interval, LOS of `c` under `model` against the list. */
static void check_against_list(const char *name, const match_stats_counts_t *c,
                               match_stats_model_t model)
{
	static double xs[MAX_SAMPLES];
	match_stats_t s;
	int n = list_scores(c, model, xs), games = model == MATCH_STATS_TRINOMIAL ? 1 : 2;
	double mean, var;
	list_moments(xs, n, &mean, &var);
	double se = sqrt(var / n), z = MATCH_STATS_Z95;
	CHECK(match_stats_compute(c, model, &s) == 0, "%s: compute", name);
	CHECK(s.samples == n, "%s: samples %lld, listed %d", name, (long long)s.samples, n);
	CHECK(near(s.score, mean, 1e-12), "%s: score %.12f, listed %.12f", name, s.score, mean);
	CHECK(near(s.variance, var, 1e-12), "%s: variance %.12f, listed %.12f", name, s.variance,
	      var);
	CHECK(near(s.elo, elo_bisect(mean), 1e-6), "%s: elo %.6f, bisection %.6f", name, s.elo,
	      elo_bisect(mean));
	CHECK(near(s.elo_lo, elo_bisect(mean - z * se), 1e-6) &&
	              near(s.elo_hi, elo_bisect(mean + z * se), 1e-6),
	      "%s: interval [%.4f, %.4f], bisection [%.4f, %.4f]", name, s.elo_lo, s.elo_hi,
	      elo_bisect(mean - z * se), elo_bisect(mean + z * se));
	double los;
	if (model == MATCH_STATS_TRINOMIAL) /* cutechess-cli: decisive games only */
		los = normal_cdf_simpson((double)(c->wins - c->losses) /
		                         sqrt((double)(c->wins + c->losses)));
	else
		los = normal_cdf_simpson((mean - 0.5) / se);
	CHECK(near(s.los, los, 1e-9), "%s: LOS %.10f, integrated %.10f", name, s.los, los);
	/* nElo: the score's distance from 1/2 in standard deviations of one game's score,
	 * where a pair's variance is that of the mean of two games. */
	double sigma_game = sqrt(games * var), t = (mean - 0.5) / sigma_game;
	CHECK(near(s.nelo, t * 800 / log(10), 1e-9), "%s: nElo %.6f, expected %.6f", name, s.nelo,
	      t * 800 / log(10));
	double half = z * 800 / log(10) / sqrt((double)games * n);
	CHECK(near(s.nelo_hi - s.nelo, half, 1e-9) && near(s.nelo - s.nelo_lo, half, 1e-9),
	      "%s: nElo interval half-width %.6f, expected %.6f", name, s.nelo_hi - s.nelo, half);
	printf("ok - %s (%s): %d samples, score %.4f, var %.5f, Elo %.1f [%.1f, %.1f], LOS "
	       "%.4f, nElo %.1f [%.1f, %.1f]\n",
	       name, model == MATCH_STATS_TRINOMIAL ? "trinomial" : "pentanomial", n, s.score,
	       s.variance, s.elo, s.elo_lo, s.elo_hi, s.los, s.nelo, s.nelo_lo, s.nelo_hi);
}

static void test_examples(void)
{
	/* Equal engines. */
	match_stats_counts_t eq = {
		.wins = 30, .draws = 40, .losses = 30, .pairs = { 3, 12, 20, 12, 3 }
	};
	match_stats_t s;
	check_against_list("equal", &eq, MATCH_STATS_TRINOMIAL);
	check_against_list("equal", &eq, MATCH_STATS_PENTANOMIAL);
	match_stats_compute(&eq, MATCH_STATS_TRINOMIAL, &s);
	CHECK(near(s.elo, 0, 1e-9) && s.elo_lo < 0 && s.elo_hi > 0 && near(s.los, 0.5, 1e-12),
	      "equal: Elo %.3f [%.3f, %.3f], LOS %.3f", s.elo, s.elo_lo, s.elo_hi, s.los);
	CHECK(near(s.draw_ratio, 0.4, 1e-12), "equal: draw ratio %.3f, expected 0.4", s.draw_ratio);
	match_stats_compute(&eq, MATCH_STATS_PENTANOMIAL, &s);
	CHECK(near(s.elo, 0, 1e-9) && s.elo_lo < 0 && s.elo_hi > 0 &&
	              near(s.draw_ratio, 0.4, 1e-12),
	      "equal pairs: Elo %.3f [%.3f, %.3f], pair draw ratio %.3f", s.elo, s.elo_lo, s.elo_hi,
	      s.draw_ratio);

	/* 60 %: 50 wins, 20 draws, 30 losses. -400 log10(1/0.6 - 1) = 400 log10(1.5) = 70.437. */
	match_stats_counts_t sixty = { .wins = 50, .draws = 20, .losses = 30 };
	check_against_list("60 %", &sixty, MATCH_STATS_TRINOMIAL);
	match_stats_compute(&sixty, MATCH_STATS_TRINOMIAL, &s);
	CHECK(near(s.elo, 70.437, 0.001), "60 %%: Elo %.4f, expected 70.437", s.elo);
	printf("ok - a 60 %% score is %+.2f Elo\n", s.elo);
	match_stats_counts_t sixty_pairs = { .pairs = { 2, 6, 16, 14, 12 } };
	check_against_list("uneven pairs", &sixty_pairs, MATCH_STATS_PENTANOMIAL);
}

/* 200 games as 100 pairs, most of them won by each side once (1-1, W+L, as when the
 * opening decides the game): the trinomial model sees 92 wins and 92 losses, a wide
 * spread; the pairs are nearly all even. */
static void test_correlated_pairs(void)
{
	/* As games: LL x2, LD x8, WL x80, WD x8, WW x2. */
	match_stats_counts_t c = { .wins = 80 + 8 + 4,
		                   .draws = 8 + 8,
		                   .losses = 4 + 8 + 80,
		                   .pairs = { 2, 8, 80, 8, 2 } };
	match_stats_t tri, penta;
	match_stats_compute(&c, MATCH_STATS_TRINOMIAL, &tri);
	match_stats_compute(&c, MATCH_STATS_PENTANOMIAL, &penta);
	CHECK(near(tri.score, penta.score, 1e-12), "correlated: scores %.6f and %.6f differ",
	      tri.score, penta.score);
	double wt = tri.elo_hi - tri.elo_lo, wp = penta.elo_hi - penta.elo_lo;
	CHECK(wp < 0.5 * wt,
	      "correlated pairs: pentanomial interval %.1f not well below the "
	      "trinomial %.1f",
	      wp, wt);
	printf("ok - correlated pairs: interval width %.1f Elo (pentanomial) against %.1f "
	       "(trinomial)\n",
	       wp, wt);
	check_against_list("correlated", &c, MATCH_STATS_PENTANOMIAL);
}

/* docs/match-statistics.md's worked example: 12 pairs, 24 games, the 7-9-8; the
 * figures as the doc prints them, each to its printed precision. */
typedef struct printed {
	const char *model;
	double score, variance, elo, elo_lo, elo_hi, los, draw_ratio, nelo, nelo_lo, nelo_hi;
	double llr; /* SPRT (0, 10), alpha = beta = 0.05 */
} printed_t;

static void test_doc_example(void)
{
	match_stats_counts_t c = { .wins = 7, .draws = 9, .losses = 8, .pairs = { 1, 3, 5, 2, 1 } };
	const printed_t doc[2] = {
		{ "trinomial", 0.479167, 0.155816, -14.48, -129.95, 97.76, 0.3981, 0.375, -18.34,
		  -157.34, 120.66, -0.0619 },
		{ "pentanomial", 0.479167, 0.067274, -14.48, -121.13, 89.42, 0.3904, 0.4167, -19.73,
		  -158.73, 119.27, -0.0701 },
	};
	match_sprt_t sp = { .elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05 };
	for (int m = 0; m < 2; m++) {
		const printed_t *d = &doc[m];
		match_stats_t s;
		check_against_list("doc example", &c, m);
		match_stats_compute(&c, m, &s);
		double llr = match_sprt_llr(&sp, &c, m);
		CHECK(near(s.score, d->score, 5e-7) && near(s.variance, d->variance, 5e-7) &&
		              near(s.elo, d->elo, 0.005) && near(s.elo_lo, d->elo_lo, 0.005) &&
		              near(s.elo_hi, d->elo_hi, 0.005) && near(s.los, d->los, 5e-5) &&
		              near(s.draw_ratio, d->draw_ratio, 5e-5) &&
		              near(s.nelo, d->nelo, 0.005) && near(s.nelo_lo, d->nelo_lo, 0.005) &&
		              near(s.nelo_hi, d->nelo_hi, 0.005) && near(llr, d->llr, 5e-5),
		      "doc example, %s: score %.6f var %.6f Elo %.2f [%.2f, %.2f] LOS %.4f draws "
		      "%.4f nElo %.2f [%.2f, %.2f] LLR %.4f differ from the doc",
		      d->model, s.score, s.variance, s.elo, s.elo_lo, s.elo_hi, s.los, s.draw_ratio,
		      s.nelo, s.nelo_lo, s.nelo_hi, llr);
		printf("ok - the doc's worked example, %s: Elo %.2f [%.2f, %.2f], LLR %.4f\n",
		       d->model, s.elo, s.elo_lo, s.elo_hi, llr);
	}
}

/* ---- the SPRT ------------------------------------------------------------------------- */

static void test_llr_oracles(void)
{
	const match_stats_counts_t samples[] = {
		{ .wins = 120, .draws = 230, .losses = 100, .pairs = { 10, 50, 110, 45, 10 } },
		{ .wins = 40, .draws = 5, .losses = 60, .pairs = { 4, 0, 30, 11, 1 } },
		{ .wins = 7, .draws = 9, .losses = 8, .pairs = { 1, 3, 5, 2, 1 } },
	};
	const match_sprt_t tests[] = {
		{ .elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05 },
		{ .elo0 = -3, .elo1 = 1, .alpha = 0.05, .beta = 0.05 },
		{ .elo0 = 0, .elo1 = 5, .alpha = 0.05, .beta = 0.05, .normalized = true },
	};
	for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
		for (size_t j = 0; j < sizeof tests / sizeof *tests; j++) {
			const match_sprt_t *t = &tests[j];
			double got = match_sprt_llr(t, &samples[i], MATCH_STATS_TRINOMIAL);
			double want = tri_llr_brute(t, &samples[i]);
			CHECK(near(got, want, 1e-6 + 1e-6 * fabs(want)),
			      "LLR sample %zu test %zu trinomial: %.9f, brute force %.9f", i, j,
			      got, want);
			if (t->normalized)
				continue;
			got = match_sprt_llr(t, &samples[i], MATCH_STATS_PENTANOMIAL);
			want = penta_llr_dual(t, &samples[i]);
			CHECK(near(got, want, 1e-6 + 1e-6 * fabs(want)),
			      "LLR sample %zu test %zu pentanomial: %.9f, dual %.9f", i, j, got,
			      want);
		}
	}
	printf("ok - LLR against direct maximization of the likelihood\n");
}

/* Pentanomial, normalized Elo: no oracle as direct as the others; the law's LLR must be
 * close to fishtest's closed-form approximation (normalized_elo_practical.pdf, 4.2),
 * (games / 2) ln((1 + (t - t0)^2) / (1 + (t - t1)^2)), which is good for small t. */
static void test_llr_normalized_pairs(void)
{
	match_stats_counts_t c = { .pairs = { 30, 180, 520, 220, 50 } };
	match_sprt_t t = { .elo0 = 0, .elo1 = 5, .alpha = 0.05, .beta = 0.05, .normalized = true };
	static double xs[MAX_SAMPLES];
	double mean, var;
	int n = list_scores(&c, MATCH_STATS_PENTANOMIAL, xs);
	list_moments(xs, n, &mean, &var);
	double nt = (mean - 0.5) / sqrt(2 * var), k = 800 / log(10);
	double t0 = t.elo0 / k, t1 = t.elo1 / k;
	double approx = n * log((1 + (nt - t0) * (nt - t0)) / (1 + (nt - t1) * (nt - t1)));
	double got = match_sprt_llr(&t, &c, MATCH_STATS_PENTANOMIAL);
	CHECK(near(got, approx, 0.03 * fabs(approx)), "normalized pairs: LLR %.5f, approx %.5f",
	      got, approx);
	printf("ok - normalized LLR over pairs %.4f, closed-form approximation %.4f\n", got,
	       approx);
}

/* One pair drawn from the law p[0..4] (points 0, 1/2, 1, 3/2, 2); also its two games,
 * a 1-point pair being a win and a loss or two draws with equal odds. */
static int draw_pair(uint64_t *rng, const double *p, match_stats_counts_t *c)
{
	double u = (double)(splitmix64(rng) >> 11) / 9007199254740992.0, acc = 0;
	int k = 4;
	for (int i = 0; i < 5; i++) {
		acc += p[i];
		if (u < acc) {
			k = i;
			break;
		}
	}
	static const int games[5][2] = { { 0, 0 }, { 0, 1 }, { 2, 0 }, { 2, 1 }, { 2, 2 } };
	int a = games[k][0], b = games[k][1];
	if (k == 2 && (splitmix64(rng) & 1))
		a = b = 1;
	match_stats_add_game(c, a);
	match_stats_add_game(c, b);
	match_stats_add_pair(c, a, b);
	return k;
}

/* Pairs from `p` until the SPRT decides or max_pairs; returns the decision, *pairs_used. */
static match_sprt_decision_t run_sprt(const match_sprt_t *t, const double *p, uint64_t seed,
                                      match_stats_model_t model, int max_pairs, int *pairs_used)
{
	match_stats_counts_t c = { 0 };
	uint64_t rng = seed;
	for (int i = 1; i <= max_pairs; i++) {
		draw_pair(&rng, p, &c);
		match_sprt_decision_t d = match_sprt_decide(t, match_sprt_llr(t, &c, model));
		if (d != MATCH_SPRT_CONTINUE) {
			*pairs_used = i;
			return d;
		}
	}
	*pairs_used = max_pairs;
	return MATCH_SPRT_CONTINUE;
}

static void test_sprt_simulated(void)
{
	/* +50 Elo: a pair's mean points per game 0.57125, Elo 49.85; equal: symmetric. */
	const double better[5] = { 0.025, 0.165, 0.42, 0.28, 0.11 };
	const double equal[5] = { 0.05, 0.2, 0.5, 0.2, 0.05 };
	double mean = 0;
	for (int i = 0; i < 5; i++)
		mean += better[i] * i / 4.0;
	CHECK(near(elo_bisect(mean), 50, 0.5), "the better law is %.2f Elo, not ~50",
	      elo_bisect(mean));
	const match_sprt_t tests[] = {
		{ .elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05 },
		{ .elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05, .normalized = true },
	};
	const match_stats_model_t models[] = { MATCH_STATS_PENTANOMIAL, MATCH_STATS_TRINOMIAL };
	for (int j = 0; j < 2; j++) {
		for (int m = 0; m < 2; m++) {
			const char *what = tests[j].normalized ? "nElo" : "Elo";
			const char *mod = m ? "games" : "pairs";
			int used;
			match_sprt_decision_t d =
				run_sprt(&tests[j], better, 1, models[m], 3000, &used);
			CHECK(d == MATCH_SPRT_H1,
			      "SPRT %s (0, 10) over %s, +50 Elo: decision %d after "
			      "%d pairs, not H1",
			      what, mod, (int)d, used);
			printf("ok - SPRT %s (0, 10) over %s: +50 Elo accepted H1 after %d pairs\n",
			       what, mod, used);
			d = run_sprt(&tests[j], equal, 2, models[m], 20000, &used);
			CHECK(d == MATCH_SPRT_H0,
			      "SPRT %s (0, 10) over %s, equal: decision %d after "
			      "%d pairs, not H0",
			      what, mod, (int)d, used);
			printf("ok - SPRT %s (0, 10) over %s: equal engines accepted H0 after %d "
			       "pairs\n",
			       what, mod, used);
		}
	}
	/* Twenty seeds each: at alpha = beta = 0.05 about one run in twenty of equal engines
	 * may wrongly accept H1; more than three would say the test is miscalibrated. */
	int right_better = 0, right_equal = 0, used;
	for (uint64_t seed = 100; seed < 120; seed++) {
		right_better += run_sprt(&tests[0], better, seed, MATCH_STATS_PENTANOMIAL, 3000,
		                         &used) == MATCH_SPRT_H1;
		right_equal += run_sprt(&tests[0], equal, seed, MATCH_STATS_PENTANOMIAL, 20000,
		                        &used) == MATCH_SPRT_H0;
	}
	CHECK(right_better >= 19 && right_equal >= 17,
	      "20 seeds: %d right for +50 Elo (want >= 19), %d for equal (want >= 17)",
	      right_better, right_equal);
	printf("ok - 20 seeds: %d of 20 accept H1 at +50 Elo, %d of 20 accept H0 when equal\n",
	       right_better, right_equal);
}

static void test_sprt_settings(void)
{
	match_sprt_t t = { .elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05 };
	CHECK(match_sprt_check(&t) == NULL, "a sound SPRT was refused");
	CHECK(near(match_sprt_lower(&t), log(0.05 / 0.95), 1e-12) &&
	              near(match_sprt_upper(&t), log(0.95 / 0.05), 1e-12),
	      "bounds %.4f, %.4f", match_sprt_lower(&t), match_sprt_upper(&t));
	CHECK(match_sprt_decide(&t, 2.95) == MATCH_SPRT_H1 &&
	              match_sprt_decide(&t, -2.95) == MATCH_SPRT_H0 &&
	              match_sprt_decide(&t, 0) == MATCH_SPRT_CONTINUE &&
	              match_sprt_decide(&t, NAN) == MATCH_SPRT_CONTINUE,
	      "decisions at 2.95, -2.95, 0, NAN");
	const match_sprt_t bad[] = {
		{ .elo0 = 10, .elo1 = 0, .alpha = 0.05, .beta = 0.05 },
		{ .elo0 = 0, .elo1 = 0, .alpha = 0.05, .beta = 0.05 },
		{ .elo0 = 0, .elo1 = 10, .alpha = 0, .beta = 0.05 },
		{ .elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 1 },
		{ .elo0 = 0, .elo1 = 10, .alpha = 0.6, .beta = 0.5 },
		{ .elo0 = NAN, .elo1 = 10, .alpha = 0.05, .beta = 0.05 },
		{ .elo0 = 0, .elo1 = INFINITY, .alpha = 0.05, .beta = 0.05 },
	};
	match_stats_counts_t c = { .wins = 3, .draws = 2, .losses = 1, .pairs = { 0, 1, 1, 1, 0 } };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		CHECK(match_sprt_check(&bad[i]) != NULL, "bad SPRT %zu accepted", i);
		CHECK(isnan(match_sprt_llr(&bad[i], &c, MATCH_STATS_PENTANOMIAL)),
		      "bad SPRT %zu gave an LLR", i);
	}
	printf("ok - SPRT bounds, decisions and %zu unsound settings refused (e.g. \"%s\")\n",
	       sizeof bad / sizeof *bad, match_sprt_check(&bad[0]));
}

/* ---- degenerate cases ----------------------------------------------------------------- */

static bool all_nan(const match_stats_t *s)
{
	return isnan(s->score) && isnan(s->variance) && isnan(s->se) && isnan(s->elo) &&
	       isnan(s->elo_lo) && isnan(s->elo_hi) && isnan(s->los) && isnan(s->draw_ratio) &&
	       isnan(s->nelo) && isnan(s->nelo_lo) && isnan(s->nelo_hi);
}

static void test_degenerate(void)
{
	match_stats_t s;
	match_sprt_t t = { .elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05 };
	match_sprt_t tn = { .elo0 = 0, .elo1 = 10, .alpha = 0.05, .beta = 0.05, .normalized = 1 };
	match_stats_counts_t none = { 0 };
	for (int m = 0; m < 2; m++) {
		CHECK(match_stats_compute(&none, m, &s) == 0 && s.samples == 0 && all_nan(&s),
		      "no games (model %d): not all NAN", m);
		CHECK(match_sprt_llr(&t, &none, m) == 0 && match_sprt_llr(&tn, &none, m) == 0,
		      "no games (model %d): LLR not 0", m);
	}

	match_stats_counts_t draws = { .draws = 10, .pairs = { 0, 0, 5, 0, 0 } };
	for (int m = 0; m < 2; m++) {
		CHECK(match_stats_compute(&draws, m, &s) == 0 && s.score == 0.5 && s.elo == 0 &&
		              s.variance == 0 && isnan(s.elo_lo) && isnan(s.elo_hi) &&
		              s.los == 0.5 && s.draw_ratio == 1 && isnan(s.nelo),
		      "all draws (model %d): score %g Elo %g [%g, %g] LOS %g draws %g nElo %g", m,
		      s.score, s.elo, s.elo_lo, s.elo_hi, s.los, s.draw_ratio, s.nelo);
		double l = match_sprt_llr(&t, &draws, m), ln = match_sprt_llr(&tn, &draws, m);
		CHECK(isfinite(l) && l < 0 && isfinite(ln) && ln < 0,
		      "all draws (model %d): LLR %g (nElo %g), expected finite and below 0", m, l,
		      ln);
	}

	match_stats_counts_t wins = { .wins = 12, .pairs = { 0, 0, 0, 0, 6 } };
	match_stats_compute(&wins, MATCH_STATS_TRINOMIAL, &s);
	CHECK(s.elo == INFINITY && isnan(s.elo_lo) && isnan(s.elo_hi) &&
	              near(s.los, normal_cdf_simpson(sqrt(12.0)), 1e-9) && isnan(s.nelo),
	      "all won: Elo %g [%g, %g] LOS %g nElo %g", s.elo, s.elo_lo, s.elo_hi, s.los, s.nelo);
	match_stats_compute(&wins, MATCH_STATS_PENTANOMIAL, &s);
	CHECK(s.elo == INFINITY && s.los == 1 && isnan(s.elo_lo), "all pairs won: Elo %g LOS %g",
	      s.elo, s.los);
	/* Six pairs won outright favour H1, if not yet enough to decide between 0 and 10. */
	double lw = match_sprt_llr(&t, &wins, MATCH_STATS_PENTANOMIAL);
	CHECK(isfinite(lw) && lw > 0, "6 pairs won outright: LLR %g, expected finite and > 0", lw);

	match_stats_counts_t lost = { .losses = 4, .pairs = { 2, 0, 0, 0, 0 } };
	match_stats_compute(&lost, MATCH_STATS_PENTANOMIAL, &s);
	CHECK(s.elo == -INFINITY && s.los == 0, "all pairs lost: Elo %g LOS %g", s.elo, s.los);

	/* A score near 1 with variance: the upper end passes 1 and is +INFINITY. */
	match_stats_counts_t most = { .wins = 99, .losses = 1 };
	match_stats_compute(&most, MATCH_STATS_TRINOMIAL, &s);
	CHECK(isfinite(s.elo) && isfinite(s.elo_lo) && s.elo_hi == INFINITY,
	      "99 of 100: Elo %g [%g, %g]", s.elo, s.elo_lo, s.elo_hi);

	match_stats_counts_t negative = { .wins = 1, .draws = -1, .pairs = { 0, 0, -2, 0, 0 } };
	for (int m = 0; m < 2; m++) {
		CHECK(match_stats_compute(&negative, m, &s) == -1 && all_nan(&s),
		      "negative count (model %d) accepted", m);
		CHECK(isnan(match_sprt_llr(&t, &negative, m)), "negative count (model %d): LLR", m);
	}

	CHECK(match_stats_elo(1) == INFINITY && match_stats_elo(0) == -INFINITY &&
	              isnan(match_stats_elo(NAN)) && match_stats_elo(0.5) == 0,
	      "elo(1), elo(0), elo(NAN), elo(1/2)");
	CHECK(near(match_stats_score(match_stats_elo(0.3)), 0.3, 1e-12), "score(elo(0.3))");

	match_stats_counts_t c = { 0 };
	CHECK(!match_stats_add_game(&c, 3) && !match_stats_add_game(&c, -1) &&
	              !match_stats_add_pair(&c, 0, 3) && !match_stats_add_pair(&c, -1, 0),
	      "out-of-range results counted");
	CHECK(match_stats_add_game(&c, 2) && match_stats_add_game(&c, 1) &&
	              match_stats_add_pair(&c, 2, 1) && c.wins == 1 && c.draws == 1 &&
	              c.losses == 0 && c.pairs[3] == 1,
	      "a win and a draw as a pair of 3/2");
	printf("ok - degenerate cases: no games, all draws, all won, all lost, a score near 1, "
	       "negative counts, bad results\n");
}

int main(void)
{
	test_examples();
	test_correlated_pairs();
	test_doc_example();
	test_llr_oracles();
	test_llr_normalized_pairs();
	test_sprt_settings();
	test_sprt_simulated();
	test_degenerate();
	return check_report();
}
