/*
 * uci.c — `cutoff uci`: a chess engine that speaks the Universal Chess Interface on stdin
 * and stdout, over the library's engine and the chess adapter.
 *
 * Threads. The main thread reads command lines and runs them in order, each to its end
 * before it reads the next. `go` starts a search thread, which calls
 * cutoff_engine_search(), prints an info line after each iteration from the info
 * callback, then a final info line and `bestmove`, and ends; a timed `go` also starts a
 * watchdog (watchdog_main), which answers for a search that overruns its hard limit. The
 * main thread joins both before it starts the next `go` or touches the engine.
 *
 * Order. What a command answers comes after everything that the commands before it
 * answered, save what UCI itself asks for: `isready` during a search that nothing has
 * stopped is answered at once, and that search's bestmove comes after the readyok. So:
 *   - `go` first ends the previous `go`'s search if it still runs, as `stop` would, and
 *     waits for its bestmove (end_search). After `stop` (a GUI in analysis mode sends
 *     stop, isready and the next go without waiting for the old bestmove) that is a
 *     wait of the stop's latency; during a search that nothing stopped, it stops it,
 *     since waiting for it to end by itself could be for ever (go infinite, go ponder,
 *     go depth 100), with no `stop` or `quit` read meanwhile. No `go` is refused: every
 *     one gets exactly one bestmove, in the order of the `go`s.
 *   - `isready` otherwise waits for the stopped search's bestmove and then for the
 *     options asked for to be in force (cmd_isready): a GUI that syncs with isready
 *     after `stop` never reads the old bestmove after readyok.
 *   - A `go` whose line cannot be used whole (an unknown word; a value missing, not an
 *     integer or out of range: `depth -1`, `movetime -5`, `nodes 0`, `wtime
 *     99999999999999999999`; an illegal searchmoves move; a clock given only for the side
 *     not to move) is reported by `info string error` naming it and answered at once with
 *     the first legal move, unsearched (0000 when there is none). Searching with the rest
 *     of the line, as Stockfish does with unknown words, could search for ever (`go
 *     movetime -5` read as a bare `go`) or on a clock the GUI did not give; the answer at
 *     once keeps the GUI's game going, and its log says why the move is poor.
 *
 * The clock. A search's time limits count from the moment its `go` line was read, as the
 * GUI's clock does; the wait for the previous search to end is counted (it is a stop's
 * latency). Building the engine that setoption lines forced at this `go` (threads, a
 * table: the GUI sent no isready after them) is not: the limits count from when the
 * engine exists, so that a search is never left no time by a build that is no part of
 * it (twelve processes building 8-thread engines on 2 CPUs took the whole of a movetime
 * of 500 ms). On a clock (wtime/btime) the build is still taken off the time left before
 * the plan is made (plan_time), since the GUI's clock ran during it; a movetime search
 * gets its whole movetime, so its answer comes the build's time late. A GUI that sends
 * isready after setoption, as UCI advises, never has a build inside a `go`.
 *
 * Shared state, and why it is race-free:
 *   out_lock   every line written to stdout is written whole and flushed under it, so
 *              lines never interleave. Recursive, so that a thread holding it to decide
 *              what to print (hold_output, claim_answer) can print with say().
 *   lock       guards the flags of the current `go` (taken after out_lock when both are):
 *     searching       the engine may be in the search of this `go`: set by the main
 *                     thread in `go`, cleared by the search thread once
 *                     cutoff_engine_search has returned. A stop is passed on to the
 *                     engine only while it is set (see below). The watchdog waits for it
 *                     to clear on `wake`, with a time-out.
 *     answered        `bestmove` has been printed (or is being printed, under out_lock)
 *                     by the search thread or the watchdog, and the other then prints
 *                     nothing; true when no `go` is pending. Cleared by `go`. It is set
 *                     before the search returns when the watchdog answers; a `go` sent
 *                     the instant that bestmove is read then waits (join_search) for the
 *                     search, already stopped, to end.
 *     stop_requested  `stop`, `quit`, `ponderhit`, end of input or the next `go` came
 *                     for this `go`; set by the main thread, read by the search thread
 *                     while it holds back the bestmove of `go infinite` (waiting on
 *                     `wake`), and by the main thread: a `go` not answered and not
 *                     stopped is one that isready does not wait for (search_unstopped).
 *     known_best      the best move of the latest iteration, for the watchdog.
 *   go, result the job: written by the main thread before it creates the threads, then
 *              read (go) by both and written (result) only by the search thread, until
 *              the main thread joins them.
 *   engine     replaced or cleared by the main thread only when no search thread exists.
 *   everything else (the position, the options, the line buffer) belongs to the main
 *              thread.
 *
 * Stops. cutoff_engine_stop() is sticky: a stop that reaches an idle engine stops its next
 * search at once. Three threads send one — the main thread (stop, ponderhit, quit, end of
 * input, the next go), the watchdog, and the search thread's info callback (the soft
 * limit) — and the first two send it only under `lock` while `searching` is set (the
 * main thread through request_stop). Such a stop lands
 *   (a) before the search thread enters cutoff_engine_search: it is kept, and the search
 *       returns at once, which is what was asked;
 *   (b) during the search (the info callback's stops are all here): it stops it, and the
 *       search clears the engine's flag on its way out;
 *   (c) after the search cleared the flag, before the search thread clears `searching`:
 *       it is stale, and would stop the next search at once.
 * The next `go` withdraws (c) with cutoff_engine_cancel_stop(), and that is safe because
 * of where it runs (start_search): on the main thread, after end_search() has joined the
 * search thread and the watchdog of the previous `go` (so they are gone, and the engine
 * is idle, as cancel_stop requires), under `lock`, just before it sets `searching` and
 * starts the search thread.
 * At that moment no other thread exists that could send a stop, so every stop pending is
 * one of the previous `go`'s; and every stop meant for the new `go` is sent after
 * `searching` is set, so after the cancel, and is never withdrawn. A `stop` while no `go`
 * runs is not passed on at all.
 *
 * Options. Algorithm lists every driver of the library's registry, and every driver
 * option of the registry is an option of its own (spin or combo, by its name: min-split),
 * so that a driver added to the library is offered here without an edit.
 * setoption checks the value and records it (`want`); the engine is made anew
 * (Threads, Algorithm, Placement, Pruning, a driver option) or its table resized (Hash)
 * only when it is
 * idle, at the next isready or ucinewgame that finds no search running unstopped, or at
 * the next go (apply_options): a burst of setoption lines builds one engine, a setoption
 * sent during a search takes effect after it, and isready answers once a big table is in
 * place. Move Overhead is in force at once.
 */
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "args.h"
#include "cluster.h"
#include "commands.h"
#include "cutoff.h"
#include "cutoff_games.h"
#include "uci_time.h"

