/* SPDX-License-Identifier: MIT */
/*
 * The profiler's invariants, which hold exactly (never a speed):
 *   - the result's counters are the sum of every thread's (seldepth: the maximum), and the
 *     result's profile the sum of every thread's profile (depths: the maximum);
 *   - nodes by expected type add up to the nodes less the quiescence nodes, for
 *     alpha-beta, PVS and MTD(f); cut-offs at CUT nodes, their first-move ones and hits on
 *     other threads' entries are parts of the wholes they belong to;
 *   - on the perfectly ordered minimal tree (random trees whose moves come in oracle
 *     order, no table, the engine's ordering off) no expectation is ever wrong and every
 *     CUT node cuts off with its first move, serially and under YBW;
 *   - a serial search has no other-thread hits, no split figures, and its thread 0 no
 *     idle, split-wait or lock time (its other threads are idle throughout);
 *   - YBW at 2 and 3 threads on a big enough tree makes split points with helpers (in one
 *     of five searches at least: a helper that the scheduler wakes only after the search
 *     cannot be booked), no more helpers than it may book;
 *   - every thread's four times add up to the search's span, each part at least 0, and
 *     the span is the search's wall time within 20 % (or 50 ms, for waking the pool):
 *     behaviour, not speed;
 *   - lazy SMP: every thread reached at least the depth it completed, and the deepest
 *     completed depth is the result's; its threads, sharing the table, hit each other's
 *     entries (config.profile_tt_writers), and without profile_tt_writers no hit counts as
 *     another thread's.
 * With the profiler compiled out (CUTOFF_PROFILE=OFF) only the "everything reads 0" checks
 * run.
 *
 * cutoff-test-labels: concurrent
 */
#include <hwloc.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "base/topo.h"
#include "check.h"
#include "core/search.h"
#include "counter.h"
#include "cutoff_games.h"

static hwloc_topology_t topology;

static bool writers; /* config.profile_tt_writers for make() */

static cutoff_engine_t *make(const cutoff_rtree_t *tree, cutoff_driver_t driver, int threads,
                             cutoff_algo_t algo, size_t mb, unsigned ordering)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.profile_tt_writers = writers;
	cfg.driver = driver;
	cfg.threads = threads;
	cfg.algo = algo;
	cfg.tt_mb = mb;
	cfg.ordering = ordering;
	cfg.topology = topology;
	return cutoff_engine_new(cutoff_rtree_game(tree), &cfg, NULL);
}

static cutoff_rtree_t *tree_of(int b, int d, cutoff_rtree_order_t order)
{
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = b;
	p.depth = d;
	p.order = order;
	return cutoff_rtree_new(&p, NULL);
}

static int search(cutoff_engine_t *e, const cutoff_rtree_t *tree, uint64_t seed, int depth,
                  bool iterate, cutoff_result_t *r)
{
	cutoff_rtree_state_t root;
	cutoff_limits_t lim;
	cutoff_rtree_root(tree, seed, &root);
	cutoff_limits_default(&lim);
	lim.depth = depth;
	lim.iterate = iterate;
	return cutoff_engine_search(e, &root, &lim, r, NULL, NULL);
}

enum {
	WORDS = sizeof(cutoff_counters_t) / sizeof(uint64_t)
};

