/* SPDX-License-Identifier: MIT */
/*
 * match.c — the referee of `cutoff match`, a small UCI referee. Two engines, each a child
 * process spoken to through pipes (player.c), play games under a clock (clock.c); the
 * referee checks every move with the chess adapter and adjudicates the end of each game
 * (gameplay.c, rules.c), and reports each game and the match (results.c).
 *
 * This file is match_run (match.h): the settings, which the command line read and checked
 * (cli/cmd_match.c), made into a match_t, the engines' commands checked, the files
 * opened, the games played (slots.c), the report, and the cleanup on every path. It owns
 * the match_t and everything in it; referee.h says what each file does.
 *
 * Concurrency. --concurrency N (1..256, default 1, never more than --games) plays N games
 * at once in N slots (slots.c): each slot has its own two engine processes, started and
 * handshaken before the first game, started again after a fault before that slot's next
 * game, and its own game_t, with its own clocks charged from its own engines' answers; a
 * slot plays on a thread of its own (the first on this one, so that N = 1 is the
 * single-threaded referee, one game and one engine thinking at a time). Games are handed
 * out in order from a counter under the match's lock, so the two games of an opening (2k+1
 * and 2k+2, colours reversed) go out one after the other; they are recorded in game order
 * — a game that ends early waits for the games before it — so the game lines, the PGN,
 * the totals and the JSON are in game order and do not depend on N when the engines are
 * deterministic. The --log is written as things happen, each engine line tagged with its
 * slot ("2:1>" is slot 2's engine 1) and each game's first note naming its slot. A stop
 * (an engine that cannot be started again, the referee failing) stops every slot: no new
 * game is handed out, the games in play end, every engine is stopped and reaped.
 *
 * One engine of a game thinks at a time (no pondering), so N games think on N times the
 * engines' threads; when N times the most Threads an engine is given (--option,
 * --option1, --option2 Threads=T, 1 without) exceeds the CPUs this process may use
 * (cli_usable_cpus), a warning on stderr says the clocks are unfair — an engine's clock
 * runs while it waits for a CPU — and the text and JSON reports say so too.
 */
#define _GNU_SOURCE /* strncasecmp */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "kit/args.h"
#include "match/match.h"
#include "match/referee.h"

