/* SPDX-License-Identifier: MIT */
/*
 * cmd_solve.c — `cutoff solve`: exact Connect Four scores (cutoff_connect4_solve), of one
 * position (--moves) or of every line of a test-set file (--file), checked against the
 * file's scores. The file mode is the correctness check of every driver at every thread
 * count (each score must match; any mismatch makes the command fail) and the benchmark of
 * docs/connect4.md (mean time and nodes per position).
 *
 * A file is read and checked whole before the first search, so that a bad line is
 * reported at once. By default the table is cleared before each position of a file (as
 * Pons did when he measured his solver), so that the figures of one position do not
 * depend on the ones before it; --no-clear keeps it. The time of a position is the wall
 * time of cutoff_connect4_solve (its searches), not of the clearing.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cutoff.h"
#include "cutoff_games.h"
#include "kit/args.h"
#include "kit/games.h"
#include "kit/json.h"
#include "kit/ranks.h"
#include "kit/report.h"

/* clang-format off */
static const char solve_usage[] =
	"usage: cutoff solve --game connect4 --moves MOVES [options]\n"
	"       cutoff solve --game connect4 --file PATH [--limit K] [options]\n"
	"\n"
	"Solves Connect Four positions exactly: the score of the side to move in Pascal\n"
	"Pons' convention (22 - k for a win with the winner's k-th stone, k - 22 for a loss\n"
	"to the opponent's k-th stone, 0 for a draw), the best move (columns 1..7) and the\n"
	"nodes searched, by null-window searches over the shared table.\n";
/* clang-format on */

static const char *const game_names[] = { "connect4", NULL };
static const char *const method_names[] = { "mtdf", "bisect", NULL };

_Static_assert(CUTOFF_CONNECT4_MTDF == 0 && CUTOFF_CONNECT4_BISECT == 1,
               "method_names is indexed by cutoff_connect4_method_t");

enum {
	SOLVE_MAX_MISMATCH_LINES = 10 /* mismatches printed one by one, then only counted */
};

typedef struct solve_args {
	int game;
	const cli_game_defaults_t *defaults; /* the game's solve row of kit/games.c */
	const char *moves;
	const char *file;
	int64_t limit;
	bool weak;
	int method;
	cutoff_driver_t driver;
	cutoff_algo_t algo;
	int64_t hash_mb;
	unsigned ordering;
	int64_t etc_min_depth;
	bool no_clear;
	bool progress;
	bool each;
	bool json;
	cutoff_config_t par; /* the engine template: threads, placement, the drivers' options */
	cli_cluster_opts_t copts;
	bool cluster;      /* --algo cluster */
	cli_cluster_t *cc; /* --algo cluster, under mpirun: every rank solves in step */
} solve_args_t;

/* One line of a test set. */
typedef struct solve_line {
	cutoff_connect4_state_t state;
	char *moves; /* points into the file's text */
	int score;
	int line; /* 1-based line number in the file */
} solve_line_t;

static int sign(int v) { return (v > 0) - (v < 0); }

static cutoff_engine_t *make_engine(const solve_args_t *a, cli_log_t *log)
{
	cutoff_config_t cfg;
	cli_engine_config(&cfg, &a->par, a->driver, a->algo, a->hash_mb, log);
	cfg.ordering = a->ordering;
	cfg.pruning = a->defaults->pruning;
	cfg.extensions = a->defaults->extensions;
	cfg.tt_cutoffs = a->defaults->tt_cutoffs;
	cfg.etc_min_depth = (int)a->etc_min_depth;
	if (a->cc)
		cli_cluster_configure(a->cc, &cfg);
	cutoff_engine_t *e = cli_engine_new("solve", cutoff_connect4_game(), &cfg, log);
	if (!e) {
		if (a->cc) /* the other ranks would wait for this one */
			cli_cluster_abort(a->cc, CLI_EXIT_FAIL);
	}
	return e;
}

