/*
 * solve.c — `cutoff solve`: exact Connect Four scores (cutoff_connect4_solve), of one
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

#include "args.h"
#include "cluster.h"
#include "commands.h"
#include "cutoff.h"
#include "cutoff_games.h"
#include "json.h"
#include "report.h"

/* clang-format off */
static const char solve_usage[] =
	"usage: cutoff solve --game connect4 --moves MOVES [options]\n"
	"       cutoff solve --game connect4 --file PATH [--limit K] [options]\n"
	"\n"
	"Solves Connect Four positions exactly: the score of the side to move in Pascal\n"
	"Pons' convention (22 - k for a win with the winner's k-th stone, k - 22 for a loss\n"
	"to the opponent's k-th stone, 0 for a draw), the best move (columns 1..7) and the\n"
	"nodes searched, by null-window searches over the shared table.\n"
	"\n"
	"  --game NAME       the game: connect4; default connect4\n"
	"  --moves MOVES     the columns played from the empty board, one digit 1..7 per\n"
	"                    move (\"4453\"); \"\" is the empty board (slow: minutes)\n"
	"  --file PATH       a test set: lines '<moves> <score>'; solves each position,\n"
	"                    compares with the score and exits 1 on any mismatch\n"
	"  --limit K         with --file: only the first K positions, 1..10000000\n"
	"  --weak            win, draw or loss only (one search with the window (-1, 1));\n"
	"                    with --file, only the sign of the file's score is compared\n"
	"  --method M        how the score is narrowed: bisect (halve its range, towards 0,\n"
	"                    as Pons' solver does) or mtdf (MTD(f) from 0); default bisect\n"
	"  --algo ALGO       the search at every node: alphabeta, pvs, mtdf or minimax (on\n"
	"                    the serial driver); or a driver of 'cutoff drivers' (serial,\n"
	"                    lazysmp, ybw, ...: with pvs), or DRIVER/ALGO such as\n"
	"                    ybw/alphabeta; default\n"
	"                    pvs. Minimax does not prune: only for tiny positions\n"
	"  --hash MB         transposition table in MiB, 1..65536; default 4: a table\n"
	"                    that stays in the caches is faster even where a bigger one\n"
	"                    saves nodes (docs/connect4.md)\n"
	"  --ordering O      the engine's move ordering: none (centre first), all, or a list\n"
	"                    of tt,hints,killers,history; default tt,hints (the table's\n"
	"                    move, then the moves that make the most threats, centre first;\n"
	"                    killers and history only undo the centre-first tie-break)\n"
	"  --no-clear        with --file: keep the table from one position to the next\n"
	"                    (default: cleared before each, which is not timed)\n"
	"  --progress        with --file: a progress line on stderr about twice a second\n"
	"                    (the default when stderr is a terminal)\n"
	CLI_PARALLEL_USAGE
	CLI_CLUSTER_USAGE
	"  --json            print one JSON object instead of the text report\n"
	"  --help            print this help\n";
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
	const char *moves;
	const char *file;
	int64_t limit;
	bool weak;
	int method;
	cutoff_driver_t driver;
	cutoff_algo_t algo;
	int64_t hash_mb;
	unsigned ordering;
	bool no_clear;
	bool progress;
	bool json;
	cli_parallel_t par;
	cli_cluster_opts_t copts;
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
	cutoff_config_default(&cfg);
	cli_parallel_apply(&a->par, &cfg);
	cfg.driver = a->driver;
	cfg.algo = a->algo;
	cfg.tt_mb = (size_t)a->hash_mb;
	cfg.ordering = a->ordering;
	cfg.log = cli_log_keep;
	cfg.log_user = log;
	if (a->cc)
		cli_cluster_configure(a->cc, &cfg);
	int err;
	cutoff_engine_t *e = cutoff_engine_new(cutoff_connect4_game(), &cfg, &err);
	if (!e) {
		cli_fail("solve", "cannot make the engine", err, log);
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
	json_string(w, "game", game_names[a->game]);
	json_bool(w, "weak", a->weak);
	json_string(w, "method", method_names[a->method]);
	json_string(w, "algo", cli_algo_label(a->driver, a->algo, label, sizeof(label)));
	json_string(w, "driver", cli_driver_name(a->driver));
	json_int(w, "threads", a->par.threads);
	json_string(w, "placement", cli_placement_names[a->par.placement]);
	cli_json_driver_options(w, "driver_options", &a->par.options);
	json_int(w, "hash_mb", a->hash_mb);
	json_uint(w, "ordering", a->ordering);
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
	if (a->par.threads > 1 || a->driver != cli_driver_default()) {
		char text[256];
		cli_field(stdout, "threads", "%" PRId64 ", %s driver, placement %s", a->par.threads,
		          cli_driver_name(a->driver), cli_placement_names[a->par.placement]);
		if (*cli_driver_options_text(&a->par.options, a->driver, text, sizeof(text)))
			cli_field(stdout, "driver options", "%s", text);
	}
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
	const char *to_move = st.stones % 2 ? "second" : "first";
	if (a->json) {
		json_writer_t w;
		json_init(&w, stdout);
		json_begin_object(&w, NULL);
		json_string(&w, "moves", a->moves);
		json_int(&w, "stones", st.stones);
		json_string(&w, "to_move", to_move);
		json_int(&w, "score", s.score);
		if (s.best_column >= 0)
			json_int(&w, "best_column", s.best_column + 1);
		else
			json_null(&w, "best_column");
		json_bool(&w, "known", s.known);
		json_int(&w, "searches", s.searches);
		json_uint(&w, "nodes", s.nodes);
		json_double(&w, "time_s", s.time_s);
		json_double(&w, "nps", s.time_s > 0 ? (double)s.nodes / s.time_s : 0.0);
		json_settings(&w, a);
		json_end(&w);
		if (json_finish(&w) < 0) {
			cli_error("solve", "cannot write the JSON output");
			return CLI_EXIT_FAIL;
		}
		return CLI_EXIT_OK;
	}
	char words[80];
	score_words(s.score, a->weak, words, sizeof(words));
	cli_field(stdout, "position", "%s (%d stones, the %s player to move)",
	          cli_quote(q, sizeof(q), a->moves), st.stones, to_move);
	cli_field(stdout, "score", "%d (%s)%s", s.score, words,
	          s.known ? ", known without a search" : "");
	if (s.best_column >= 0)
		cli_field(stdout, "best move", "column %d", s.best_column + 1);
	else
		cli_field(stdout, "best move", "none: the game is over");
	text_settings(a);
	cli_field(stdout, "searches", "%d", s.searches);
	cli_field(stdout, "nodes", "%" PRIu64, s.nodes);
	cli_field(stdout, "time", "%.6f s", s.time_s);
	cli_field(stdout, "nodes per second", "%.0f",
	          s.time_s > 0 ? (double)s.nodes / s.time_s : 0.0);
	return CLI_EXIT_OK;
}

