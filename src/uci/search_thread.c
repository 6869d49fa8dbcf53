/* SPDX-License-Identifier: MIT */
/*
 * uci/search_thread.c — the threads of a `go`: the search thread, which searches and
 * prints the info lines and the bestmove, and the watchdog of a timed `go`; and the main
 * thread's side of them (start, stop, join).
 *
 * Threads. The main thread reads command lines and runs them in order, each to its end
 * before it reads the next. `go` starts a search thread (search_main), which calls
 * cutoff_engine_search(), prints an info line after each iteration from the info
 * callback, then a final info line and `bestmove`, and ends; a timed `go` also starts a
 * watchdog (watchdog_main), which answers for a search that overruns its hard limit. The
 * main thread joins both before it starts the next `go` or touches the engine. The state
 * they share, and the locks, are in uci.h.
 *
 * Stops. cutoff_engine_stop() is sticky: a stop that reaches an idle engine stops its next
 * search at once. Three threads send one — the main thread (stop, ponderhit, quit, end of
 * input, the next go), the watchdog, and the search thread's info callback (the soft
 * limit) — and the first two send it only under `lock` while `searching` is set (the
 * main thread through uci_request_stop). Such a stop lands
 *   (a) before the search thread enters cutoff_engine_search: it is kept, and the search
 *       returns at once, which is what was asked;
 *   (b) during the search (the info callback's stops are all here): it stops it, and the
 *       search clears the engine's flag on its way out;
 *   (c) after the search cleared the flag, before the search thread clears `searching`:
 *       it is stale, and would stop the next search at once.
 * The next `go` withdraws (c) with cutoff_engine_cancel_stop(), and that is safe because
 * of where it runs (uci_start_search): on the main thread, after uci_end_search() has
 * joined the search thread and the watchdog of the previous `go` (so they are gone, and
 * the engine is idle, as cancel_stop requires), under `lock`, just before it sets
 * `searching` and starts the search thread.
 * At that moment no other thread exists that could send a stop, so every stop pending is
 * one of the previous `go`'s; and every stop meant for the new `go` is sent after
 * `searching` is set, so after the cancel, and is never withdrawn. A `stop` while no `go`
 * runs is not passed on at all.
 */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "uci/uci.h"

static int64_t elapsed_ms(double t0) { return (int64_t)((cli_now_s() - t0) * 1000.0); }

/* ---------------------------------------------------------------------------------------
 * The main thread's side
 * ------------------------------------------------------------------------------------- */

void uci_join_search(uci_session_t *s)
{
	if (s->thread_alive) {
		pthread_join(s->thread, NULL);
		s->thread_alive = false;
	}
	if (s->watchdog_alive) {
		pthread_join(s->watchdog, NULL);
		s->watchdog_alive = false;
	}
}

bool uci_search_unstopped(uci_session_t *s)
{
	pthread_mutex_lock(&s->lock);
	bool running = !s->answered && !s->stop_requested;
	pthread_mutex_unlock(&s->lock);
	return running;
}

void uci_request_stop(uci_session_t *s)
{
	pthread_mutex_lock(&s->lock);
	if (s->searching) {
		cutoff_engine_stop(s->engine);
		cli_cluster_stop(s->cluster);
	}
	if (!s->answered) {
		s->stop_requested = true;
		pthread_cond_broadcast(&s->wake);
	}
	pthread_mutex_unlock(&s->lock);
}

void uci_end_search(uci_session_t *s)
{
	if (uci_search_unstopped(s))
		uci_say(s, "info string go: the search before was not stopped; stopping it first");
	uci_request_stop(s);
	uci_join_search(s);
}

void uci_answer_unsearched(uci_session_t *s)
{
	cutoff_move_t moves[CUTOFF_MAX_MOVES];
	char text[CUTOFF_CHESS_MOVE_SIZE] = "0000";
	if (cutoff_chess_moves(s->chess, &s->pos, moves) > 0)
		cutoff_chess_move_str(moves[0], text, sizeof(text));
	uci_say(s, "bestmove %s", text);
}

/* ---------------------------------------------------------------------------------------
 * Info lines and bestmove
 * ------------------------------------------------------------------------------------- */

