/* SPDX-License-Identifier: MIT */
/*
 * cmd_match.c — `cutoff match`: a UCI referee for games between two engines. This file
 * is the command line: the usage, the options read and checked into the referee's
 * settings (match_settings_t: the engines, their options, each engine's time control,
 * the SPRT), and the call; the match is the referee's (match_run, match/match.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "kit/args.h"
#include "match/match.h"

/* clang-format off */
static const char match_usage[] =
	"usage: cutoff match --engine CMD --engine CMD [options]\n"
	"\n"
	"Plays games between two UCI engines and referees them: every move is checked,\n"
	"the clocks are kept by the referee, and the games end by the rules of chess or\n"
	"by a fault (an illegal move, a loss on time, a crash). Engine 1 is the first\n"
	"--engine; results are counted from its side.\n"
	"\n"
	"The time control is at most one of --tc, --movetime, --depth and --nodes (default\n"
	"--tc as below); --tc1, --movetime1, --depth1, --nodes1 (and ...2) give engine 1\n"
	"(engine 2) its own limit in place of the common one: time or node odds (--nodes\n"
	"100000 --nodes2 200000). Both engines play under one kind of control.\n"
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
enum {
	NCONTROLS = 3 * 4
};
static const char *const control_names[3][4] = {
	{ "tc", "movetime", "depth", "nodes" },
	{ "tc1", "movetime1", "depth1", "nodes1" },
	{ "tc2", "movetime2", "depth2", "nodes2" },
};

/* The time control without one on the line (--tc's default). */
static const char tc_default[] = "10+0.1";

/* How far a move may overrun its time before it loses on time, without --margin: under
 * --tc, and under --movetime (an engine told to think N ms uses all N, and the pipes add
 * their latency). */
enum {
	MARGIN_CLOCK_MS = 0,
	MARGIN_MOVETIME_MS = 50
};

/* The option of time control `mode` for the engines `k` (0 both, 1 or 2 one), with its
 * --help (written into `help`, which the row points to). */