/* What a score means, in words. */
static void score_words(int score, bool weak, char *buf, size_t size)
{
	if (weak)
		snprintf(buf, size, "%s", score > 0 ? "win" : score < 0 ? "loss" : "draw");
	else if (score > 0)
		snprintf(buf, size, "the side to move wins with its stone number %d", 22 - score);
	else if (score < 0)
		snprintf(buf, size, "the opponent wins with its stone number %d", score + 22);
	else
		snprintf(buf, size, "a draw");
}

static void json_settings(json_writer_t *w, const solve_args_t *a)
{
	char label[CLI_ALGO_LABEL_SIZE];
	jw_string(w, "game", game_names[a->game]);
	jw_bool(w, "weak", a->weak);
	jw_string(w, "method", method_names[a->method]);
	jw_string(w, "algo", cli_algo_label(a->driver, a->algo, label, sizeof(label)));
	cli_json_parallel(w, a->driver, &a->par);
	jw_int(w, "hash_mb", a->hash_mb);
	jw_uint(w, "ordering", a->ordering);
	jw_int(w, "etc_min_depth", a->etc_min_depth);
}

static void text_settings(const solve_args_t *a)
{
	char label[CLI_ALGO_LABEL_SIZE];
	cli_field(stdout, "method", "%s%s", method_names[a->method],
	          a->weak ? ", weak (win, draw or loss)" : "");
	cli_field(stdout, "algorithm", "%s, table %" PRId64 " MiB, ordering 0x%x",
	          cli_algo_label(a->driver, a->algo, label, sizeof(label)), a->hash_mb,
	          a->ordering);
	if (a->cc) {
		char text[128];
		cli_field(stdout, "cluster", "%s", cli_cluster_text(a->cc, text, sizeof(text)));
	}
	cli_print_parallel(stdout, a->driver, &a->par);
}

/* ---- one position (--moves) ---- */

static int print_one_json(const solve_args_t *a, const cutoff_connect4_state_t *st,
                          const cutoff_connect4_solution_t *s)
{
	json_writer_t w;
	jw_init(&w, stdout);
	jw_begin_object(&w, NULL);
	jw_string(&w, "moves", a->moves);
	jw_int(&w, "stones", st->stones);
	jw_string(&w, "to_move", st->stones % 2 ? "second" : "first");
	jw_int(&w, "score", s->score);
	if (s->best_column >= 0)
		jw_int(&w, "best_column", s->best_column + 1);
	else
		jw_null(&w, "best_column");
	jw_bool(&w, "known", s->known);
	jw_int(&w, "searches", s->searches);
	jw_uint(&w, "nodes", s->nodes);
	jw_uint(&w, "etc_probes", s->etc_probes);
	jw_double(&w, "time_s", s->time_s);
	jw_double(&w, "nps", cli_per_second(s->nodes, s->time_s));
	json_settings(&w, a);
	jw_end(&w);
	return cli_json_finish(&w, "solve");
}

static void print_one_text(const solve_args_t *a, const cutoff_connect4_state_t *st,
                           const cutoff_connect4_solution_t *s)
{
	char q[CLI_QUOTE_SIZE], words[80];
	score_words(s->score, a->weak, words, sizeof(words));
	cli_field(stdout, "position", "%s (%d stones, the %s player to move)",
	          cli_quote(q, sizeof(q), a->moves), st->stones,
	          st->stones % 2 ? "second" : "first");
	cli_field(stdout, "score", "%d (%s)%s", s->score, words,
	          s->known ? ", known without a search" : "");
	if (s->best_column >= 0)
		cli_field(stdout, "best move", "column %d", s->best_column + 1);
	else
		cli_field(stdout, "best move", "none: the game is over");
	text_settings(a);
	cli_field(stdout, "searches", "%d", s->searches);
	cli_field(stdout, "nodes", "%" PRIu64, s->nodes);
	cli_field(stdout, "etc probes", "%" PRIu64 " (children looked up, not visited)",
	          s->etc_probes);
	cli_field(stdout, "time", "%.6f s", s->time_s);
	cli_field(stdout, "nodes per second", "%.0f", cli_per_second(s->nodes, s->time_s));
}

