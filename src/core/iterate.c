/* SPDX-License-Identifier: MIT */
/*
 * iterate.c — iterative deepening, aspiration windows and the end of a search: the loop
 * every driver's searching threads run (cutoff_iterate), and the rules that pick one
 * answer among threads that each iterated (cutoff_pick_deepest, cutoff_pick_vote).
 *
 * State. A call works on its own thread's searcher and result slot only (results[index],
 * searchers[index]); it reads the job, written before the search and read-only during it;
 * it writes the control's halt (relaxed: a late read only delays another thread's end by
 * one poll) and reads its shared node count (relaxed) for the info callback. The answer
 * of each completed iteration is copied into the result slot, so a stopped search still
 * holds the deepest completed one.
 *
 * Contract. Every iteration returns a value and bound for the caller's window (alpha,
 * beta), whatever the aspiration window did: a failure widens the window on the side the
 * fail-soft value points to, and after four failures the caller's window is searched.
 *
 * The answer among threads (cutoff_pick_deepest). Reported is: a value solved to the end
 * of the game (limits.solve) if any thread has one; else a proven win (a value of at least
 * CUTOFF_WIN_MIN that is exact or a lower bound) if any thread has one, the shortest
 * (highest) first, and of equally short ones the deepest (the one whose depth proves it
 * for good, cutoff_mate_proven); otherwise the deepest completed iteration; on equal depth
 * the lowest thread index (the main thread first). Any completed root search with the
 * caller's window keeps the contract, so whichever thread answers, the answer is exact
 * where a serial search at that depth is.
 *
 * The vote (cutoff_pick_vote, Stockfish 11-17's choice among its threads). It applies only
 * to a search that a limit or a stop ended (nodes, time, cutoff_engine_stop) before any
 * thread completed its last iteration: not a solve (limits.solve), and no thread's latest
 * iteration at the final depth (limits.depth) or a mate proven for good by it
 * (cutoff_mate_proven). Such a search promises only the answer of some completed
 * iteration, at the depth it reports, and the engine calls it stopped whichever thread
 * answers; a search that one thread finished promises the value at the final depth (or
 * the proof), which only the rule above picks, so it has the last word there. Among the
 * threads that completed an iteration, with min the lowest value:
 *   - a proven win (as above) beats any vote: the rule above picks it (the shortest,
 *     then the deepest);
 *   - otherwise each thread that has a best move gives it (value - min + VOTE_BASE) x
 *     depth votes; the answer is the thread with the most votes for its move, then the
 *     largest weight of its own, then the lowest index. A thread with a proven loss (a
 *     value of at most -CUTOFF_WIN_MIN that is exact or an upper bound) votes but is not
 *     chosen, unless every thread that voted has one: then the rule above (the deepest).
 * A thread's weight is at most (2 * CUTOFF_INF + VOTE_BASE) x CUTOFF_PLY_LIMIT, under
 * 2^24, and a move's votes at most CUTOFF_MAX_THREADS times that: 64-bit sums. The votes
 * are counted by scanning the results once for each thread (threads^2 steps, a million at
 * 1024 threads, once a search), so nothing is allocated.
 */
#include "core/iterate.h"

#include <string.h>

#include "base/atomic.h"
#include "base/platform.h"

/* The deepest iteration a search may run: limits.depth, or with solve and depth 0 as deep
 * as the engine goes. */
int cutoff_final_depth(const cutoff_limits_t *l, int max_ply)
{
	return l->solve && l->depth == 0 ? max_ply - 1 : l->depth;
}

/* Copies the searcher's answer for a completed iteration into *r. */
static void take_iteration(const cutoff_searcher_t *s, int depth, int32_t value,
                           cutoff_bound_t bound, bool solved, cutoff_result_t *r)
{
	r->value = value;
	r->bound = bound;
	r->depth = depth;
	r->solved = solved;
	r->pv_length = s->pv_length[0];
	memcpy(r->pv, cutoff_searcher_pv(s, 0), (size_t)r->pv_length * sizeof(cutoff_move_t));
	if (r->pv_length > 0)
		r->best_move = r->pv[0];
}

cutoff_counters_t cutoff_counters_minus(const cutoff_counters_t *a, const cutoff_counters_t *b)
{
	cutoff_counters_t d;
	uint64_t w[sizeof(d) / sizeof(uint64_t)], x[sizeof(d) / sizeof(uint64_t)];
	memcpy(w, a, sizeof(w));
	memcpy(x, b, sizeof(x));
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		w[i] -= x[i];
	memcpy(&d, w, sizeof(d));
	d.seldepth = a->seldepth; /* a maximum: the deepest ply so far */
	return d;
}

static bool is_win(int32_t v) { return v >= CUTOFF_WIN_MIN || v <= -CUTOFF_WIN_MIN; }