/* The sums and the per-thread checks that hold for every search; `what` names it. */
static void check_sums(cutoff_engine_t *e, int threads, const cutoff_result_t *r, bool typed,
                       const char *what)
{
	uint64_t sum[WORDS], got[WORDS];
	memset(sum, 0, sizeof(sum));
	cutoff_profile_t psum;
	memset(&psum, 0, sizeof(psum));
	uint64_t seldepth = 0;
	for (int i = 0; i < threads; i++) {
		cutoff_counters_t c;
		cutoff_profile_t p;
		uint64_t w[WORDS];
		CHECK(cutoff_engine_thread_counters(e, i, &c) == 0, "%s: counters of %d", what, i);
		CHECK(cutoff_engine_thread_profile(e, i, &p) == 0, "%s: profile of %d", what, i);
		memcpy(w, &c, sizeof(w));
		for (int k = 0; k < WORDS; k++)
			sum[k] += w[k];
		if (c.seldepth > seldepth)
			seldepth = c.seldepth;
		psum.time_s += p.time_s;
		psum.search_s += p.search_s;
		psum.idle_s += p.idle_s;
		psum.split_wait_s += p.split_wait_s;
		psum.lock_s += p.lock_s;
		if (p.depth_reached > psum.depth_reached)
			psum.depth_reached = p.depth_reached;
		if (p.depth_completed > psum.depth_completed)
			psum.depth_completed = p.depth_completed;

		double parts = p.search_s + p.idle_s + p.split_wait_s + p.lock_s;
		CHECK(p.search_s >= 0 && p.idle_s >= 0 && p.split_wait_s >= 0 && p.lock_s >= 0,
		      "%s thread %d: a negative time", what, i);
		CHECK(fabs(parts - p.time_s) <= 1e-6 + 1e-9 * p.time_s,
		      "%s thread %d: parts %.6f s, time %.6f s", what, i, parts, p.time_s);
		CHECK(p.depth_reached >= p.depth_completed,
		      "%s thread %d: reached %d, completed %d", what, i, p.depth_reached,
		      p.depth_completed);
		CHECK(c.tt_hits_other <= c.tt_hits && c.cut_node_cutoffs <= c.cutoffs &&
		              c.cut_node_first_cutoffs <= c.cut_node_cutoffs &&
		              c.cut_node_first_cutoffs <= c.first_move_cutoffs &&
		              c.all_nodes_wrong <= c.cutoffs &&
		              COUNTER(&c, "split_cutoffs") <= COUNTER(&c, "splits") &&
		              COUNTER(&c, "split_nodes_lost") <= c.nodes &&
		              COUNTER(&c, "split_nodes_after_cut") <= c.nodes,
		      "%s thread %d: a part exceeds its whole", what, i);
		if (typed)
			CHECK(c.nodes_pv + c.nodes_cut + c.nodes_all == c.nodes - c.qnodes,
			      "%s thread %d: typed nodes %llu + %llu + %llu, nodes %llu", what, i,
			      (unsigned long long)c.nodes_pv, (unsigned long long)c.nodes_cut,
			      (unsigned long long)c.nodes_all, (unsigned long long)c.nodes);
	}
	memcpy(got, &r->counters, sizeof(got));
	sum[offsetof(cutoff_counters_t, seldepth) / sizeof(uint64_t)] = seldepth;
	CHECK(memcmp(sum, got, sizeof(sum)) == 0, "%s: the result's counters are not the sum",
	      what);
	CHECK(psum.time_s == r->profile.time_s && psum.search_s == r->profile.search_s &&
	              psum.idle_s == r->profile.idle_s &&
	              psum.split_wait_s == r->profile.split_wait_s &&
	              psum.lock_s == r->profile.lock_s &&
	              psum.depth_reached == r->profile.depth_reached &&
	              psum.depth_completed == r->profile.depth_completed,
	      "%s: the result's profile is not the sum", what);
}

/* The span every thread is accounted is the search's wall time, loosely. */
static void check_whole_time(cutoff_engine_t *e, int threads, const cutoff_result_t *r,
                             const char *what)
{
	for (int i = 0; i < threads; i++) {
		cutoff_profile_t p;
		cutoff_engine_thread_profile(e, i, &p);
		/* The wall time has the pool's wake-up besides: on a loaded machine, tens
		 * of milliseconds, and a thread the scheduler holds back (another program on
		 * a core) comes later still. */
		double slack = fmax(0.3 * r->time_s, 0.150);
		CHECK(fabs(p.time_s - r->time_s) <= slack,
		      "%s thread %d: %.4f s of a %.4f s search", what, i, p.time_s, r->time_s);
	}
}