/* --moves: one position. */
static int solve_one(const solve_args_t *a)
{
	char q[CLI_QUOTE_SIZE], why[160];
	cutoff_connect4_state_t st;
	if (cutoff_connect4_parse(a->moves, &st, why, sizeof(why)) < 0) {
		cli_error("solve", "--moves %s: %s", cli_quote(q, sizeof(q), a->moves), why);
		return CLI_EXIT_USAGE;
	}
	cli_log_t log = { "" };
	cutoff_engine_t *e = make_engine(a, &log);
	if (!e)
		return CLI_EXIT_FAIL;
	cutoff_connect4_solution_t s;
	int rc = cutoff_connect4_solve_with(e, &st, a->weak, a->method,
	                                    a->cc ? cli_cluster_search_by : NULL, a->cc, &s);
	cutoff_engine_free(e);
	if (rc < 0 || s.stopped) {
		cli_fail("solve", "the search failed", rc < 0 ? rc : CUTOFF_EBUSY, &log);
		return CLI_EXIT_FAIL;
	}
	if (a->json)
		return print_one_json(a, &st, &s);
	print_one_text(a, &st, &s);
	return CLI_EXIT_OK;
}

/* ---- a test set (--file) ---- */

/* Reads the whole file into a NUL-terminated *text of *len bytes. CLI_EXIT_OK, or an exit
 * status after one line on stderr. */
static int read_text(const solve_args_t *a, char **text, size_t *len)
{
	char q[CLI_QUOTE_SIZE];
	FILE *f = cli_open_input("solve", "file", a->file);
	if (!f)
		return CLI_EXIT_USAGE;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		if (n + 1 >= cap) {
			char *bigger = realloc(buf, cap * 2);
			if (!bigger) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = bigger;
			cap *= 2;
		}
		size_t got = fread(&buf[n], 1, cap - 1 - n, f);
		if (got == 0)
			break;
		n += got;
	}
	if (!cli_close_input("solve", "file", a->file, f)) {
		free(buf);
		return CLI_EXIT_USAGE;
	}
	if (!buf) {
		cli_error("solve", "--file %s: out of memory", cli_quote(q, sizeof(q), a->file));
		return CLI_EXIT_FAIL;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return CLI_EXIT_OK;
}

/* One line '<moves> <score>' (p, NUL-terminated, its moves cut off in place) into *out;
 * false after one line on stderr. */
static bool parse_line(const solve_args_t *a, char *p, int lineno, solve_line_t *out)
{
	char q[CLI_QUOTE_SIZE], q2[CLI_QUOTE_SIZE], why[160];
	char *space = strchr(p, ' ');
	int64_t score;
	if (!space || !cli_int_value(space + 1, -CUTOFF_CONNECT4_CELLS / 2,
	                             CUTOFF_CONNECT4_CELLS / 2, &score)) {
		cli_error("solve", "--file %s: line %d: expected '<moves> <score>', got %s",
		          cli_quote(q, sizeof(q), a->file), lineno, cli_quote(q2, sizeof(q2), p));
		return false;
	}
	*space = '\0';
	if (cutoff_connect4_parse(p, &out->state, why, sizeof(why)) < 0) {
		cli_error("solve", "--file %s: line %d: %s", cli_quote(q, sizeof(q), a->file),
		          lineno, why);
		return false;
	}
	out->moves = p;
	out->score = (int)score;
	out->line = lineno;
	return true;
}

/* Splits text (len bytes) into the lines of out[] (room for every line), at most `limit`
 * positions, blank lines skipped. The count, or -1 after one line on stderr. */
