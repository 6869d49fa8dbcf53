/* SPDX-License-Identifier: MIT */
/*
 * uci/uci.h — what the files of `cutoff uci` share: the session, the options, one `go`,
 * and the functions one file calls in another. Private to src/uci/.
 *
 * `cutoff uci` is a chess engine that speaks the Universal Chess Interface on two streams
 * (the command's stdin and stdout), over the library's engine and the chess adapter. Its
 * files, from the top down (a file calls only the files below it, never one above):
 *   loop.c           uci_run (session.h): the session, reading its input (and the lines
 *                    of rank 0 under mpirun), one command per line to handlers.c
 *   handlers.c       what each command does, and the order of their answers
 *   search_thread.c  the search thread and the watchdog of a `go`: starting, stopping,
 *                    info lines, bestmove (the threads and the stops are argued there)
 *   time_plan.c      the time budget of a `go` from its clock
 *   options.c        the options: their table, setoption's checks, the engine made from
 *                    them when it is idle
 *   parse.c          the words of a line: tokens, `position`, `go`, `setoption`
 *   say.c            every line written to the output
 *
 * Shared state, and why it is race-free (uci_session_t below):
 *   out_lock   every line written to the output is written whole and flushed under it, so
 *              lines never interleave. Recursive, so that a thread holding it to decide
 *              what to print (hold_output, claim_answer in search_thread.c) can print
 *              with uci_say().
 *   lock       guards the flags of the current `go` (taken after out_lock when both are):
 *     searching       the engine may be in the search of this `go`: set by the main
 *                     thread in `go`, cleared by the search thread once
 *                     cutoff_engine_search has returned. A stop is passed on to the
 *                     engine only while it is set (search_thread.c, "Stops"). The
 *                     watchdog waits for it to clear on `wake`, with a time-out.
 *     answered        `bestmove` has been printed (or is being printed, under out_lock)
 *                     by the search thread or the watchdog, and the other then prints
 *                     nothing; true when no `go` is pending. Cleared by `go`. It is set
 *                     before the search returns when the watchdog answers; a `go` sent
 *                     the instant that bestmove is read then waits (uci_join_search) for
 *                     the search, already stopped, to end.
 *     stop_requested  `stop`, `quit`, `ponderhit`, end of input or the next `go` came
 *                     for this `go`; set by the main thread, read by the search thread
 *                     while it holds back the bestmove of `go infinite` (waiting on
 *                     `wake`), and by the main thread: a `go` not answered and not
 *                     stopped is one that isready does not wait for
 *                     (uci_search_unstopped).
 *     known_best      the best move of the latest iteration, for the watchdog.
 *   go, result the job: written by the main thread before it creates the threads, then
 *              read (go) by both and written (result) only by the search thread, until
 *              the main thread joins them.
 *   engine     replaced or cleared by the main thread only when no search thread exists.
 *   everything else (the position, the options, the line buffer) belongs to the main
 *              thread.
 */
#ifndef CUTOFF_UCI_UCI_H
#define CUTOFF_UCI_UCI_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cutoff.h"
#include "cutoff_games.h"
#include "kit/args.h"
#include "kit/ranks.h"

enum {
	UCI_LINE_MAX = 1 << 20,    /* a longer line is read to its end and refused */
	UCI_FEN_MAX = 256,         /* the longest FEN accepted after `position fen` */
	UCI_OVERHEAD_DEFAULT = 50, /* ms: Move Overhead (docs/chess.md, "UCI") */
	UCI_OVERHEAD_MAX = 10000,  /* ms */
	UCI_INFO_SIZE = 2048,      /* an info line with a full pv (127 x 6 bytes) */
	UCI_WATCHDOG_GRACE = 5,    /* ms after the hard limit before the watchdog answers */
	UCI_QUOTE_SIZE = CLI_QUOTE_SIZE
};

/* Algorithm's value `cluster`, after the registry's drivers: under mpirun, every rank
 * searches with lazy SMP over its own table and the ranks share their deep entries
 * (src/kit/ranks.c). */
#define DRIVER_CLUSTER cutoff_driver_count()

/* Options as set by setoption; the engine is made from them. */
typedef struct uci_options {
	/* Threads (threads), Hash (tt_mb), Placement (placement), Pruning (pruning) and the
	 * drivers' options; every other field is the library's default (cutoff_config_default),
	 * and the driver and algorithm are set when the engine is made (options.c) */
	cutoff_config_t cfg;
	int driver; /* Algorithm: a cutoff_driver_t, or DRIVER_CLUSTER */
	int64_t overhead_ms;
} uci_options_t;

