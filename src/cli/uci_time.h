/*
 * uci_time.h — how long `cutoff uci` thinks about one move: the time budget of a `go`.
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
 */
#ifndef CUTOFF_CLI_UCI_TIME_H
#define CUTOFF_CLI_UCI_TIME_H

#include <stdbool.h>
#include <stdint.h>

/* What a `go` says about time, for the side to move. */
typedef struct uci_clock {
	int64_t time_ms;     /* time left on the side to move's clock; -1: not given */
	int64_t inc_ms;      /* its increment per move, >= 0 */
	int64_t movestogo;   /* moves to the next time control; 0: not given (sudden death) */
	int64_t movetime_ms; /* think exactly this long; -1: not given */
	int64_t overhead_ms; /* the move overhead, >= 0 */
	int64_t excess_ms;   /* what recent moves cost beyond their target, by the clock, >= 0
	                        (uci_excess_update) */
} uci_clock_t;

/* The limits of one search, in milliseconds from the `go`; 0 means none. */
typedef struct uci_budget {
	int64_t soft_ms;   /* start no iteration after this */
	int64_t hard_ms;   /* stop the search at this */
	int64_t target_ms; /* what the move is planned to cost (for uci_excess_update) */
} uci_budget_t;

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
void uci_budget(const uci_clock_t *clock, uci_budget_t *budget);

/*
 * Whether to start another iteration, after one has completed `elapsed_ms` after the
 * `go`: not after the soft limit, and not when the next iteration, predicted as the last
 * one's time (`last_ms`) times the growth from the one before (`last_ms / before_ms`,
 * bounded to 1.5 .. 4; 2.5 when the one before took under a millisecond or there was
 * none, before_ms < 0), would end after the hard limit, where it would be cut and wasted.
 * True when the budget has no limit.
 */
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
void uci_excess_update(double *excess, int64_t cost_ms, int64_t target_ms, int64_t cap_ms);

bool uci_time_continue(const uci_budget_t *budget, double elapsed_ms, double last_ms,
                       double before_ms);

#endif /* CUTOFF_CLI_UCI_TIME_H */