static int64_t split_lines(const solve_args_t *a, char *text, solve_line_t *out)
{
	int64_t n = 0;
	int lineno = 0;
	for (char *p = text; *p && n < a->limit;) {
		char *end = strchr(p, '\n');
		char *next = end ? end + 1 : p + strlen(p);
		if (end)
			*end = '\0';
		lineno++;
		size_t l = strlen(p);
		if (l > 0 && p[l - 1] == '\r')
			p[--l] = '\0';
		if (l > 0 && !parse_line(a, p, lineno, &out[n++]))
			return -1;
		p = next;
	}
	return n;
}

/* Reads the whole file into *text and splits it into lines (at most `limit` positions).
 * CLI_EXIT_OK, or an exit status after one line on stderr. */
static int read_file(const solve_args_t *a, char **text, solve_line_t **lines, int64_t *count)
{
	char q[CLI_QUOTE_SIZE], *buf;
	size_t len;
	int status = read_text(a, &buf, &len);
	if (status != CLI_EXIT_OK)
		return status;
	size_t nlines = 1;
	for (size_t i = 0; i < len; i++)
		nlines += buf[i] == '\n';
	solve_line_t *out = calloc(nlines, sizeof(*out));
	if (!out) {
		free(buf);
		cli_error("solve", "out of memory");
		return CLI_EXIT_FAIL;
	}
	int64_t n = split_lines(a, buf, out);
	if (n == 0)
		cli_error("solve", "--file %s: no position in it",
		          cli_quote(q, sizeof(q), a->file));
	if (n <= 0) {
		free(out);
		free(buf);
		return CLI_EXIT_USAGE;
	}
	*text = buf;
	*lines = out;
	*count = n;
	return CLI_EXIT_OK;
}

typedef struct solve_totals {
	int64_t positions, mismatches, known;
	double time_s, time_max_s, wall_s;
	uint64_t nodes, nodes_max, searches, etc_probes;
} solve_totals_t;

static void show_progress(const solve_totals_t *t, int64_t count, bool tty, bool last)
{
	fprintf(stderr,
	        "%scutoff solve: %" PRId64 "/%" PRId64
	        " positions, mean %.4f s, %.0f nodes, %" PRId64 " mismatches%s",
	        tty ? "\r" : "", t->positions, count, t->time_s / (double)t->positions,
	        (double)t->nodes / (double)t->positions, t->mismatches, tty && !last ? "" : "\n");
	fflush(stderr);
}

/* Adds one position's solution to the totals. */
static void add_solution(solve_totals_t *t, const cutoff_connect4_solution_t *s)
{
	t->positions++;
	t->known += s->known;
	t->time_s += s->time_s;
	t->time_max_s = s->time_s > t->time_max_s ? s->time_s : t->time_max_s;
	t->nodes += s->nodes;
	t->etc_probes += s->etc_probes;
	t->nodes_max = s->nodes > t->nodes_max ? s->nodes : t->nodes_max;
	t->searches += (uint64_t)s->searches;
}

/* Solves every line of the file in turn, counting the scores that differ from the file's
 * (the first few named on stderr), with a progress line on stderr when asked. */