/*
 * True when an iteration at `depth` has proven its value for good: an exact win or loss
 * at distance p plies with p <= depth. A full-width search to `depth` sees every end of
 * the game within `depth` plies, so no deeper iteration can find a shorter mate or escape
 * this one. With speculative pruning the search is not full-width (a reduced line may
 * hide a shorter mate), so the distance must fit in half the depth, as a margin.
 */
bool cutoff_mate_proven(const cutoff_config_t *cfg, int32_t value, cutoff_bound_t bound, int depth)
{
	if (bound != CUTOFF_BOUND_EXACT || !is_win(value))
		return false;
	int plies = CUTOFF_WIN - (value > 0 ? value : -value);
	return cfg->pruning ? 2 * plies <= depth : plies <= depth;
}

/*
 * One iteration at `depth`, through an aspiration window around `prev` when configured:
 * a failure widens the window on the side the fail-soft value points to, by a delta that
 * doubles each time, and after a few failures (an unstable search) falls back to the
 * caller's window instead of looping. The value and its bound are for the caller's window
 * (alpha, beta), so the contract holds whatever the aspiration did.
 */
static bool iterate_once(const cutoff_config_t *cfg, cutoff_searcher_t *s, int depth,
                         const cutoff_limits_t *lim, int32_t prev, bool have_prev, int32_t *value,
                         cutoff_bound_t *bound)
{
	const cutoff_algo_t algo = cfg->algo;
	int32_t delta = cfg->aspiration;
	int32_t lo = lim->alpha, hi = lim->beta;
	bool aspire = delta > 0 && have_prev && !is_win(prev) &&
	              (algo == CUTOFF_ALGO_ALPHABETA || algo == CUTOFF_ALGO_PVS);

	for (int tries = 0;; tries++) {
		if (aspire && tries < 4) {
			lo = prev - delta > lim->alpha ? prev - delta : lim->alpha;
			hi = prev + delta < lim->beta ? prev + delta : lim->beta;
			if (lo >= hi) { /* the caller's window lies beside ours: take it */
				lo = lim->alpha;
				hi = lim->beta;
			}
		} else {
			lo = lim->alpha;
			hi = lim->beta;
		}
		if (!cutoff_search_root(s, algo, depth, lo, hi, prev, value, bound))
			return false;
		if (*value <= lo && lo > lim->alpha) {
			prev = *value; /* fail-soft: the value says how far down to look */
		} else if (*value >= hi && hi < lim->beta) {
			prev = *value;
		} else {
			break;
		}
		s->count.aspiration_researches++;
		delta *= 2;
		if (delta > CUTOFF_INF / 4)
			aspire = false;
	}
	if (*bound != CUTOFF_BOUND_EXACT || *value <= lim->alpha || *value >= lim->beta)
		*bound = *value <= lim->alpha  ? CUTOFF_BOUND_UPPER
		         : *value >= lim->beta ? CUTOFF_BOUND_LOWER
		                               : CUTOFF_BOUND_EXACT;
	return true;
}

/*
 * Iterative deepening by thread `index` into results[index] (iterate.h). An iteration is
 * the last when it reached the final depth, proved a mate for good, or (limits.solve)
 * never met the horizon: its searcher's count of contacts (search.h) did not move, the
 * contacts of other threads' work for its nodes included (the driver adds them). With
 * halt_at_end, the thread that completes its last iteration ends the whole search.
 *
 * Only thread 0 calls the info callback, with its own result and counters, but the
 * nodes of every thread: the control's shared count (each thread adds its nodes at its
 * polls, so at most POLL_NODES a thread behind) and thread 0's own since its last poll.
 * Another thread's counters cannot be read while it writes them.
 */