/* "cp X" or "mate N" (negative when the side to move is mated). */
static void format_score(char *buf, size_t size, int32_t v)
{
	if (v >= CUTOFF_WIN_MIN || v <= -CUTOFF_WIN_MIN) {
		int ply = CUTOFF_WIN - (v < 0 ? -v : v);
		int moves = (ply + 1) / 2;
		snprintf(buf, size, "mate %d", v < 0 && moves > 0 ? -moves : moves);
	} else {
		snprintf(buf, size, "cp %d", (int)v);
	}
}

/* Appends " pv m1 m2 ..." for the moves of pv that are legal in turn from root. */
static size_t append_pv(const uci_session_t *s, char *buf, size_t size, size_t n,
                        const cutoff_result_t *r)
{
	cutoff_chess_state_t st = s->go.root;
	for (int i = 0; i < r->pv_length && n + 16 < size; i++) {
		char text[CUTOFF_CHESS_MOVE_SIZE];
		if (cutoff_chess_play(s->chess, &st, r->pv[i], &st) != 0 ||
		    cutoff_chess_move_str(r->pv[i], text, sizeof(text)) < 0)
			break;
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i == 0 ? " pv " : " ", text);
	}
	return n;
}

static void print_info(uci_session_t *s, const cutoff_result_t *r)
{
	char line[UCI_INFO_SIZE], score[32];
	size_t n = 0;
	int64_t ms = elapsed_ms(s->go.t0);
	uint64_t nodes = r->counters.nodes;
	uint64_t nps = ms > 0 ? nodes * 1000 / (uint64_t)ms : nodes * 1000;
	n += (size_t)snprintf(line, sizeof(line), "info");
	if (r->depth > 0) {
		uint64_t sel = r->counters.seldepth;
		if (sel < (uint64_t)r->depth)
			sel = (uint64_t)r->depth;
		format_score(score, sizeof(score), r->value);
		n += (size_t)snprintf(line + n, sizeof(line) - n,
		                      " depth %d seldepth %" PRIu64 " score %s%s", r->depth, sel,
		                      score,
		                      r->bound == CUTOFF_BOUND_LOWER   ? " lowerbound"
		                      : r->bound == CUTOFF_BOUND_UPPER ? " upperbound"
		                                                       : "");
	}
	n += (size_t)snprintf(line + n, sizeof(line) - n,
	                      " nodes %" PRIu64 " nps %" PRIu64 " hashfull %d time %" PRId64, nodes,
	                      nps, cutoff_engine_hashfull(s->engine), ms);
	if (r->depth > 0)
		append_pv(s, line, sizeof(line), n, r);
	uci_say(s, "%s", line);
}

/*
 * Output of the search thread for a `go` that the watchdog may answer first: hold_output()
 * takes out_lock and keeps it only while the `go` is not answered yet (then the caller
 * prints and releases it); claim_answer(), under out_lock, makes the caller the one that
 * answers, if nobody has. Lock order: out_lock, then lock.
 */
static bool hold_output(uci_session_t *s)
{
	pthread_mutex_lock(&s->out_lock);
	pthread_mutex_lock(&s->lock);
	bool open = !s->answered;
	pthread_mutex_unlock(&s->lock);
	if (!open)
		pthread_mutex_unlock(&s->out_lock);
	return open;
}

static bool claim_answer(uci_session_t *s)
{
	pthread_mutex_lock(&s->lock);
	bool mine = !s->answered;
	s->answered = true;
	pthread_mutex_unlock(&s->lock);
	return mine;
}

static bool is_legal(const uci_session_t *s, const cutoff_chess_state_t *st, cutoff_move_t m)
{
	cutoff_move_t moves[CUTOFF_MAX_MOVES];
	int n = cutoff_chess_moves(s->chess, st, moves);
	for (int i = 0; i < n; i++) {
		if (moves[i] == m)
			return true;
	}
	return false;
}