/* clang-format off */
static const char uci_usage[] =
	"usage: cutoff uci\n"
	"\n"
	"A chess engine speaking the Universal Chess Interface (UCI) on stdin and stdout,\n"
	"for a chess GUI or a referee (cutoff match). Commands: uci, isready, ucinewgame,\n"
	"setoption, position, go, stop, ponderhit, debug, quit, and d (prints the current\n"
	"position as 'info string fen ...'). Options: Threads, Hash, Algorithm, Placement,\n"
	"Pruning, Move Overhead, Clear Hash and each driver's options ('cutoff drivers';\n"
	"see 'uci' for them all); they take effect when the engine\n"
	"is idle, at the next isready, go or ucinewgame. A bad line is answered with\n"
	"'info string error: ...' and changes nothing; a bad go is also answered at once\n"
	"with the first legal move. A go during a search ends that search first: every\n"
	"go gets one bestmove, in order. End of input acts as quit.\n"
	"docs/chess.md (\"UCI\") has the details.\n"
	"\n"
	"  --help   print this help\n";
/* clang-format on */

enum {
	UCI_LINE_MAX = 1 << 20,    /* a longer line is read to its end and refused */
	UCI_FEN_MAX = 256,         /* the longest FEN accepted after `position fen` */
	UCI_OVERHEAD_DEFAULT = 50, /* ms: Move Overhead (docs/chess.md, "UCI") */
	UCI_OVERHEAD_MAX = 10000,  /* ms */
	UCI_INFO_SIZE = 2048,      /* an info line with a full pv (127 x 6 bytes) */
	UCI_WATCHDOG_GRACE = 5,    /* ms after the hard limit before the watchdog answers */
	UCI_QUOTE_SIZE = CLI_QUOTE_SIZE
};

/* Pruning option: the combo's words and their CUTOFF_PRUNE_* bits. */
static const char *const pruning_names[] = { "none", "nullmove", "lmr", "all", NULL };
static const unsigned pruning_bits[] = { CUTOFF_PRUNE_NONE, CUTOFF_PRUNE_NULL_MOVE,
	                                 CUTOFF_PRUNE_LMR, CUTOFF_PRUNE_ALL };

/* Algorithm's value `cluster`, after the registry's drivers: under mpirun, every rank
 * searches with lazy SMP over its own table and the ranks share their deep entries
 * (src/cli/cluster.c). */
#define DRIVER_CLUSTER cutoff_driver_count()

/* Options as set by setoption; the engine is made from them. */
typedef struct uci_options {
	int64_t threads;
	int64_t hash_mb;
	int driver;    /* a cutoff_driver_t, or DRIVER_CLUSTER */
	int placement; /* a cutoff_placement_t */
	int pruning;   /* index into pruning_names */
	int64_t overhead_ms;
	cutoff_config_t drivers; /* the drivers' options (cutoff_config_get_option); the rest
	                            of it is not read */
} uci_options_t;

/* The driver Algorithm starts with: the parallel driver that plays best on few threads
 * (the library's default when the registry has none of that name). */
static const char UCI_DEFAULT_DRIVER[] = "lazysmp";

static int default_driver(void)
{
	cutoff_driver_t d;
	return cutoff_driver_find(UCI_DEFAULT_DRIVER, &d) == CUTOFF_OK ? (int)d
	                                                               : (int)cli_driver_default();
}

/* Calls fn(option, arg) for every driver option of the registry. */
static void each_driver_option(void (*fn)(const cutoff_driver_option_t *, void *), void *arg)
{
	for (int d = 0; d < cutoff_driver_count(); d++) {
		const cutoff_driver_option_t *o;
		int n = cutoff_driver_options((cutoff_driver_t)d, &o);
		for (int i = 0; i < n; i++)
			fn(&o[i], arg);
	}
}

typedef struct options_pair {
	const cutoff_config_t *a, *b;
	bool same;
} options_pair_t;

static void compare_option(const cutoff_driver_option_t *opt, void *arg)
{
	options_pair_t *p = arg;
	int x = 0, y = 0;
	cutoff_config_get_option(p->a, opt->name, &x);
	cutoff_config_get_option(p->b, opt->name, &y);
	p->same &= x == y;
}

static bool same_driver_options(const cutoff_config_t *a, const cutoff_config_t *b)
{
	options_pair_t p = { a, b, true };
	each_driver_option(compare_option, &p);
	return p.same;
}

static void copy_option(const cutoff_driver_option_t *opt, void *arg)
{
	options_pair_t *p = arg;
	int v;
	if (cutoff_config_get_option(p->a, opt->name, &v) == CUTOFF_OK)
		cutoff_config_set_option((cutoff_config_t *)p->b, opt->name, v);
}

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
	 * by the clock of the side's next `go` (uci_excess_update); not valid after
	 * ucinewgame or a `go` that is not on a clock. */
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

	pthread_mutex_t out_lock; /* recursive: a thread that holds it may still say() */
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
} uci_session_t;

static int64_t elapsed_ms(double t0) { return (int64_t)((cli_now_s() - t0) * 1000.0); }

/* ---------------------------------------------------------------------------------------
 * Output
 * ------------------------------------------------------------------------------------- */

/* Writes one line (fmt without its '\n') and flushes it, under out_lock. */
__attribute__((format(printf, 2, 3))) static void say(uci_session_t *s, const char *fmt, ...)
{
	va_list ap;
	pthread_mutex_lock(&s->out_lock);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	pthread_mutex_unlock(&s->out_lock);
}

/* "info string error: <message>" */
__attribute__((format(printf, 2, 3))) static void say_error(uci_session_t *s, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* The library's messages may show a bad byte of a FEN or a move as it came. */
	for (char *p = msg; *p; p++) {
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
	}
	say(s, "info string error: %s", msg);
}

/* ---------------------------------------------------------------------------------------
 * Lines and tokens
 * ------------------------------------------------------------------------------------- */

typedef struct line_reader {
	char *buf;
	size_t cap;
} line_reader_t;

typedef enum line_status {
	LINE_OK,
	LINE_TOO_LONG, /* read to its end and dropped */
	LINE_EOF
} line_status_t;

/* Reads one line without its '\n' into r->buf (NUL-terminated, *len bytes, which may
 * include NUL bytes). LINE_EOF only when nothing at all was read. */