static void minimal_tree(void)
{
	int runs = 0;
	for (int b = 2; b <= 6; b++)
		for (int d = 1; d <= 6; d++) {
			cutoff_rtree_t *tree = tree_of(b, d, CUTOFF_RTREE_BEST);
			for (int algo = CUTOFF_ALGO_ALPHABETA; algo <= CUTOFF_ALGO_PVS; algo++)
				for (int threads = 1; threads <= 3; threads += 2) {
					cutoff_driver_t drv = threads == 1 ? CUTOFF_DRIVER_SERIAL
					                                   : CUTOFF_DRIVER_YBW;
					cutoff_engine_t *e =
						make(tree, drv, threads, (cutoff_algo_t)algo, 0,
					             CUTOFF_ORDER_NONE);
					cutoff_result_t r;
					char what[64];
					snprintf(what, sizeof(what),
					         "minimal b=%d d=%d algo %d, %d threads", b, d,
					         algo, threads);
					CHECK(search(e, tree, (uint64_t)(b * 10 + d), d, false,
					             &r) == 0,
					      "%s: search", what);
					const cutoff_counters_t *c = &r.counters;
					CHECK(c->cut_nodes_wrong == 0 && c->all_nodes_wrong == 0,
					      "%s: %llu CUT and %llu ALL expectations wrong", what,
					      (unsigned long long)c->cut_nodes_wrong,
					      (unsigned long long)c->all_nodes_wrong);
					CHECK(c->cut_node_cutoffs == c->cut_node_first_cutoffs,
					      "%s: CUT nodes cut %llu times, %llu by the first "
					      "move",
					      what, (unsigned long long)c->cut_node_cutoffs,
					      (unsigned long long)c->cut_node_first_cutoffs);
					/* Every interior CUT node cuts: b > 1 and depth > 2 have some. */
					CHECK(d < 3 || c->cut_node_cutoffs > 0,
					      "%s: no CUT node cut", what);
					check_sums(e, threads, &r, true, what);
					cutoff_engine_free(e);
					runs++;
				}
			cutoff_rtree_free(tree);
		}
	printf("minimal tree: %d searches, no expectation wrong, every CUT node cut first\n", runs);

	/* The counters can say "wrong": the same trees in natural order. */
	cutoff_rtree_t *tree = tree_of(6, 6, CUTOFF_RTREE_NATURAL);
	cutoff_engine_t *e =
		make(tree, CUTOFF_DRIVER_SERIAL, 1, CUTOFF_ALGO_ALPHABETA, 0, CUTOFF_ORDER_NONE);
	cutoff_result_t r;
	search(e, tree, 1, 6, false, &r);
	CHECK(r.counters.cut_nodes_wrong > 0 && r.counters.all_nodes_wrong > 0,
	      "natural order: %llu CUT and %llu ALL expectations wrong",
	      (unsigned long long)r.counters.cut_nodes_wrong,
	      (unsigned long long)r.counters.all_nodes_wrong);
	cutoff_engine_free(e);
	cutoff_rtree_free(tree);
}

