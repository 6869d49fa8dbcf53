/* SPDX-License-Identifier: MIT */
/*
 * cmd_epd.c — `cutoff epd`: runs a chess test suite (Win at Chess, Bratko-Kopec, ...) written in
 * EPD, and says how many positions the engine solves.
 *
 * An EPD line is the first four fields of a FEN (placement, side, castling, en passant),
 * optionally the two move counters, then operations "opcode operands;": `bm` (best moves,
 * any of which solves the position), `am` (moves to avoid), `id "name"`; other opcodes are
 * read and ignored. The line is split by cutoff_chess_parse_epd(), its moves read by
 * cutoff_chess_parse_san().
 *
 * The whole file is read and checked before the first search, so that a malformed line is
 * reported at once (on stderr, naming the line and what is wrong) rather than after hours
 * of searching; such lines are skipped, the others searched, and the command then exits
 * with CLI_EXIT_FAIL. Each position is searched from an empty table (cutoff_engine_clear),
 * so that its result does not depend on the positions before it.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cutoff.h"
#include "cutoff_games.h"
#include "kit/args.h"
#include "kit/games.h"
#include "kit/json.h"
#include "kit/report.h"

/* clang-format off */
static const char epd_usage[] =
	"usage: cutoff epd --file FILE [--movetime MS | --depth D] [options]\n"
	"\n"
	"Searches every position of a chess test suite in EPD (such as Win at Chess or\n"
	"Bratko-Kopec) and reports, for each, the engine's move in SAN, whether it solves\n"
	"the position (one of the 'bm' moves, none of the 'am' moves), the depth reached,\n"
	"the score, nodes and time; then how many were solved. Each position starts from an\n"
	"empty table. Malformed lines are reported on stderr with their line number and\n"
	"skipped, and the command then exits with status 1; a file that cannot be read\n"
	"is one line and status 2, as a bad option is.\n";
/* clang-format on */

enum {
	EPD_MAX_MOVES = 16,   /* moves in one bm or am */
	EPD_MAX_LINE = 4096,  /* bytes in one line, newline included */
	EPD_ID_SIZE = 64,     /* bytes kept of an id */
	EPD_EXPECT_SIZE = 96, /* the expected moves as shown */
	EPD_PV_SIZE = 400     /* the principal variation in SAN, as shown in JSON */
};

typedef struct epd_entry {
	int line;
	char id[EPD_ID_SIZE];
	char fen[CUTOFF_CHESS_FEN_SIZE];
	cutoff_chess_state_t root;
	int nbm, nam;
	cutoff_move_t bm[EPD_MAX_MOVES], am[EPD_MAX_MOVES];
	char expect[EPD_EXPECT_SIZE]; /* "Qg6 Qd3" or "not Rxb2" */
} epd_entry_t;

typedef struct epd_outcome {
	cutoff_move_t move;
	char san[CUTOFF_CHESS_SAN_SIZE];
	bool solved;
	int depth;
	int32_t value;
	bool scored; /* at least one iteration completed: value is meaningful */
	int solved_depth;
	double solved_time_s; /* the first iteration of the final run of solving ones */
	uint64_t nodes;
	uint64_t seldepth;
	double time_s;
	char pv[EPD_PV_SIZE];
} epd_outcome_t;

typedef struct epd_suite {
	epd_entry_t *entry;
	int n, cap;
	int bad; /* malformed lines, skipped */
} epd_suite_t;

/* ---- reading the file ---- */