/* Opens --pgn and --log. CLI_EXIT_OK, or an exit status after the one-line error. */
static int open_outputs(match_t *m, const match_settings_t *o)
{
	char q[CLI_QUOTE_SIZE];
	m->pgn_path = o->pgn;
	if (o->pgn && !(m->pgn = fopen(o->pgn, "a"))) {
		cli_error(MATCH_CMD, "--pgn %s: cannot open it: %s",
		          cli_quote(q, sizeof(q), o->pgn), strerror(errno));
		return CLI_EXIT_USAGE;
	}
	if (o->log) {
		m->log.fd = open(o->log, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
		if (m->log.fd < 0 || !(m->log.f = fdopen(dup(m->log.fd), "w"))) {
			cli_error(MATCH_CMD, "--log %s: cannot open it: %s",
			          cli_quote(q, sizeof(q), o->log), strerror(errno));
			return CLI_EXIT_USAGE;
		}
		/* The stream's own descriptor must not leak into the engines either. */
		fcntl(fileno(m->log.f), F_SETFD, FD_CLOEXEC);
	}
	return CLI_EXIT_OK;
}

/* The Threads engine `e` is given: the last Threads=T among its options (--option, then
 * its own --optionN), 1 when there is none or T is not a count. */
static int64_t engine_threads(const engine_t *e)
{
	int64_t threads = 1, t;
	for (int i = 0; i < e->nsetopts; i++) {
		const char *o = e->setopts[i];
		if (strncasecmp(o, "Threads=", 8) == 0 && cli_int_value(o + 8, 1, INT32_MAX, &t))
			threads = t;
	}
	return threads;
}

/* The slots (no more than the games), and the warning when more engine threads think at
 * once than there are CPUs: one engine of each game thinks at a time (no pondering), so
 * that is the slots times the most threads an engine is given. */
static void set_concurrency(match_t *m, int64_t concurrency)
{
	m->concurrency = (int)(concurrency < m->ngames ? concurrency : m->ngames);
	m->cpus = cli_usable_cpus();
	int64_t t0 = engine_threads(&m->eng[0]), t1 = engine_threads(&m->eng[1]);
	m->threads = t0 > t1 ? t0 : t1;
	m->unfair_clock = m->concurrency * m->threads > m->cpus;
	if (m->unfair_clock)
		cli_error(
			MATCH_CMD,
			"warning: %d game%s at once x %" PRId64 " thread%s (the most an engine is "
			"given) = %" PRId64 " threads thinking on %d CPU%s: the clocks are unfair "
			"(an engine's clock runs while it waits for a CPU)",
			m->concurrency, m->concurrency == 1 ? "" : "s", m->threads,
			m->threads == 1 ? "" : "s", m->concurrency * m->threads, m->cpus,
			m->cpus == 1 ? "" : "s");
}

/* Everything before the first game: the settings, the engines' commands, the chess
 * tables, the openings, the output files, the games' records. CLI_EXIT_OK, or an exit
 * status after the one-line error. */
static int set_up(match_t *m, const match_settings_t *o)
{
	int status;
	m->tc[0] = o->tc[0];
	m->tc[1] = o->tc[1];
	m->max_moves = o->max_moves;
	m->ngames = o->games;
	for (int i = 0; i < 2; i++) {
		status = match_engine_init(&m->eng[i], o->engines[i], m->tc[0].timeout,
		                           o->options[0], o->noptions[0], o->options[1 + i],
		                           o->noptions[1 + i]);
		if (status != CLI_EXIT_OK)
			return status;
		m->eng[i].ignore_option_errors = o->ignore_option_errors;
	}
	m->json = o->json;
	set_concurrency(m, o->concurrency);
	m->llr = NAN;
	m->decision = MATCH_SPRT_CONTINUE;
	m->sprt_on = o->sprt_on;
	m->sprt = o->sprt;
	int err;
	m->chess = cutoff_chess_new(&err);
	if (!m->chess) {
		cli_fail(MATCH_CMD, "cannot make the chess tables", err, NULL);
		return CLI_EXIT_FAIL;
	}
	m->game = cutoff_chess_game(m->chess);
	if (o->openings && (status = match_openings_read(m, o->openings, o->plies)) != CLI_EXIT_OK)
		return status;
	if ((status = open_outputs(m, o)) != CLI_EXIT_OK)
		return status;
	m->games = calloc((size_t)m->ngames, sizeof(*m->games));
	if (!m->games) {
		cli_error(MATCH_CMD, "--games %" PRId64 ": out of memory", m->ngames);
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}

/* Starts the engines, plays the games and reports the match. The command's exit status. */
static int play_match(match_t *m, bool json)
{
	char q[CLI_QUOTE_SIZE];
	int status = match_slots_play(m);
	if (status != CLI_EXIT_OK)
		return status; /* an engine could not be started: nothing to report */
	status = m->status;
	if (json)
		match_write_json(m);
	else
		match_print_totals(m);
	if (m->pgn && (fflush(m->pgn) != 0 || ferror(m->pgn))) {
		cli_error(MATCH_CMD, "--pgn %s: cannot write it",
		          cli_quote(q, sizeof(q), m->pgn_path));
		status = CLI_EXIT_FAIL;
	}
	return status;
}

/* The match from its settings to its report, the engines stopped. The exit status. */
static int run(match_t *m, const match_settings_t *o)
{
	int status = set_up(m, o);
	if (status != CLI_EXIT_OK)
		return status;
	/* A dead engine must show up as a failed write, not kill the referee (quit included). */
	void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
	m->log.t0 = (int64_t)cli_now_ns();
	status = play_match(m, o->json);
	for (int i = 0; i < 2; i++)
		match_engine_stop(&m->eng[i], true);
	if (old_pipe != SIG_ERR)
		signal(SIGPIPE, old_pipe);
	return status;
}

/* Frees the match and everything it holds (any of it may be missing). */
static void free_match(match_t *m)
{
	if (!m)
		return;
	for (int i = 0; i < 2; i++)
		match_engine_free(&m->eng[i]);
	if (m->games)
		for (int64_t i = 0; i < m->ngames; i++)
			free(m->games[i].moves.p);
	free(m->games);
	free(m->openings);
	if (m->pgn)
		fclose(m->pgn);
	if (m->log.f)
		fclose(m->log.f);
	if (m->log.fd >= 0)
		close(m->log.fd);
	cutoff_chess_free(m->chess);
	free(m);
}

int match_run(const match_settings_t *s)
{
	match_t *m = calloc(1, sizeof(*m));
	if (!m) {
		cli_error(MATCH_CMD, "out of memory");
		return CLI_EXIT_FAIL;
	}
	m->log.fd = -1;
	for (int i = 0; i < 2; i++)
		match_engine_clear(&m->eng[i], i + 1, &m->log);
	int status = run(m, s);
	free_match(m);
	return status;
}
