/* SPDX-License-Identifier: MIT */
/*
 * uci/time_plan.c — how long `cutoff uci` thinks about one move: the time budget of a
 * `go`, from its clock.
 *
 * Two limits come out of the clock. The soft limit and the prediction below are checked
 * between iterations of iterative deepening: an unfinished iteration is wasted (a stopped
 * search answers with the deepest completed one), so no iteration starts that would most
 * likely not finish. The hard limit is the search's own time limit
 * (cutoff_limits_t.time_ms), which stops an iteration in the middle. Both count from the
 * moment the `go` line was read.
 *
 * The move overhead (the `Move Overhead` option) is what the time between the GUI's clock
 * and ours costs on one move at worst: reading the line, starting the search thread, the
 * stop latency of the search (tens of milliseconds on an oversubscribed machine), writing
 * the answer. It is taken off the clock before anything else, so that the hard limit plus
 * the overhead never exceeds the time left. And the clock is planned to settle at a
 * reserve of three overheads rather than to drain to one: below it a move is planned on
 * a share of the increment only (less the lower the clock), so that the increment, not
 * the clock, pays for what a move costs beyond its search, and one slow answer on a busy
 * machine never meets an empty clock.
 *
 * The clock. A search's time limits count from the moment its `go` line was read, as the
 * GUI's clock does; the wait for the previous search to end is counted (it is a stop's
 * latency). Building the engine that setoption lines forced at this `go` (threads, a
 * table: the GUI sent no isready after them) is not: the limits count from when the
 * engine exists, so that a search is never left no time by a build that is no part of
 * it (twelve processes building 8-thread engines on 2 CPUs took the whole of a movetime
 * of 500 ms). On a clock (wtime/btime) the build is still taken off the time left before
 * the plan is made (uci_plan_time), since the GUI's clock ran during it; a movetime
 * search gets its whole movetime, so its answer comes the build's time late. A GUI that
 * sends isready after setoption, as UCI advises, never has a build inside a `go`.
 *
 * Owns s->last and s->excess_ms (main thread only); budget() and excess_update() are pure.
 */
#include <inttypes.h>

#include "uci/uci.h"

/* What a `go` says about time, for the side to move. */
typedef struct uci_clock {
	int64_t time_ms;     /* time left on the side to move's clock; -1: not given */
	int64_t inc_ms;      /* its increment per move, >= 0 */
	int64_t movestogo;   /* moves to the next time control; 0: not given (sudden death) */
	int64_t movetime_ms; /* think exactly this long; -1: not given */
	int64_t overhead_ms; /* the move overhead, >= 0 */
	int64_t excess_ms;   /* what recent moves cost beyond their target, by the clock, >= 0
	                        (excess_update) */
} uci_clock_t;

static int64_t at_least(int64_t v, int64_t floor) { return v < floor ? floor : v; }
static int64_t at_most(int64_t v, int64_t ceiling) { return v > ceiling ? ceiling : v; }

/*
 * The budget for `clock`, with O the overhead:
 *   movetime M     hard max(M - O, M / 2), at least 1 ms, no soft limit (though no
 *                  iteration starts that uci_time_continue sees cut): the time asked
 *                  for less the overhead, while that leaves at least half of it; a
 *                  shorter movetime still gets half (not 1 ms, which answers nothing
 *                  useful), so the answer to M <= 2 O may come up to M / 2 + the stop
 *                  latency after the `go`, later than M when the machine is busy;
 *   a clock T      with increment I and N moves to go (30 when not given, at most 50),
 *                  reserve R = 3 O: the target max(T - R, 0) / N + I / 2 x min(T / R, 1)
 *                  (half the increment: what a move costs beyond its search is paid from
 *                  the other half; and less of it below the reserve, so that the clock
 *                  grows back to it), less the excess E of recent moves (below), so
 *                  that what a move really costs on this machine matches the plan; soft
 *                  = half the target (the next iteration would take about as long as
 *                  all before it); hard = 3 x the target, at most a third of T - O (3/4
 *                  of it when N = 1, the last move before the time control); both at
 *                  least 1 ms;
 *   neither        no limits (0, 0).
 */
static void budget(const uci_clock_t *c, uci_budget_t *b)
{
	b->soft_ms = 0;
	b->hard_ms = 0;
	b->target_ms = 0;
	if (c->movetime_ms >= 0) {
		int64_t m = c->movetime_ms;
		b->hard_ms = at_least(at_least(m - c->overhead_ms, m / 2), 1);
		b->target_ms = b->hard_ms;
		return;
	}
	if (c->time_ms < 0)
		return;
	int64_t usable = at_least(c->time_ms - c->overhead_ms, 1);
	int64_t togo = c->movestogo > 0 ? at_most(c->movestogo, 50) : 30;
	int64_t reserve = 3 * c->overhead_ms;
	/* Half the increment, not all of it: the time spent is always a little more than
	 * planned (an iteration started before the soft limit runs on, the pipes and the
	 * stop take time), and the rest of the increment pays for that. Below the reserve
	 * less of it, in proportion, so that a low clock grows back. */
	int64_t inc = c->inc_ms / 2;
	if (reserve > 0 && c->time_ms < reserve)
		inc = inc * c->time_ms / reserve;
	int64_t target = at_least(at_least(c->time_ms - reserve, 0) / togo + inc - c->excess_ms, 0);
	b->target_ms = target;
	/* One move may take a large share of what is left only when it is the last before
	 * the time control. */
	int64_t ceiling = togo == 1 ? usable * 3 / 4 : usable / 3;
	b->hard_ms = at_least(at_most(target * 3, ceiling), 1);
	b->soft_ms = at_least(at_most(target / 2, b->hard_ms), 1);
}