static void epd_line_error(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void epd_line_error(const char *file, int line, const char *fmt, ...)
{
	char q[CLI_QUOTE_SIZE], msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cli_error("epd", "%s line %d: %s", cli_quote(q, sizeof(q), file), line, msg);
}

/* A move list of a bm or am operation, in SAN separated by blanks (cut in place). */
static bool read_moves(const cutoff_chess_t *chess, const epd_entry_t *e, const char *opcode,
                       char *operands, cutoff_move_t *moves, int *n, char *why, size_t whylen)
{
	char msg[200];
	int count = 0;
	char *save = NULL;
	for (char *tok = strtok_r(operands, " \t\r", &save); tok;
	     tok = strtok_r(NULL, " \t\r", &save)) {
		if (count == EPD_MAX_MOVES) {
			snprintf(why, whylen, "%s: more than %d moves", opcode, EPD_MAX_MOVES);
			return false;
		}
		cutoff_move_t m;
		if (cutoff_chess_parse_san(chess, &e->root, tok, &m, msg, sizeof(msg)) != 0) {
			snprintf(why, whylen, "%s: %s", opcode, msg);
			return false;
		}
		moves[count++] = m;
	}
	if (count == 0) {
		snprintf(why, whylen, "%s: no move given", opcode);
		return false;
	}
	*n = count;
	return true;
}

/* The id, shown back: printable ASCII only, at most EPD_ID_SIZE - 1 bytes. */
static void set_id(epd_entry_t *e, const char *text, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < len && o + 1 < sizeof(e->id); i++) {
		unsigned char ch = (unsigned char)text[i];
		e->id[o++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
	}
	e->id[o] = '\0';
}

/* id's operand: a quoted string without its quotes (the reader removes those of one
 * string; the outer ones of several go too), or the text as it is. */
static void read_id(epd_entry_t *e, const char *operands)
{
	size_t len = strlen(operands);
	if (len >= 2 && operands[0] == '"' && operands[len - 1] == '"')
		set_id(e, operands + 1, len - 2);
	else
		set_id(e, operands, len);
}

/* Which of bm and am the line has given so far: each may come once. */
typedef struct epd_ops {
	bool have_bm, have_am;
} epd_ops_t;

/* One operation: bm, am and id are read, the others ignored. True, or false with the
 * reason in why[]. */
static bool apply_operation(const cutoff_chess_t *chess, epd_entry_t *e, epd_ops_t *ops,
                            const cutoff_chess_epd_op_t *op, char *why, size_t whylen)
{
	bool is_bm = strcmp(op->opcode, "bm") == 0;
	bool is_am = strcmp(op->opcode, "am") == 0;
	if (is_bm || is_am) {
		const char *name = is_bm ? "bm" : "am";
		if (is_bm ? ops->have_bm : ops->have_am) {
			snprintf(why, whylen, "%s given twice", name);
			return false;
		}
		if (!read_moves(chess, e, name, op->operands, is_bm ? e->bm : e->am,
		                is_bm ? &e->nbm : &e->nam, why, whylen))
			return false;
		*(is_bm ? &ops->have_bm : &ops->have_am) = true;
	} else if (strcmp(op->opcode, "id") == 0) {
		read_id(e, op->operands);
	}
	return true;
}

/* The position of a line read (epd) into e->root and e->fen, and its operations. True,
 * or false with the reason in why[]. */
static bool read_entry(const cutoff_chess_t *chess, const cutoff_chess_epd_t *epd, epd_entry_t *e,
                       char *why, size_t whylen)
{
	e->root = epd->state;
	cutoff_chess_fen(chess, &e->root, e->fen, sizeof(e->fen));
	const cutoff_game_t *game = cutoff_chess_game(chess);
	int32_t over;
	if (game->terminal(game->ctx, &e->root, &over)) {
		snprintf(why, whylen, "the game is over in this position: nothing to search");
		return false;
	}
	epd_ops_t ops = { false, false };
	e->nbm = e->nam = 0;
	e->id[0] = '\0';
	for (int i = 0; i < epd->nops; i++) {
		if (!apply_operation(chess, e, &ops, &epd->op[i], why, whylen))
			return false;
	}
	if (!ops.have_bm && !ops.have_am) {
		snprintf(why, whylen, "no bm or am operation: nothing to test the move against");
		return false;
	}
	return true;
}

/* What solves the position, as shown: "Qg6 Qd3" or "not Rxb2". */
static void set_expect(const cutoff_chess_t *chess, epd_entry_t *e)
{
	size_t o = 0;
	e->expect[0] = '\0';
	for (int k = 0; k < e->nbm + e->nam; k++) {
		bool bm = k < e->nbm;
		char san[CUTOFF_CHESS_SAN_SIZE];
		cutoff_chess_san(chess, &e->root, bm ? e->bm[k] : e->am[k - e->nbm], san,
		                 sizeof(san));
		int w = snprintf(e->expect + o, sizeof(e->expect) - o, "%s%s%s", o ? " " : "",
		                 !bm && k == e->nbm ? "not " : "", san);
		if (w < 0 || (size_t)w >= sizeof(e->expect) - o)
			break;
		o += (size_t)w;
	}
}

/*
 * Parses one EPD line into *e. Returns true, or false with the reason in why[].
 */
static bool parse_epd_line(const cutoff_chess_t *chess, char *line, epd_entry_t *e, char *why,
                           size_t whylen)
{
	cutoff_chess_epd_t epd;
	char msg[200];
	if (cutoff_chess_parse_epd(chess, line, &epd, msg, sizeof(msg)) != 0) {
		snprintf(why, whylen, "%s%s", epd.error == CUTOFF_CHESS_EPD_FEN ? "bad FEN: " : "",
		         msg);
		return false;
	}
	if (!read_entry(chess, &epd, e, why, whylen))
		return false;
	if (!e->id[0])
		snprintf(e->id, sizeof(e->id), "line %d", e->line);
	set_expect(chess, e);
	return true;
}

/* Reads up to `limit` positions (0: all) of the file; prints each malformed line. */
static int read_suite(const cutoff_chess_t *chess, const char *path, int64_t limit,
                      epd_suite_t *suite)
{
	char q[CLI_QUOTE_SIZE];
	FILE *f = cli_open_input("epd", "file", path);
	if (!f)
		return CLI_EXIT_USAGE;
	static char line[EPD_MAX_LINE];
	int lineno = 0, seen = 0;
	for (;;) {
		if (limit > 0 && seen >= limit)
			break;
		int len = cli_read_line(f, line, sizeof(line));
		if (len == CLI_LINE_END)
			break;
		lineno++;
		if (len < 0) {
			epd_line_error(path, lineno, "%s",
			               len == CLI_LINE_NUL ? "a NUL byte in the line"
			                                   : "line too long (at most 4095 bytes)");
			suite->bad++;
			seen++;
			continue;
		}
		const char *t = line + strspn(line, " \t\r\n");
		if (*t == '\0' || *t == '#')
			continue; /* blank lines and comments */
		seen++;
		if (suite->n == suite->cap) {
			int cap = suite->cap ? 2 * suite->cap : 64;
			epd_entry_t *grown = realloc(suite->entry, (size_t)cap * sizeof(*grown));
			if (!grown) {
				cli_error("epd", "out of memory reading %s",
				          cli_quote(q, sizeof(q), path));
				fclose(f);
				return CLI_EXIT_FAIL;
			}
			suite->entry = grown;
			suite->cap = cap;
		}
		epd_entry_t *e = &suite->entry[suite->n];
		memset(e, 0, sizeof(*e));
		e->line = lineno;
		char why[300];
		if (!parse_epd_line(chess, line, e, why, sizeof(why))) {
			epd_line_error(path, lineno, "%s", why);
			suite->bad++;
			continue;
		}
		suite->n++;
	}
	return cli_close_input("epd", "file", path, f) ? CLI_EXIT_OK : CLI_EXIT_USAGE;
}

/* ---- searching ---- */

static bool in_list(const cutoff_move_t *list, int n, cutoff_move_t m)
{
	for (int i = 0; i < n; i++) {
		if (list[i] == m)
			return true;
	}
	return false;
}

static bool solves(const epd_entry_t *e, cutoff_move_t m)
{
	if (m == CUTOFF_MOVE_NONE)
		return false;
	if (e->nbm > 0 && !in_list(e->bm, e->nbm, m))
		return false;
	return !in_list(e->am, e->nam, m);
}

/* The principal variation in SAN, cut where it no longer fits. */
static void pv_text(const cutoff_chess_t *chess, const cutoff_chess_state_t *root,
                    const cutoff_move_t *pv, int n, char *buf, size_t size)
{
	cutoff_chess_state_t st = *root;
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		char san[CUTOFF_CHESS_SAN_SIZE];
		if (cutoff_chess_san(chess, &st, pv[i], san, sizeof(san)) < 0)
			break;
		if (o + strlen(san) + 2 > size)
			break;
		o += (size_t)snprintf(buf + o, size - o, "%s%s", o ? " " : "", san);
		cutoff_chess_play(chess, &st, pv[i], &st);
	}
}

