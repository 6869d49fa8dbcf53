/* SPDX-License-Identifier: MIT */
/*
 * test_sim_cluster.c — the cluster layer's protocol (src/cluster/cluster.c) on the
 * simulator's network (src/cluster/transport_sim.c): R ranks, each an OS thread with its own simulator
 * and engine of T virtual threads, in virtual time with a message latency.
 *
 * Checks, on random trees searched to the leaves (iterative, the full window):
 *   - exactness: at 1, 2, 3 and 4 ranks of 1 and 2 virtual threads, every rank answers
 *     the tree's true value (cutoff_rtree_value), bound exact, with the same move, one
 *     that keeps the value; entries are exchanged (sent = received over the ranks);
 *   - determinism: the same cluster search twice gives every rank the same nodes, value
 *     and virtual time, whatever the OS does with the ranks' threads;
 *   - the node limit, summed over ranks: every rank stops with the same legal move;
 *   - extra turns (the game's side hook): the bank game of extra_turns.h, where a move may
 *     keep the turn, searched to its end at 1, 2 and 3 ranks of 1 and 2 virtual threads:
 *     every rank answers the brute-force value, with a move that reaches it.
 *
 * cutoff-test-labels: concurrent
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cluster/cluster.h"
#include "cluster/transport_sim.h"
#include "cutoff_games.h"
#include "extra_turns.h"
#include "random.h"
#include "sim/sim.h"

enum {
	MAX_RANKS = 4
};

typedef struct rank_out {
	int32_t value;
	cutoff_bound_t bound;
	cutoff_move_t move;
	bool stopped;
	int rc;
	uint64_t nodes; /* this rank's engine's */
	uint64_t time_ns;
	uint64_t sent, received;
} rank_out_t;

typedef struct job {
	cutoff_net_t *net;
	int rank, threads;
	const cutoff_game_t *game;
	const void *root;
	cutoff_limits_t lim;
	rank_out_t out;
	pthread_t thread;
} job_t;

static void *rank_main(void *arg)
{
	job_t *j = arg;
	cutoff_sim_model_t m;
	cutoff_sim_model_default(&m);
	m = cutoff_sim_model_for(&m, "rtree");
	cutoff_sim_t *sim = cutoff_sim_new(&m, CUTOFF_SIM_CLOCK, 7 + (uint64_t)j->rank);
	cutoff_sim_install(sim);
	cutoff_transport_t tp;
	cutoff_net_transport(j->net, j->rank, &tp);
	int err;
	cutoff_cluster_t *cl = cutoff_cluster_make(&tp, NULL, &err);
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver = CUTOFF_DRIVER_LAZYSMP;
	cfg.threads = j->threads;
	cfg.tt_mb = 1;
	cutoff_cluster_configure(cl, &cfg);
	cutoff_engine_t *e = cutoff_engine_new(j->game, &cfg, &err);
	static _Thread_local cutoff_result_t r;
	uint64_t t0 = cutoff_sim_time_ns(sim);
	j->out.rc = cutoff_cluster_search(cl, e, j->root, &j->lim, &r, NULL, NULL);
	j->out.time_ns = cutoff_sim_time_ns(sim) - t0;
	j->out.value = r.value;
	j->out.bound = r.bound;
	j->out.move = r.best_move;
	j->out.stopped = r.stopped;
	cutoff_cluster_stats_t st;
	cutoff_cluster_stats(cl, j->rank, &st);
	j->out.nodes = st.nodes;
	for (int k = 0; k < cutoff_cluster_size(cl); k++) {
		cutoff_cluster_stats(cl, k, &st);
		j->out.sent += st.sent_entries;
		j->out.received += st.received_entries;
	}
	cutoff_net_leave(j->net, j->rank);
	cutoff_engine_free(e);
	cutoff_cluster_free(cl);
	cutoff_sim_install(NULL);
	cutoff_sim_free(sim);
	return NULL;
}

/* One cluster search by `ranks` ranks of `threads` virtual threads; outputs per rank. */
static void run(const cutoff_game_t *game, const void *root, const cutoff_limits_t *lim, int ranks,
                int threads, rank_out_t *out)
{
	cutoff_sim_model_t m;
	cutoff_sim_model_default(&m);
	cutoff_net_t *net = cutoff_net_new(ranks, m.net_latency / 1000, m.net_epoch / 1000, 0);
	job_t jobs[MAX_RANKS];
	for (int r = 0; r < ranks; r++) {
		jobs[r] = (job_t){ .net = net,
			           .rank = r,
			           .threads = threads,
			           .game = game,
			           .root = root,
			           .lim = *lim };
		pthread_create(&jobs[r].thread, NULL, rank_main, &jobs[r]);
	}
	for (int r = 0; r < ranks; r++) {
		pthread_join(jobs[r].thread, NULL);
		out[r] = jobs[r].out;
	}
	cutoff_net_free(net);
}

