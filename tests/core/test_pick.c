/* SPDX-License-Identifier: MIT */
/*
 * test_pick.c — the rules that pick one answer among threads that each iterated
 * (iterate.c), on hand-made results, against the answer each rule must give:
 *
 *   - the vote (cutoff_pick_vote) in a stopped search: the move with the most votes wins
 *     over the deepest thread, and of its threads the one with the largest weight, then
 *     the lowest index; a thread's value counts, not only its depth; a proven win beats
 *     the vote (the shortest, lower bounds too); a proven loss is not chosen by votes
 *     (unless every thread has one: then the deepest); threads with no iteration, and
 *     threads with no move, are ignored;
 *   - the vote keeps out of searches that must be exact at the final depth: a thread at the
 *     final depth, a mate proven for good, a solve: then the deepest (cutoff_pick_deepest);
 *   - the lazy SMP driver's pick follows config.lazysmp_vote, and ABDADA's never votes.
 *
 * Each case is built so that the two rules disagree, so a vote that is not taken, or taken
 * where it must not be, fails.
 */
#include <string.h>

#include "check.h"
#include "drivers/driver.h"

enum {
	THREADS = 6,
	FINAL = 20 /* limits.depth: no thread below reaches it unless a case says so */
};

static cutoff_result_t results[THREADS];
static cutoff_config_t cfg;
static cutoff_limits_t lim;
static const cutoff_job_t job = { .cfg = &cfg, .lim = &lim, .results = results };

/* A fresh case of `threads` threads, none of which has completed an iteration. */
static void fresh(int threads)
{
	memset(results, 0, sizeof(results));
	for (int i = 0; i < THREADS; i++) {
		results[i].best_move = CUTOFF_MOVE_NONE;
		results[i].value = -500; /* left over: a rule that reads it is wrong */
		results[i].depth = FINAL;
	}
	cutoff_config_default(&cfg);
	cfg.driver = CUTOFF_DRIVER_LAZYSMP;
	cfg.threads = threads;
	cutoff_limits_default(&lim);
	lim.depth = FINAL;
	lim.iterate = true;
}

/* Thread i's latest completed iteration. */
static void done(int i, int depth, int32_t value, cutoff_bound_t bound, cutoff_move_t move)
{
	results[i].iterations = depth;
	results[i].depth = depth;
	results[i].value = value;
	results[i].bound = bound;
	results[i].best_move = move;
}

/* The weight the vote gives a thread (iterate.c's VOTE_BASE, 7) */
#define W(value, min, depth) (((value) - (min) + 7) * (depth))

static void majority(void)
{
	/* Thread 0 is the deepest, alone on move 2; threads 1..3 are shallower on move 1. With
	 * the lowest value 10, move 2 has W(10, 10, 12) = 84 votes and move 1 W(12, 10, 10) +
	 * W(12, 10, 9) + W(11, 10, 9) = 90 + 81 + 72: thread 1, the largest weight of move 1. */
	fresh(4);
	done(0, 12, 10, CUTOFF_BOUND_EXACT, 2);
	done(1, 10, 12, CUTOFF_BOUND_EXACT, 1);
	done(2, 9, 12, CUTOFF_BOUND_EXACT, 1);
	done(3, 9, 11, CUTOFF_BOUND_EXACT, 1);
	CHECK(W(10, 10, 12) < W(12, 10, 10) + W(12, 10, 9) + W(11, 10, 9), "the case's arithmetic");
	CHECK(cutoff_pick_deepest(&job) == 0, "deepest: thread %d, not 0",
	      cutoff_pick_deepest(&job));
	CHECK(cutoff_pick_vote(&job) == 1, "majority over the deepest: thread %d, not 1",
	      cutoff_pick_vote(&job));

	/* The driver's pick: the deepest unless config.lazysmp_vote; ABDADA's never votes. */
	CHECK(cutoff_driver_lazysmp_ops.pick(&job) == 0, "lazy SMP without the vote: thread %d",
	      cutoff_driver_lazysmp_ops.pick(&job));
	CHECK(cutoff_driver_abdada_ops.pick(&job) == 0, "ABDADA: thread %d",
	      cutoff_driver_abdada_ops.pick(&job));
	cfg.lazysmp_vote = true;
	CHECK(cutoff_driver_lazysmp_ops.pick(&job) == 1, "lazy SMP with the vote: thread %d",
	      cutoff_driver_lazysmp_ops.pick(&job));
	CHECK(cutoff_driver_abdada_ops.pick(&job) == 0, "ABDADA, lazysmp_vote set: thread %d",
	      cutoff_driver_abdada_ops.pick(&job));

	/* Equal weights on the winning move: the lowest index. */
	fresh(4);
	done(0, 12, 10, CUTOFF_BOUND_EXACT, 2);
	done(1, 9, 12, CUTOFF_BOUND_EXACT, 1);
	done(2, 10, 12, CUTOFF_BOUND_EXACT, 1);
	done(3, 10, 12, CUTOFF_BOUND_EXACT, 1);
	CHECK(cutoff_pick_vote(&job) == 2, "equal weights: thread %d, not 2",
	      cutoff_pick_vote(&job));

	/* Values count: one thread a ply deeper and 40 above two others outvotes them (move 2:
	 * W(40, 0, 6) = 282; move 1: 2 W(0, 0, 5) = 70), though the deepest is a helper. */
	fresh(3);
	done(0, 5, 0, CUTOFF_BOUND_EXACT, 1);
	done(1, 5, 0, CUTOFF_BOUND_EXACT, 1);
	done(2, 4, 40, CUTOFF_BOUND_EXACT, 2);
	CHECK(cutoff_pick_vote(&job) == 2, "a high value outvotes two lower ones: thread %d",
	      cutoff_pick_vote(&job));
	CHECK(cutoff_pick_deepest(&job) == 0, "deepest: thread %d", cutoff_pick_deepest(&job));
}

