/* SPDX-License-Identifier: MIT */
/*
 * match.c — `cutoff match`: a small UCI referee. Two engines, each a child process spoken
 * to through pipes (player.c), play games under a clock (clock.c); the referee checks every
 * move with the chess adapter and adjudicates the end of each game (gameplay.c, rules.c), and
 * reports each game and the match (results.c).
 *
 * This file is the command: the options, the engines' commands checked, the files
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

/* clang-format off */
static const char match_usage[] =
	"usage: cutoff match --engine CMD --engine CMD [options]\n"
	"\n"
	"Plays games between two UCI engines and referees them: every move is checked,\n"
	"the clocks are kept by the referee, and the games end by the rules of chess or\n"
	"by a fault (an illegal move, a loss on time, a crash). Engine 1 is the first\n"
	"--engine; results are counted from its side.\n"
	"\n"
	"engines\n"
	"  --engine CMD         an engine: a program and its arguments, split at blanks\n"
	"                       ('...' and \"...\" quote, \\ escapes; no shell); exactly twice\n"
	"  --option NAME=VALUE  a UCI option (setoption) for both engines; NAME alone for a\n"
	"                       button; repeatable; the engine must declare the option\n"
	"  --option1 NAME=VALUE, --option2 NAME=VALUE\n"
	"                       the same for engine 1 or engine 2 only (sent after --option)\n"
	"  --ignore-option-errors\n"
	"                       play on when an engine rejects an option's value (an\n"
	"                       'info string error: setoption ...' or 'No such option'\n"
	"                       line before its readyok): a warning, and the lines in the\n"
	"                       report; by default the match fails before its first game\n"
	"  --concurrency N      games played at once, 1..256, each by its own two engine\n"
	"                       processes; default 1. Results are reported in game order.\n"
	"                       A warning when N times the most Threads an engine is given\n"
	"                       (--option Threads=T) exceeds the CPUs: the clocks are unfair\n"
	"games\n"
	"  --games N            games to play, 1..1000000; default 2. Engine 1 has white in\n"
	"                       odd games (1, 3, ...) and black in even ones\n"
	"  --openings FILE      start positions, each played twice, colours reversed, the\n"
	"                       file cycled; default the start position. FILE holds FEN or\n"
	"                       EPD lines (the first four fields, and the two counters when\n"
	"                       they follow; blank lines and lines starting with # skipped)\n"
	"                       or PGN games (when it ends in .pgn or its first line starts\n"
	"                       with '[' or a move number): each game gives the position\n"
	"                       after its first --plies plies, or its last if shorter\n"
	"  --openings builtin   41 well-known mainline openings of 6 to 10 plies each, built\n"
	"                       in (./builtin for a file of that name)\n"
	"  --plies N            the plies of each PGN game that make its opening, 1..10000;\n"
	"                       default 8\n"
	"  --max-moves N        adjudicate a draw once each side has made N moves; default 0\n"
	"                       (no limit)\n"
	"  --sprt E0,E1[,A,B]   a sequential probability ratio test of H0: Elo = E0 against\n"
	"                       H1: Elo = E1 (E0 < E1, engine 1's Elo over engine 2), with\n"
	"                       error rates alpha A and beta B (default 0.05 each), on the\n"
	"                       game pairs (games 2k-1 and 2k: one opening, colours\n"
	"                       reversed): the match stops once the log-likelihood ratio\n"
	"                       crosses a bound, and --games is then the most it plays. A\n"
	"                       progress line on stderr after each pair\n"
	"  --sprt-elo MODEL     logistic (the default) or normalized Elo for E0 and E1\n"
	"                       (docs/match-statistics.md)\n"
	"time control (at most one; default --tc 10+0.1)\n"
	"  --tc BASE[+INC]      seconds on each clock, and seconds added after each move:\n"
	"                       60, 10+0.1, 1+0.01 (BASE above 0, each at most 1000000)\n"
	"  --movetime MS        a fixed time per move (go movetime), 1..86400000\n"
	"  --depth D            a fixed depth per move (go depth), 1..255\n"
	"  --nodes N            a fixed node count per move (go nodes), 1..2^63-1\n"
	"  --tc1, --movetime1, --depth1, --nodes1 (and ...2)\n"
	"                       engine 1's (engine 2's) own limit, in place of the common\n"
	"                       one: time or node odds (--nodes 100000 --nodes2 200000).\n"
	"                       Both engines play under one kind of control\n"
	"  --margin MS          how far a move may overrun the clock (or --movetime) before\n"
	"                       it loses on time, 0..3600000; default 0 with --tc, 50 with\n"
	"                       --movetime (an engine told to think N ms uses all N, and\n"
	"                       the pipes add their latency)\n"
	"  --timeout S          the longest wait, in seconds, for uciok, readyok and (with\n"
	"                       --depth or --nodes) a bestmove, 1..86400; default 60\n"
	"output\n"
	"  --pgn FILE           write the games to FILE as PGN, moves in SAN\n"
	"  --log FILE           write every line exchanged with the engines, timed, and\n"
	"                       the engines' stderr (otherwise discarded) to FILE\n"
	"  --json               one JSON object at the end instead of the text report\n"
	"  --help               print this help\n"
	"\n"
	"Exit status: 0 when every game ended by the rules (or --max-moves); 1 when an\n"
	"engine lost a game by a fault (illegal or malformed move, loss on time, crash or\n"
	"closed pipe, no answer, an error reported instead of a search: 'info string\n"
	"error'), failed its UCI handshake, or the system failed; 2 for a bad command\n"
	"line, an openings file that cannot be read, an engine that cannot be run, or an\n"
	"option that an engine does not declare or rejects.\n";