static cli_opt_t control_opt(options_t *o, int k, tc_mode_t mode, char *help, size_t size)
{
	static const char *const arg[] = { "BASE[+INC]", "MS", "D", "N" };
	static const char *const what[] = {
		[TC_MOVETIME] = "a fixed time per move (go movetime), %r",
		[TC_DEPTH] = "a fixed depth per move (go depth), %r",
		/* The range is checked by control_modes, beyond the row's. */
		[TC_NODES] = "a fixed node count per move (go nodes), 1..2^63-1",
	};
	cli_opt_t opt = { .name = control_names[k][mode], .arg = arg[mode], .help = help };
	if (k > 0)
		snprintf(help, size, "engine %d's own --%s, in place of the common one%s", k,
		         control_names[0][mode],
		         mode == TC_MOVETIME || mode == TC_DEPTH ? ", %r" : "");
	else if (mode == TC_CLOCK)
		snprintf(help, size,
		         "seconds on each clock, and seconds added after each move: 60, 10+0.1, "
		         "1+0.01 (BASE above 0, each at most %d); default %%d",
		         MATCH_TC_MAX_S);
	else
		snprintf(help, size, "%s", what[mode]);
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

/* --sprt's alpha and beta when left out. */
#define SPRT_ERROR 0.05

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
	double v[4] = { 0, 0, SPRT_ERROR, SPRT_ERROR };
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

/* The rows before the time controls' (options_t's fields, but for the repeatable
 * options, which take_multi takes out of the line before cli_parse: their rows only
 * list them in --help). */
enum {
	FIRST_CONTROL = 12
};

/* Parses the single options into `o`, and checks there are two engines and at most one
 * time control. CLI_PARSED to go on; CLI_HELP (printed) or CLI_BAD (the one-line error).
 * Long: the option table, a row and its --help text per option, which points into the
 * function's locals. */
static cli_status_t parse_options(int nrest, char **rest, const multi_t *mu, options_t *o)
{
	*o = (options_t){ .games = 2, .margin = -1, .timeout = 60, .concurrency = 1 };
	o->tc[0] = tc_default;
	const char *listed = NULL; /* the repeatable options' rows: never parsed */
	char openings[1024], plies[128], sprt[768], margin[384], control[NCONTROLS][160];
	snprintf(openings, sizeof(openings),
	         "start positions, each played twice, colours reversed, the file cycled; "
	         "default the start position. FILE holds FEN or EPD lines (the first four "
	         "fields, and the two counters when they follow; blank lines and lines "
	         "starting with # skipped) or PGN games (when it ends in .pgn or its first "
	         "line starts with '[' or a move number): each game gives the position after "
	         "its first --plies plies, or its last if shorter. --openings builtin: %d "
	         "well-known "
	         "mainline openings of 6 to 10 plies each, built in (./builtin for a file of "
	         "that name)",
	         match_book_count);
	snprintf(plies, sizeof(plies),
	         "the plies of each PGN game that make its opening, %%r; default %d",
	         MATCH_PGN_PLIES);
	snprintf(sprt, sizeof(sprt),
	         "a sequential probability ratio test of H0: Elo = E0 against H1: Elo = E1 (E0 "
	         "< E1, engine 1's Elo over engine 2), with error rates alpha A and beta B "
	         "(default %g each), on the game pairs (games 2k-1 and 2k: one opening, "
	         "colours reversed): the match stops once the log-likelihood ratio crosses a "
	         "bound, and --games is then the most it plays. A progress line on stderr "
	         "after each pair",
	         SPRT_ERROR);
	snprintf(margin, sizeof(margin),
	         "how far a move may overrun the clock (or --movetime) before it loses on "
	         "time, %%r; default %d with --tc, %d with --movetime (an engine told to "
	         "think N ms uses all N, and the pipes add their latency)",
	         MARGIN_CLOCK_MS, MARGIN_MOVETIME_MS);
	cli_opt_t opts[] = {
		CLI_STRING_OPT("engine", &listed, "CMD",
		               "an engine: a program and its arguments, split at blanks ('...' "
		               "and \"...\" quote, \\ escapes; no shell); exactly twice"),
		CLI_STRING_OPT("option", &listed, "NAME=VALUE",
		               "a UCI option (setoption) for both engines; NAME alone for a "
		               "button; repeatable; the engine must declare the option"),
		CLI_STRING_OPT("option1", &listed, "NAME=VALUE",
		               "the same for engine 1 only (sent after --option)"),
		CLI_STRING_OPT("option2", &listed, "NAME=VALUE",
		               "the same for engine 2 only (sent after --option)"),
		CLI_FLAG_OPT("ignore-option-errors", &o->ignore_option_errors,
		             "play on when an engine rejects an option's value (an 'info string "
		             "error: setoption ...' or 'No such option' line before its "
		             "readyok): a warning, and the lines in the report; by default the "
		             "match fails before its first game"),
		CLI_INT_OPT("concurrency", &o->concurrency, 1, MATCH_MAX_CONCURRENCY, "N",
		            "games played at once, %r, each by its own two engine processes; "
		            "default %d. Results are reported in game order. A warning when N "
		            "times the most Threads an engine is given (--option Threads=T) "
		            "exceeds the CPUs: the clocks are unfair"),
		CLI_INT_OPT("games", &o->games, 1, 1000000, "N",
		            "games to play, %r; default %d. Engine 1 has white in odd games (1, "
		            "3, ...) and black in even ones"),
		CLI_STRING_OPT("openings", &o->openings, "FILE|builtin", openings),
		CLI_INT_OPT("plies", &o->plies, 1, 10000, "N", plies),
		CLI_INT_OPT("max-moves", &o->max_moves, 0, 1000000, "N",
		            "adjudicate a draw once each side has made N moves, %r; default %d "
		            "(no limit)"),
		CLI_STRING_OPT("sprt", &o->sprt, "E0,E1[,A,B]", sprt),
		CLI_CHOICE_OPT("sprt-elo", &o->sprt_elo, sprt_elo_names,
		               "%r Elo for E0 and E1 (docs/match-statistics.md); default %d"),
		/* [FIRST_CONTROL, + NCONTROLS): the time controls (control_opt), filled below */
		[FIRST_CONTROL + NCONTROLS] =
			CLI_INT_OPT("margin", &o->margin, 0, 3600000, "MS", margin),
		CLI_INT_OPT("timeout", &o->timeout, 1, 86400, "S",
		            "the longest wait, in seconds, for uciok, readyok and (with --depth or "
		            "--nodes) a bestmove, %r; default %d"),
		CLI_STRING_OPT("pgn", &o->pgn, "FILE",
		               "write the games to FILE as PGN, moves in SAN"),
		CLI_STRING_OPT("log", &o->log, "FILE",
		               "write every line exchanged with the engines, timed, and the "
		               "engines' stderr (otherwise discarded) to FILE"),
		CLI_FLAG_OPT("json", &o->json,
		             "one JSON object at the end instead of the text report"),
	};
	const int nopts = (int)(sizeof(opts) / sizeof(opts[0]));
	for (int k = 0, n = 0; k < 3; k++, n += 4)
		for (int c = 0; c < 4; c++)
			opts[FIRST_CONTROL + n + c] = control_opt(
				o, k, (tc_mode_t)c, control[n + c], sizeof(control[n + c]));
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
	tc->text = o->tc[k] ? o->tc[k] : o->tc[0]; /* o->tc[0]: tc_default when not given */
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
	tc->margin = (o->margin >= 0            ? o->margin
	              : tc->mode == TC_MOVETIME ? MARGIN_MOVETIME_MS
	                                        : MARGIN_CLOCK_MS) *
	             NS_PER_MS;
	tc->timeout = o->timeout * NS_PER_S;
	return true;
}

/* The referee's settings from the options; the strings stay borrowed from the line.
 * False after the one-line error. */
static bool settings_from(const options_t *o, const multi_t *mu, match_settings_t *s)
{
	*s = (match_settings_t){ .ignore_option_errors = o->ignore_option_errors,
		                 .games = o->games,
		                 .concurrency = o->concurrency,
		                 .max_moves = o->max_moves,
		                 .openings = o->openings,
		                 .plies = (int)o->plies,
		                 .pgn = o->pgn,
		                 .log = o->log,
		                 .json = o->json };
	for (int i = 0; i < 2; i++) {
		s->engines[i] = mu->engines[i];
		if (!set_engine_control(&s->tc[i], o, i))
			return false;
	}
	for (int k = 0; k < 3; k++) {
		s->options[k] = mu->opts[k];
		s->noptions[k] = mu->nopts[k];
	}
	if (o->sprt) {
		if (!parse_sprt(o->sprt, o->sprt_elo == 1, &s->sprt))
			return false;
		s->sprt_on = true;
	}
	if (o->plies && !o->openings) {
		cli_error(MATCH_CMD, "--plies needs --openings (a PGN file)");
		return false;
	}
	return true;
}

int cli_match(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			/* before take_multi, which would read --help as a value */
			multi_t none = { 0 };
			options_t o;
			return cli_parse_exit(parse_options(argc, argv, &none, &o));
		}
	}
	multi_t mu = { 0 };
	char **rest = calloc((size_t)argc + 1, sizeof(*rest));
	for (int k = 0; k < 3; k++)
		mu.opts[k] = calloc((size_t)argc + 1, sizeof(*mu.opts[k]));
	int status = CLI_EXIT_USAGE, nrest = 0;
	options_t o;
	match_settings_t s;
	if (!rest || !mu.opts[0] || !mu.opts[1] || !mu.opts[2]) {
		cli_error(MATCH_CMD, "out of memory");
		status = CLI_EXIT_FAIL;
	} else if (take_multi(argc, argv, &mu, rest, &nrest)) {
		cli_status_t st = parse_options(nrest, rest, &mu, &o);
		if (st == CLI_HELP)
			status = CLI_EXIT_OK;
		else if (st == CLI_PARSED && settings_from(&o, &mu, &s))
			status = match_run(&s);
	}
	free(rest);
	for (int k = 0; k < 3; k++)
		free(mu.opts[k]);
	return status;
}
