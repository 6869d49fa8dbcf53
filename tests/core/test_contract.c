/* SPDX-License-Identifier: MIT */
/*
 * The contract test: every search algorithm, on random cases, against brute-force negamax.
 *
 * A case is a random uniform tree (branching 2..5, depth 1..7, independent or incremental
 * values, a random seed), a random
 * node in it (a random walk from the root), a search depth that may stop above the
 * leaves or reach past them (odd and even mixed), and a random window: wide, narrow, null
 * (beta = alpha + 1), or infinite on either side. For the returned value v and the true
 * depth-limited negamax value V, computed here by a separate ten-line negamax over the
 * game interface:
 *     alpha < v < beta  =>  V == v,   v <= alpha  =>  V <= v,   v >= beta  =>  V >= v
 * and the reported bound must say which case it is. Each algorithm runs CASES cases
 * without a table, and CASES more with a table (cleared per case, since a node searched
 * deeper in an earlier case would rightly answer with its deeper value), half of them
 * through iterative deepening with narrow aspiration windows, and CASES more with the table
 * and enhanced transposition cut-offs from depth 2 (config.etc_min_depth). Every move-ordering
 * heuristic is on (the default). Zero violations are allowed.
 *
 * Usage: test_contract [cases] [seed]
 */
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "base/topo.h"
#include "check.h"
#include "cutoff_games.h"
#include "oracle.h"
#include "random.h"

static hwloc_topology_t topology;

static uint64_t rng_state;

static uint64_t rnd(void) { return splitmix64(&rng_state); }

static int rnd_int(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); }

static int32_t random_bound(void) { return rnd_int(-110, 110); }

static void random_window(int32_t *alpha, int32_t *beta)
{
	switch (rnd_int(0, 5)) {
	case 0: /* full */
		*alpha = -CUTOFF_INF;
		*beta = CUTOFF_INF;
		return;
	case 1: /* null */
		*alpha = random_bound();
		*beta = *alpha + 1;
		return;
	case 2: /* open above */
		*alpha = random_bound();
		*beta = CUTOFF_INF;
		return;
	case 3: /* open below */
		*alpha = -CUTOFF_INF;
		*beta = random_bound();
		return;
	default: {
		int32_t a = random_bound(), b = random_bound();
		if (a == b)
			b = a + 1 + rnd_int(0, 20);
		*alpha = a < b ? a : b;
		*beta = a < b ? b : a;
		return;
	}
	}
}

static const char *algo_name[] = { "minimax", "alphabeta", "pvs", "mtdf" };
/* Without a table, with one, with one and enhanced transposition cut-offs. */
static const char *table_name[] = { "off", "on", "etc" };

struct tally {
	int cases, violations, bound_errors, inside, low, high;
	uint64_t etc_cutoffs; /* nodes answered by enhanced transposition cut-offs */
};

/* Trees and engines are made once per shape and reused (an engine loads nothing twice;
 * its table is cleared per case). */
static cutoff_rtree_t *trees[2][6][8];
static cutoff_engine_t *engines[2][4][3][6][8];