/* The bank game, where a move may keep the turn, on every rank. */
static void extra_turns(void)
{
	for (int k = 0; k < 3; k++) {
		bank_t b;
		bank_make(&b, 9, 60 + (uint64_t)k, k == 1, 0);
		cutoff_game_t g = bank_game(&b);
		bank_state_t root = { 0, 0, 0 };
		const int32_t truth = bank_negamax(&b, &root, 10, 0, true);
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.depth = 10;
		lim.iterate = true;
		for (int ranks = 1; ranks <= 3; ranks++)
			for (int threads = 1; threads <= 2; threads++) {
				rank_out_t out[MAX_RANKS];
				run(&g, &root, &lim, ranks, threads, out);
				for (int r = 0; r < ranks; r++)
					CHECK(out[r].rc == 0 && out[r].value == truth &&
					              out[r].bound == CUTOFF_BOUND_EXACT &&
					              out[r].move < (cutoff_move_t)b.cells &&
					              bank_move_value(&b, &root, out[r].move, 10, 0,
					                              true) == truth,
					      "extra turns, game %d, %d ranks x %d threads, rank "
					      "%d: rc "
					      "%d value %d (want %d), move %u",
					      k, ranks, threads, r, out[r].rc, out[r].value, truth,
					      out[r].move);
			}
	}
}

int main(void)
{
	uint64_t rng = 2026, total_sent = 0;
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	for (int t = 0; t < 6; t++) {
		p.branching = 3 + (int)(splitmix64(&rng) % 4);
		p.depth = 6 + (int)(splitmix64(&rng) % 3);
		cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
		cutoff_rtree_state_t root;
		cutoff_rtree_root(tree, 500 + (uint64_t)t, &root);
		const int32_t truth = cutoff_rtree_value(tree, &root);
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.depth = p.depth;
		lim.iterate = true;
		for (int ranks = 1; ranks <= MAX_RANKS; ranks++) {
			for (int threads = 1; threads <= 2; threads++) {
				rank_out_t out[MAX_RANKS];
				run(cutoff_rtree_game(tree), &root, &lim, ranks, threads, out);
				for (int r = 0; r < ranks; r++) {
					cutoff_rtree_state_t child;
					cutoff_rtree_game(tree)->play(cutoff_rtree_game(tree)->ctx,
					                              &root, out[r].move, &child);
					CHECK(out[r].rc == 0 && out[r].value == truth &&
					              out[r].bound == CUTOFF_BOUND_EXACT &&
					              out[r].move == out[0].move &&
					              -cutoff_rtree_value(tree, &child) == truth,
					      "tree %d (b %d d %d), %d ranks x %d threads, rank "
					      "%d: rc %d "
					      "value %d (want %d), move %u (rank 0's %u)",
					      t, p.branching, p.depth, ranks, threads, r, out[r].rc,
					      out[r].value, truth, out[r].move, out[0].move);
				}
				CHECK(out[0].sent == out[0].received,
				      "tree %d, %d ranks x %d: %llu entries sent, %llu received", t,
				      ranks, threads, (unsigned long long)out[0].sent,
				      (unsigned long long)out[0].received);
				total_sent += out[0].sent;
			}
		}
		if (t == 0) {
			/* Determinism: the same search twice. */
			rank_out_t a[3], b[3];
			run(cutoff_rtree_game(tree), &root, &lim, 3, 2, a);
			run(cutoff_rtree_game(tree), &root, &lim, 3, 2, b);
			for (int r = 0; r < 3; r++)
				CHECK(a[r].nodes == b[r].nodes && a[r].time_ns == b[r].time_ns &&
				              a[r].value == b[r].value && a[r].move == b[r].move,
				      "rank %d twice: nodes %llu / %llu, virtual ns %llu / %llu", r,
				      (unsigned long long)a[r].nodes,
				      (unsigned long long)b[r].nodes,
				      (unsigned long long)a[r].time_ns,
				      (unsigned long long)b[r].time_ns);
			/* The node limit is the sum over ranks. */
			cutoff_limits_t nl = lim;
			nl.nodes = 2000;
			run(cutoff_rtree_game(tree), &root, &nl, 3, 1, a);
			for (int r = 0; r < 3; r++)
				CHECK(a[r].rc == 0 && a[r].move == a[0].move &&
				              a[r].move < (cutoff_move_t)p.branching,
				      "node limit, rank %d: rc %d, move %u", r, a[r].rc, a[r].move);
		}
		cutoff_rtree_free(tree);
	}
	CHECK(total_sent > 0, "entries went around: %llu", (unsigned long long)total_sent);
	extra_turns();
	return check_report();
}