static line_status_t read_line(FILE *in, line_reader_t *r, size_t *len)
{
	size_t n = 0;
	bool too_long = false, any = false;
	int c;
	while ((c = getc(in)) != EOF) {
		any = true;
		if (c == '\n')
			break;
		if (too_long)
			continue;
		if (n + 1 >= r->cap) {
			size_t cap = r->cap ? 2 * r->cap : 4096;
			char *p = cap <= UCI_LINE_MAX + 1 ? realloc(r->buf, cap) : NULL;
			if (!p) {
				too_long = true;
				continue;
			}
			r->buf = p;
			r->cap = cap;
		}
		r->buf[n++] = (char)c;
	}
	if (!any)
		return LINE_EOF;
	if (r->buf)
		r->buf[n] = '\0';
	*len = n;
	return too_long ? LINE_TOO_LONG : LINE_OK;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* The next blank-separated token of *cursor (NUL-terminated in place), or NULL. */
static char *next_token(char **cursor)
{
	char *p = *cursor;
	while (*p && is_blank(*p))
		p++;
	if (!*p) {
		*cursor = p;
		return NULL;
	}
	char *start = p;
	while (*p && !is_blank(*p))
		p++;
	if (*p)
		*p++ = '\0';
	*cursor = p;
	return start;
}

/* ---------------------------------------------------------------------------------------
 * The engine
 * ------------------------------------------------------------------------------------- */

static cutoff_engine_t *make_engine(uci_session_t *s, const uci_options_t *o, int *err)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.threads = (int)o->threads;
	cfg.tt_mb = (size_t)o->hash_mb;
	cfg.driver =
		o->driver == DRIVER_CLUSTER ? CUTOFF_DRIVER_LAZYSMP : (cutoff_driver_t)o->driver;
	cfg.algo = CUTOFF_ALGO_PVS;
	if (o->driver == DRIVER_CLUSTER)
		cli_cluster_configure(s->cluster, &cfg);
	cfg.placement = (cutoff_placement_t)o->placement;
	cfg.pruning = pruning_bits[o->pruning];
	options_pair_t copy = { &o->drivers, &cfg, true };
	each_driver_option(copy_option, &copy);
	cfg.log = cli_log_keep;
	cfg.log_user = &s->log;
	s->log.last[0] = '\0';
	return cutoff_engine_new(s->game, &cfg, err);
}

/* Waits for the search thread and the watchdog of the latest `go` (once it is answered
 * they are done, or about to be). */
static void join_search(uci_session_t *s)
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

/* A `go` awaits its bestmove and nothing has asked it to stop: its search may run on for
 * as long as the GUI likes (go infinite, go ponder, a long clock). */
static bool search_unstopped(uci_session_t *s)
{
	pthread_mutex_lock(&s->lock);
	bool running = !s->answered && !s->stop_requested;
	pthread_mutex_unlock(&s->lock);
	return running;
}

static void option_text(const uci_options_t *o, char *buf, size_t size)
{
	char drivers[256];
	const bool cluster = o->driver == DRIVER_CLUSTER;
	cli_driver_options_text(&o->drivers,
	                        cluster ? CUTOFF_DRIVER_LAZYSMP : (cutoff_driver_t)o->driver,
	                        drivers, sizeof(drivers));
	snprintf(buf, size,
	         "Threads %" PRId64 ", Hash %" PRId64
	         ", Algorithm %s, Placement %s, Pruning %s%s%s",
	         o->threads, o->hash_mb,
	         cluster ? "cluster" : cli_driver_name((cutoff_driver_t)o->driver),
	         cli_placement_names[o->placement], pruning_names[o->pruning],
	         drivers[0] ? ", " : "", drivers);
}

/*
 * Makes the engine what setoption asked for; only when no search runs (the search thread,
 * if any, is joined here). The options that shape the engine (threads, driver, placement,
 * pruning) make a new one; Hash alone resizes the table. A failure keeps the engine (and
 * options) as they were, and says so. Returns false only when there is no engine at all.
 */
static bool apply_options(uci_session_t *s)
{
	char was[512], asked[512];
	int rc = 0;
	join_search(s);
	uci_options_t *o = &s->opt, *w = &s->want;
	if (!s->engine || w->threads != o->threads || w->driver != o->driver ||
	    w->placement != o->placement || w->pruning != o->pruning ||
	    !same_driver_options(&w->drivers, &o->drivers)) {
		cutoff_engine_t *e = make_engine(s, w, &rc);
		if (e) {
			cutoff_engine_free(s->engine);
			s->engine = e;
			*o = *w;
			s->want_clear = false; /* a new engine is empty */
		}
	} else if (w->hash_mb != o->hash_mb) {
		s->log.last[0] = '\0';
		if ((rc = cutoff_engine_set_tt_mb(s->engine, (size_t)w->hash_mb)) == 0)
			o->hash_mb = w->hash_mb;
	}
	if (rc != 0) {
		option_text(w, asked, sizeof(asked));
		option_text(o, was, sizeof(was));
		say_error(s, "setoption: cannot apply %s: %s%s%s; %s %s", asked,
		          cutoff_strerror(rc), s->log.last[0] ? ": " : "", s->log.last,
		          s->engine ? "kept" : "back to", was);
		*w = *o;
		/* The first engine failed: make one with the options before the change. */
		if (!s->engine && (s->engine = make_engine(s, o, &rc)) == NULL)
			say_error(s, "cannot make the engine: %s%s%s", cutoff_strerror(rc),
			          s->log.last[0] ? ": " : "", s->log.last);
	}
	if (s->engine && s->want_clear) {
		s->want_clear = false;
		if ((rc = cutoff_engine_clear(s->engine)) != 0)
			say_error(s, "ucinewgame: %s", cutoff_strerror(rc));
	}
	return s->engine != NULL;
}

/* Ends the current `go` (stop, quit, ponderhit): a no-op when no search runs. */
static void request_stop(uci_session_t *s)
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

/* For `go`: ends the search of the previous `go`, as `stop` would, and waits until its
 * bestmove has been sent and its threads are joined (see "Order" at the top). */
static void end_search(uci_session_t *s)
{
	if (search_unstopped(s))
		say(s, "info string go: the search before was not stopped; stopping it first");
	request_stop(s);
	join_search(s);
}