static void serial(void)
{
	cutoff_rtree_t *tree = tree_of(6, 7, CUTOFF_RTREE_NATURAL);
	writers = true; /* every hit is then known to be thread 0's own */
	for (int algo = CUTOFF_ALGO_MINIMAX; algo <= CUTOFF_ALGO_MTDF; algo++) {
		cutoff_engine_t *e = make(tree, CUTOFF_DRIVER_SERIAL, 2, (cutoff_algo_t)algo, 4,
		                          CUTOFF_ORDER_ALL);
		cutoff_result_t r;
		char what[64];
		snprintf(what, sizeof(what), "serial algo %d", algo);
		CHECK(search(e, tree, 3, 6, true, &r) == 0, "%s: search", what);
		check_sums(e, 2, &r, algo != CUTOFF_ALGO_MINIMAX, what);
		const cutoff_counters_t *c = &r.counters;
		CHECK(c->tt_hits_other == 0 && COUNTER(c, "splits") == 0 &&
		              COUNTER(c, "split_helpers") == 0 &&
		              COUNTER(c, "split_cutoffs") == 0 &&
		              COUNTER(c, "split_nodes_lost") == 0 &&
		              COUNTER(c, "split_nodes_after_cut") == 0,
		      "%s: other-thread hits or split figures", what);
		cutoff_profile_t p, p1;
		cutoff_engine_thread_profile(e, 0, &p);
		cutoff_engine_thread_profile(e, 1, &p1);
		CHECK(p.idle_s == 0 && p.split_wait_s == 0 && p.lock_s == 0 &&
		              p.search_s == p.time_s,
		      "%s: idle %.6f, split wait %.6f, lock %.6f s", what, p.idle_s, p.split_wait_s,
		      p.lock_s);
		CHECK(p1.idle_s == p.time_s && p1.search_s == 0 && p1.time_s == p.time_s,
		      "%s: thread 1 of a serial search is idle throughout", what);
		check_whole_time(e, 2, &r, what);
		CHECK(r.profile.depth_reached == 6 && r.profile.depth_completed == 6,
		      "%s: depths %d and %d", what, r.profile.depth_reached,
		      r.profile.depth_completed);
		if (algo == CUTOFF_ALGO_MINIMAX)
			CHECK(c->nodes_pv + c->nodes_cut + c->nodes_all == 0,
			      "minimax types no node");
		else
			CHECK(c->nodes_pv > 0 && c->nodes_cut > 0 && c->nodes_all > 0 &&
			              c->tt_hits > 0,
			      "%s: every type and table hits", what);
		CHECK(cutoff_engine_thread_profile(e, 2, &p) == CUTOFF_EINVAL &&
		              cutoff_engine_thread_profile(e, -1, &p) == CUTOFF_EINVAL &&
		              cutoff_engine_thread_profile(e, 0, NULL) == CUTOFF_EINVAL &&
		              cutoff_engine_thread_profile(NULL, 0, &p) == CUTOFF_EINVAL,
		      "thread_profile refuses bad arguments");
		cutoff_engine_free(e);
	}
	writers = false;
	cutoff_rtree_free(tree);
	printf("serial: sums, types, no waiting, no other-thread hits\n");
}

static void ybw(void)
{
	cutoff_rtree_t *tree = tree_of(8, 7, CUTOFF_RTREE_NATURAL);
	for (int threads = 2; threads <= 3; threads++)
		for (size_t mb = 0; mb <= 4; mb += 4) {
			writers = mb > 0;
			cutoff_engine_t *e = make(tree, CUTOFF_DRIVER_YBW, threads, CUTOFF_ALGO_PVS,
			                          mb, CUTOFF_ORDER_ALL);
			cutoff_result_t r;
			char what[64];
			snprintf(what, sizeof(what), "ybw %d threads, %zu MiB", threads, mb);
			uint64_t splits = 0;
			/* Whether a split point is made depends on the scheduler (a helper
			 * held back is never idle when asked): at least 5 searches, and as
			 * many as 60 seconds allow. */
			const time_t give_up = time(NULL) + 60;
			for (int run = 0; (run < 5 || time(NULL) < give_up) && splits == 0; run++) {
				CHECK(search(e, tree, 5, 7, true, &r) == 0, "%s: search", what);
				check_sums(e, threads, &r, true, what);
				check_whole_time(e, threads, &r, what);
				const cutoff_counters_t *c = &r.counters;
				CHECK(COUNTER(c, "split_helpers") >= COUNTER(c, "splits") &&
				              COUNTER(c, "split_helpers") <=
				                      COUNTER(c, "splits") *
				                              (uint64_t)(threads - 1),
				      "%s: %llu split points, %llu helpers", what,
				      (unsigned long long)COUNTER(c, "splits"),
				      (unsigned long long)COUNTER(c, "split_helpers"));
				splits = COUNTER(c, "splits");
			}
			CHECK(splits > 0, "%s: no split point in the searches", what);
			for (int i = 1; i < threads; i++) {
				/* (Whether a helper searched anything depends on the
				 * scheduler: a booked helper may come when the moves are gone.) */
				cutoff_profile_t p;
				cutoff_engine_thread_profile(e, i, &p);
				CHECK(p.depth_reached == 0 && p.depth_completed == 0,
				      "%s: helper %d iterated", what, i);
			}
			cutoff_engine_free(e);
		}
	writers = false;
	cutoff_rtree_free(tree);
	printf("ybw: split points with helpers, times add up\n");
}