/* clang-format on */

/*
 * Takes the repeatable options (--engine, --option, --option1, --option2) out of argv,
 * which cli_parse() would keep only the last of, and leaves the rest in rest[]. True, or
 * false after a one-line error.
 */
typedef struct multi {
	const char *engines[2];
	int nengines;
	const char **opts[3]; /* --option, --option1, --option2 */
	int nopts[3];
} multi_t;

static bool take_multi(int argc, char **argv, multi_t *mu, char **rest, int *nrest)
{
	static const char *const names[] = { "engine", "option", "option1", "option2" };
	char q[CLI_QUOTE_SIZE];
	*nrest = 0;
	rest[(*nrest)++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int which = -1;
		const char *value = NULL;
		for (int k = 0; k < 4 && which < 0; k++) {
			size_t n = strlen(names[k]);
			if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, names[k], n) != 0)
				continue;
			if (a[2 + n] == '=') {
				which = k;
				value = a + 3 + n;
			} else if (a[2 + n] == '\0') {
				which = k;
				if (i + 1 >= argc || strncmp(argv[i + 1], "--", 2) == 0) {
					cli_error(MATCH_CMD, "--%s needs a value", names[k]);
					return false;
				}
				value = argv[++i];
			}
		}
		if (which < 0) {
			rest[(*nrest)++] = argv[i];
			continue;
		}
		if (which == 0) {
			if (mu->nengines == 2) {
				cli_error(MATCH_CMD, "--engine: given more than twice (%s)",
				          cli_quote(q, sizeof(q), value));
				return false;
			}
			mu->engines[mu->nengines++] = value;
			continue;
		}
		if (value[0] == '\0' || value[0] == '=') {
			cli_error(MATCH_CMD, "--%s: expected NAME=VALUE or NAME, got %s",
			          names[which], cli_quote(q, sizeof(q), value));
			return false;
		}
		mu->opts[which - 1][mu->nopts[which - 1]++] = value;
	}
	rest[*nrest] = NULL;
	return true;
}

/* The values of the single options, as cli_parse() leaves them. */
typedef struct options {
	const char *openings, *pgn, *log, *sprt;
	int sprt_elo; /* --sprt-elo: 0 logistic, 1 normalized */
	int64_t games, margin, timeout, max_moves, concurrency;
	int64_t plies; /* 0 when not given */
	/* The time controls: [0] both engines' (--tc), [1] and [2] one engine's (--tc1). */
	const char *tc[3];
	int64_t movetime[3], depth[3];
	uint64_t nodes[3];
	bool json, ignore_option_errors;
	tc_mode_t mode[2]; /* engine i's */
} options_t;

/* The time control options by mode (tc_mode_t): [0] both engines', [1] engine 1's, ... */
static const char *const control_names[3][4] = {
	{ "tc", "movetime", "depth", "nodes" },
	{ "tc1", "movetime1", "depth1", "nodes1" },
	{ "tc2", "movetime2", "depth2", "nodes2" },
};