/* ---------------------------------------------------------------------------------------
 * The search thread
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
	say(s, "%s", line);
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
			say_error(s, "search: best move %" PRIu32 " is not legal; playing another",
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

static void *search_main(void *arg)
{
	uci_session_t *s = arg;
	uci_go_t *g = &s->go;

	cutoff_limits_t lim = g->limits;
	lim.played = g->played;
	lim.played_length = g->played_length;
	if (g->hard_ms > 0) {
		int64_t left = g->hard_ms - elapsed_ms(g->t0);
		lim.time_ms = left < 1 ? 1 : (uint64_t)left;
	}
	int rc;
	if (s->opt.driver == DRIVER_CLUSTER) {
		rc = cli_cluster_search(s->cluster, s->engine, &g->root, &lim, &s->result,
		                        on_iteration, s);
		if (rc == CUTOFF_EPEER) {
			say_error(s, "search: %s: %s; ending every rank", cutoff_strerror(rc),
			          cli_cluster_error(s->cluster));
			cli_cluster_abort(s->cluster, CLI_EXIT_FAIL);
		}
	} else if (cli_cluster_rank(s->cluster) != 0) {
		/* Another algorithm under mpirun: rank 0 searches alone, the others wait. */
		rc = CUTOFF_ETERMINAL;
	} else {
		rc = cutoff_engine_search(s->engine, &g->root, &lim, &s->result, on_iteration, s);
	}

	pthread_mutex_lock(&s->lock);
	s->searching = false;
	pthread_cond_broadcast(&s->wake);
	pthread_mutex_unlock(&s->lock);

	char answer[64] = "bestmove 0000";
	if (hold_output(s)) {
		if (rc == 0) {
			print_info(s, &s->result);
		} else if (rc == CUTOFF_ETERMINAL) {
			char score[32];
			format_score(score, sizeof(score), s->result.value);
			say(s, "info depth 0 score %s", score);
		} else {
			say_error(s, "search: %s%s%s", cutoff_strerror(rc),
			          s->log.last[0] ? ": " : "", s->log.last);
		}
		if (g->debug && rc == 0)
			say(s, "info string search: depth %d, %s, %.3f s", s->result.depth,
			    s->result.stopped ? "stopped" : "complete", s->result.time_s);
		format_bestmove(s, rc, answer, sizeof(answer));
		pthread_mutex_unlock(&s->out_lock);
	}

	pthread_mutex_lock(&s->lock);
	while (g->wait && !s->stop_requested)
		pthread_cond_wait(&s->wake, &s->lock);
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_lock(&s->out_lock);
	if (claim_answer(s))
		say(s, "%s", answer);
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
			say(s,
			    "info string watchdog: the search overran its %" PRId64
			    " ms; answering for it",
			    g->hard_ms);
		say(s, "bestmove %s", text);
	}
	pthread_mutex_unlock(&s->out_lock);
	return NULL;
}

/* ---------------------------------------------------------------------------------------
 * Commands
 * ------------------------------------------------------------------------------------- */

/* `option name NAME type spin|combo ...` for a driver option of the registry. */
static void say_driver_option(const cutoff_driver_option_t *opt, void *arg)
{
	uci_session_t *s = arg;
	cutoff_config_t def;
	char v[32], words[256];
	int value = 0;
	size_t n = 0;
	cutoff_config_default(&def);
	cutoff_config_get_option(&def, opt->name, &value);
	if (!opt->words) {
		say(s, "option name %s type spin default %d min %d max %d", opt->name, value,
		    opt->min, opt->max);
		return;
	}
	words[0] = '\0';
	for (int i = 0; i <= opt->max - opt->min && n < sizeof(words); i++)
		n += (size_t)snprintf(words + n, sizeof(words) - n, " var %s", opt->words[i]);
	say(s, "option name %s type combo default %s%s", opt->name,
	    cli_option_text(opt, value, v, sizeof(v)), words);
}

static void cmd_uci(uci_session_t *s)
{
	char names[256];
	size_t n = 0;
	say(s, "id name cutoff %s", cutoff_version());
	say(s, "id author the cutoff authors");
	say(s, "option name Threads type spin default 1 min 1 max %d", CUTOFF_MAX_THREADS);
	say(s, "option name Hash type spin default 16 min 0 max %zu", (size_t)CUTOFF_MAX_TT_MB);
	for (int d = 0; d < cutoff_driver_count() && n < sizeof(names); d++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, " var %s",
		                      cli_driver_name((cutoff_driver_t)d));
	if (s->cluster)
		n += (size_t)snprintf(names + n, sizeof(names) - n, " var cluster");
	say(s, "option name Algorithm type combo default %s%s",
	    s->cluster ? "cluster" : cli_driver_name((cutoff_driver_t)default_driver()), names);
	n = 0;
	for (int i = 0; cli_placement_names[i]; i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, " var %s",
		                      cli_placement_names[i]);
	say(s, "option name Placement type combo default none%s", names);
	say(s, "option name Pruning type combo default all var all var nullmove var lmr var none");
	say(s, "option name Move Overhead type spin default %d min 0 max %d", UCI_OVERHEAD_DEFAULT,
	    UCI_OVERHEAD_MAX);
	say(s, "option name Clear Hash type button");
	each_driver_option(say_driver_option, s);
	say(s, "uciok");
}

/* Reads the rest of a `position` line into a new position and its played keys; commits them only
 * when the whole line is good. */
static void cmd_position(uci_session_t *s, char **cur)
{
	char q[UCI_QUOTE_SIZE], msg[200];
	cutoff_chess_state_t st;
	char *t = next_token(cur);
	if (!t) {
		say_error(s, "position: expected 'startpos' or 'fen'");
		return;
	}
	if (strcmp(t, "startpos") == 0) {
		cutoff_chess_start(s->chess, &st);
		t = next_token(cur);
	} else if (strcmp(t, "fen") == 0) {
		char fen[UCI_FEN_MAX];
		size_t n = 0;
		int fields = 0;
		while ((t = next_token(cur)) && strcmp(t, "moves") != 0) {
			size_t len = strlen(t);
			if (fields == 6) {
				say_error(
					s,
					"position fen: unexpected %s after the 6 fields of the FEN",
					cli_quote_ascii(q, sizeof(q), t));
				return;
			}
			if (n + len + 2 > sizeof(fen)) {
				say_error(s, "position fen: the FEN is longer than %d bytes at %s",
				          UCI_FEN_MAX - 1, cli_quote_ascii(q, sizeof(q), t));
				return;
			}
			if (n)
				fen[n++] = ' ';
			memcpy(fen + n, t, len + 1);
			n += len;
			fields++;
		}
		if (fields == 0) {
			say_error(s, "position fen: the FEN is missing");
			return;
		}
		if (cutoff_chess_parse_fen(s->chess, fen, &st, msg, sizeof(msg)) != 0) {
			say_error(s, "position fen %s: %s", cli_quote_ascii(q, sizeof(q), fen),
			          msg);
			return;
		}
	} else {
		say_error(s, "position: expected 'startpos' or 'fen', got %s",
		          cli_quote_ascii(q, sizeof(q), t));
		return;
	}
	if (t && strcmp(t, "moves") != 0) {
		say_error(s, "position: expected 'moves', got %s",
		          cli_quote_ascii(q, sizeof(q), t));
		return;
	}
	/* scratch[0 .. n) holds the keys since the last irreversible move; it keeps only the
	 * newest CUTOFF_MAX_PLAYED, moved down in blocks. */
	int n = 0, index = 0;
	while (t && (t = next_token(cur))) {
		cutoff_move_t m;
		index++;
		if (cutoff_chess_parse_move(s->chess, &st, t, &m, msg, sizeof(msg)) != 0) {
			say_error(s, "position: move %d %s: %s", index,
			          cli_quote_ascii(q, sizeof(q), t), msg);
			return;
		}
		if (n == 2 * CUTOFF_MAX_PLAYED) {
			memmove(s->scratch, s->scratch + CUTOFF_MAX_PLAYED,
			        CUTOFF_MAX_PLAYED * sizeof(uint64_t));
			n = CUTOFF_MAX_PLAYED;
		}
		s->scratch[n++] = s->game->key(s->game->ctx, &st);
		(void)cutoff_chess_play(s->chess, &st, m, &st);
		if (s->game->reversible(s->game->ctx, &st) == 0)
			n = 0;
	}
	int keep = n < CUTOFF_MAX_PLAYED ? n : CUTOFF_MAX_PLAYED;
	memcpy(s->keys, s->scratch + (n - keep), (size_t)keep * sizeof(uint64_t));
	s->nkeys = keep;
	s->pos = st;
}