static int solve_lines(const solve_args_t *a, cutoff_engine_t *e, const solve_line_t *lines,
                       int64_t count, solve_totals_t *t, cli_log_t *log)
{
	char q[CLI_QUOTE_SIZE];
	bool tty = isatty(STDERR_FILENO);
	bool progress = (a->progress || tty) && cli_cluster_rank(a->cc) == 0; /* rank 0 speaks */
	double t0 = cli_now_s(), shown = t0;
	for (int64_t i = 0; i < count; i++) {
		const solve_line_t *l = &lines[i];
		int rc = a->no_clear ? CUTOFF_OK : cutoff_engine_clear(e);
		cutoff_connect4_solution_t s = { 0 };
		if (rc == CUTOFF_OK)
			rc = cutoff_connect4_solve_with(e, &l->state, a->weak, a->method,
			                                a->cc ? cli_cluster_search_by : NULL, a->cc,
			                                &s);
		if (rc < 0 || s.stopped) {
			if (progress && tty && t->positions > 0)
				fputc('\n', stderr);
			cli_fail("solve", "the search failed", rc < 0 ? rc : CUTOFF_EBUSY, log);
			return CLI_EXIT_FAIL;
		}
		int expected = a->weak ? sign(l->score) : l->score;
		add_solution(t, &s);
		if (a->each && cli_cluster_rank(a->cc) == 0) {
			if (progress && tty)
				fputc('\n', stderr);
			printf("%s %d %" PRIu64 " %.0f %" PRIu64 "\n", l->moves, s.score, s.nodes,
			       s.time_s * 1e6, s.etc_probes);
			fflush(stdout);
		}
		if (s.score != expected) {
			if (t->mismatches < SOLVE_MAX_MISMATCH_LINES) {
				if (progress && tty)
					fputc('\n', stderr);
				cli_error("solve", "%s line %d: %s: score %d, the file says %d",
				          cli_quote(q, sizeof(q), a->file), l->line, l->moves,
				          s.score, expected);
			}
			t->mismatches++;
		}
		double now = cli_now_s();
		if (progress && (now - shown >= 0.5 || i + 1 == count) && (now - t0 >= 0.5)) {
			show_progress(t, count, tty, i + 1 == count);
			shown = now;
		}
	}
	return CLI_EXIT_OK;
}

static int print_file_json(const solve_args_t *a, const solve_totals_t *t)
{
	double n = (double)t->positions;
	json_writer_t w;
	jw_init(&w, stdout);
	jw_begin_object(&w, NULL);
	jw_string(&w, "file", a->file);
	jw_int(&w, "positions", t->positions);
	jw_int(&w, "mismatches", t->mismatches);
	jw_int(&w, "known", t->known);
	jw_bool(&w, "cleared", !a->no_clear);
	jw_double(&w, "time_mean_s", t->time_s / n);
	jw_double(&w, "time_max_s", t->time_max_s);
	jw_double(&w, "time_total_s", t->time_s);
	jw_double(&w, "wall_s", t->wall_s);
	jw_double(&w, "nodes_mean", (double)t->nodes / n);
	jw_uint(&w, "nodes_max", t->nodes_max);
	jw_double(&w, "etc_probes_mean", (double)t->etc_probes / n);
	jw_double(&w, "searches_mean", (double)t->searches / n);
	jw_double(&w, "nps", cli_per_second(t->nodes, t->time_s));
	json_settings(&w, a);
	jw_end(&w);
	return cli_json_finish(&w, "solve");
}

static void print_file_text(const solve_args_t *a, const solve_totals_t *t)
{
	char q[CLI_QUOTE_SIZE];
	double n = (double)t->positions;
	cli_field(stdout, "file", "%s", cli_quote(q, sizeof(q), a->file));
	cli_field(stdout, "positions", "%" PRId64 "%s", t->positions,
	          a->no_clear ? ", table kept between positions"
	                      : ", table cleared before each (not timed)");
	text_settings(a);
	cli_field(stdout, "mismatches", "%" PRId64, t->mismatches);
	cli_field(stdout, "time", "mean %.6f s, max %.6f s, total %.3f s (wall %.3f s)",
	          t->time_s / n, t->time_max_s, t->time_s, t->wall_s);
	cli_field(stdout, "nodes", "mean %.1f, max %" PRIu64, (double)t->nodes / n, t->nodes_max);
	cli_field(stdout, "etc probes", "mean %.1f (children looked up, not visited)",
	          (double)t->etc_probes / n);
	cli_field(stdout, "searches", "mean %.2f per position", (double)t->searches / n);
	cli_field(stdout, "nodes per second", "%.0f", cli_per_second(t->nodes, t->time_s));
}