static void lazysmp(void)
{
	cutoff_rtree_t *tree = tree_of(8, 7, CUTOFF_RTREE_NATURAL);
	for (int threads = 2; threads <= 4; threads++) {
		writers = threads < 4;
		cutoff_engine_t *e = make(tree, CUTOFF_DRIVER_LAZYSMP, threads, CUTOFF_ALGO_PVS, 4,
		                          CUTOFF_ORDER_ALL);
		cutoff_result_t r;
		char what[64];
		snprintf(what, sizeof(what), "lazysmp %d threads", threads);
		CHECK(search(e, tree, 9, 7, true, &r) == 0, "%s: search", what);
		check_sums(e, threads, &r, true, what);
		check_whole_time(e, threads, &r, what);
		CHECK(r.profile.depth_completed == r.depth && r.profile.split_wait_s == 0,
		      "%s: completed %d, result depth %d", what, r.profile.depth_completed,
		      r.depth);
		if (writers) {
			/* On a loaded machine a helper may start only after the main thread has
			 * finished (and then searches nothing): search other trees, the table kept,
			 * until some search finds an entry of another thread. */
			uint64_t other = r.counters.tt_hits_other;
			int tries = 1;
			for (; other == 0 && tries < 50; tries++) {
				cutoff_result_t again;
				if (search(e, tree, 9 + (uint64_t)tries, 7, true, &again) == 0)
					other += again.counters.tt_hits_other;
			}
			CHECK(other > 0, "%s: no hit on another thread's entry in %d searches",
			      what, tries);
		} else
			CHECK(r.counters.tt_hits_other == 0 && r.counters.tt_hits > 0,
			      "%s: other-thread hits without profile_tt_writers", what);
		cutoff_engine_free(e);
	}
	writers = false;
	cutoff_rtree_free(tree);
	printf("lazysmp: depths, other-thread hits, times add up\n");
}

/*
 * A game made for one split point that cuts after a later move is done: the root has three
 * moves — a small uniform tree (FORK moves, LOW_DEPTH plies) that loses for the root (the
 * eldest, which fails low, and gives the helper time to wait at its idle loop), a larger
 * one (BIG_DEPTH plies) that wins for it (the move that cuts), and a drawn leaf. With two
 * threads the root splits after the eldest: the owner takes the big move, the helper the
 * drawn leaf, done at once, long before the big move cuts. A state is its kind, the plies
 * left and a path hash (the key).
 */
enum {
	FORK = 4,
	LOW_DEPTH = 16,
	BIG_DEPTH = 20
};
typedef struct after_cut_state {
	int kind; /* 0 root, 1 small tree, 2 big tree, 3 drawn leaf */
	int left;
	uint64_t path;
} after_cut_state_t;

static int ac_gen(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints)
{
	const after_cut_state_t *s = state;
	int n = s->kind == 0 ? 3 : FORK;
	(void)ctx;
	for (int i = 0; i < n; i++) {
		moves[i] = (cutoff_move_t)i;
		if (hints)
			hints[i] = 0;
	}
	return n;
}

static void ac_play(const void *ctx, const void *state, cutoff_move_t move, void *child)
{
	const after_cut_state_t *s = state;
	after_cut_state_t *c = child;
	(void)ctx;
	c->kind = s->kind == 0 ? 1 + (int)move : s->kind;
	c->left = s->kind != 0 ? s->left - 1 : move == 0 ? LOW_DEPTH : BIG_DEPTH;
	c->path = (s->path ^ (move + 1)) * 0x9e3779b97f4a7c15u;
}

static bool ac_terminal(const void *ctx, const void *state, int32_t *value)
{
	const after_cut_state_t *s = state;
	(void)ctx;
	/* The trees' leaves are an even number of plies below the root's child, so their
	 * side to move is the root's opponent: it wins by 5 in the small tree, loses by 5 in
	 * the big one. */
	if (s->kind == 3 || (s->kind != 0 && s->left == 0)) {
		*value = s->kind == 1 ? 5 : s->kind == 3 ? 0 : -5;
		return true;
	}
	return false;
}

static int32_t ac_evaluate(const void *ctx, const void *state)
{
	(void)ctx;
	(void)state;
	return 0;
}

static uint64_t ac_key(const void *ctx, const void *state)
{
	(void)ctx;
	return ((const after_cut_state_t *)state)->path;
}