/* "mate 3", "mate -2" or "cp 35"; "-" before any iteration completed. */
static void score_text(const epd_outcome_t *r, char *buf, size_t size)
{
	if (!r->scored)
		snprintf(buf, size, "-");
	else if (r->value >= CUTOFF_WIN_MIN)
		snprintf(buf, size, "mate %d", (CUTOFF_WIN - r->value + 1) / 2);
	else if (r->value <= -CUTOFF_WIN_MIN)
		snprintf(buf, size, "mate -%d", (CUTOFF_WIN + r->value + 1) / 2);
	else
		snprintf(buf, size, "cp %d", (int)r->value);
}

static int search_one(const cutoff_chess_t *chess, cutoff_engine_t *engine,
                      const cutoff_limits_t *limits, const epd_entry_t *e, bool first,
                      epd_outcome_t *out, cli_log_t *log)
{
	static cutoff_result_t res;
	int rc = first ? 0 : cutoff_engine_clear(engine); /* a new engine is empty */
	if (rc == 0)
		rc = cutoff_engine_search(engine, &e->root, limits, &res, NULL, NULL);
	if (rc < 0) {
		char what[100];
		snprintf(what, sizeof(what), "the search of %s failed", e->id);
		cli_fail("epd", what, rc, log);
		return CLI_EXIT_FAIL;
	}
	memset(out, 0, sizeof(*out));
	out->move = res.best_move;
	if (cutoff_chess_san(chess, &e->root, res.best_move, out->san, sizeof(out->san)) < 0)
		snprintf(out->san, sizeof(out->san), "-");
	out->solved = solves(e, res.best_move);
	out->depth = res.depth;
	out->value = res.value;
	out->scored = res.iterations > 0 && res.bound != CUTOFF_BOUND_NONE;
	out->nodes = res.counters.nodes;
	out->seldepth = res.counters.seldepth;
	out->time_s = res.time_s;
	out->solved_depth = -1;
	out->solved_time_s = -1;
	/* When the answer solves it: from which iteration on it kept solving. */
	for (int i = res.iterations - 1; out->solved && i >= 0; i--) {
		if (!solves(e, res.iteration[i].best_move))
			break;
		out->solved_depth = res.iteration[i].depth;
		out->solved_time_s = res.iteration[i].time_s;
	}
	pv_text(chess, &e->root, res.pv, res.pv_length, out->pv, sizeof(out->pv));
	return CLI_EXIT_OK;
}