/* "bestmove X [ponder Y]" for the answer of the search; "0000" when there is no move. */
static void format_bestmove(uci_session_t *s, int rc, char *buf, size_t size)
{
	const cutoff_result_t *r = &s->result;
	const cutoff_chess_state_t *root = &s->go.root;
	cutoff_move_t moves[CUTOFF_MAX_MOVES];
	int n = cutoff_chess_moves(s->chess, root, moves);
	cutoff_move_t best = rc == 0 ? r->best_move : CUTOFF_MOVE_NONE;
	if (n <= 0) {
		snprintf(buf, size, "bestmove 0000");
		return;
	}
	if (!is_legal(s, root, best)) {
		/* Never expected (the library answers a legal move); never send an illegal one. */
		if (rc == 0)
			uci_say_error(s,
			              "search: best move %" PRIu32 " is not legal; playing another",
			              best);
		best = moves[0];
	}
	char text[CUTOFF_CHESS_MOVE_SIZE], ponder[CUTOFF_CHESS_MOVE_SIZE];
	cutoff_chess_move_str(best, text, sizeof(text));
	cutoff_chess_state_t child;
	if (rc == 0 && r->pv_length >= 2 && r->pv[0] == best &&
	    cutoff_chess_play(s->chess, root, best, &child) == 0 && is_legal(s, &child, r->pv[1]) &&
	    cutoff_chess_move_str(r->pv[1], ponder, sizeof(ponder)) > 0)
		snprintf(buf, size, "bestmove %s ponder %s", text, ponder);
	else
		snprintf(buf, size, "bestmove %s", text);
}

/* ---------------------------------------------------------------------------------------
 * The search thread and the watchdog
 * ------------------------------------------------------------------------------------- */

/* The info callback: one line per iteration, and the decision to start another. */
static void on_iteration(void *user, const cutoff_result_t *partial)
{
	uci_session_t *s = user;
	pthread_mutex_lock(&s->lock);
	s->known_best = partial->best_move;
	pthread_mutex_unlock(&s->lock);
	if (hold_output(s)) {
		print_info(s, partial);
		pthread_mutex_unlock(&s->out_lock);
	}
	/* The times of the last two iterations, for uci_time_continue's prediction. */
	int n = partial->iterations;
	double last_ms = -1.0, before_ms = -1.0;
	if (n >= 1)
		last_ms = 1000.0 * (partial->iteration[n - 1].time_s -
		                    (n >= 2 ? partial->iteration[n - 2].time_s : 0.0));
	if (n >= 2)
		before_ms = 1000.0 * (partial->iteration[n - 2].time_s -
		                      (n >= 3 ? partial->iteration[n - 3].time_s : 0.0));
	uci_budget_t b = { .soft_ms = s->go.soft_ms, .hard_ms = s->go.hard_ms };
	if (last_ms >= 0.0 &&
	    !uci_time_continue(&b, 1000.0 * (cli_now_s() - s->go.t0), last_ms, before_ms))
		cutoff_engine_stop(s->engine);
}

/* The search of s->go on this rank, into s->result: the library's return code. */
static int run_search(uci_session_t *s)
{
	uci_go_t *g = &s->go;
	cutoff_limits_t lim = g->limits;
	lim.played = g->played;
	lim.played_length = g->played_length;
	if (g->hard_ms > 0) {
		int64_t left = g->hard_ms - elapsed_ms(g->t0);
		lim.time_ms = left < 1 ? 1 : (uint64_t)left;
	}
	if (s->opt.driver == DRIVER_CLUSTER) {
		int rc = cli_cluster_search(s->cluster, s->engine, &g->root, &lim, &s->result,
		                            on_iteration, s);
		if (rc == CUTOFF_EPEER) {
			uci_say_error(s, "search: %s: %s; ending every rank", cutoff_strerror(rc),
			              cli_cluster_error(s->cluster));
			cli_cluster_abort(s->cluster, CLI_EXIT_FAIL);
		}
		return rc;
	}
	/* Another algorithm under mpirun: rank 0 searches alone, the others wait. */
	if (cli_cluster_rank(s->cluster) != 0)
		return CUTOFF_ETERMINAL;
	return cutoff_engine_search(s->engine, &g->root, &lim, &s->result, on_iteration, s);
}

/* The last info line of a search that returned rc (or why it failed), and its bestmove
 * into answer. Under out_lock (hold_output). */
static void report_search(uci_session_t *s, int rc, char *answer, size_t size)
{
	if (rc == 0) {
		print_info(s, &s->result);
	} else if (rc == CUTOFF_ETERMINAL) {
		char score[32];
		format_score(score, sizeof(score), s->result.value);
		uci_say(s, "info depth 0 score %s", score);
	} else {
		uci_say_error(s, "search: %s%s%s", cutoff_strerror(rc), s->log.last[0] ? ": " : "",
		              s->log.last);
	}
	if (s->go.debug && rc == 0)
		uci_say(s, "info string search: depth %d, %s, %.3f s", s->result.depth,
		        s->result.stopped ? "stopped" : "complete", s->result.time_s);
	format_bestmove(s, rc, answer, size);
}