/* What a `go` line asks for (parse_go). */
typedef struct go_args {
	/* Not given: -1 for wtime, btime and movetime, 0 for the others. */
	int64_t wtime, btime, winc, binc, movestogo, depth, nodes, mate, movetime;
	bool have_wtime, have_btime, infinite, ponder, searchmoves;
} go_args_t;

/* The numeric arguments of `go`: the field each fills and the values accepted. */
#define UCI_TIME_MAX (INT64_C(1) << 50) /* ms: any clock a GUI means */
static const struct go_number {
	const char *name;
	size_t offset; /* of its int64_t in go_args_t */
	int64_t min, max;
} go_numbers[] = {
	{ "wtime", offsetof(go_args_t, wtime), -UCI_TIME_MAX, UCI_TIME_MAX },
	{ "btime", offsetof(go_args_t, btime), -UCI_TIME_MAX, UCI_TIME_MAX },
	{ "winc", offsetof(go_args_t, winc), -UCI_TIME_MAX, UCI_TIME_MAX },
	{ "binc", offsetof(go_args_t, binc), -UCI_TIME_MAX, UCI_TIME_MAX },
	{ "movestogo", offsetof(go_args_t, movestogo), 0, 100000 },
	{ "depth", offsetof(go_args_t, depth), 1, CUTOFF_MAX_PLY - 1 },
	{ "nodes", offsetof(go_args_t, nodes), 1, INT64_MAX },
	{ "mate", offsetof(go_args_t, mate), 1, CUTOFF_MAX_PLY / 2 },
	{ "movetime", offsetof(go_args_t, movetime), 0, UCI_TIME_MAX },
};

static const struct go_number *go_number(const char *t)
{
	for (size_t i = 0; i < sizeof(go_numbers) / sizeof(go_numbers[0]); i++) {
		if (strcmp(t, go_numbers[i].name) == 0)
			return &go_numbers[i];
	}
	return NULL;
}

static bool is_go_keyword(const char *t)
{
	return go_number(t) || strcmp(t, "searchmoves") == 0 || strcmp(t, "ponder") == 0 ||
	       strcmp(t, "infinite") == 0;
}

/* The value of a go argument: true with *out set, or false after an error naming it. */
static bool go_value(uci_session_t *s, char **cur, const struct go_number *n, int64_t *out)
{
	char q[UCI_QUOTE_SIZE];
	char *t = next_token(cur);
	if (!t) {
		say_error(s, "go: %s needs a value", n->name);
		return false;
	}
	if (!cli_int_value(t, n->min, n->max, out)) {
		say_error(s, "go: %s: expected an integer in %" PRId64 "..%" PRId64 ", got %s",
		          n->name, n->min, n->max, cli_quote_ascii(q, sizeof(q), t));
		return false;
	}
	return true;
}

/* Whether white is to move in st, and (into *fullmove when not NULL) its move number. */
static bool white_to_move(const uci_session_t *s, const cutoff_chess_state_t *st, long *fullmove)
{
	char fen[CUTOFF_CHESS_FEN_SIZE];
	cutoff_chess_fen(s->chess, st, fen, sizeof(fen));
	const char *side = strchr(fen, ' ');
	if (fullmove) {
		const char *last = strrchr(fen, ' ');
		*fullmove = last ? strtol(last + 1, NULL, 10) : 0;
	}
	return side && side[1] == 'w';
}

/* The moves after `searchmoves`, each checked (the library cannot restrict the root
 * moves, so they are only read); *next is the word after them. False after an error. */
static bool read_searchmoves(uci_session_t *s, char **cur, char **next)
{
	char q[UCI_QUOTE_SIZE], msg[200];
	char *t;
	while ((t = next_token(cur)) && !is_go_keyword(t)) {
		cutoff_move_t m;
		if (cutoff_chess_parse_move(s->chess, &s->pos, t, &m, msg, sizeof(msg)) != 0) {
			say_error(s, "go: searchmoves %s: %s", cli_quote_ascii(q, sizeof(q), t),
			          msg);
			return false;
		}
	}
	*next = t;
	return true;
}

/* Reads the arguments of `go` into *a; false after an error naming the first one that
 * cannot be used (such a `go` is answered at once, unsearched: see the top of the file). */
static bool parse_go(uci_session_t *s, char **cur, go_args_t *a)
{
	char q[UCI_QUOTE_SIZE];
	*a = (go_args_t){ .wtime = -1, .btime = -1, .movetime = -1 };
	char *t = next_token(cur);
	while (t) {
		const struct go_number *n = go_number(t);
		if (n) {
			if (!go_value(s, cur, n, (int64_t *)(void *)((char *)a + n->offset)))
				return false;
			a->have_wtime |= strcmp(t, "wtime") == 0;
			a->have_btime |= strcmp(t, "btime") == 0;
		} else if (strcmp(t, "infinite") == 0) {
			a->infinite = true;
		} else if (strcmp(t, "ponder") == 0) {
			a->ponder = true;
		} else if (strcmp(t, "searchmoves") == 0) {
			a->searchmoves = true;
			if (!read_searchmoves(s, cur, &t))
				return false;
			continue;
		} else {
			say_error(s, "go: unknown argument %s", cli_quote_ascii(q, sizeof(q), t));
			return false;
		}
		t = next_token(cur);
	}
	bool white = white_to_move(s, &s->pos, NULL);
	if ((a->have_wtime || a->have_btime) && !(white ? a->have_wtime : a->have_btime)) {
		say_error(s, "go: %s is missing (%s to move)", white ? "wtime" : "btime",
		          white ? "white" : "black");
		return false;
	}
	return true;
}

/* The answer to a `go` that could not search: the first legal move (or 0000). */
static void answer_unsearched(uci_session_t *s)
{
	cutoff_move_t moves[CUTOFF_MAX_MOVES];
	char text[CUTOFF_CHESS_MOVE_SIZE] = "0000";
	if (cutoff_chess_moves(s->chess, &s->pos, moves) > 0)
		cutoff_chess_move_str(moves[0], text, sizeof(text));
	say(s, "bestmove %s", text);
}