/* --file: every position of a test set, checked against the file's scores. */
static int solve_file(const solve_args_t *a)
{
	char *text = NULL;
	solve_line_t *lines = NULL;
	int64_t count = 0;
	int status = read_file(a, &text, &lines, &count);
	if (status != CLI_EXIT_OK)
		return status;
	cli_log_t log = { "" };
	cutoff_engine_t *e = make_engine(a, &log);
	solve_totals_t t = { 0 };
	status = CLI_EXIT_FAIL;
	if (e) {
		double t0 = cli_now_s();
		status = solve_lines(a, e, lines, count, &t, &log);
		t.wall_s = cli_now_s() - t0;
		cutoff_engine_free(e);
	}
	free(lines);
	free(text);
	if (status != CLI_EXIT_OK)
		return status;
	if (a->json)
		status = print_file_json(a, &t);
	else
		print_file_text(a, &t);
	if (status == CLI_EXIT_OK && t.mismatches > 0) {
		cli_error("solve", "%" PRId64 " of %" PRId64 " scores differ from the file's",
		          t.mismatches, t.positions);
		status = CLI_EXIT_FAIL;
	}
	return status;
}

/* ---- the command ---- */

/* The options that exclude or need each other; false after one line on stderr. */
static bool options_fit(const solve_args_t *a, const cli_opt_t *opts, int nopts)
{
	if (!a->moves == !a->file) {
		cli_error("solve",
		          a->moves ? "--moves and --file exclude each other: give one"
		                   : "a position is needed: give --moves MOVES or --file PATH");
		return false;
	}
	const char *file_only = cli_given(opts, nopts, "limit")      ? "--limit"
	                        : cli_given(opts, nopts, "no-clear") ? "--no-clear"
	                        : cli_given(opts, nopts, "progress") ? "--progress"
	                        : cli_given(opts, nopts, "each")     ? "--each"
	                                                             : NULL;
	if (a->moves && file_only) {
		cli_error("solve", "%s goes with --file, not --moves", file_only);
		return false;
	}
	if (!cli_check_etc_min_depth("solve", a->etc_min_depth))
		return false;
	if (a->each && a->json) {
		cli_error("solve", "--each and --json exclude each other: give one");
		return false;
	}
	return true;
}

/* --help's texts that read the solve row of the games' table (kit/games.c). */
typedef struct solve_help {
	char algo[1024], ordering[512];
} solve_help_t;

static void solve_help(const solve_args_t *a, solve_help_t *h)
{
	char forms[256], bits[64];
	snprintf(h->algo, sizeof(h->algo),
	         "how each search runs: %s" CLI_CLUSTER_ALGO_HELP
	         ". Default %%d (on a null window, as every search of the strong solve "
	         "has, the same search as pvs). Minimax does not prune: only for tiny positions",
	         cli_algo_forms(a->defaults->algo, forms, sizeof(forms)));
	snprintf(h->ordering, sizeof(h->ordering),
	         "the engine's move ordering: %s (none: centre first); default %s (the table's "
	         "move, then the moves that make the most threats, centre first; killers and "
	         "history only undo the centre-first tie-break)",
	         cli_ordering_forms(forms, sizeof(forms)),
	         cli_ordering_text(a->defaults->ordering, bits, sizeof(bits)));
}

/* Reads the command line into *a: CLI_PARSED to go on, or as cli_parse (after one line on
 * stderr for a usage error). */