/* ---- reports ---- */

typedef struct epd_run {
	const char *file;
	const char *algo; /* label */
	const cutoff_config_t *par;
	cutoff_driver_t driver;
	int64_t movetime_ms, depth, hash_mb, aspiration;
	unsigned pruning;
	const epd_suite_t *suite;
	const epd_outcome_t *out; /* suite->n of them */
	int solved;
	uint64_t nodes;
	double time_s;
} epd_run_t;

static const char *pruning_text(unsigned bits)
{
	switch (bits & CUTOFF_PRUNE_ALL) {
	case CUTOFF_PRUNE_NULL_MOVE:
		return "null";
	case CUTOFF_PRUNE_LMR:
		return "lmr";
	case CUTOFF_PRUNE_ALL:
		return "null,lmr";
	default:
		return "off";
	}
}

static void print_header(const epd_run_t *run)
{
	char q[CLI_QUOTE_SIZE];
	cli_field(stdout, "file", "%s (%d positions)", cli_quote(q, sizeof(q), run->file),
	          run->suite->n);
	cli_field(stdout, "engine",
	          "%s, %d thread%s, table %" PRId64 " MiB, pruning %s, aspiration %" PRId64,
	          run->algo, run->par->threads, run->par->threads == 1 ? "" : "s", run->hash_mb,
	          pruning_text(run->pruning), run->aspiration);
	if (run->depth > 0)
		cli_field(stdout, "limit", "depth %" PRId64 " a position", run->depth);
	else
		cli_field(stdout, "limit", "%" PRId64 " ms a position", run->movetime_ms);
	printf("\n%5s  %-12s %-16s %-8s %-4s %5s %-9s %12s %8s\n", "#", "id", "expected", "move",
	       "ok", "depth", "score", "nodes", "time");
}