/*
 * The soft and hard limits of a timed `go` into s->go (uci_time.h), counted from
 * s->go.t0, and what the clock says the previous move of this side cost (the excess).
 * build_ms, the time apply_options took to build the engine for this `go`, is charged to
 * the clock and not to the search: the plan is made from what is left on the clock after
 * it (the GUI's clock ran meanwhile), and t0 is after it (see the top of the file).
 */
static void plan_time(uci_session_t *s, const go_args_t *a, int64_t build_ms)
{
	uci_go_t *g = &s->go;
	long fullmove = 0;
	bool white = white_to_move(s, &g->root, &fullmove);
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
		uci_excess_update(&s->excess_ms, last->time_ms + last->inc_ms - given,
		                  last->target_ms, clock.overhead_ms);
	clock.excess_ms = (int64_t)s->excess_ms;
	uci_budget_t b;
	uci_budget(&clock, &b);
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
		say(s,
		    "info string time: soft %" PRId64 " ms, hard %" PRId64 " ms, target %" PRId64
		    " ms, excess %" PRId64 " ms, build %" PRId64 " ms",
		    g->soft_ms, g->hard_ms, b.target_ms, clock.excess_ms, build_ms);
}

/* The job of the search thread for `a` at the current position, into s->go. */
static void prepare_go(uci_session_t *s, const go_args_t *a, double t0, int64_t build_ms)
{
	uci_go_t *g = &s->go;
	g->root = s->pos;
	memcpy(g->played, s->keys, (size_t)s->nkeys * sizeof(uint64_t));
	g->played_length = s->nkeys;
	g->t0 = t0;
	g->debug = s->debug;
	g->wait = a->infinite || a->ponder;
	cutoff_limits_default(&g->limits);
	g->limits.iterate = true;
	g->limits.depth = a->depth > 0 ? (int)a->depth : CUTOFF_MAX_PLY - 1;
	if (a->mate > 0 && 2 * a->mate - 1 < g->limits.depth)
		g->limits.depth = (int)(2 * a->mate - 1);
	g->limits.nodes = (uint64_t)a->nodes;
	g->soft_ms = g->hard_ms = 0;
	plan_time(s, a, build_ms);
}

/* Starts the search thread for s->go, and the watchdog of a timed one. The threads of the
 * previous `go` have been joined (end_search). */
static void start_search(uci_session_t *s)
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
		say_error(s, "go: cannot withdraw a stale stop: %s", cutoff_strerror(rc));
	if (pthread_create(&s->thread, NULL, search_main, s) != 0) {
		pthread_mutex_lock(&s->lock);
		s->searching = false;
		s->answered = true;
		pthread_mutex_unlock(&s->lock);
		say_error(s, "go: cannot create the search thread");
		answer_unsearched(s);
		return;
	}
	s->thread_alive = true;
	/* Without a watchdog the library's own time limit still holds: only slower. */
	if (s->go.hard_ms > 0 && pthread_create(&s->watchdog, NULL, watchdog_main, s) == 0)
		s->watchdog_alive = true;
}

/*
 * go: ends the previous search (end_search), then answers a malformed line at once with the
 * first legal move, or builds the engine if options changed (apply_options) and starts the
 * search, its clock started when the line was read but not charged with the build.
 */
static void cmd_go(uci_session_t *s, char **cur)
{
	double t_read = cli_now_s();
	end_search(s);
	go_args_t a;
	if (!parse_go(s, cur, &a)) {
		answer_unsearched(s);
		return;
	}
	if (a.searchmoves)
		say(s, "info string searchmoves is not supported: searching every move");
	double t_build = cli_now_s();
	if (!apply_options(s)) {
		/* No engine could be made: still answer, with the first legal move. */
		answer_unsearched(s);
		return;
	}
	double build_s = cli_now_s() - t_build;
	prepare_go(s, &a, t_read + build_s, (int64_t)(build_s * 1000.0));
	start_search(s);
}

/* The option names, as `uci` lists them. */
enum {
	OPT_THREADS,
	OPT_HASH,
	OPT_ALGORITHM,
	OPT_PLACEMENT,
	OPT_PRUNING,
	OPT_OVERHEAD,
	OPT_CLEAR_HASH,
	OPT_COUNT,
	OPT_DRIVER /* a driver option of the registry */
};
static const char *const option_names[OPT_COUNT] = { "Threads",   "Hash",    "Algorithm",
	                                             "Placement", "Pruning", "Move Overhead",
	                                             "Clear Hash" };

static int choice_index(const char *const *names, const char *word)
{
	for (int i = 0; names[i]; i++) {
		if (strcasecmp(names[i], word) == 0)
			return i;
	}
	return -1;
}

/* Appends the words of *cur from `t` on, up to (not including) `stop`, separated by one
 * blank, into buf; returns the word at which it stopped (or NULL). */
static char *collect_words(char **cur, char *t, const char *stop, char *buf, size_t size,
                           bool *too_long)
{
	size_t n = 0;
	buf[0] = '\0';
	*too_long = false;
	for (; t && !(stop && strcasecmp(t, stop) == 0); t = next_token(cur)) {
		size_t len = strlen(t);
		if (n + len + 2 > size) {
			*too_long = true;
			continue;
		}
		if (n)
			buf[n++] = ' ';
		memcpy(buf + n, t, len + 1);
		n += len;
	}
	return t;
}

/* The driver option called `name` (in any case, as UCI names are), or NULL. */
static const cutoff_driver_option_t *find_driver_option(const char *name)
{
	for (int d = 0; d < cutoff_driver_count(); d++) {
		const cutoff_driver_option_t *o;
		int n = cutoff_driver_options((cutoff_driver_t)d, &o);
		for (int i = 0; i < n; i++)
			if (strcasecmp(o[i].name, name) == 0)
				return &o[i];
	}
	return NULL;
}

/* Reads `name N [value V]` after setoption: the option's index into *opt (OPT_DRIVER with
 * *driver_opt for a driver option) and its value (size bytes; "" for the button); false
 * after an error naming what is wrong. */
