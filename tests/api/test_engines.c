/* SPDX-License-Identifier: MIT */
/*
 * Two engines in one process: searches run at the same time in two threads give exactly
 * the results (value, best move, node count) that the same searches give one at a time —
 * the library has no global mutable state. Also: one game description shared by two
 * engines.
 *
 * cutoff-test-labels: concurrent
 */
#include <pthread.h>
#include <string.h>

#include "check.h"
#include "cutoff_games.h"

struct job {
	const cutoff_game_t *game;
	const void *root;
	cutoff_algo_t algo;
	size_t tt_mb;
	int depth;
	int rounds;
	cutoff_result_t result[8];
	int rc[8];
};

static void *run(void *arg)
{
	struct job *j = arg;
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.algo = j->algo;
	cfg.tt_mb = j->tt_mb;
	cutoff_engine_t *e = cutoff_engine_new(j->game, &cfg, NULL);
	for (int i = 0; i < j->rounds; i++) {
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.depth = j->depth;
		lim.iterate = true;
		cutoff_engine_clear(e);
		j->rc[i] = cutoff_engine_search(e, j->root, &lim, &j->result[i], NULL, NULL);
	}
	cutoff_engine_free(e);
	return NULL;
}

static bool same(const cutoff_result_t *a, const cutoff_result_t *b)
{
	return a->value == b->value && a->best_move == b->best_move &&
	       a->counters.nodes == b->counters.nodes && a->pv_length == b->pv_length &&
	       memcmp(a->pv, b->pv, (size_t)a->pv_length * sizeof(a->pv[0])) == 0;
}

int main(void)
{
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 8;
	p.depth = 8;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	cutoff_rtree_state_t root;
	cutoff_rtree_root(tree, 42, &root);
	cutoff_ttt_state_t board;
	cutoff_ttt_start(&board);

	struct job jobs[3] = {
		{ cutoff_rtree_game(tree), &root, CUTOFF_ALGO_PVS, 4, 8, 4, { { 0 } }, { 0 } },
		{ cutoff_rtree_game(tree), &root, CUTOFF_ALGO_MTDF, 4, 8, 4, { { 0 } }, { 0 } },
		{ cutoff_ttt_game(), &board, CUTOFF_ALGO_ALPHABETA, 1, 9, 4, { { 0 } }, { 0 } },
	};
	struct job alone[3];
	memcpy(alone, jobs, sizeof(jobs));
	for (int i = 0; i < 3; i++) {
		alone[i].rounds = 1;
		run(&alone[i]);
		CHECK(alone[i].rc[0] == 0, "job %d alone: rc %d", i, alone[i].rc[0]);
	}

	pthread_t th[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, run, &jobs[i]);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 3; i++)
		for (int k = 0; k < jobs[i].rounds; k++)
			CHECK(jobs[i].rc[k] == 0 && same(&jobs[i].result[k], &alone[i].result[0]),
			      "job %d round %d side by side equals alone (value %d vs %d, nodes "
			      "%llu vs %llu)",
			      i, k, (int)jobs[i].result[k].value, (int)alone[i].result[0].value,
			      (unsigned long long)jobs[i].result[k].counters.nodes,
			      (unsigned long long)alone[i].result[0].counters.nodes);
	CHECK(jobs[0].result[0].value == cutoff_rtree_value(tree, &root) &&
	              jobs[1].result[0].value == jobs[0].result[0].value,
	      "PVS and MTD(f) on one shared tree agree with the oracle");
	printf("three engines side by side, %d rounds each: results equal to one at a time\n",
	       jobs[0].rounds);
	cutoff_rtree_free(tree);
	return check_report();
}