static void print_line(int i, const epd_entry_t *e, const epd_outcome_t *r)
{
	char score[24];
	score_text(r, score, sizeof(score));
	printf("%5d  %-12s %-16s %-8s %-4s %5d %-9s %12" PRIu64 " %8.3f\n", i + 1, e->id, e->expect,
	       r->san, r->solved ? "yes" : "no", r->depth, score, r->nodes, r->time_s);
	fflush(stdout);
}

static void print_totals(const epd_run_t *run)
{
	int n = run->suite->n;
	printf("\n");
	cli_field(stdout, "solved", "%d of %d (%.1f %%)", run->solved, n,
	          n ? 100.0 * run->solved / n : 0.0);
	cli_field(stdout, "nodes", "%" PRIu64, run->nodes);
	cli_field(stdout, "time", "%.3f s", run->time_s);
	cli_field(stdout, "nodes per second", "%.0f", cli_per_second(run->nodes, run->time_s));
	if (run->solved < n) {
		fprintf(stdout, "%-22s", "not solved");
		int shown = 0;
		for (int i = 0; i < n; i++) {
			if (run->out[i].solved)
				continue;
			if (shown && shown % 6 == 0)
				fprintf(stdout, "\n%-22s", "");
			fprintf(stdout, "%s%s", shown % 6 ? " " : "", run->suite->entry[i].id);
			shown++;
		}
		fputc('\n', stdout);
	}
	if (run->suite->bad)
		cli_field(stdout, "malformed lines", "%d, skipped (see the messages on stderr)",
		          run->suite->bad);
}

/* The moves of a bm or am list in SAN, as a JSON array. */
static void json_moves(json_writer_t *w, const char *key, const cutoff_chess_t *chess,
                       const epd_entry_t *e, const cutoff_move_t *moves, int n)
{
	char san[CUTOFF_CHESS_SAN_SIZE];
	jw_begin_array(w, key);
	for (int k = 0; k < n; k++) {
		cutoff_chess_san(chess, &e->root, moves[k], san, sizeof(san));
		jw_string(w, NULL, san);
	}
	jw_end(w);
}

/* "score_cp" and "mate": one of them a number, or both null before any iteration. */
static void json_score(json_writer_t *w, const epd_outcome_t *r)
{
	if (r->scored && r->value >= CUTOFF_WIN_MIN) {
		jw_null(w, "score_cp");
		jw_int(w, "mate", (CUTOFF_WIN - r->value + 1) / 2);
	} else if (r->scored && r->value <= -CUTOFF_WIN_MIN) {
		jw_null(w, "score_cp");
		jw_int(w, "mate", -((CUTOFF_WIN + r->value + 1) / 2));
	} else if (r->scored) {
		jw_int(w, "score_cp", r->value);
		jw_null(w, "mate");
	} else {
		jw_null(w, "score_cp");
		jw_null(w, "mate");
	}
}