static cli_status_t parse_options(int argc, char **argv, solve_args_t *a)
{
	/* The row's algorithm (MTD(f)), also under a driver named alone. */
	const char *algo_text = cli_algo_names[a->defaults->algo];
	const char *ordering_text = NULL;
	solve_help_t h;
	solve_help(a, &h);
	cli_opt_t opts[] = {
		CLI_CHOICE_OPT("game", &a->game, game_names, "the game; default %d"),
		CLI_STRING_OPT("moves", &a->moves, "MOVES",
		               "the columns played from the empty board, one digit 1..7 per move "
		               "(\"4453\"); \"\" is the empty board (slow: minutes)"),
		CLI_STRING_OPT(
			"file", &a->file, "PATH",
			"a test set: lines '<moves> <score>'; solves each position, compares "
			"with the score and exits 1 on any mismatch"),
		CLI_INT_OPT("limit", &a->limit, 1, 10000000, "K",
		            "with --file: only the first K positions, %r"),
		CLI_FLAG_OPT(
			"weak", &a->weak,
			"win, draw or loss only: one search with the window (-1, 1), which "
			"MTD(f), the default --algo, asks as Pons' solver does: a win, (0, 1)? "
			"if not, a draw, (-1, 0)? With --file, only the sign of the file's "
			"score is compared"),
		CLI_CHOICE_OPT("method", &a->method, method_names,
		               "how the score is narrowed: bisect (halve its range, towards 0, as "
		               "Pons' solver does) or mtdf (MTD(f) from 0); default %d"),
		CLI_STRING_OPT("algo", &algo_text, "ALGO", h.algo),
		CLI_INT_OPT(
			"hash", &a->hash_mb, 1, 65536, "MB",
			"transposition table in MiB, %r; default %d: a table that stays in the "
			"caches is faster even where a bigger one saves nodes (docs/connect4.md)"),
		CLI_INT_OPT("etc-min-depth", &a->etc_min_depth, 0, CUTOFF_MAX_PLY, "N",
		            "enhanced transposition cut-offs (config.etc_min_depth) at nodes with "
		            "at least N plies left: before a node searches a move, its children "
		            "are looked up in the table (counted as etc probes, not nodes); %r but "
		            "1, 0 meaning never; default %d (docs/connect4.md)"),
		CLI_STRING_OPT("ordering", &ordering_text, "O", h.ordering),
		CLI_FLAG_OPT("no-clear", &a->no_clear,
		             "with --file: keep the table from one position to the next (default: "
		             "cleared before each, which is not timed)"),
		CLI_FLAG_OPT("progress", &a->progress,
		             "with --file: a progress line on stderr about twice a second (the "
		             "default when stderr is a terminal)"),
		CLI_FLAG_OPT("each", &a->each,
		             "with --file: one line per position on stdout as it is solved, "
		             "'<moves> <score> <nodes> <microseconds> <etc probes>' (the line "
		             "format of Pons' solver, and the etc probes), before the report; not "
		             "with --json"),
		CLI_ENGINE_OPTS(&a->par),
		CLI_CLUSTER_OPTS(&a->copts),
		CLI_FLAG_OPT("json", &a->json, "print one JSON object instead of the text report"),
	};
	const int nopts = (int)(sizeof(opts) / sizeof(opts[0]));

	cutoff_config_default(&a->par);
	cli_status_t st = cli_parse("solve", solve_usage, opts, nopts, argc, argv);
	if (st != CLI_PARSED)
		return st;
	a->cluster = cli_cluster_wanted(algo_text);
	a->ordering = a->defaults->ordering;
	if (!cli_cluster_parse_algo("solve", algo_text, a->defaults->algo, &a->copts, &a->driver,
	                            &a->algo) ||
	    (ordering_text && !cli_parse_ordering("solve", ordering_text, &a->ordering)) ||
	    !cli_cluster_check_options("solve", a->cluster, opts, nopts))
		return CLI_BAD;
	return options_fit(a, opts, nopts) ? CLI_PARSED : CLI_BAD;
}

int cli_solve(int argc, char **argv)
{
	const cli_game_defaults_t *d = cli_game_defaults(CLI_GAME_CONNECT4, CLI_USE_SOLVE);
	solve_args_t a = {
		.game = 0,
		.defaults = d,
		.limit = 10000000,
		.method = CUTOFF_CONNECT4_BISECT,
		.hash_mb = (int64_t)d->tt_mb,
		.etc_min_depth = d->etc_min_depth,
		.copts = { 0, 0, -1 },
	};
	cli_status_t st = parse_options(argc, argv, &a);
	if (st != CLI_PARSED)
		return cli_parse_exit(st);
	if (a.cluster && !(a.cc = cli_cluster_start("solve", &a.copts)))
		return CLI_EXIT_FAIL;
	int status = a.moves ? solve_one(&a) : solve_file(&a);
	cli_cluster_end(a.cc);
	return status;
}
