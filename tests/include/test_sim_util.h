/* SPDX-License-Identifier: MIT */
/*
 * test_sim_util.h — what the simulator's tests (tests/sim/test_sim_*.c) share: a simulator made
 * and installed on this OS thread, an engine on it, a random tree and its brute-force
 * oracle, a search with the exactness checks of an exact search.
 *
 * Every engine of these tests runs on virtual threads (the library compiled with
 * CUTOFF_SIM, src/sim/sched.c): an engine is made only while a simulator is installed, and
 * is freed before that simulator is. Nothing here reads a real clock.
 */
#ifndef CUTOFF_TEST_SIM_UTIL_H
#define CUTOFF_TEST_SIM_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "base/topo.h"
#include "check.h"
#include "cutoff_games.h"
#include "oracle.h"
#include "random.h"
#include "sim/sim.h"

/* One hwloc topology for every engine (loading one takes milliseconds); NULL where sysfs
 * is missing, and then each engine loads its own quietly. */
static void *sim_topology;

static inline void sim_topology_load(void)
{
	if (cutoff_topology_load(&sim_topology) != 0)
		sim_topology = NULL;
}

static inline void sim_topology_free(void)
{
	cutoff_topology_free(sim_topology);
	sim_topology = NULL;
}

/* A simulator under `model` (NULL: the default model), installed on this OS thread.
 * Exits the test when memory runs out (nothing else can be checked then). */
static inline cutoff_sim_t *sim_start(const cutoff_sim_model_t *model,
                                      cutoff_sim_schedule_t schedule, uint64_t seed)
{
	cutoff_sim_model_t m;
	if (!model) {
		cutoff_sim_model_default(&m);
		model = &m;
	}
	cutoff_sim_t *sim = cutoff_sim_new(model, schedule, seed);
	if (!sim) {
		printf("FAIL: cutoff_sim_new: out of memory\n");
		exit(1);
	}
	cutoff_sim_install(sim);
	return sim;
}

static inline void sim_stop(cutoff_sim_t *sim)
{
	cutoff_sim_install(NULL);
	cutoff_sim_free(sim);
}

/* The driver called `name` in the registry (the test fails when there is none). */
static inline cutoff_driver_t sim_driver(const char *name)
{
	cutoff_driver_t d = CUTOFF_DRIVER_SERIAL;
	int rc = cutoff_driver_find(name, &d);
	CHECK(rc == 0, "the registry has no driver called '%s'", name);
	return d;
}

/* The configuration of these tests: `threads` virtual threads, `driver`, `algo`, a table
 * of `mb` MiB (0: none), the shared topology; the drivers' options at their defaults. */
static inline cutoff_config_t sim_config(cutoff_driver_t driver, int threads, cutoff_algo_t algo,
                                         size_t mb)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver = driver;
	cfg.threads = threads;
	cfg.algo = algo;
	cfg.tt_mb = mb;
	cfg.topology = sim_topology;
	return cfg;
}

static inline cutoff_engine_t *sim_engine(const cutoff_game_t *g, const cutoff_config_t *cfg)
{
	int err = 0;
	cutoff_engine_t *e = cutoff_engine_new(g, cfg, &err);
	CHECK(e != NULL, "engine (%s, %d virtual threads): %s", cutoff_driver_name(cfg->driver),
	      cfg->threads, cutoff_strerror(err));
	return e;
}

/* An exact search: `depth` plies (iterative deepening or one search), the full window, no
 * node or time limit, on a cleared engine. Returns the error code. */
static inline int sim_search(cutoff_engine_t *e, const void *root, int depth, bool iterate,
                             cutoff_result_t *r)
{
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = depth;
	lim.iterate = iterate;
	cutoff_engine_clear(e);
	return cutoff_engine_search(e, root, &lim, r, NULL, NULL);
}

/* What an exact search of a random tree must answer, `depth` plies from `root`, whose
 * depth-limited negamax value is `truth`: success, that value, bound exact, not stopped,
 * the depth asked, and a best move among the root's moves whose own value (negamax of the
 * child, depth - 1 plies) is that value. Returns NULL when it did, else what is wrong. */
static inline const char *sim_rtree_wrong(const cutoff_game_t *g, const cutoff_rtree_state_t *root,
                                          int depth, int32_t truth, int rc,
                                          const cutoff_result_t *r)
{
	if (rc != CUTOFF_OK)
		return cutoff_strerror(rc);
	if (r->value != truth)
		return "a value that is not the serial one";
	if (r->bound != CUTOFF_BOUND_EXACT)
		return "a bound that is not exact";
	if (r->stopped || r->depth != depth)
		return "a search that stopped short of its depth";
	cutoff_move_t moves[CUTOFF_MAX_MOVES];
	int n = g->gen_moves(g->ctx, root, moves, NULL), k = 0;
	while (k < n && moves[k] != r->best_move)
		k++;
	if (k == n)
		return "a best move that is not a move of the root";
	cutoff_rtree_state_t child;
	g->play(g->ctx, root, r->best_move, &child);
	if (-oracle_negamax(g, &child, depth - 1) != truth)
		return "a best move whose value is not the root's";
	return NULL;
}

#endif /* CUTOFF_TEST_SIM_UTIL_H */