/*
 * The excess E: an average of what the moves of a game cost beyond their target, as the
 * clock saw it — the clock before the move, plus the increment, less the clock at the next
 * move of the same side (pipes, scheduling, a stop that came late, iterations slower than
 * predicted on a busy machine: all that the engine's own timing misses). `excess` is the
 * running value (start at 0, never below 0); `cost_ms - target_ms`, at most `cap_ms` (the
 * move overhead: one hiccup, such as a table made at the first `go`, must not starve the
 * moves after it), moves it an eighth of the way. Taking
 * E off the target makes the clock follow the plan: a machine that adds 20 ms to every
 * move gets targets 20 ms shorter, not a clock that drains twice as fast as planned.
 */
static void excess_update(double *excess, int64_t cost_ms, int64_t target_ms, int64_t cap_ms)
{
	int64_t over = at_most(cost_ms - target_ms, cap_ms);
	*excess += ((double)over - *excess) / 8.0;
	/* A move that cost less than planned (a mate found, a lucky early stop) lends nothing
	 * to the next one: the excess only ever shortens a target. */
	if (*excess < 0.0)
		*excess = 0.0;
}

bool uci_time_continue(const uci_budget_t *b, double elapsed_ms, double last_ms, double before_ms)
{
	if (b->soft_ms > 0 && elapsed_ms >= (double)b->soft_ms)
		return false;
	if (b->hard_ms <= 0)
		return true;
	double growth = 2.5;
	if (before_ms >= 1.0) {
		growth = last_ms / before_ms;
		growth = growth < 1.5 ? 1.5 : growth > 4.0 ? 4.0 : growth;
	}
	return elapsed_ms + last_ms * growth <= (double)b->hard_ms;
}

void uci_plan_time(uci_session_t *s, const uci_go_args_t *a, int64_t build_ms)
{
	uci_go_t *g = &s->go;
	long fullmove = 0;
	bool white = uci_white_to_move(s, &g->root, &fullmove);
	bool clocked = a->have_wtime || a->have_btime;
	bool on_clock = !g->wait && clocked && a->movetime < 0;
	if (!on_clock)
		s->last[0].valid = s->last[1].valid = false;
	if (g->wait || (!clocked && a->movetime < 0))
		return;
	int64_t left = white ? a->wtime : a->btime, inc = white ? a->winc : a->binc;
	int64_t given = clocked ? (left < 0 ? 0 : left) : -1;
	int64_t after_build = given < 0 ? -1 : given > build_ms ? given - build_ms : 0;
	uci_clock_t clock = { .time_ms = after_build,
		              .inc_ms = inc < 0 ? 0 : inc,
		              .movestogo = a->movestogo,
		              .movetime_ms = a->movetime,
		              .overhead_ms = s->opt.overhead_ms };
	/* The previous move of this side in this game: what did it cost? */
	struct uci_last_go *last = &s->last[!white];
	if (on_clock && last->valid && fullmove == last->fullmove + 1 &&
	    given <= last->time_ms + last->inc_ms)
		excess_update(&s->excess_ms, last->time_ms + last->inc_ms - given, last->target_ms,
		              clock.overhead_ms);
	clock.excess_ms = (int64_t)s->excess_ms;
	uci_budget_t b;
	budget(&clock, &b);
	/* What this move costs by the clock includes the build: so does its target. */
	*last = (struct uci_last_go){ .valid = on_clock,
		                      .fullmove = fullmove,
		                      .time_ms = given,
		                      .inc_ms = clock.inc_ms,
		                      .target_ms = b.target_ms + build_ms };
	g->soft_ms = b.soft_ms;
	g->hard_ms = b.hard_ms;
	/* With one legal move there is nothing to think about. */
	cutoff_move_t moves[CUTOFF_MAX_MOVES];
	if (cutoff_chess_moves(s->chess, &g->root, moves) == 1)
		g->limits.depth = 1;
	if (g->debug)
		uci_say(s,
		        "info string time: soft %" PRId64 " ms, hard %" PRId64
		        " ms, target %" PRId64 " ms, excess %" PRId64 " ms, build %" PRId64 " ms",
		        g->soft_ms, g->hard_ms, b.target_ms, clock.excess_ms, build_ms);
}