/* The option of time control `mode` for the engines `k` (0 both, 1 or 2 one). */
static cli_opt_t control_opt(options_t *o, int k, tc_mode_t mode)
{
	cli_opt_t opt = { .name = control_names[k][mode] };
	switch (mode) {
	case TC_CLOCK:
		opt.kind = CLI_STRING;
		opt.dest.s = &o->tc[k];
		break;
	case TC_MOVETIME:
	case TC_DEPTH:
		opt.kind = CLI_INT;
		opt.dest.i = mode == TC_MOVETIME ? &o->movetime[k] : &o->depth[k];
		opt.min = 1;
		opt.max = mode == TC_MOVETIME ? 86400000 : 255;
		break;
	default:
		opt.kind = CLI_UINT64;
		opt.dest.u = &o->nodes[k];
	}
	return opt;
}

static const char *const sprt_elo_names[] = { "logistic", "normalized", NULL };

/* One number of --sprt: the whole of [text, end) must be a finite decimal. */
static bool sprt_number(const char *text, const char *end, double *out)
{
	char buf[64];
	size_t n = (size_t)(end - text);
	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, text, n);
	buf[n] = '\0';
	char *stop;
	errno = 0;
	*out = strtod(buf, &stop);
	return *stop == '\0' && errno == 0 && isfinite(*out);
}

/* --sprt ELO0,ELO1[,ALPHA,BETA] (alpha and beta 0.05 when left out) into *t, checked by
 * match_sprt_check. False after the one-line error. */