static void wins_and_losses(void)
{
	/* Proven wins beat the vote, the shortest first: thread 2's lower bound of a win in 7
	 * over thread 1's exact win in 9, though three threads vote for move 1. No win is
	 * proven for good (7 and 9 plies, deeper than the iterations), so the vote may run. */
	fresh(5);
	done(0, 10, 5, CUTOFF_BOUND_EXACT, 1);
	done(1, 8, CUTOFF_WIN - 9, CUTOFF_BOUND_EXACT, 2);
	done(2, 6, CUTOFF_WIN - 7, CUTOFF_BOUND_LOWER, 3);
	done(3, 10, 5, CUTOFF_BOUND_EXACT, 1);
	done(4, 9, 5, CUTOFF_BOUND_EXACT, 1);
	CHECK(cutoff_pick_vote(&job) == 2, "the shortest proven win: thread %d, not 2",
	      cutoff_pick_vote(&job));

	/* A proven loss is not chosen by votes: thread 0, the deepest, has one on move 3, and
	 * move 3 wins the vote through threads 1 and 2, which answer instead (thread 1, the
	 * lowest index of equal weights). The loss is 11 plies away after 10: not for good. */
	fresh(4);
	done(0, 10, -(CUTOFF_WIN - 11), CUTOFF_BOUND_EXACT, 3);
	done(1, 4, 0, CUTOFF_BOUND_EXACT, 3);
	done(2, 4, 0, CUTOFF_BOUND_EXACT, 3);
	done(3, 3, 1, CUTOFF_BOUND_EXACT, 2);
	CHECK(cutoff_pick_deepest(&job) == 0, "deepest: thread %d", cutoff_pick_deepest(&job));
	CHECK(cutoff_pick_vote(&job) == 1, "a proven loss not chosen by votes: thread %d, not 1",
	      cutoff_pick_vote(&job));

	/* An upper bound in the loss range is a proven loss, a lower bound there is not (the
	 * caller's window lay among losses): thread 0, the most votes (W(v, v, 9) = 63 against
	 * 21), is passed over for thread 1. */
	fresh(2);
	done(0, 9, -(CUTOFF_WIN - 20), CUTOFF_BOUND_UPPER, 2);
	done(1, 3, -(CUTOFF_WIN - 20), CUTOFF_BOUND_LOWER, 1);
	CHECK(cutoff_pick_vote(&job) == 1, "a loss as an upper bound: thread %d, not 1",
	      cutoff_pick_vote(&job));

	/* Every thread that voted has a proven loss: the deepest. */
	fresh(3);
	done(0, 6, -(CUTOFF_WIN - 15), CUTOFF_BOUND_EXACT, 1);
	done(1, 8, -(CUTOFF_WIN - 13), CUTOFF_BOUND_EXACT, 2);
	done(2, 7, -(CUTOFF_WIN - 15), CUTOFF_BOUND_EXACT, 2);
	CHECK(cutoff_pick_vote(&job) == 1, "only proven losses: the deepest, thread %d, not 1",
	      cutoff_pick_vote(&job));
}