/* One position of the suite and what the engine did with it. */
static void json_position(json_writer_t *w, const cutoff_chess_t *chess, const epd_entry_t *e,
                          const epd_outcome_t *r)
{
	char uci[CUTOFF_CHESS_MOVE_SIZE];
	jw_begin_object(w, NULL);
	jw_int(w, "line", e->line);
	jw_string(w, "id", e->id);
	jw_string(w, "fen", e->fen);
	json_moves(w, "bm", chess, e, e->bm, e->nbm);
	json_moves(w, "am", chess, e, e->am, e->nam);
	if (cutoff_chess_move_str(r->move, uci, sizeof(uci)) < 0) {
		jw_null(w, "move");
		jw_null(w, "move_uci");
	} else {
		jw_string(w, "move", r->san);
		jw_string(w, "move_uci", uci);
	}
	jw_bool(w, "solved", r->solved);
	jw_int(w, "depth", r->depth);
	jw_uint(w, "seldepth", r->seldepth);
	json_score(w, r);
	if (r->solved_depth >= 0) {
		jw_int(w, "solved_depth", r->solved_depth);
		jw_double(w, "solved_time_s", r->solved_time_s);
	} else {
		jw_null(w, "solved_depth");
		jw_null(w, "solved_time_s");
	}
	jw_uint(w, "nodes", r->nodes);
	jw_double(w, "time_s", r->time_s);
	jw_string(w, "pv", r->pv);
	jw_end(w);
}

static int print_json(const epd_run_t *run, const cutoff_chess_t *chess)
{
	json_writer_t w;
	jw_init(&w, stdout);
	jw_begin_object(&w, NULL);
	jw_string(&w, "file", run->file);
	jw_string(&w, "algo", run->algo);
	jw_string(&w, "driver", cli_driver_name(run->driver));
	jw_int(&w, "threads", run->par->threads);
	cli_json_driver_options(&w, "driver_options", run->par);
	jw_int(&w, "hash_mb", run->hash_mb);
	jw_string(&w, "pruning", pruning_text(run->pruning));
	jw_int(&w, "aspiration", run->aspiration);
	if (run->depth > 0) {
		jw_null(&w, "movetime_ms");
		jw_int(&w, "depth_limit", run->depth);
	} else {
		jw_int(&w, "movetime_ms", run->movetime_ms);
		jw_null(&w, "depth_limit");
	}
	jw_begin_array(&w, "positions");
	for (int i = 0; i < run->suite->n; i++)
		json_position(&w, chess, &run->suite->entry[i], &run->out[i]);
	jw_end(&w);
	jw_int(&w, "total", run->suite->n);
	jw_int(&w, "solved", run->solved);
	jw_int(&w, "malformed_lines", run->suite->bad);
	jw_uint(&w, "nodes", run->nodes);
	jw_double(&w, "time_s", run->time_s);
	jw_double(&w, "nps", cli_per_second(run->nodes, run->time_s));
	jw_end(&w);
	return cli_json_finish(&w, "epd");
}

/* ---- the command ---- */

/* The command line, read. */
typedef struct epd_args {
	const cli_game_defaults_t *defaults; /* chess's epd row of kit/games.c */
	const char *file, *algo_text, *pruning_text;
	int64_t movetime, depth, hash_mb, limit, aspiration;
	bool json;
	cutoff_config_t par; /* the engine template: threads, placement, the drivers' options */
	cutoff_driver_t driver;
	cutoff_algo_t algo;
	unsigned pruning;
} epd_args_t;

/* Reads the command line into *a: CLI_PARSED to go on, or as cli_parse (after one line on
 * stderr for a usage error). */
