/*
 * uci_time.h — how long `cutoff uci` thinks about one move: the time budget of a `go`.
 *
 * Two limits come out of the clock. The soft limit is checked between iterations of
 * iterative deepening: once that much time has gone, no new iteration starts (the next one
 * would most likely not finish, and an unfinished iteration is wasted). The hard limit is
 * the search's own time limit (cutoff_limits_t.time_ms), which stops an iteration in the
 * middle. Both count from the moment the `go` line was read.
 *
 * The move overhead (the `Move Overhead` option) is what the time between the GUI's clock
 * and ours costs on every move: reading the line, starting the search thread, the stop
 * latency of the search (up to about 20 ms on an oversubscribed machine), writing the
 * answer. It is taken off the clock before anything else, so that the hard limit plus the
 * overhead never exceeds the time left.
 */
#ifndef CUTOFF_CLI_UCI_TIME_H
#define CUTOFF_CLI_UCI_TIME_H

#include <stdint.h>

/* What a `go` says about time, for the side to move. */
typedef struct uci_clock {
	int64_t time_ms;     /* time left on the side to move's clock; -1: not given */
	int64_t inc_ms;      /* its increment per move, >= 0 */
	int64_t movestogo;   /* moves to the next time control; 0: not given (sudden death) */
	int64_t movetime_ms; /* think exactly this long; -1: not given */
	int64_t overhead_ms; /* the move overhead, >= 0 */
} uci_clock_t;

/* The limits of one search, in milliseconds from the `go`; 0 means none. */
typedef struct uci_budget {
	int64_t soft_ms; /* start no iteration after this */
	int64_t hard_ms; /* stop the search at this */
} uci_budget_t;

/*
 * The budget for `clock`:
 *   movetime M     hard M - overhead (at least 1 ms), no soft limit: the whole time is
 *                  used, the last iteration stopped in the middle;
 *   a clock T      with increment I and N moves to go (30 when not given, at most 50):
 *                  the target T/N + I/2; soft = half the target (the next iteration
 *                  would take about as long as all before it), hard = 3 x the target,
 *                  at most a third of T - overhead (3/4 of it when N = 1, the last move
 *                  before the time control); both at least 1 ms;
 *   neither        no limits (0, 0).
 */
void uci_budget(const uci_clock_t *clock, uci_budget_t *budget);

#endif /* CUTOFF_CLI_UCI_TIME_H */