/* One `go`: everything the search thread reads. */
typedef struct uci_go {
	cutoff_chess_state_t root;
	uint64_t played[CUTOFF_MAX_PLAYED]; /* keys before the root, oldest first */
	int played_length;
	cutoff_limits_t limits;   /* without the time limit, computed when the search starts */
	int64_t soft_ms, hard_ms; /* from t0; 0: none */
	bool wait;                /* infinite or ponder: hold bestmove back until stopped */
	double t0;                /* when the `go` line was read (seconds, monotonic) */
	bool debug;
} uci_go_t;

typedef struct uci_session {
	cutoff_chess_t *chess;
	const cutoff_game_t *game;
	cutoff_engine_t *engine;
	cli_log_t log;      /* the library's last warning (written only while it builds or
	                  searches, read only when no search runs) */
	uci_options_t opt;  /* what the engine was made with (engine NULL: not made yet) */
	uci_options_t want; /* what setoption asked for: applied when the engine is idle */
	bool want_clear;    /* ucinewgame or Clear Hash: empty the table when idle */
	bool debug;

	/* The latest `go` on a clock for each side (white, black), to see what its move cost
	 * by the clock of the side's next `go` (time_plan.c); not valid after ucinewgame or
	 * a `go` that is not on a clock. */
	struct uci_last_go {
		bool valid;
		long fullmove;
		int64_t time_ms, inc_ms, target_ms;
	} last[2];
	double excess_ms; /* main thread only, as all of the above */

	/* The current position and the keys of the positions before it since the last
	 * irreversible move (at most CUTOFF_MAX_PLAYED, oldest first). */
	cutoff_chess_state_t pos;
	uint64_t keys[CUTOFF_MAX_PLAYED];
	int nkeys;
	uint64_t scratch[2 * CUTOFF_MAX_PLAYED]; /* keys while a `position` is read */

	pthread_mutex_t out_lock; /* recursive: a thread that holds it may still uci_say() */
	pthread_mutex_t lock;
	pthread_cond_t wake; /* on CLOCK_MONOTONIC, for the watchdog's timed wait */
	/* Under lock (see the top of the file). */
	bool searching, answered, stop_requested;
	cutoff_move_t known_best; /* the best move of the latest iteration reported */
	pthread_t thread, watchdog;
	bool thread_alive;   /* main thread only: a search thread exists, not joined */
	bool watchdog_alive; /* main thread only: likewise the watchdog */
	uci_go_t go;
	cutoff_result_t result;
	cli_cluster_t *cluster; /* under mpirun: the ranks (every rank runs this session on the
	                           lines rank 0 reads); else NULL */
	FILE *out;              /* where every line goes (say.c); set before any thread */
} uci_session_t;

/* What a `go` line asks for (uci_parse_go). */
typedef struct uci_go_args {
	/* Not given: -1 for wtime, btime and movetime, 0 for the others. */
	int64_t wtime, btime, winc, binc, movestogo, depth, nodes, mate, movetime;
	bool have_wtime, have_btime, infinite, ponder, searchmoves;
} uci_go_args_t;

/* What a `setoption` line says (uci_read_setoption): the words of its name and value. */
typedef struct uci_setoption {
	char name[128], value[128];
	bool long_name;  /* the name did not fit: no option has it */
	bool has_value;  /* the line has `value` (value may still be "") */
	bool long_value; /* the value did not fit */
} uci_setoption_t;

/* The limits of one search, in milliseconds from the `go`; 0 means none. */
typedef struct uci_budget {
	int64_t soft_ms;   /* start no iteration after this */
	int64_t hard_ms;   /* stop the search at this */
	int64_t target_ms; /* what the move is planned to cost (excess_update in time_plan.c) */
} uci_budget_t;

/* ---------------------------------------------------------------------------------------
 * handlers.c: one function per command, each run to its end on the main thread; cur is
 * the rest of the line, read with uci_next_token.
 * ------------------------------------------------------------------------------------- */

void uci_cmd_uci(uci_session_t *s);
void uci_cmd_isready(uci_session_t *s);
void uci_cmd_ucinewgame(uci_session_t *s);
void uci_cmd_position(uci_session_t *s, char **cur);
void uci_cmd_go(uci_session_t *s, char **cur);
void uci_cmd_setoption(uci_session_t *s, char **cur);
void uci_cmd_debug(uci_session_t *s, char **cur);
void uci_cmd_d(uci_session_t *s); /* the position and the options, as info strings */

/* ---------------------------------------------------------------------------------------
 * search_thread.c: the threads of a `go`. All are called by the main thread.
 * ------------------------------------------------------------------------------------- */

/* Starts the search thread for s->go, and the watchdog of a timed one. The threads of the
 * previous `go` have been joined (uci_end_search); s->engine exists. */
void uci_start_search(uci_session_t *s);

/* Ends the current `go` (stop, quit, ponderhit): a no-op when no search runs. */
void uci_request_stop(uci_session_t *s);

/* Waits for the search thread and the watchdog of the latest `go` (once it is answered
 * they are done, or about to be). */