static cli_status_t parse_options(int argc, char **argv, epd_args_t *a)
{
	char algo_help[1024], pruning_help[384], forms[256], bits[64];
	snprintf(algo_help, sizeof(algo_help), "%s; default %%d",
	         cli_algo_forms(a->defaults->algo, forms, sizeof(forms)));
	snprintf(pruning_help, sizeof(pruning_help),
	         "speculative pruning (null: null move, lmr: late move reductions): %s; default "
	         "%s",
	         cli_pruning_forms(forms, sizeof(forms)),
	         cli_pruning_text(a->defaults->pruning, bits, sizeof(bits)));
	cli_opt_t opts[] = {
		CLI_STRING_OPT("file", &a->file, "FILE", "the EPD file (required)"),
		CLI_INT_OPT("movetime", &a->movetime, 1, 86400000, "MS",
		            "search each position for MS milliseconds, %r (the default, %d, when "
		            "--depth is not given)"),
		CLI_INT_OPT("depth", &a->depth, 1, CUTOFF_MAX_PLY - 1, "D",
		            "search each position to depth D, %r, without a time limit"),
		CLI_STRING_OPT("algo", &a->algo_text, "ALGO", algo_help),
		CLI_INT_OPT("hash", &a->hash_mb, 0, 65536, "MB",
		            "transposition table in MiB, %r; default %d"),
		CLI_STRING_OPT("pruning", &a->pruning_text, "P", pruning_help),
		CLI_INT_OPT("aspiration", &a->aspiration, 0, 1000, "CP",
		            "aspiration window half-width in centipawns, %r (0: off); default %d"),
		CLI_INT_OPT("limit", &a->limit, 1, 1000000, "K",
		            "search only the first K positions of the file, %r"),
		CLI_ENGINE_OPTS(&a->par),
		CLI_FLAG_OPT(
			"json", &a->json,
			"print one JSON object instead of the text report (and, when stderr is "
			"a terminal, one progress line per position there)"),
	};
	const int nopts = (int)(sizeof(opts) / sizeof(opts[0]));

	cutoff_config_default(&a->par);
	cli_status_t st = cli_parse("epd", epd_usage, opts, nopts, argc, argv);
	if (st != CLI_PARSED)
		return st;
	if (!a->file) {
		cli_error("epd", "--file is required (an EPD file such as wac.epd)");
		return CLI_BAD;
	}
	if (cli_given(opts, nopts, "movetime") && cli_given(opts, nopts, "depth")) {
		cli_error("epd", "--movetime and --depth: give one of them, not both");
		return CLI_BAD;
	}
	a->pruning = a->defaults->pruning;
	if (!cli_parse_algo("epd", a->algo_text, a->defaults->algo, &a->driver, &a->algo) ||
	    (a->pruning_text && !cli_parse_pruning("epd", a->pruning_text, &a->pruning)))
		return CLI_BAD;
	return CLI_PARSED;
}

/* Reads the suite; a file without a position to search fails. */
static int load_suite(const cutoff_chess_t *chess, const epd_args_t *a, epd_suite_t *suite)
{
	int status = read_suite(chess, a->file, a->limit, suite);
	if (status == CLI_EXIT_OK && suite->n == 0) {
		char q[CLI_QUOTE_SIZE];
		cli_error("epd", "%s has no position to search%s", cli_quote(q, sizeof(q), a->file),
		          suite->bad ? " (every one is malformed)" : "");
		status = CLI_EXIT_FAIL;
	}
	return status;
}

static cutoff_engine_t *make_engine(const epd_args_t *a, const cutoff_chess_t *chess,
                                    cli_log_t *log)
{
	cutoff_config_t cfg;
	cli_engine_config(&cfg, &a->par, a->driver, a->algo, a->hash_mb, log);
	cfg.ordering = a->defaults->ordering;
	cfg.pruning = a->pruning;
	cfg.extensions = a->defaults->extensions;
	cfg.tt_cutoffs = a->defaults->tt_cutoffs;
	cfg.etc_min_depth = a->defaults->etc_min_depth;
	cfg.aspiration = (int32_t)a->aspiration;
	return cli_engine_new("epd", cutoff_chess_game(chess), &cfg, log);
}