/* Reads the whole file into *text and splits it into lines (at most `limit` positions).
 * CLI_EXIT_OK, or an exit status after one line on stderr. */
static int read_file(const solve_args_t *a, char **text, solve_line_t **lines, int64_t *count)
{
	char q[CLI_QUOTE_SIZE], q2[CLI_QUOTE_SIZE], why[160];
	FILE *f = cli_open_input("solve", "file", a->file);
	if (!f)
		return CLI_EXIT_USAGE;
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	while (buf) {
		if (len + 1 >= cap) {
			char *bigger = realloc(buf, cap * 2);
			if (!bigger) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = bigger;
			cap *= 2;
		}
		size_t got = fread(buf + len, 1, cap - 1 - len, f);
		len += got;
		if (got == 0)
			break;
	}
	if (!cli_close_input("solve", "file", a->file, f)) {
		free(buf);
		return CLI_EXIT_USAGE;
	}
	if (!buf) {
		cli_error("solve", "--file %s: out of memory", cli_quote(q, sizeof(q), a->file));
		return CLI_EXIT_FAIL;
	}
	buf[len] = '\0';

	size_t nlines = 1;
	for (size_t i = 0; i < len; i++)
		nlines += buf[i] == '\n';
	solve_line_t *out = calloc(nlines, sizeof(*out));
	if (!out) {
		free(buf);
		cli_error("solve", "out of memory");
		return CLI_EXIT_FAIL;
	}
	int64_t n = 0;
	int lineno = 0;
	for (char *p = buf; *p && n < a->limit;) {
		char *end = strchr(p, '\n');
		char *next = end ? end + 1 : p + strlen(p);
		if (end)
			*end = '\0';
		lineno++;
		size_t l = strlen(p);
		if (l > 0 && p[l - 1] == '\r')
			p[--l] = '\0';
		if (l == 0) { /* blank lines are skipped */
			p = next;
			continue;
		}
		char *space = strchr(p, ' ');
		int64_t score;
		if (!space || !cli_int_value(space + 1, -CUTOFF_CONNECT4_CELLS / 2,
		                             CUTOFF_CONNECT4_CELLS / 2, &score)) {
			cli_error("solve", "--file %s: line %d: expected '<moves> <score>', got %s",
			          cli_quote(q, sizeof(q), a->file), lineno,
			          cli_quote(q2, sizeof(q2), p));
			free(out);
			free(buf);
			return CLI_EXIT_USAGE;
		}
		*space = '\0';
		if (cutoff_connect4_parse(p, &out[n].state, why, sizeof(why)) < 0) {
			cli_error("solve", "--file %s: line %d: %s",
			          cli_quote(q, sizeof(q), a->file), lineno, why);
			free(out);
			free(buf);
			return CLI_EXIT_USAGE;
		}
		out[n].moves = p;
		out[n].score = (int)score;
		out[n].line = lineno;
		n++;
		p = next;
	}
	if (n == 0) {
		cli_error("solve", "--file %s: no position in it",
		          cli_quote(q, sizeof(q), a->file));
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
	uint64_t nodes, nodes_max, searches;
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

static int solve_file(const solve_args_t *a)
{
	char q[CLI_QUOTE_SIZE], *text = NULL;
	solve_line_t *lines = NULL;
	int64_t count = 0;
	int status = read_file(a, &text, &lines, &count);
	if (status != CLI_EXIT_OK)
		return status;
	cli_log_t log = { "" };
	cutoff_engine_t *e = make_engine(a, &log);
	if (!e) {
		free(lines);
		free(text);
		return CLI_EXIT_FAIL;
	}

	bool tty = isatty(STDERR_FILENO);
	bool progress = (a->progress || tty) && cli_cluster_rank(a->cc) == 0; /* rank 0 speaks */
	solve_totals_t t = { 0 };
	double t0 = cli_now_s(), shown = t0;
	for (int64_t i = 0; i < count; i++) {
		const solve_line_t *l = &lines[i];
		int rc = a->no_clear ? CUTOFF_OK : cutoff_engine_clear(e);
		cutoff_connect4_solution_t s;
		if (rc == CUTOFF_OK)
			rc = cutoff_connect4_solve_with(e, &l->state, a->weak, a->method,
			                                a->cc ? cli_cluster_search_by : NULL, a->cc, &s);
		if (rc < 0 || s.stopped) {
			if (progress && tty && t.positions > 0)
				fputc('\n', stderr);
			cli_fail("solve", "the search failed", rc < 0 ? rc : CUTOFF_EBUSY, &log);
			status = CLI_EXIT_FAIL;
			break;
		}
		int expected = a->weak ? sign(l->score) : l->score;
		t.positions++;
		t.known += s.known;
		t.time_s += s.time_s;
		t.time_max_s = s.time_s > t.time_max_s ? s.time_s : t.time_max_s;
		t.nodes += s.nodes;
		t.nodes_max = s.nodes > t.nodes_max ? s.nodes : t.nodes_max;
		t.searches += (uint64_t)s.searches;
		if (s.score != expected) {
			if (t.mismatches < SOLVE_MAX_MISMATCH_LINES) {
				if (progress && tty)
					fputc('\n', stderr);
				cli_error("solve", "%s line %d: %s: score %d, the file says %d",
				          cli_quote(q, sizeof(q), a->file), l->line, l->moves,
				          s.score, expected);
			}
			t.mismatches++;
		}
		double now = cli_now_s();
		if (progress && (now - shown >= 0.5 || i + 1 == count) && (now - t0 >= 0.5)) {
			show_progress(&t, count, tty, i + 1 == count);
			shown = now;
		}
	}
	t.wall_s = cli_now_s() - t0;
	cutoff_engine_free(e);
	if (status != CLI_EXIT_OK) {
		free(lines);
		free(text);
		return status;
	}

	double n = (double)t.positions;
	double nps = t.time_s > 0 ? (double)t.nodes / t.time_s : 0.0;
	if (a->json) {
		json_writer_t w;
		json_init(&w, stdout);
		json_begin_object(&w, NULL);
		json_string(&w, "file", a->file);
		json_int(&w, "positions", t.positions);
		json_int(&w, "mismatches", t.mismatches);
		json_int(&w, "known", t.known);
		json_bool(&w, "cleared", !a->no_clear);
		json_double(&w, "time_mean_s", t.time_s / n);
		json_double(&w, "time_max_s", t.time_max_s);
		json_double(&w, "time_total_s", t.time_s);
		json_double(&w, "wall_s", t.wall_s);
		json_double(&w, "nodes_mean", (double)t.nodes / n);
		json_uint(&w, "nodes_max", t.nodes_max);
		json_double(&w, "searches_mean", (double)t.searches / n);
		json_double(&w, "nps", nps);
		json_settings(&w, a);
		json_end(&w);
		if (json_finish(&w) < 0) {
			cli_error("solve", "cannot write the JSON output");
			status = CLI_EXIT_FAIL;
		}
	} else {
		cli_field(stdout, "file", "%s", cli_quote(q, sizeof(q), a->file));
		cli_field(stdout, "positions", "%" PRId64 "%s", t.positions,
		          a->no_clear ? ", table kept between positions"
		                      : ", table cleared before each (not timed)");
		text_settings(a);
		cli_field(stdout, "mismatches", "%" PRId64, t.mismatches);
		cli_field(stdout, "time", "mean %.6f s, max %.6f s, total %.3f s (wall %.3f s)",
		          t.time_s / n, t.time_max_s, t.time_s, t.wall_s);
		cli_field(stdout, "nodes", "mean %.1f, max %" PRIu64, (double)t.nodes / n,
		          t.nodes_max);
		cli_field(stdout, "searches", "mean %.2f per position", (double)t.searches / n);
		cli_field(stdout, "nodes per second", "%.0f", nps);
	}
	if (status == CLI_EXIT_OK && t.mismatches > 0) {
		cli_error("solve", "%" PRId64 " of %" PRId64 " scores differ from the file's",
		          t.mismatches, t.positions);
		status = CLI_EXIT_FAIL;
	}
	free(lines);
	free(text);
	return status;
}

int cli_solve(int argc, char **argv)
{
	solve_args_t a = {
		.game = 0,
		.limit = 10000000,
		.method = CUTOFF_CONNECT4_BISECT,
		.hash_mb = 4,
		.copts = { 0, 0, -1 },
	};
	const char *algo_text = "pvs";
	const char *ordering_text = "tt,hints";
	cli_opt_t opts[] = {
		{ .name = "game",
		  .kind = CLI_CHOICE,
		  .dest.choice = &a.game,
		  .choices = game_names },
		{ .name = "moves", .kind = CLI_STRING, .dest.s = &a.moves },
		{ .name = "file", .kind = CLI_STRING, .dest.s = &a.file },
		{ .name = "limit", .kind = CLI_INT, .dest.i = &a.limit, .min = 1, .max = 10000000 },
		{ .name = "weak", .kind = CLI_FLAG, .dest.flag = &a.weak },
		{ .name = "method",
		  .kind = CLI_CHOICE,
		  .dest.choice = &a.method,
		  .choices = method_names },
		{ .name = "algo", .kind = CLI_STRING, .dest.s = &algo_text },
		{ .name = "hash", .kind = CLI_INT, .dest.i = &a.hash_mb, .min = 1, .max = 65536 },
		{ .name = "ordering", .kind = CLI_STRING, .dest.s = &ordering_text },
		{ .name = "no-clear", .kind = CLI_FLAG, .dest.flag = &a.no_clear },
		{ .name = "progress", .kind = CLI_FLAG, .dest.flag = &a.progress },
		{ .name = "json", .kind = CLI_FLAG, .dest.flag = &a.json },
		CLI_PARALLEL_OPTS(&a.par),
		CLI_CLUSTER_OPTS(&a.copts),
	};
	const int nopts = (int)(sizeof(opts) / sizeof(opts[0]));

	cli_parallel_default(&a.par);
	switch (cli_parse("solve", solve_usage, opts, nopts, argc, argv)) {
	case CLI_HELP:
		return CLI_EXIT_OK;
	case CLI_BAD:
		return CLI_EXIT_USAGE;
	case CLI_PARSED:
		break;
	}
	const bool cluster = cli_cluster_wanted(algo_text);
	if (cluster) {
		a.driver = cli_cluster_driver(&a.copts);
		a.algo = CUTOFF_ALGO_PVS;
	} else if (!cli_parse_algo("solve", algo_text, &a.driver, &a.algo)) {
		return CLI_EXIT_USAGE;
	}
	if (!cli_parse_ordering("solve", ordering_text, &a.ordering))
		return CLI_EXIT_USAGE;
	if (!cluster && (cli_given(opts, nopts, "cluster-driver") || cli_given(opts, nopts, "exchange") ||
	                 cli_given(opts, nopts, "share-depth"))) {
		cli_error("solve", "--cluster-driver, --exchange and --share-depth are options of "
		                   "--algo cluster only");
		return CLI_EXIT_USAGE;
	}
	if (!a.moves == !a.file) {
		cli_error("solve",
		          a.moves ? "--moves and --file exclude each other: give one"
		                  : "a position is needed: give --moves MOVES or --file PATH");
		return CLI_EXIT_USAGE;
	}
	const char *file_only = cli_given(opts, nopts, "limit")      ? "--limit"
	                        : cli_given(opts, nopts, "no-clear") ? "--no-clear"
	                        : cli_given(opts, nopts, "progress") ? "--progress"
	                                                             : NULL;
	if (a.moves && file_only) {
		cli_error("solve", "%s goes with --file, not --moves", file_only);
		return CLI_EXIT_USAGE;
	}
	if (cluster) {
		if (!(a.cc = cli_cluster_start("solve", &a.copts)))
			return CLI_EXIT_FAIL;
	}
	int status = a.moves ? solve_one(&a) : solve_file(&a);
	cli_cluster_end(a.cc);
	return status;
}