static void one_case(cutoff_algo_t algo, int table, struct tally *t)
{
	int b = rnd_int(2, 5), depth = rnd_int(1, 7), model = rnd_int(0, 1);
	if (!trees[model][b][depth]) {
		cutoff_rtree_params_t p;
		cutoff_rtree_params_default(&p);
		p.branching = b;
		p.depth = depth;
		p.model = (cutoff_rtree_model_t)model;
		if (model == CUTOFF_RTREE_INCREMENTAL) {
			p.value_min = -15;
			p.value_max = 15;
		}
		trees[model][b][depth] = cutoff_rtree_new(&p, NULL);
	}
	cutoff_rtree_t *tree = trees[model][b][depth];
	const cutoff_game_t *g = cutoff_rtree_game(tree);
	cutoff_engine_t **slot = &engines[model][algo][table][b][depth];
	if (!*slot) {
		cutoff_config_t cfg;
		cutoff_config_default(&cfg);
		cfg.algo = algo;
		cfg.tt_mb = table ? 1 : 0;
		cfg.etc_min_depth = table == 2 ? 2 : 0;
		cfg.aspiration = table ? 8 : 0; /* narrow: aspiration windows fail often */
		cfg.topology = topology;
		*slot = cutoff_engine_new(g, &cfg, NULL);
	}
	cutoff_engine_t *e = *slot;
	cutoff_engine_clear(e);

	cutoff_rtree_state_t node, child;
	cutoff_rtree_root(tree, rnd(), &node);
	for (int walk = rnd_int(0, depth - 1); walk > 0; walk--) {
		g->play(g->ctx, &node, (cutoff_move_t)rnd_int(0, b - 1), &child);
		node = child;
	}

	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = rnd_int(1, depth - (int)node.ply + 1);
	lim.iterate = table && rnd_int(0, 1);
	lim.guess = rnd_int(-100, 100);
	random_window(&lim.alpha, &lim.beta);

	cutoff_result_t r;
	int rc = cutoff_engine_search(e, &node, &lim, &r, NULL, NULL);
	int32_t V = oracle_negamax(g, &node, lim.depth);
	int32_t v = r.value;
	bool ok;
	cutoff_bound_t want;
	if (v > lim.alpha && v < lim.beta) {
		ok = V == v;
		want = CUTOFF_BOUND_EXACT;
		t->inside++;
	} else if (v <= lim.alpha) {
		ok = V <= v;
		want = CUTOFF_BOUND_UPPER;
		t->low++;
	} else {
		ok = V >= v;
		want = CUTOFF_BOUND_LOWER;
		t->high++;
	}
	/* A search that proved the exact value may say so even outside the window. */
	bool bound_ok = r.bound == want || (r.bound == CUTOFF_BOUND_EXACT && V == v);
	if (rc != CUTOFF_OK || !ok) {
		t->violations++;
		if (t->violations <= 5)
			printf("  violation: %s table=%d b=%d d=%d ply=%u depth=%d window=(%d,%d) "
			       "v=%d V=%d rc=%d\n",
			       algo_name[algo], table, b, depth, node.ply, lim.depth,
			       (int)lim.alpha, (int)lim.beta, (int)v, (int)V, rc);
	}
	if (!bound_ok)
		t->bound_errors++;
	t->etc_cutoffs += r.counters.etc_cutoffs;
	t->cases++;
}

int main(int argc, char **argv)
{
	int cases = argc > 1 ? atoi(argv[1]) : 3000;
	rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 20261130;
	cutoff_topology_load((void **)&topology); /* quiet where sysfs is missing */
	printf("contract test: %d random cases per algorithm and table setting, seed %llu\n", cases,
	       (unsigned long long)rng_state);
	for (int algo = CUTOFF_ALGO_MINIMAX; algo <= CUTOFF_ALGO_MTDF; algo++) {
		for (int table = 0; table <= 2; table++) {
			if (algo == CUTOFF_ALGO_MINIMAX && table)
				continue; /* minimax never reads the table */
			struct tally t = { 0 };
			for (int i = 0; i < cases; i++)
				one_case((cutoff_algo_t)algo, table, &t);
			printf("%-9s table %-3s: %d cases (%d inside, %d failed low, %d failed "
			       "high): "
			       "%d violations, %d wrong bounds\n",
			       algo_name[algo], table_name[table], t.cases, t.inside, t.low, t.high,
			       t.violations, t.bound_errors);
			CHECK(t.violations == 0, "%s table=%d: %d contract violations",
			      algo_name[algo], table, t.violations);
			CHECK(t.bound_errors == 0, "%s table=%d: %d wrong bound types",
			      algo_name[algo], table, t.bound_errors);
			CHECK(t.inside > 0 && t.low > 0 && t.high > 0,
			      "%s table=%d: every case of the contract was exercised",
			      algo_name[algo], table);
			CHECK((table == 2) == (t.etc_cutoffs > 0),
			      "%s table=%d: %llu enhanced transposition cut-offs", algo_name[algo],
			      table, (unsigned long long)t.etc_cutoffs);
		}
	}
	for (int m = 0; m < 2; m++)
		for (int b = 0; b < 6; b++)
			for (int d = 0; d < 8; d++) {
				for (int a = 0; a < 4; a++)
					for (int tb = 0; tb < 3; tb++)
						cutoff_engine_free(engines[m][a][tb][b][d]);
				cutoff_rtree_free(trees[m][b][d]);
			}
	cutoff_topology_free(topology);
	return check_report();
}