static bool read_setoption(uci_session_t *s, char **cur, int *opt_out,
                           const cutoff_driver_option_t **driver_opt, char *value, size_t size)
{
	char q[UCI_QUOTE_SIZE], name[128];
	bool long_name, long_value = false;
	char *t = next_token(cur);
	if (!t || strcasecmp(t, "name") != 0) {
		say_error(s, "setoption: expected 'name', got %s",
		          t ? cli_quote_ascii(q, sizeof(q), t) : "nothing");
		return false;
	}
	t = collect_words(cur, next_token(cur), "value", name, sizeof(name), &long_name);
	bool has_value = t != NULL;
	if (has_value)
		collect_words(cur, next_token(cur), NULL, value, size, &long_value);
	else
		value[0] = '\0';
	if (name[0] == '\0') {
		say_error(s, "setoption: the option name is missing");
		return false;
	}
	int opt = OPT_COUNT;
	for (int i = 0; i < OPT_COUNT && !long_name; i++) {
		if (strcasecmp(name, option_names[i]) == 0)
			opt = i;
	}
	*driver_opt = long_name ? NULL : find_driver_option(name);
	if (opt == OPT_COUNT && *driver_opt)
		opt = OPT_DRIVER;
	if (opt == OPT_COUNT) {
		say_error(s, "setoption: unknown option %s", cli_quote_ascii(q, sizeof(q), name));
		return false;
	}
	const char *shown = opt == OPT_DRIVER ? (*driver_opt)->name : option_names[opt];
	if (opt == OPT_CLEAR_HASH) {
		if (has_value) {
			say_error(s, "setoption: Clear Hash is a button and takes no value");
			return false;
		}
	} else if (!has_value || value[0] == '\0') {
		say_error(s, "setoption: %s needs a value", shown);
		return false;
	} else if (long_value) {
		say_error(s, "setoption: the value of %s is too long", shown);
		return false;
	}
	*opt_out = opt;
	return true;
}

/* Checks `value` for the driver option `opt`: one of its words (in any case) or a number
 * in its range, into *out; false after saying what was expected. */
static bool driver_option_value(uci_session_t *s, const cutoff_driver_option_t *opt,
                                const char *value, int *out)
{
	char q[UCI_QUOTE_SIZE], words[256];
	size_t n = 0;
	int64_t v;
	if (!opt->words) {
		if (cli_int_value(value, opt->min, opt->max, &v)) {
			*out = (int)v;
			return true;
		}
		say_error(s, "setoption: %s: expected an integer in %d..%d, got %s", opt->name,
		          opt->min, opt->max, cli_quote_ascii(q, sizeof(q), value));
		return false;
	}
	words[0] = '\0';
	for (int i = 0; i <= opt->max - opt->min; i++) {
		if (strcasecmp(value, opt->words[i]) == 0) {
			*out = opt->min + i;
			return true;
		}
		if (n < sizeof(words))
			n += (size_t)snprintf(words + n, sizeof(words) - n, "%s%s", i ? ", " : "",
			                      opt->words[i]);
	}
	say_error(s, "setoption: %s: expected one of %s, got %s", opt->name, words,
	          cli_quote_ascii(q, sizeof(q), value));
	return false;
}

/* Checks `value` for option `opt` (driver_opt for OPT_DRIVER) and records it in s->want
 * (applied when the engine is idle: apply_options), or says what was expected. */
static void set_option(uci_session_t *s, int opt, const cutoff_driver_option_t *driver_opt,
                       const char *value)
{
	char q[UCI_QUOTE_SIZE];
	uci_options_t o = s->want;
	int64_t v;
	int k;
	switch (opt) {
	case OPT_THREADS:
		if (!cli_int_value(value, 1, CUTOFF_MAX_THREADS, &v)) {
			say_error(s, "setoption: Threads: expected an integer in 1..%d, got %s",
			          CUTOFF_MAX_THREADS, cli_quote_ascii(q, sizeof(q), value));
			return;
		}
		o.threads = v;
		break;
	case OPT_HASH:
		if (!cli_int_value(value, 0, (int64_t)CUTOFF_MAX_TT_MB, &v)) {
			say_error(s, "setoption: Hash: expected MiB in 0..%zu, got %s",
			          (size_t)CUTOFF_MAX_TT_MB, cli_quote_ascii(q, sizeof(q), value));
			return;
		}
		o.hash_mb = v;
		break;
	case OPT_ALGORITHM:
		k = -1;
		for (int d = 0; d < cutoff_driver_count(); d++)
			if (strcasecmp(value, cli_driver_name((cutoff_driver_t)d)) == 0)
				k = d;
		if (strcasecmp(value, "cluster") == 0) {
			if (!s->cluster) {
				say_error(s, "setoption: Algorithm: cluster runs under mpirun only "
				             "(mpirun -np N cutoff uci)");
				return;
			}
			k = DRIVER_CLUSTER;
		}
		if (k < 0) {
			char list[256];
			say_error(s, "setoption: Algorithm: expected one of %s%s, got %s",
			          cli_driver_list(list, sizeof(list)),
			          s->cluster ? ", cluster" : "",
			          cli_quote_ascii(q, sizeof(q), value));
			return;
		}
		o.driver = k;
		break;
	case OPT_DRIVER:
		if (!driver_option_value(s, driver_opt, value, &k))
			return;
		cutoff_config_set_option(&o.drivers, driver_opt->name, k);
		break;
	case OPT_PLACEMENT:
		if ((k = choice_index(cli_placement_names, value)) < 0) {
			say_error(s,
			          "setoption: Placement: expected none, compact or scatter, got %s",
			          cli_quote_ascii(q, sizeof(q), value));
			return;
		}
		o.placement = k;
		break;
	case OPT_PRUNING:
		if ((k = choice_index(pruning_names, value)) < 0) {
			say_error(s,
			          "setoption: Pruning: expected all, nullmove, lmr or none, got %s",
			          cli_quote_ascii(q, sizeof(q), value));
			return;
		}
		o.pruning = k;
		break;
	case OPT_OVERHEAD:
		if (!cli_int_value(value, 0, UCI_OVERHEAD_MAX, &v)) {
			say_error(s, "setoption: Move Overhead: expected ms in 0..%d, got %s",
			          UCI_OVERHEAD_MAX, cli_quote_ascii(q, sizeof(q), value));
			return;
		}
		/* Read by the next `go` only: in force at once. */
		o.overhead_ms = v;
		s->opt.overhead_ms = v;
		break;
	case OPT_CLEAR_HASH:
		s->want_clear = true;
		break;
	default:
		break;
	}
	s->want = o;
}

static void cmd_setoption(uci_session_t *s, char **cur)
{
	char value[128];
	int opt;
	const cutoff_driver_option_t *driver_opt;
	if (read_setoption(s, cur, &opt, &driver_opt, value, sizeof(value)))
		set_option(s, opt, driver_opt, value);
}

/* readyok: at once while a search that nothing has stopped runs (UCI asks for that);
 * otherwise once the search that was stopped has sent its bestmove and the options asked
 * for are in force, so that a `go` after readyok starts at once, and a GUI that waits for
 * readyok after `stop` never reads the old bestmove after it. */
static void cmd_isready(uci_session_t *s)
{
	if (!search_unstopped(s))
		apply_options(s); /* which joins the search first */
	say(s, "readyok");
}