void cutoff_iterate(const cutoff_job_t *j, int index, cutoff_skip_fn skips, bool halt_at_end)
{
	const cutoff_config_t *cfg = j->cfg;
	const cutoff_limits_t *lim = j->lim;
	cutoff_searcher_t *s = &j->searchers[index];
	cutoff_result_t *r = &j->results[index];
	int32_t guess = lim->guess, value;
	cutoff_bound_t bound;
	cutoff_counters_t before = s->count;
	const int final = cutoff_final_depth(lim, s->max_ply);

	for (int d = lim->iterate ? 1 : final; d <= final; d++) {
		if (skips && skips(cfg->thread_base + index, d, final))
			continue;
		if (CUTOFF_PROFILING)
			s->prof.depth_reached = d;
		uint64_t horizon = s->horizon;
		if (!iterate_once(cfg, s, d, lim, guess, r->iterations > 0, &value, &bound))
			break;
		bool solved = lim->solve && s->horizon == horizon;
		cutoff_searcher_fold(s);
		take_iteration(s, d, value, bound, solved, r);
		guess = value;
		/* iteration[] holds CUTOFF_MAX_PLY: past that (a ply limit above it), the last
		 * entry is the latest iteration */
		cutoff_iteration_t *it =
			&r->iteration[r->iterations < CUTOFF_MAX_PLY ? r->iterations++
		                                                     : CUTOFF_MAX_PLY - 1];
		it->depth = d;
		it->value = value;
		it->bound = bound;
		it->solved = solved;
		it->best_move = r->best_move;
		it->counters = cutoff_counters_minus(&s->count, &before);
		it->time_s = (double)(cutoff_now_ns() - j->t0) / 1e9;
		before = s->count;
		bool last = d == final || solved || cutoff_mate_proven(cfg, value, bound, d);
		if (j->info && index == 0 && !last) {
			r->counters = s->count;
			r->counters.nodes = cutoff_u64_load_relaxed(&j->control->nodes) +
			                    (s->count.nodes - s->polled_nodes);
			r->time_s = it->time_s;
			j->info(j->info_user, r);
		}
		/* A stop (from the info callback above, or any thread) ends the search before
		 * another iteration starts, not at the next poll, which iterations smaller
		 * than the poll's interval may not reach. */
		if (cutoff_int_load_relaxed(&j->control->stop))
			break;
		if (last) {
			if (halt_at_end) /* this thread's answer is final; the others stop */
				cutoff_int_store_relaxed(&j->control->halt, 1);
			break;
		}
	}
}

static bool proven_win(const cutoff_result_t *r)
{
	return r->iterations > 0 && r->value >= CUTOFF_WIN_MIN &&
	       (r->bound == CUTOFF_BOUND_EXACT || r->bound == CUTOFF_BOUND_LOWER);
}

int cutoff_pick_deepest(const cutoff_job_t *job)
{
	const cutoff_result_t *results = job->results;
	const int threads = job->cfg->threads;
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

/*
 * The constant of the vote's weight, in the game's units. Stockfish adds 14 to a thread's
 * lead over the lowest value, in its internal units, where a pawn was about 200 (213 in
 * the endgame) when the vote came in: 14 is a small fraction of a pawn, enough that the
 * lowest thread's depth still counts and that a lead of that much doubles a thread's say.
 * cutoff's values are the game's own and the library knows no pawn; the bundled chess
 * counts in centipawns, so the same fraction is 7. A game on a coarser scale (Connect
 * Four's moves to the end, tic-tac-toe's -1, 0, 1) gets a vote that goes more by depth.
 */
enum {
	VOTE_BASE = 7
};

static bool proven_loss(const cutoff_result_t *r)
{
	return r->iterations > 0 && r->value <= -CUTOFF_WIN_MIN &&
	       (r->bound == CUTOFF_BOUND_EXACT || r->bound == CUTOFF_BOUND_UPPER);
}

/* True when a limit or a stop ended the search before any thread completed its last
 * iteration (the rule at the top): only then may the vote choose. */
static bool vote_allowed(const cutoff_job_t *job)
{
	const cutoff_config_t *cfg = job->cfg;
	if (job->lim->solve)
		return false;
	const int final = cutoff_final_depth(job->lim, cutoff_config_plies(cfg));
	for (int i = 0; i < cfg->threads; i++) {
		const cutoff_result_t *r = &job->results[i];
		if (r->iterations > 0 &&
		    (r->depth >= final || cutoff_mate_proven(cfg, r->value, r->bound, r->depth)))
			return false;
	}
	return true;
}

static int64_t vote_weight(const cutoff_result_t *r, int32_t min)
{
	return ((int64_t)r->value - min + VOTE_BASE) * r->depth;
}

int cutoff_pick_vote(const cutoff_job_t *job)
{
	const cutoff_result_t *results = job->results;
	const int threads = job->cfg->threads;
	if (!vote_allowed(job))
		return cutoff_pick_deepest(job);
	int32_t min = CUTOFF_INF;
	for (int i = 0; i < threads; i++) {
		if (proven_win(&results[i]))
			return cutoff_pick_deepest(job);
		if (results[i].iterations > 0 && results[i].value < min)
			min = results[i].value;
	}
	int pick = -1;
	int64_t pick_votes = 0, pick_weight = 0;
	for (int i = 0; i < threads; i++) {
		const cutoff_result_t *r = &results[i];
		if (r->iterations == 0 || r->best_move == CUTOFF_MOVE_NONE || proven_loss(r))
			continue;
		int64_t votes = 0, weight = vote_weight(r, min);
		for (int j = 0; j < threads; j++)
			if (results[j].iterations > 0 && results[j].best_move == r->best_move)
				votes += vote_weight(&results[j], min);
		if (pick < 0 || votes > pick_votes ||
		    (votes == pick_votes && weight > pick_weight)) {
			pick = i;
			pick_votes = votes;
			pick_weight = weight;
		}
	}
	return pick >= 0 ? pick : cutoff_pick_deepest(job);
}
