/* SPDX-License-Identifier: MIT */
/*
 * A stop sent from the info callback (cutoff_engine_stop, the one engine call the
 * callback may make) ends an iterative search at once: after the iteration that told it,
 * no further one completes, even where iterations are smaller than the engine's poll
 * interval (it took effect up to four iterations late). Tic-tac-toe and a random tree,
 * iterating to their full depth, stopped after iteration 1, 2 and 3: under the serial
 * driver the result has exactly that many iterations, is marked stopped, and carries that
 * iteration's depth; under lazy SMP at 2 threads it is stopped short of the full depth.
 *
 * cutoff-test-labels: core
 */
#include "check.h"
#include "cutoff_games.h"

typedef struct stopper {
	cutoff_engine_t *engine;
	int after;
	int calls;
} stopper_t;

static void on_info(void *user, const cutoff_result_t *partial)
{
	stopper_t *st = user;
	st->calls++;
	if (partial->iterations == st->after)
		cutoff_engine_stop(st->engine);
}

static void one(const cutoff_game_t *g, const void *root, int depth, cutoff_driver_t driver,
                int threads, int after)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver = driver;
	cfg.threads = threads;
	cfg.tt_mb = 1;
	int err = 0;
	cutoff_engine_t *e = cutoff_engine_new(g, &cfg, &err);
	CHECK(e != NULL, "engine: %s", cutoff_strerror(err));
	if (!e)
		return;
	stopper_t st = { e, after, 0 };
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = depth;
	lim.iterate = true;
	cutoff_result_t r;
	int rc = cutoff_engine_search(e, root, &lim, &r, on_info, &st);
	/* Lazy SMP answers with its deepest thread's iteration: a helper may complete the
	 * one it was in when the stop came, deeper; it starts no other. */
	bool exact = driver == CUTOFF_DRIVER_SERIAL;
	CHECK(rc == 0 && r.stopped && r.depth < depth &&
	              (!exact || (r.iterations == after && r.depth == after)),
	      "%s %s x%d, stop after iteration %d: rc %d stopped %d iterations %d depth %d",
	      g->name, cutoff_driver_name(driver), threads, after, rc, (int)r.stopped, r.iterations,
	      r.depth);
	cutoff_engine_free(e);
}

int main(void)
{
	const cutoff_game_t *ttt = cutoff_ttt_game();
	cutoff_ttt_state_t start;
	cutoff_ttt_start(&start);
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.depth = 8;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	cutoff_rtree_state_t root;
	cutoff_rtree_root(tree, 7, &root);
	for (int after = 1; after <= 3; after++) {
		one(ttt, &start, 9, CUTOFF_DRIVER_SERIAL, 1, after);
		one(cutoff_rtree_game(tree), &root, 8, CUTOFF_DRIVER_SERIAL, 1, after);
		one(ttt, &start, 9, CUTOFF_DRIVER_LAZYSMP, 2, after);
	}
	cutoff_rtree_free(tree);
	return check_report();
}