static void cmd_ucinewgame(uci_session_t *s)
{
	s->want_clear = true;
	s->last[0].valid = s->last[1].valid = false;
	if (!search_unstopped(s))
		apply_options(s);
}

static void cmd_debug(uci_session_t *s, char **cur)
{
	char q[UCI_QUOTE_SIZE];
	char *t = next_token(cur);
	if (t && strcmp(t, "on") == 0)
		s->debug = true;
	else if (t && strcmp(t, "off") == 0)
		s->debug = false;
	else
		say_error(s, "debug: expected 'on' or 'off', got %s",
		          t ? cli_quote_ascii(q, sizeof(q), t) : "nothing");
}

typedef enum uci_next {
	UCI_CONTINUE,
	UCI_QUIT
} uci_next_t;

/* Runs one line. Unknown words before a command are reported and skipped, as the UCI
 * specification asks ("joho debug on" switches debug mode on). */
static uci_next_t run_line(uci_session_t *s, char *line)
{
	char q[UCI_QUOTE_SIZE];
	char *cur = line, *t;
	while ((t = next_token(&cur))) {
		if (strcmp(t, "uci") == 0) {
			cmd_uci(s);
		} else if (strcmp(t, "isready") == 0) {
			cmd_isready(s);
		} else if (strcmp(t, "ucinewgame") == 0) {
			cmd_ucinewgame(s);
		} else if (strcmp(t, "position") == 0) {
			cmd_position(s, &cur);
		} else if (strcmp(t, "go") == 0) {
			cmd_go(s, &cur);
		} else if (strcmp(t, "stop") == 0 || strcmp(t, "ponderhit") == 0) {
			request_stop(s);
		} else if (strcmp(t, "setoption") == 0) {
			cmd_setoption(s, &cur);
		} else if (strcmp(t, "debug") == 0) {
			cmd_debug(s, &cur);
		} else if (strcmp(t, "register") == 0) {
			/* Nothing to register. */
		} else if (strcmp(t, "d") == 0) {
			char fen[CUTOFF_CHESS_FEN_SIZE];
			cutoff_chess_fen(s->chess, &s->pos, fen, sizeof(fen));
			char opts[512];
			option_text(&s->opt, opts, sizeof(opts));
			say(s, "info string fen %s", fen);
			say(s, "info string engine %s%s, Move Overhead %" PRId64,
			    s->engine ? "" : "(none yet) ", opts, s->opt.overhead_ms);
		} else if (strcmp(t, "quit") == 0) {
			return UCI_QUIT;
		} else {
			say_error(s, "unknown command %s", cli_quote_ascii(q, sizeof(q), t));
			continue;
		}
		break;
	}
	return UCI_CONTINUE;
}

static uci_session_t *session_new(void)
{
	uci_session_t *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	int err = 0;
	s->chess = cutoff_chess_new(&err);
	if (!s->chess) {
		cli_fail("uci", "cannot make the chess tables", err, NULL);
		free(s);
		return NULL;
	}
	s->game = cutoff_chess_game(s->chess);
	s->opt = (uci_options_t){ .threads = 1,
		                  .hash_mb = 16,
		                  .driver = default_driver(),
		                  .placement = CUTOFF_PLACE_NONE,
		                  .pruning = 3, /* all */
		                  .overhead_ms = UCI_OVERHEAD_DEFAULT };
	cutoff_config_default(&s->opt.drivers);
	cutoff_chess_start(s->chess, &s->pos);
	pthread_mutexattr_t recursive;
	pthread_mutexattr_init(&recursive);
	pthread_mutexattr_settype(&recursive, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&s->out_lock, &recursive);
	pthread_mutexattr_destroy(&recursive);
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_t monotonic;
	pthread_condattr_init(&monotonic);
	pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &monotonic);
	pthread_condattr_destroy(&monotonic);
	s->want = s->opt;
	s->answered = true; /* no `go` pending */
	return s;
}

static void session_free(uci_session_t *s)
{
	request_stop(s);
	join_search(s);
	cli_cluster_end(s->cluster); /* every rank gets here: rank 0 ended the lines */
	cutoff_engine_free(s->engine);
	cutoff_chess_free(s->chess);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->out_lock);
	free(s);
}

int cli_uci(int argc, char **argv)
{
	switch (cli_parse("uci", uci_usage, NULL, 0, argc, argv)) {
	case CLI_HELP:
		return CLI_EXIT_OK;
	case CLI_BAD:
		return CLI_EXIT_USAGE;
	case CLI_PARSED:
		break;
	}
	uci_session_t *s = session_new();
	if (!s)
		return CLI_EXIT_FAIL;
	/* A GUI that goes away must not kill us in the middle of a write: the write fails,
	 * and the end of input that follows ends the session. */
	signal(SIGPIPE, SIG_IGN);

	/* Under mpirun (Open MPI says so in the environment): a cluster, Algorithm cluster by
	 * default; rank 0 reads the lines and passes each on before running it, the other
	 * ranks run what they are passed, so every rank keeps the same position and options
	 * and enters each search together. */
	const char *ranks = getenv("OMPI_COMM_WORLD_SIZE");
	if (ranks && atoi(ranks) > 1) {
		cli_cluster_opts_t copts = { 0, 0, -1 };
		if (!(s->cluster = cli_cluster_start("uci", &copts))) {
			session_free(s);
			return CLI_EXIT_FAIL;
		}
		s->opt.driver = s->want.driver = DRIVER_CLUSTER;
	}
	if (s->cluster && cli_cluster_rank(s->cluster) != 0) {
		char *line = malloc(UCI_LINE_MAX + 1);
		while (line && cli_cluster_recv_line(s->cluster, line, UCI_LINE_MAX + 1))
			if (run_line(s, line) == UCI_QUIT)
				break;
		/* After quit, rank 0 still ends the channel: wait for that. */
		while (line && cli_cluster_recv_line(s->cluster, line, UCI_LINE_MAX + 1))
			;
		free(line);
		session_free(s);
		return CLI_EXIT_OK;
	}

	line_reader_t reader = { NULL, 0 };
	size_t len;
	line_status_t st;
	while ((st = read_line(stdin, &reader, &len)) != LINE_EOF) {
		if (st == LINE_TOO_LONG) {
			say_error(s, "line longer than %d bytes: ignored", UCI_LINE_MAX);
			continue;
		}
		if (len == 0)
			continue;
		if (memchr(reader.buf, '\0', len)) {
			say_error(s, "line with a NUL byte: ignored");
			continue;
		}
		cli_cluster_send_line(s->cluster, reader.buf);
		if (run_line(s, reader.buf) == UCI_QUIT)
			break;
	}
	cli_cluster_send_line(s->cluster, NULL); /* the end of the lines */
	free(reader.buf);
	session_free(s);
	return CLI_EXIT_OK;
}