/* Searches every position in turn, printing each line of the text report (or a progress
 * line on a terminal's stderr with --json) as it comes, then the totals. */
static int search_suite(const epd_args_t *a, const cutoff_chess_t *chess, cutoff_engine_t *engine,
                        const epd_suite_t *suite, epd_outcome_t *out, cli_log_t *log)
{
	cutoff_limits_t limits;
	cutoff_limits_default(&limits);
	limits.iterate = a->defaults->iterate;
	if (a->depth > 0) {
		limits.depth = (int)a->depth;
	} else {
		limits.depth = CUTOFF_MAX_PLY - 1;
		limits.time_ms = (uint64_t)a->movetime;
	}
	char label[CLI_ALGO_LABEL_SIZE];
	epd_run_t run = {
		.file = a->file,
		.algo = cli_algo_label(a->driver, a->algo, label, sizeof(label)),
		.par = &a->par,
		.driver = a->driver,
		.movetime_ms = a->movetime,
		.depth = a->depth,
		.hash_mb = a->hash_mb,
		.aspiration = a->aspiration,
		.pruning = a->pruning,
		.suite = suite,
		.out = out,
	};
	bool progress = a->json && isatty(STDERR_FILENO);
	if (!a->json)
		print_header(&run);
	for (int i = 0; i < suite->n; i++) {
		const epd_entry_t *e = &suite->entry[i];
		int status = search_one(chess, engine, &limits, e, i == 0, &out[i], log);
		if (status != CLI_EXIT_OK)
			return status;
		run.solved += out[i].solved;
		run.nodes += out[i].nodes;
		run.time_s += out[i].time_s;
		if (!a->json)
			print_line(i, e, &out[i]);
		if (progress)
			fprintf(stderr, "cutoff epd: %d/%d %s %s (%d solved so far)\n", i + 1,
			        suite->n, e->id, out[i].solved ? "solved" : "not solved",
			        run.solved);
	}
	if (a->json)
		return print_json(&run, chess);
	print_totals(&run);
	return CLI_EXIT_OK;
}

/* Makes the engine and searches the suite with it. */
static int run_suite(const epd_args_t *a, const cutoff_chess_t *chess, const epd_suite_t *suite)
{
	epd_outcome_t *out = calloc((size_t)suite->n, sizeof(*out));
	if (!out) {
		cli_error("epd", "out of memory");
		return CLI_EXIT_FAIL;
	}
	cli_log_t log = { "" };
	cutoff_engine_t *engine = make_engine(a, chess, &log);
	int status = engine ? search_suite(a, chess, engine, suite, out, &log) : CLI_EXIT_FAIL;
	cutoff_engine_free(engine);
	free(out);
	return status;
}

int cli_epd(int argc, char **argv)
{
	const cli_game_defaults_t *d = cli_game_defaults(CLI_GAME_CHESS, CLI_USE_EPD);
	epd_args_t a = {
		.defaults = d,
		.algo_text = cli_algo_names[d->algo],
		.movetime = (int64_t)d->time_ms,
		.hash_mb = (int64_t)d->tt_mb,
	};
	cli_status_t st = parse_options(argc, argv, &a);
	if (st != CLI_PARSED)
		return cli_parse_exit(st);

	int err;
	cutoff_chess_t *chess = cutoff_chess_new(&err);
	if (!chess) {
		cli_fail("epd", "cannot make the chess tables", err, NULL);
		return CLI_EXIT_FAIL;
	}
	epd_suite_t suite = { 0 };
	int status = load_suite(chess, &a, &suite);
	if (status == CLI_EXIT_OK)
		status = run_suite(&a, chess, &suite);
	/* Malformed lines were skipped, the rest searched; the command still fails. */
	if (status == CLI_EXIT_OK && suite.bad)
		status = CLI_EXIT_FAIL;
	free(suite.entry);
	cutoff_chess_free(chess);
	return status;
}