void uci_join_search(uci_session_t *s);

/* For `go`: ends the search of the previous `go`, as `stop` would, and waits until its
 * bestmove has been sent and its threads are joined (handlers.c, "Order"). */
void uci_end_search(uci_session_t *s);

/* A `go` awaits its bestmove and nothing has asked it to stop: its search may run on for
 * as long as the GUI likes (go infinite, go ponder, a long clock). */
bool uci_search_unstopped(uci_session_t *s);

/* The answer to a `go` that could not search: the first legal move at s->pos (or 0000). */
void uci_answer_unsearched(uci_session_t *s);

/* ---------------------------------------------------------------------------------------
 * time_plan.c
 * ------------------------------------------------------------------------------------- */

/*
 * The soft and hard limits of a timed `go` into s->go (whose root, wait and limits are
 * set), counted from s->go.t0, and what the clock says the previous move of this side
 * cost (the excess). build_ms, the time the engine took to build for this `go`, is charged
 * to the clock and not to the search: the plan is made from what is left on the clock
 * after it (the GUI's clock ran meanwhile), and t0 is after it (time_plan.c, "The clock").
 */
void uci_plan_time(uci_session_t *s, const uci_go_args_t *a, int64_t build_ms);

/*
 * Whether to start another iteration, after one has completed `elapsed_ms` after the
 * `go`: not after the soft limit, and not when the next iteration, predicted as the last
 * one's time (`last_ms`) times the growth from the one before (`last_ms / before_ms`,
 * bounded to 1.5 .. 4; 2.5 when the one before took under a millisecond or there was
 * none, before_ms < 0), would end after the hard limit, where it would be cut and wasted.
 * True when the budget has no limit.
 */
bool uci_time_continue(const uci_budget_t *budget, double elapsed_ms, double last_ms,
                       double before_ms);

/* ---------------------------------------------------------------------------------------
 * options.c
 * ------------------------------------------------------------------------------------- */

/* The options a session starts with (Algorithm: the driver default_driver() names). */
void uci_options_default(uci_options_t *o);

/* The `option name ...` lines of the answer to `uci`, one per option. */
void uci_say_options(uci_session_t *s);

/* Checks what a setoption line says and records the value in s->want (applied when the
 * engine is idle: uci_apply_options), or says what is wrong and changes nothing. */
void uci_set_option(uci_session_t *s, const uci_setoption_t *so);

/*
 * Makes the engine what setoption asked for; only when no search runs (the caller has
 * joined the search thread). The options that shape the engine (threads, driver,
 * placement, pruning) make a new one; Hash alone resizes the table. A failure keeps the
 * engine (and options) as they were, and says so. Returns false only when there is no
 * engine at all.
 */
bool uci_apply_options(uci_session_t *s);

/* "Threads N, Hash N, Algorithm A, ..." for o, into buf. */
void uci_option_text(const uci_options_t *o, char *buf, size_t size);

/* ---------------------------------------------------------------------------------------
 * parse.c: each reader takes the rest of the line (*cur) and, on a word it cannot use,
 * says an `info string error` naming it and returns false.
 * ------------------------------------------------------------------------------------- */

/* The next blank-separated token of *cursor (NUL-terminated in place), or NULL. */
char *uci_next_token(char **cursor);

/* Reads the rest of a `position` line into *st, and the keys of the positions before it
 * since the last irreversible move into s->scratch[0 .. *nkeys) (the newest
 * CUTOFF_MAX_PLAYED are the last of them). */
bool uci_read_position(uci_session_t *s, char **cur, cutoff_chess_state_t *st, int *nkeys);

/* Reads the arguments of `go` into *a; false after an error naming the first one that
 * cannot be used (such a `go` is answered at once, unsearched: handlers.c, "Order"). */
bool uci_parse_go(uci_session_t *s, char **cur, uci_go_args_t *a);

/* Reads `name N [value V]` after setoption into *so; false when `name` or N is missing. */
bool uci_read_setoption(uci_session_t *s, char **cur, uci_setoption_t *so);

/* Whether white is to move in st, and (into *fullmove when not NULL) its move number. */
bool uci_white_to_move(const uci_session_t *s, const cutoff_chess_state_t *st, long *fullmove);

/* ---------------------------------------------------------------------------------------
 * say.c: safe from any thread.
 * ------------------------------------------------------------------------------------- */

/* Writes one line (fmt without its '\n') and flushes it, under out_lock. */
__attribute__((format(printf, 2, 3))) void uci_say(uci_session_t *s, const char *fmt, ...);

/* "info string error: <message>", with any byte outside printable ASCII shown as '?'. */
__attribute__((format(printf, 2, 3))) void uci_say_error(uci_session_t *s, const char *fmt, ...);

#endif /* CUTOFF_UCI_UCI_H */
