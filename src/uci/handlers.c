/* SPDX-License-Identifier: MIT */
/*
 * uci/handlers.c — what each UCI command does, on the main thread: reads its words
 * (parse.c), then changes the options (options.c), the position, or starts and stops the
 * search (search_thread.c, with the limits of time_plan.c).
 *
 * Order. What a command answers comes after everything that the commands before it
 * answered, save what UCI itself asks for: `isready` during a search that nothing has
 * stopped is answered at once, and that search's bestmove comes after the readyok. So:
 *   - `go` first ends the previous `go`'s search if it still runs, as `stop` would, and
 *     waits for its bestmove (uci_end_search). After `stop` (a GUI in analysis mode sends
 *     stop, isready and the next go without waiting for the old bestmove) that is a
 *     wait of the stop's latency; during a search that nothing stopped, it stops it,
 *     since waiting for it to end by itself could be for ever (go infinite, go ponder,
 *     go depth 100), with no `stop` or `quit` read meanwhile. No `go` is refused: every
 *     one gets exactly one bestmove, in the order of the `go`s.
 *   - `isready` otherwise waits for the stopped search's bestmove and then for the
 *     options asked for to be in force (uci_cmd_isready): a GUI that syncs with isready
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
 * Owns the command's effects on the session between searches; main thread only.
 */
#include <inttypes.h>
#include <string.h>

#include "uci/uci.h"

void uci_cmd_uci(uci_session_t *s)
{
	uci_say(s, "id name cutoff %s", cutoff_version());
	uci_say(s, "id author the cutoff authors");
	uci_say_options(s);
	uci_say(s, "uciok");
}

/* readyok: at once while a search that nothing has stopped runs (UCI asks for that);
 * otherwise once the search that was stopped has sent its bestmove and the options asked
 * for are in force, so that a `go` after readyok starts at once, and a GUI that waits for
 * readyok after `stop` never reads the old bestmove after it. */
void uci_cmd_isready(uci_session_t *s)
{
	if (!uci_search_unstopped(s)) {
		uci_join_search(s);
		uci_apply_options(s);
	}
	uci_say(s, "readyok");
}

void uci_cmd_ucinewgame(uci_session_t *s)
{
	s->want_clear = true;
	s->last[0].valid = s->last[1].valid = false;
	if (!uci_search_unstopped(s)) {
		uci_join_search(s);
		uci_apply_options(s);
	}
}

/* position: the new position and its played keys are committed only when the whole line
 * is good. */
void uci_cmd_position(uci_session_t *s, char **cur)
{
	cutoff_chess_state_t st;
	int n;
	if (!uci_read_position(s, cur, &st, &n))
		return;
	int keep = n < CUTOFF_MAX_PLAYED ? n : CUTOFF_MAX_PLAYED;
	memcpy(s->keys, s->scratch + (n - keep), (size_t)keep * sizeof(uint64_t));
	s->nkeys = keep;
	s->pos = st;
}

/* The job of the search thread for `a` at the current position, into s->go. */
static void prepare_go(uci_session_t *s, const uci_go_args_t *a, double t0, int64_t build_ms)
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
	uci_plan_time(s, a, build_ms);
}

/*
 * go: ends the previous search (uci_end_search), then answers a malformed line at once
 * with the first legal move, or builds the engine if options changed (uci_apply_options)
 * and starts the search, its clock started when the line was read but not charged with
 * the build.
 */
void uci_cmd_go(uci_session_t *s, char **cur)
{
	double t_read = cli_now_s();
	uci_end_search(s);
	uci_go_args_t a;
	if (!uci_parse_go(s, cur, &a)) {
		uci_answer_unsearched(s);
		return;
	}
	if (a.searchmoves)
		uci_say(s, "info string searchmoves is not supported: searching every move");
	double t_build = cli_now_s();
	if (!uci_apply_options(s)) {
		/* No engine could be made: still answer, with the first legal move. */
		uci_answer_unsearched(s);
		return;
	}
	double build_s = cli_now_s() - t_build;
	prepare_go(s, &a, t_read + build_s, (int64_t)(build_s * 1000.0));
	uci_start_search(s);
}

void uci_cmd_setoption(uci_session_t *s, char **cur)
{
	uci_setoption_t so;
	if (uci_read_setoption(s, cur, &so))
		uci_set_option(s, &so);
}

void uci_cmd_debug(uci_session_t *s, char **cur)
{
	char q[UCI_QUOTE_SIZE];
	char *t = uci_next_token(cur);
	if (t && strcmp(t, "on") == 0)
		s->debug = true;
	else if (t && strcmp(t, "off") == 0)
		s->debug = false;
	else
		uci_say_error(s, "debug: expected 'on' or 'off', got %s",
		              t ? cli_quote_ascii(q, sizeof(q), t) : "nothing");
}

void uci_cmd_d(uci_session_t *s)
{
	char fen[CUTOFF_CHESS_FEN_SIZE];
	cutoff_chess_fen(s->chess, &s->pos, fen, sizeof(fen));
	char opts[512];
	uci_option_text(&s->opt, opts, sizeof(opts));
	uci_say(s, "info string fen %s", fen);
	uci_say(s, "info string engine %s%s, Move Overhead %" PRId64,
	        s->engine ? "" : "(none yet) ", opts, s->opt.overhead_ms);
}