static void after_cut(void)
{
	const cutoff_game_t game = { .name = "after-cut",
		                     .state_size = sizeof(after_cut_state_t),
		                     .max_moves = FORK,
		                     .gen_moves = ac_gen,
		                     .play = ac_play,
		                     .evaluate = ac_evaluate,
		                     .terminal = ac_terminal,
		                     .key = ac_key };
	const after_cut_state_t root = { 0, BIG_DEPTH + 1, 1 };
	uint64_t after = 0, serial_after = 0;
	int runs = 0;
	for (int threads = 1; threads <= 2; threads++) {
		cutoff_config_t cfg;
		cutoff_config_default(&cfg);
		cfg.driver = threads == 1 ? CUTOFF_DRIVER_SERIAL : CUTOFF_DRIVER_YBW;
		cfg.threads = threads;
		cfg.tt_mb = 0;
		cfg.ordering = CUTOFF_ORDER_NONE;
		cfg.topology = topology;
		cutoff_engine_t *e = cutoff_engine_new(&game, &cfg, NULL);
		CHECK(e != NULL, "after-cut engine");
		/* Whether the helper runs before the big move cuts is the scheduler's (another
		 * program on a core may hold it back for milliseconds): asked of as many
		 * searches as 60 seconds allow, at least 20. */
		const time_t give_up = time(NULL) + 60;
		for (int k = 0;
		     e && (threads == 1 ? k < 1 : k < 20 || time(NULL) < give_up) && after == 0;
		     k++) {
			cutoff_limits_t lim;
			cutoff_limits_default(&lim);
			lim.depth = BIG_DEPTH + 2;
			lim.alpha = -1;
			lim.beta = 1;
			cutoff_result_t r;
			CHECK(cutoff_engine_search(e, &root, &lim, &r, NULL, NULL) == 0 &&
			              r.value == 5 && r.best_move == 1,
			      "after-cut x%d: value %d, move %u (5, 1)", threads, (int)r.value,
			      r.best_move);
			if (threads == 1) {
				serial_after = COUNTER(&r.counters, "split_nodes_after_cut");
			} else {
				after = COUNTER(&r.counters, "split_nodes_after_cut");
				runs = k + 1;
			}
		}
		cutoff_engine_free(e);
	}
	CHECK(serial_after == 0, "serial: nothing after a cut (%llu)",
	      (unsigned long long)serial_after);
	CHECK(after >= 1, "ybw: the drawn leaf done before the big move cut, in %d searches", runs);
	printf("ybw: a move done at a split point after the one that cut it is counted (%llu "
	       "nodes, "
	       "%d searches)\n",
	       (unsigned long long)after, runs);
}

/* Built without the profiler: everything it would count reads 0. */
static void compiled_out(void)
{
	cutoff_rtree_t *tree = tree_of(6, 6, CUTOFF_RTREE_NATURAL);
	cutoff_engine_t *e = make(tree, CUTOFF_DRIVER_YBW, 2, CUTOFF_ALGO_PVS, 4, CUTOFF_ORDER_ALL);
	cutoff_result_t r;
	search(e, tree, 1, 6, true, &r);
	const cutoff_counters_t *c = &r.counters;
	CHECK(c->nodes > 0 && c->nodes_pv + c->nodes_cut + c->nodes_all + c->tt_hits_other +
	                                      COUNTER(c, "split_helpers") +
	                                      COUNTER(c, "split_nodes_lost") +
	                                      COUNTER(c, "split_nodes_after_cut") ==
	                              0,
	      "compiled out: the profiler counted");
	CHECK(r.profile.time_s == 0 && r.profile.depth_reached == 0, "compiled out: times");
	cutoff_engine_free(e);
	cutoff_rtree_free(tree);
	printf("profiler compiled out: its figures read 0\n");
}

int main(void)
{
	cutoff_topology_load((void **)&topology);
	CHECK(cutoff_profile_available() == (CUTOFF_PROFILE != 0), "cutoff_profile_available");
	if (cutoff_profile_available()) {
		minimal_tree();
		serial();
		ybw();
		after_cut();
		lazysmp();
	} else {
		compiled_out();
	}
	cutoff_topology_free(topology);
	return check_report();
}
