/*
 * lazysmp.c — lazy SMP's diversity and its answer.
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
 * The answer. Each thread keeps its deepest completed iteration. Reported is: a value
 * solved to the end of the game (limits.solve) if any thread has one; else a proven
 * win (a value of at least CUTOFF_WIN_MIN that is exact or a lower bound) if any thread
 * has one, the shortest (highest) first, and of equally short ones the deepest (the one
 * whose depth proves it for good, engine.c's mate_proven); otherwise the deepest completed
 * iteration; on equal depth the lowest thread index (the main thread first).
 */
#include "lazysmp.h"

static const int SKIP_SIZE[20] = { 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4 };
static const int SKIP_PHASE[20] = { 0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7 };

bool cutoff_lazysmp_skips(int index, int depth, int final_depth)
{
	if (index == 0 || depth >= final_depth)
		return false;
	int k = (index - 1) % 20;
	return ((depth + SKIP_PHASE[k]) / SKIP_SIZE[k]) % 2 == 1;
}

static bool proven_win(const cutoff_result_t *r)
{
	return r->iterations > 0 && r->value >= CUTOFF_WIN_MIN &&
	       (r->bound == CUTOFF_BOUND_EXACT || r->bound == CUTOFF_BOUND_LOWER);
}

int cutoff_lazysmp_pick(const cutoff_result_t *results, int threads)
{
	int pick = 0;
	for (int i = 1; i < threads; i++) {
		const cutoff_result_t *r = &results[i], *p = &results[pick];
		if (r->iterations == 0)
			continue;
		if (p->iterations == 0) {
			pick = i;
			continue;
		}
		if (r->solved != p->solved) {
			if (r->solved)
				pick = i;
			continue;
		}
		bool rw = proven_win(r), pw = proven_win(p);
		if (rw != pw) {
			if (rw)
				pick = i;
			continue;
		}
		if (rw ? r->value > p->value || (r->value == p->value && r->depth > p->depth)
		       : r->depth > p->depth)
			pick = i;
	}
	return pick;
}