static bool parse_sprt(const char *text, bool normalized, match_sprt_t *t)
{
	char q[CLI_QUOTE_SIZE];
	double v[4] = { 0, 0, 0.05, 0.05 };
	int n = 0;
	for (const char *p = text;; n++) {
		const char *comma = strchr(p, ',');
		const char *end = comma ? comma : p + strlen(p);
		if (n == 4 || !sprt_number(p, end, &v[n])) {
			n = -1;
			break;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	if (n != 1 && n != 3) {
		cli_error(MATCH_CMD,
		          "--sprt: expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA (numbers), got %s",
		          cli_quote(q, sizeof(q), text));
		return false;
	}
	*t = (match_sprt_t){
		.elo0 = v[0], .elo1 = v[1], .alpha = v[2], .beta = v[3], .normalized = normalized
	};
	const char *why = match_sprt_check(t);
	if (why) {
		cli_error(MATCH_CMD, "--sprt %s: %s", cli_quote(q, sizeof(q), text), why);
		return false;
	}
	return true;
}

/* The mode of each engine's time control into o->mode: its own option (--nodes1), else
 * the common one (--nodes), else --tc 10+0.1. At most one option of each of the three
 * sets (common, engine 1's, engine 2's), and one mode for both engines. False after the
 * one-line error. */
static bool control_modes(const cli_opt_t *opts, int nopts, options_t *o)
{
	static const char *const suffix[3] = { "", "1", "2" };
	int mode[3] = { -1, -1, -1 };
	for (int k = 0; k < 3; k++) {
		int n = 0;
		for (int c = 0; c < 4; c++) {
			const char *name = control_names[k][c];
			if (!cli_given(opts, nopts, name))
				continue;
			/* UCI engines read the count as a signed 64-bit integer (cutoff uci
			 * refuses more: src/uci/parse.c). */
			if (c == TC_NODES && (o->nodes[k] == 0 || o->nodes[k] > INT64_MAX)) {
				cli_error(MATCH_CMD,
				          "--%s: expected a count of at least 1 and at most 2^63-1 "
				          "(%" PRId64 "), got '%" PRIu64 "'",
				          name, INT64_MAX, o->nodes[k]);
				return false;
			}
			mode[k] = c;
			n++;
		}
		if (n > 1) {
			cli_error(
				MATCH_CMD,
				"give at most one of --tc%s, --movetime%s, --depth%s and --nodes%s",
				suffix[k], suffix[k], suffix[k], suffix[k]);
			return false;
		}
	}
	for (int i = 0; i < 2; i++)
		o->mode[i] = (tc_mode_t)(mode[1 + i] >= 0 ? mode[1 + i]
		                         : mode[0] >= 0   ? mode[0]
		                                          : TC_CLOCK);
	if (o->mode[0] != o->mode[1]) {
		cli_error(MATCH_CMD,
		          "engine 1 would play under --%s and engine 2 under --%s: give both "
		          "the same kind of time control (their limits may differ)",
		          control_names[0][o->mode[0]], control_names[0][o->mode[1]]);
		return false;
	}
	return true;
}

/* Parses the single options into `o`, and checks there are two engines and at most one
 * time control. CLI_PARSED to go on; CLI_HELP (printed) or CLI_BAD (the one-line error). */
static cli_status_t parse_options(int nrest, char **rest, const multi_t *mu, options_t *o)
{
	*o = (options_t){ .games = 2, .margin = -1, .timeout = 60, .concurrency = 1 };
	cli_opt_t opts[] = {
		{ .name = "games", .kind = CLI_INT, .dest.i = &o->games, .min = 1, .max = 1000000 },
		control_opt(o, 0, TC_CLOCK),
		control_opt(o, 0, TC_MOVETIME),
		control_opt(o, 0, TC_DEPTH),
		control_opt(o, 0, TC_NODES),
		control_opt(o, 1, TC_CLOCK),
		control_opt(o, 1, TC_MOVETIME),
		control_opt(o, 1, TC_DEPTH),
		control_opt(o, 1, TC_NODES),
		control_opt(o, 2, TC_CLOCK),
		control_opt(o, 2, TC_MOVETIME),
		control_opt(o, 2, TC_DEPTH),
		control_opt(o, 2, TC_NODES),
		{ .name = "margin",
		  .kind = CLI_INT,
		  .dest.i = &o->margin,
		  .min = 0,
		  .max = 3600000 },
		{ .name = "timeout",
		  .kind = CLI_INT,
		  .dest.i = &o->timeout,
		  .min = 1,
		  .max = 86400 },
		{ .name = "max-moves",
		  .kind = CLI_INT,
		  .dest.i = &o->max_moves,
		  .min = 0,
		  .max = 1000000 },
		{ .name = "concurrency",
		  .kind = CLI_INT,
		  .dest.i = &o->concurrency,
		  .min = 1,
		  .max = MAX_CONCURRENCY },
		{ .name = "openings", .kind = CLI_STRING, .dest.s = &o->openings },
		{ .name = "plies", .kind = CLI_INT, .dest.i = &o->plies, .min = 1, .max = 10000 },
		{ .name = "pgn", .kind = CLI_STRING, .dest.s = &o->pgn },
		{ .name = "log", .kind = CLI_STRING, .dest.s = &o->log },
		{ .name = "json", .kind = CLI_FLAG, .dest.flag = &o->json },
		{ .name = "ignore-option-errors",
		  .kind = CLI_FLAG,
		  .dest.flag = &o->ignore_option_errors },
		{ .name = "sprt", .kind = CLI_STRING, .dest.s = &o->sprt },
		{ .name = "sprt-elo",
		  .kind = CLI_CHOICE,
		  .dest.choice = &o->sprt_elo,
		  .choices = sprt_elo_names },
	};
	const int nopts = (int)(sizeof(opts) / sizeof(opts[0]));
	cli_status_t st = cli_parse(MATCH_CMD, match_usage, opts, nopts, nrest, rest);
	if (st != CLI_PARSED)
		return st;
	if (mu->nengines != 2) {
		cli_error(MATCH_CMD, "--engine is required twice (got %d)", mu->nengines);
		return CLI_BAD;
	}
	if (!control_modes(opts, nopts, o))
		return CLI_BAD;
	if (cli_given(opts, nopts, "sprt-elo") && !o->sprt) {
		cli_error(MATCH_CMD, "--sprt-elo needs --sprt");
		return CLI_BAD;
	}
	return CLI_PARSED;
}

/* Engine i's time control (0 or 1) from the options: its own limit, else the common one.
 * False after the one-line error. */
static bool set_engine_control(tc_t *tc, const options_t *o, int i)
{
	char q[CLI_QUOTE_SIZE];
	int k = 1 + i; /* the engine's own options */
	tc->mode = o->mode[i];
	const char *text = o->tc[k] ? o->tc[k] : o->tc[0];
	tc->text = text ? text : "10+0.1";
	if (tc->mode == TC_CLOCK && !match_tc_parse(tc->text, &tc->base, &tc->inc)) {
		cli_error(MATCH_CMD,
		          "--tc%s: expected BASE or BASE+INC in seconds (10+0.1, 1+0.01, 60), BASE "
		          "above 0 and INC from 0, each at most %d s with at most 9 decimals, "
		          "got %s",
		          o->tc[k] ? (i ? "2" : "1") : "", MATCH_TC_MAX_S,
		          cli_quote(q, sizeof(q), tc->text));
		return false;
	}
	tc->movetime = (o->movetime[k] ? o->movetime[k] : o->movetime[0]) * NS_PER_MS;
	tc->depth = o->depth[k] ? o->depth[k] : o->depth[0];
	tc->nodes = o->nodes[k] ? o->nodes[k] : o->nodes[0];
	tc->margin = (o->margin >= 0 ? o->margin : tc->mode == TC_MOVETIME ? 50 : 0) * NS_PER_MS;
	tc->timeout = o->timeout * NS_PER_S;
	return true;
}

/* The time controls and the limits from the options. False after the one-line error. */
static bool set_control(match_t *m, const options_t *o)
{
	for (int i = 0; i < 2; i++)
		if (!set_engine_control(&m->tc[i], o, i))
			return false;
	m->max_moves = o->max_moves;
	m->ngames = o->games;
	return true;
}

/* Opens --pgn and --log. CLI_EXIT_OK, or an exit status after the one-line error. */
static int open_outputs(match_t *m, const options_t *o)
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

/* Everything before the first game: the engines' commands, the chess tables, the
 * openings, the output files, the games' records. CLI_EXIT_OK, or an exit status after
 * the one-line error. */
static int set_up(match_t *m, const options_t *o, const multi_t *mu)
{
	int status;
	for (int i = 0; i < 2; i++) {
		status =
			match_engine_init(&m->eng[i], mu->engines[i], m->tc[0].timeout, mu->opts[0],
		                          mu->nopts[0], mu->opts[1 + i], mu->nopts[1 + i]);
		if (status != CLI_EXIT_OK)
			return status;
		m->eng[i].ignore_option_errors = o->ignore_option_errors;
	}
	m->json = o->json;
	set_concurrency(m, o->concurrency);
	m->llr = NAN;
	m->decision = MATCH_SPRT_CONTINUE;
	if (o->sprt) {
		if (!parse_sprt(o->sprt, o->sprt_elo == 1, &m->sprt))
			return CLI_EXIT_USAGE;
		m->sprt_on = true;
	}
	int err;
	m->chess = cutoff_chess_new(&err);
	if (!m->chess) {
		cli_fail(MATCH_CMD, "cannot make the chess tables", err, NULL);
		return CLI_EXIT_FAIL;
	}
	m->game = cutoff_chess_game(m->chess);
	if (o->plies && !o->openings) {
		cli_error(MATCH_CMD, "--plies needs --openings (a PGN file)");
		return CLI_EXIT_USAGE;
	}
	if (o->openings &&
	    (status = match_openings_read(m, o->openings, (int)o->plies)) != CLI_EXIT_OK)
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

/* The match from its options to its report, the engines stopped. The exit status. */
static int run(match_t *m, const options_t *o, const multi_t *mu)
{
	int status = set_up(m, o, mu);
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

int cli_match(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(match_usage, stdout);
			return CLI_EXIT_OK;
		}
	}
	multi_t mu = { 0 };
	char **rest = calloc((size_t)argc + 1, sizeof(*rest));
	for (int k = 0; k < 3; k++)
		mu.opts[k] = calloc((size_t)argc + 1, sizeof(*mu.opts[k]));
	match_t *m = calloc(1, sizeof(*m));
	int status = CLI_EXIT_USAGE, nrest = 0;
	options_t o;
	if (!rest || !mu.opts[0] || !mu.opts[1] || !mu.opts[2] || !m) {
		cli_error(MATCH_CMD, "out of memory");
		status = CLI_EXIT_FAIL;
	} else {
		m->log.fd = -1;
		for (int i = 0; i < 2; i++)
			match_engine_clear(&m->eng[i], i + 1, &m->log);
		if (take_multi(argc, argv, &mu, rest, &nrest)) {
			cli_status_t st = parse_options(nrest, rest, &mu, &o);
			if (st == CLI_HELP)
				status = CLI_EXIT_OK;
			else if (st == CLI_PARSED && set_control(m, &o))
				status = run(m, &o, &mu);
		}
	}
	free_match(m);
	free(rest);
	for (int k = 0; k < 3; k++)
		free(mu.opts[k]);
	return status;
}