static void ignored(void)
{
	/* Thread 0 has no iteration (its value, -500, would make thread 1 win if it were the
	 * lowest: W(10, -500, 5) = 2585 against W(12, -500, 4) = 2076, and more with thread
	 * 0's vote for the same move); with 10 the lowest, thread 2 wins, W(12, 10, 4) = 36
	 * against W(10, 10, 5) = 35. */
	fresh(3);
	results[0].best_move = 2; /* left over too */
	done(1, 5, 10, CUTOFF_BOUND_EXACT, 2);
	done(2, 4, 12, CUTOFF_BOUND_EXACT, 3);
	CHECK(cutoff_pick_vote(&job) == 2, "a thread without an iteration ignored: thread %d",
	      cutoff_pick_vote(&job));

	/* A thread with no move (an empty PV) neither votes nor answers. */
	fresh(3);
	done(0, 9, 30, CUTOFF_BOUND_EXACT, CUTOFF_MOVE_NONE);
	done(1, 5, 0, CUTOFF_BOUND_EXACT, 1);
	done(2, 6, 0, CUTOFF_BOUND_EXACT, 2);
	CHECK(cutoff_pick_vote(&job) == 2, "a thread without a move ignored: thread %d",
	      cutoff_pick_vote(&job));

	/* No thread completed an iteration: thread 0, as without the vote. */
	fresh(THREADS);
	CHECK(cutoff_pick_vote(&job) == 0, "nothing completed: thread %d", cutoff_pick_vote(&job));
}

/* The majority case of majority() with one change that makes the search one that must be
 * exact: the vote must then give the deepest, thread `want`. */
static void must_be_exact(const char *what, int want)
{
	CHECK(cutoff_pick_vote(&job) == want, "%s: thread %d, not the deepest %d", what,
	      cutoff_pick_vote(&job), want);
	CHECK(cutoff_pick_vote(&job) == cutoff_pick_deepest(&job), "%s: the vote differs", what);
}

static void exact_searches(void)
{
	/* A thread completed the final depth (limits.depth): the search ended by its own rule,
	 * and its answer is the one at that depth. */
	fresh(4);
	lim.depth = 12;
	done(0, 12, 10, CUTOFF_BOUND_EXACT, 2);
	done(1, 10, 12, CUTOFF_BOUND_EXACT, 1);
	done(2, 9, 12, CUTOFF_BOUND_EXACT, 1);
	done(3, 9, 11, CUTOFF_BOUND_EXACT, 1);
	must_be_exact("a thread at the final depth", 0);

	/* A one-ply search to a fixed depth of 1: every thread that completed is at it. */
	fresh(3);
	lim.depth = 1;
	done(0, 1, 0, CUTOFF_BOUND_EXACT, 2);
	done(1, 1, 3, CUTOFF_BOUND_EXACT, 1);
	done(2, 1, 3, CUTOFF_BOUND_EXACT, 1);
	must_be_exact("depth 1", 0);

	/* A loss proven for good (5 plies after an iteration of 6) ended the search: the proof
	 * is the answer, not the other threads' vote. */
	fresh(3);
	done(0, 6, -(CUTOFF_WIN - 5), CUTOFF_BOUND_EXACT, 3);
	done(1, 4, 0, CUTOFF_BOUND_EXACT, 1);
	done(2, 4, 0, CUTOFF_BOUND_EXACT, 1);
	must_be_exact("a loss proven for good", 0);

	/* The same with speculative pruning: 5 plies prove nothing after 6 (it takes 10), so
	 * the loss is not final, and the other threads' move answers. */
	cfg.pruning = CUTOFF_PRUNE_ALL;
	CHECK(cutoff_pick_vote(&job) == 1, "a loss not proven under pruning: thread %d, not 1",
	      cutoff_pick_vote(&job));

	/* A solve, to the end of the game (depth 0): never a vote. */
	fresh(4);
	lim.solve = true;
	lim.depth = 0;
	done(0, 12, 10, CUTOFF_BOUND_EXACT, 2);
	done(1, 10, 12, CUTOFF_BOUND_EXACT, 1);
	done(2, 9, 12, CUTOFF_BOUND_EXACT, 1);
	done(3, 9, 11, CUTOFF_BOUND_EXACT, 1);
	must_be_exact("a solve", 0);
}

int main(void)
{
	majority();
	wins_and_losses();
	ignored();
	exact_searches();
	printf("the vote and the deepest thread on hand-made results: majority, weights, "
	       "wins, losses, ignored threads, exact searches\n");
	return check_report();
}
