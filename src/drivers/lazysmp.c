/* SPDX-License-Identifier: MIT */
/*
 * lazysmp.c — the lazy SMP driver: every thread runs its own iterative deepening.
 *
 * Every thread runs its own iterative deepening from the root over the shared table;
 * what one thread stores, the others find, so together they fill the table faster than
 * one and reach each depth sooner. Two rules make that work.
 *
 * Diversity. If every thread searched the same depths in the same order they would walk
 * the same tree together. Helpers therefore skip some iterations, in blocks, so that at
 * any moment roughly half of them are one ply ahead: thread i (i >= 1) uses block size
 * SKIP_SIZE[(i-1) % 20] and phase SKIP_PHASE[(i-1) % 20] and skips depth d when
 * ((d + phase) / size) is odd (the pattern Stockfish used from version 9 to 11). The
 * final depth is never skipped, and helpers never search deeper than asked, so on trees
 * without transpositions the answer at the final depth is the serial one.
 *
 * The end and the answer. The first thread to complete its last iteration ends the
 * search for all (the control's halt); each thread keeps its deepest completed iteration,
 * and the answer is picked among them by iterate.c's rule (cutoff_pick_deepest: a solved
 * value, then the shortest proven win, then the deepest iteration, the main thread on
 * ties).
 *
 * The vote (config.lazysmp_vote, off by default until a measurement decides). Stockfish
 * 11 to 17 let their threads vote instead: each thread's best move gets (value - the lowest
 * value + a constant) x its completed depth, and the thread whose move has most votes
 * answers; a proven win still goes first (the shortest), and a proven loss is never
 * chosen by votes (iterate.c, cutoff_pick_vote, gives the rule and the constant). The
 * vote can name a shallower thread than the deepest, so it may only choose where the
 * contract does not ask for the value at the final depth: Stockfish votes only without a
 * depth limit, and here it votes only when a limit (nodes, time) or a stop ended the
 * search before any thread completed its last iteration (the final depth, or a mate
 * proven for good), and never in a solve. Such a search is reported stopped, whichever
 * thread answers, with the value of that thread's deepest iteration; every other search
 * is answered by cutoff_pick_deepest, so a completed search is exactly as without the
 * vote.
 *
 * A single-depth search (limits.iterate false, as a solver asks) has no iterations to
 * skip: every helper would search the final depth at once, in the main thread's move
 * order, repeating its work a few nodes behind or ahead of it, and what one stores the
 * other has mostly searched already. Measured in the simulator (Connect Four's solves,
 * docs/simulation.md), such helpers cost more than they give at every thread count (2
 * threads: 0.86 of the serial speed; 256: 1.03) through the table lines and the node
 * counter they share with the main thread. So in a single-depth search the helpers do not
 * search: the main thread searches alone, and each helper counts itself in
 * `lazysmp_idle` (every report shows it). A driver whose helpers can pay there is ABDADA.
 *
 * Options: config.lazysmp_skip (the skipping; on by default), config.lazysmp_vote (the
 * vote; off by default).
 */
#include "drivers/driver.h"

/* Lazy SMP's counters (driver.h): one line each; every report lists them. */
#define LAZYSMP_COUNTERS(X)                                                                        \
	X(LAZYSMP_IDLE, "lazysmp_idle", "threads", false,                                          \
	  "helpers that did not search because the search had a single depth (limits.iterate "     \
	  "false): they would only repeat the main thread's search, which goes on alone")
#define LAZYSMP_COUNTER(id, ...) CUTOFF_DRIVER_COUNTER_INFO(CUTOFF_DRIVER_LAZYSMP, __VA_ARGS__)
enum {
	LAZYSMP_COUNTERS(CUTOFF_DRIVER_COUNTER_ENUM) LAZYSMP_NCOUNTERS
};
static const cutoff_counter_info_t lazysmp_counters[] = { LAZYSMP_COUNTERS(LAZYSMP_COUNTER) };

static const int SKIP_SIZE[20] = { 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4 };
static const int SKIP_PHASE[20] = { 0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7 };

/* True when thread `index` (0 = the main thread, which never skips) skips iteration
 * `depth` of a search to `final_depth` (the final one is never skipped). The index is
 * config.thread_base + the engine's own: the engines of a cluster skip differently. */
static bool skips(int index, int depth, int final_depth)
{
	if (index == 0 || depth >= final_depth)
		return false;
	int k = (index - 1) % 20;
	return ((depth + SKIP_PHASE[k]) / SKIP_SIZE[k]) % 2 == 1;
}

static void job(const cutoff_job_t *job, int index)
{
	if (index > 0 && !job->lim->iterate) {
		job->searchers[index].driver_count[LAZYSMP_IDLE] = 1; /* see above */
		return;
	}
	cutoff_iterate(job, index, job->cfg->lazysmp_skip ? skips : NULL, true);
}

static int pick(const cutoff_job_t *job)
{
	return job->cfg->lazysmp_vote ? cutoff_pick_vote(job) : cutoff_pick_deepest(job);
}

const cutoff_driver_ops_t cutoff_driver_lazysmp_ops = {
	.name = "lazysmp",
	.description = "lazy SMP: every thread iterates from the root, sharing the table",
	.job = job,
	.pick = pick,
	.counters = lazysmp_counters,
	.ncounters = LAZYSMP_NCOUNTERS,
};