static void *search_main(void *arg)
{
	uci_session_t *s = arg;
	int rc = run_search(s);

	pthread_mutex_lock(&s->lock);
	s->searching = false;
	pthread_cond_broadcast(&s->wake);
	pthread_mutex_unlock(&s->lock);

	char answer[64] = "bestmove 0000";
	if (hold_output(s)) {
		report_search(s, rc, answer, sizeof(answer));
		pthread_mutex_unlock(&s->out_lock);
	}

	pthread_mutex_lock(&s->lock);
	while (s->go.wait && !s->stop_requested)
		pthread_cond_wait(&s->wake, &s->lock);
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_lock(&s->out_lock);
	if (claim_answer(s))
		uci_say(s, "%s", answer);
	pthread_mutex_unlock(&s->out_lock);
	return NULL;
}

/*
 * The watchdog of a timed `go`: the library's time limit stops the search, but its
 * threads must be scheduled to notice, and on a busy machine that can take tens of
 * milliseconds. So if the search has not returned UCI_WATCHDOG_GRACE ms after its hard
 * limit, the watchdog answers for it with the best move of the latest completed iteration
 * (or the first legal move), and the search thread, when it returns, prints nothing more.
 */
static void *watchdog_main(void *arg)
{
	uci_session_t *s = arg;
	const uci_go_t *g = &s->go;
	double at = g->t0 + (double)(g->hard_ms + UCI_WATCHDOG_GRACE) / 1000.0;
	struct timespec deadline = { .tv_sec = (time_t)at,
		                     .tv_nsec = (long)((at - (double)(time_t)at) * 1e9) };
	pthread_mutex_lock(&s->lock);
	while (s->searching && cli_now_s() < at)
		pthread_cond_timedwait(&s->wake, &s->lock, &deadline);
	bool late = s->searching;
	pthread_mutex_unlock(&s->lock);
	if (!late)
		return NULL;

	pthread_mutex_lock(&s->out_lock);
	pthread_mutex_lock(&s->lock);
	cutoff_move_t best = s->known_best;
	if (s->searching)
		cutoff_engine_stop(s->engine);
	pthread_mutex_unlock(&s->lock);
	if (claim_answer(s)) {
		cutoff_move_t moves[CUTOFF_MAX_MOVES];
		char text[CUTOFF_CHESS_MOVE_SIZE] = "0000";
		int n = cutoff_chess_moves(s->chess, &g->root, moves);
		if (n > 0 && !is_legal(s, &g->root, best))
			best = moves[0];
		if (n > 0)
			cutoff_chess_move_str(best, text, sizeof(text));
		if (g->debug)
			uci_say(s,
			        "info string watchdog: the search overran its %" PRId64
			        " ms; answering for it",
			        g->hard_ms);
		uci_say(s, "bestmove %s", text);
	}
	pthread_mutex_unlock(&s->out_lock);
	return NULL;
}

void uci_start_search(uci_session_t *s)
{
	/* No other thread exists that could send a stop, so a pending one is stale (see the
	 * top of the file). */
	pthread_mutex_lock(&s->lock);
	int rc = cutoff_engine_cancel_stop(s->engine);
	cli_cluster_cancel_stop(s->cluster);
	s->searching = true;
	s->stop_requested = false;
	s->answered = false;
	s->known_best = CUTOFF_MOVE_NONE;
	pthread_mutex_unlock(&s->lock);
	if (rc != 0)
		uci_say_error(s, "go: cannot withdraw a stale stop: %s", cutoff_strerror(rc));
	if (pthread_create(&s->thread, NULL, search_main, s) != 0) {
		pthread_mutex_lock(&s->lock);
		s->searching = false;
		s->answered = true;
		pthread_mutex_unlock(&s->lock);
		uci_say_error(s, "go: cannot create the search thread");
		uci_answer_unsearched(s);
		return;
	}
	s->thread_alive = true;
	/* Without a watchdog the library's own time limit still holds: only slower. */
	if (s->go.hard_ms > 0 && pthread_create(&s->watchdog, NULL, watchdog_main, s) == 0)
		s->watchdog_alive = true;
}
