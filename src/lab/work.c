/* SPDX-License-Identifier: MIT */
/*
 * work.c — the workloads of `cutoff bench` and one measured run over them.
 *
 * Workloads (each searched the same way by every driver and thread count; the table is
 * cleared before every position, so that no position profits from the one before):
 *
 *   chess     a few positions of Stockfish 15.1's `bench` list (sf_bench_resolved.fen in
 *             the project's reference data), each at a depth where one thread takes
 *             about a second (below), by iterative deepening as an engine plays: PVS,
 *             null-move pruning and late move reductions, quiescence and check extensions,
 *             the table's cut-offs, every move-ordering heuristic, 16 MiB table. Under
 *             pruning and table cut-offs the parallel drivers' values may differ from the
 *             serial one's, so only times and node counts are compared.
 *   connect4  the first positions of Pascal Pons' Test_L1_R2 (begin-medium), solved weakly
 *             (win, draw or loss: one search with the window (-1, 1) to the end of the
 *             game, cutoff_connect4_solve with weak = true), PVS, exact, 4 MiB table,
 *             ordering tt,hints: `cutoff search --window -1,1`, and `cutoff solve --weak`
 *             but for the latter's MTD(f) and enhanced transposition cut-offs (its own
 *             row of the table, below). Weak, because the strong
 *             solve runs several searches and the library gives per-thread counters of
 *             the latest search only; with one search every figure is whole.
 *   rtree     incremental random trees (every move adds a step to the mover's score, so
 *             shallow values predict deep ones), iterative deepening, every ordering
 *             heuristic, 64 MiB table: the trees of bench/scaling.sh, `cutoff tree
 *             --model incremental --iterate --ordering all --no-check`.
 *
 * The engine settings of each workload are its game's search row of the defaults table
 * (kit/games.c), from which `cutoff search` starts too: searches.txt gives for every
 * search only what differs from it (the position, the depth, the table, the parallel
 * options), and repeats the bench's nodes by construction.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kit/args.h"
#include "kit/games.h"
#include "kit/ranks.h"
#include "kit/report.h"
#include "lab/common.h"
#include "lab/work.h"

/*
 * The default chess positions: lines 1, 4, 14 and 27 of sf_bench_resolved.fen (Stockfish
 * 15.1's bench positions, ../shared/data/chess/README.md), the opening, two middlegames and
 * an endgame. Depths: about a second of one thread each, serially, with the settings
 * above (docs/measurements.md, "(j) Figures behind the code's choices"). Reference moves:
 * the serial search 2 plies deeper, recorded by `cutoff bench --workload chess --drivers
 * serial --threads 1 --quality-ms 1` run without them (it computes the missing ones and
 * writes chess-positions.txt into the report folder).
 */
static const char *const default_chess[] = {
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ; depth 12 ; ref e2e4 14 ; id "
	"sf_bench 1",
	"4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19 ; depth 11 ; ref f5d3 13 ; "
	"id sf_bench 4",
	"r1q2rk1/2p1bppp/2Pp4/p6b/Q1PNp3/4B3/PP1R1PPP/2K4R w - - 2 18 ; depth 12 ; ref d4b3 14 ; "
	"id sf_bench 14",
	"6k1/6p1/P6p/r1N5/5p2/7P/1b3PP1/4R1K1 w - - 0 1 ; depth 12 ; ref e1e6 14 ; id sf_bench 27",
};

/* Used when there is no Test_L1_R2 to read: its first 24 lines (Pascal Pons' test set, see
 * ../shared/data/connect4/README.md), move string and score. */
static const char *const default_connect4[] = {
	"32751571231557 -3", "335662333565 -2",   "2416615552 4",     "157564142155 -5",
	"1616621455211 6",   "2541266355551 -3",  "5371555645 4",     "23156612526 4",
	"13134411534775 -6", "23766176641753 2",  "54676552255627 2", "274121776146 4",
	"663152175 -4",      "67331624326767 -5", "7265453 6",        "266674777 4",
	"634766171 4",       "134467261 7",       "55575766112413 4", "447276333363 -4",
	"64715616 -4",       "7477544411743 6",   "142742571451 -4",  "6243671441 4",
};

/* The positions a workload takes without --positions: Connect Four's first, and the
 * random trees (chess takes all it has). */
enum {
	CONNECT4_POSITIONS = 24,
	RTREE_TREES = 8
};

/* The game of a workload. */
static cli_game_t workload_game(int kind)
{
	return kind == BENCH_CHESS      ? CLI_GAME_CHESS
	       : kind == BENCH_CONNECT4 ? CLI_GAME_CONNECT4
	                                : CLI_GAME_RTREE;
}

/* A workload's settings: its game's search row of the defaults table (kit/games.c), from
 * which `cutoff search` starts too, so that searches.txt repeats the rows. */
static const cli_game_defaults_t *workload_row(int kind)
{
	return cli_game_defaults(workload_game(kind), CLI_USE_SEARCH);
}

static bench_item_t *add_item(bench_workload_t *w)
{
	if (w->nitems >= BENCH_MAX_ITEMS)
		return NULL;
	bench_item_t *it = &w->items[w->nitems++];
	memset(it, 0, sizeof(*it));
	return it;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* An operation of a chess file's line that the bench reads: depth (unless --chess-depth
 * gives one: `depth` > 0), ref, sf, id; a value out of range, and any other opcode, is
 * skipped. */
static void chess_operation(bench_item_t *it, const cutoff_chess_epd_op_t *op, int64_t depth)
{
	int d = 0;
	char mv[16];
	if (strcmp(op->opcode, "depth") == 0) {
		if (sscanf(op->operands, "%d", &d) == 1 && d >= 1 && d < CUTOFF_MAX_PLY &&
		    depth <= 0)
			it->depth = d;
	} else if (strcmp(op->opcode, "ref") == 0) {
		if (sscanf(op->operands, "%15s %d", mv, &d) == 2 &&
		    strlen(mv) < sizeof(it->ref_move)) {
			snprintf(it->ref_move, sizeof(it->ref_move), "%s", mv);
			it->ref_depth = d;
		}
	} else if (strcmp(op->opcode, "sf") == 0) {
		if (sscanf(op->operands, "%d", &d) == 1 && d >= 1 && d < 100)
			it->sf_depth = d;
	} else if (strcmp(op->opcode, "id") == 0 && op->operands[0]) {
		snprintf(it->label, sizeof(it->label), "%s", op->operands);
	}
}

/* One line of a chess file: "FEN [; depth D] [; ref MOVE D] [; sf D] [; id TEXT]", read by
 * cutoff_chess_parse_epd. */
static bool chess_line(bench_error_t *e, bench_workload_t *w, const char *line, int64_t depth,
                       const char *where)
{
	char buf[512], err[160], q[CLI_QUOTE_SIZE];
	snprintf(buf, sizeof(buf), "%s", line);
	bench_item_t *it = add_item(w);
	if (!it) {
		bench_fail(e, "%s: more than %d positions", where, BENCH_MAX_ITEMS);
		return false;
	}
	cutoff_chess_epd_t epd;
	if (cutoff_chess_parse_epd(w->chess, buf, &epd, err, sizeof(err)) < 0) {
		if (epd.error == CUTOFF_CHESS_EPD_FEN)
			bench_fail(e, "%s: %s: %s", where, err,
			           cli_quote(q, sizeof(q), epd.position));
		else
			bench_fail(e, "%s: %s", where, err);
		return false;
	}
	memcpy(it->state, &epd.state, sizeof(epd.state));
	snprintf(it->text, sizeof(it->text), "%s", epd.position);
	it->depth = (int)depth;
	snprintf(it->label, sizeof(it->label), "%s", where);
	for (int i = 0; i < epd.nops; i++)
		chess_operation(it, &epd.op[i], depth);
	if (it->depth <= 0) {
		bench_fail(e, "%s: no depth for %s (add '; depth D' or give --chess-depth)", where,
		           cli_quote(q, sizeof(q), epd.position));
		return false;
	}
	return true;
}

static bool connect4_line(bench_error_t *e, bench_workload_t *w, const char *line,
                          const char *where)
{
	char moves[64], err[160], q[CLI_QUOTE_SIZE];
	int score;
	if (sscanf(line, "%63s %d", moves, &score) != 2) {
		bench_fail(e, "%s: expected '<moves> <score>', got %s", where,
		           cli_quote(q, sizeof(q), line));
		return false;
	}
	bench_item_t *it = add_item(w);
	if (!it) {
		bench_fail(e, "%s: more than %d positions", where, BENCH_MAX_ITEMS);
		return false;
	}
	cutoff_connect4_state_t st;
	if (cutoff_connect4_parse(moves, &st, err, sizeof(err)) < 0) {
		bench_fail(e, "%s: %s", where, err);
		return false;
	}
	memcpy(it->state, &st, sizeof(st));
	snprintf(it->text, sizeof(it->text), "%s", moves);
	snprintf(it->label, sizeof(it->label), "%s", where);
	it->score = score;
	it->depth = CUTOFF_CONNECT4_CELLS - st.stones + 1;
	return true;
}

/* Reads `path` line by line into the workload, at most `limit` positions (0: all); `opt`
 * is the option that named it (NULL: found by the command). CLI_EXIT_OK, or an exit status
 * after one line of error (bench_fail). */
static int read_file(const bench_t *b, bench_workload_t *w, const char *opt, const char *path,
                     int64_t limit, int64_t depth)
{
	char q[CLI_QUOTE_SIZE], line[512], where[64];
	FILE *f = cli_open_input(b->cmd, opt, path);
	if (!f)
		return CLI_EXIT_USAGE;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	bool ok = true;
	int len;
	for (int n = 1; ok && (len = cli_read_line(f, line, sizeof(line))) != CLI_LINE_END; n++) {
		if (limit > 0 && w->nitems >= limit)
			break;
		snprintf(where, sizeof(where), "%.40s:%d", base, n);
		if (len < 0) {
			if (len == CLI_LINE_NUL)
				bench_fail(b->err, "%s: a NUL byte in the line", where);
			else
				bench_fail(b->err, "%s: a line longer than %zu bytes", where,
				           sizeof(line) - 1);
			ok = false;
			break;
		}
		char *s = trim(line);
		if (!*s || *s == '#')
			continue;
		ok = w->kind == BENCH_CHESS ? chess_line(b->err, w, s, depth, where)
		                            : connect4_line(b->err, w, s, where);
	}
	if (!cli_close_input(b->cmd, opt, path, f))
		return CLI_EXIT_USAGE;
	if (ok && w->nitems == 0) {
		bench_fail(b->err, "%s holds no positions", cli_quote(q, sizeof(q), path));
		ok = false;
	}
	return ok ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

/* The mean number of moves of the non-terminal positions among the root and its children:
 * the branching factor that the minimal tree is computed with. */
static double measure_branching(const cutoff_game_t *g, const void *root)
{
	_Alignas(16) uint64_t child[CUTOFF_MAX_STATE / 8];
	cutoff_move_t moves[CUTOFF_MAX_MOVES], sub[CUTOFF_MAX_MOVES];
	int32_t v;
	if (g->terminal(g->ctx, root, &v))
		return NAN;
	int n = g->gen_moves(g->ctx, root, moves, NULL);
	double sum = n, count = 1;
	for (int i = 0; i < n; i++) {
		g->play(g->ctx, root, moves[i], child);
		if (g->terminal(g->ctx, child, &v))
			continue;
		sum += g->gen_moves(g->ctx, child, sub, NULL);
		count++;
	}
	return sum / count;
}

/* The chess workload: the file's positions or the built-in ones, searched as an engine does. */
static int load_chess(const bench_t *b, bench_workload_t *w, const char *file, int64_t positions,
                      int64_t chess_depth)
{
	int err = 0;
	w->chess = cutoff_chess_new(&err);
	if (!w->chess) {
		bench_fail_code(b->err, "cannot make the chess context", err, NULL);
		return CLI_EXIT_FAIL;
	}
	w->game = cutoff_chess_game(w->chess);
	if (file) {
		int rc = read_file(b, w, "chess-file", file, positions, chess_depth);
		if (rc != CLI_EXIT_OK)
			return rc;
		snprintf(w->source, sizeof(w->source), "%.250s", file);
	} else {
		int n = (int)(sizeof(default_chess) / sizeof(default_chess[0]));
		for (int i = 0; i < n && (positions == 0 || i < positions); i++) {
			if (!chess_line(b->err, w, default_chess[i], chess_depth, "built-in"))
				return CLI_EXIT_FAIL;
		}
		snprintf(w->source, sizeof(w->source),
		         "built in: lines 1, 4, 14, 27 of sf_bench_resolved.fen (Stockfish "
		         "15.1's bench positions)");
	}
	snprintf(w->settings, sizeof(w->settings),
	         "iterative deepening to each position's depth; PVS, null move + LMR, "
	         "quiescence + check extensions, table cut-offs on, ordering all");
	return CLI_EXIT_OK;
}

/* The Connect Four workload: the test set's first positions, solved weakly. */
static int load_connect4(const bench_t *b, bench_workload_t *w, const char *file, int64_t positions)
{
	const char *data = getenv("CUTOFF_DATA_DIR");
	char path[512];
	w->game = cutoff_connect4_game();
	if (!positions)
		positions = CONNECT4_POSITIONS;
	if (!file && data) {
		snprintf(path, sizeof(path), "%s/connect4/Test_L1_R2", data);
		FILE *f = fopen(path, "r");
		if (f) {
			fclose(f);
			file = path;
		}
	}
	if (file) {
		int rc = read_file(b, w, file == path ? NULL : "connect4-file", file, positions, 0);
		if (rc != CLI_EXIT_OK)
			return rc;
		snprintf(w->source, sizeof(w->source), "%.250s, the first %d lines", file,
		         w->nitems);
	} else {
		int n = (int)(sizeof(default_connect4) / sizeof(default_connect4[0]));
		for (int i = 0; i < n && i < positions; i++) {
			char where[32];
			snprintf(where, sizeof(where), "Test_L1_R2:%d", i + 1);
			if (!connect4_line(b->err, w, default_connect4[i], where))
				return CLI_EXIT_FAIL;
		}
		snprintf(w->source, sizeof(w->source),
		         "built in: the first %d lines of Pons' Test_L1_R2", w->nitems);
	}
	snprintf(w->settings, sizeof(w->settings),
	         "weak solve: one search with the window (-1, 1) to the end of the game; "
	         "PVS, no pruning, ordering tt,hints");
	return CLI_EXIT_OK;
}

/* The random trees' workload: one tree per seed from 1. */
static int load_rtree(const bench_t *b, bench_workload_t *w, int64_t positions,
                      int64_t rtree_branching, int64_t rtree_depth)
{
	int err = 0;
	cutoff_rtree_params_default(&w->rparams);
	w->rparams.branching = (int)rtree_branching;
	w->rparams.depth = (int)rtree_depth;
	w->rparams.model = CUTOFF_RTREE_INCREMENTAL;
	w->seed = 1;
	w->rtree = cutoff_rtree_new(&w->rparams, &err);
	if (!w->rtree) {
		bench_fail_code(b->err, "cannot make the random trees", err, NULL);
		return CLI_EXIT_FAIL;
	}
	w->game = cutoff_rtree_game(w->rtree);
	if (!positions)
		positions = RTREE_TREES;
	for (int64_t i = 0; i < positions; i++) {
		bench_item_t *it = add_item(w);
		if (!it)
			break;
		cutoff_rtree_state_t root;
		cutoff_rtree_root(w->rtree, w->seed + (uint64_t)i, &root);
		memcpy(it->state, &root, sizeof(root));
		snprintf(it->text, sizeof(it->text), "%" PRIu64, w->seed + (uint64_t)i);
		snprintf(it->label, sizeof(it->label), "seed %" PRIu64, w->seed + (uint64_t)i);
		it->depth = w->rparams.depth;
	}
	snprintf(w->source, sizeof(w->source),
	         "incremental random trees, branching %d, depth %d, steps %d..%d, seeds "
	         "%" PRIu64 "..%" PRIu64,
	         w->rparams.branching, w->rparams.depth, (int)w->rparams.value_min,
	         (int)w->rparams.value_max, w->seed, w->seed + (uint64_t)(w->nitems - 1));
	snprintf(w->settings, sizeof(w->settings),
	         "iterative deepening to the full depth; PVS, ordering all (as cutoff tree "
	         "--model incremental --iterate --ordering all --no-check)");
	return CLI_EXIT_OK;
}

void bench_workload_defaults(int kind, bench_workload_defaults_t *d)
{
	d->positions = kind == BENCH_CONNECT4 ? CONNECT4_POSITIONS
	               : kind == BENCH_RTREE  ? RTREE_TREES
	                                      : 0;
	d->builtin = kind == BENCH_CHESS ? (int)(sizeof(default_chess) / sizeof(default_chess[0]))
	             : kind == BENCH_CONNECT4
	                     ? (int)(sizeof(default_connect4) / sizeof(default_connect4[0]))
	                     : 0;
	d->tt_mb = workload_row(kind)->tt_mb;
}

int bench_workload_load(bench_t *b, int kind, const char *file, int64_t positions,
                        int64_t chess_depth, int64_t rtree_branching, int64_t rtree_depth,
                        int64_t hash_mb)
{
	bench_workload_t *w = &b->res.work[kind];
	memset(w, 0, sizeof(*w));
	w->kind = kind;
	w->items = calloc(BENCH_MAX_ITEMS, sizeof(*w->items));
	if (!w->items) {
		bench_fail(b->err, "out of memory");
		return CLI_EXIT_FAIL;
	}
	cutoff_config_t *c = &w->cfg;
	*c = b->set.cfg;
	c->threads = 1;
	c->profile_tt_writers = b->set.tt_writers;
	cli_game_config(workload_row(kind), c);
	int rc = kind == BENCH_CHESS ? load_chess(b, w, file, positions, chess_depth)
	         : kind == BENCH_CONNECT4
	                 ? load_connect4(b, w, file, positions)
	                 : load_rtree(b, w, positions, rtree_branching, rtree_depth);
	if (rc != CLI_EXIT_OK)
		return rc;
	if (hash_mb >= 0)
		c->tt_mb = (size_t)hash_mb;
	for (int i = 0; i < w->nitems; i++)
		w->items[i].branching = kind == BENCH_RTREE
		                                ? (double)w->rparams.branching
		                                : measure_branching(w->game, w->items[i].state);
	return CLI_EXIT_OK;
}

void bench_workload_free(bench_workload_t *w)
{
	free(w->items);
	cutoff_chess_free(w->chess);
	cutoff_rtree_free(w->rtree);
	memset(w, 0, sizeof(*w));
}

bool bench_run_alloc(const bench_t *b, bench_run_t *run, int workload, bool stockfish, int driver,
                     int threads, int repeat)
{
	int n = b->res.work[workload].nitems;
	memset(run, 0, sizeof(*run));
	run->workload = workload;
	run->stockfish = stockfish;
	run->driver = driver;
	run->threads = threads;
	run->repeat = repeat;
	run->thread_nodes = calloc((size_t)threads, sizeof(*run->thread_nodes));
	run->item_nodes = calloc((size_t)n, sizeof(*run->item_nodes));
	run->item_time = calloc((size_t)n, sizeof(*run->item_time));
	run->item_move = calloc((size_t)n, sizeof(*run->item_move));
	run->item_depth = calloc((size_t)n, sizeof(*run->item_depth));
	run->item_value = calloc((size_t)n, sizeof(*run->item_value));
	run->thread_prof = calloc((size_t)threads, sizeof(*run->thread_prof));
	run->share_search = run->share_idle = NAN;
	run->share_split_wait = run->share_lock_spin = NAN;
	run->sim_work_s = run->sim_span_s = run->sim_switches = run->sim_real_s = NAN;
	if (!stockfish && bench_is_cluster(driver)) {
		run->nranks = driver - BENCH_CLUSTER_ROW;
		run->rank_prof = calloc((size_t)run->nranks, sizeof(*run->rank_prof));
	}
	if (!run->thread_nodes || !run->item_nodes || !run->item_time || !run->item_move ||
	    !run->item_depth || !run->item_value || !run->thread_prof ||
	    (run->nranks && !run->rank_prof)) {
		bench_run_free(run);
		return false;
	}
	return true;
}

bench_run_t *bench_run_new(bench_t *b, int workload, bool stockfish, int driver, int threads,
                           int repeat)
{
	if (b->res.nruns == b->res.cap_runs) {
		int cap = b->res.cap_runs ? 2 * b->res.cap_runs : 64;
		bench_run_t *r = realloc(b->res.runs, (size_t)cap * sizeof(*r));
		if (!r)
			return NULL;
		b->res.runs = r;
		b->res.cap_runs = cap;
	}
	bench_run_t *run = &b->res.runs[b->res.nruns];
	if (!bench_run_alloc(b, run, workload, stockfish, driver, threads, repeat))
		return NULL;
	b->res.nruns++;
	return run;
}

void bench_run_free(bench_run_t *run)
{
	free(run->thread_nodes);
	free(run->item_nodes);
	free(run->item_time);
	free(run->item_move);
	free(run->item_depth);
	free(run->item_value);
	free(run->thread_prof);
	free(run->rank_prof);
	run->rank_prof = NULL;
	run->thread_nodes = NULL;
	run->item_nodes = NULL;
	run->item_time = NULL;
	run->item_move = NULL;
	run->item_depth = NULL;
	run->item_value = NULL;
	run->thread_prof = NULL;
}

static void move_text(const bench_workload_t *w, cutoff_move_t m, char out[16])
{
	cli_move_text(workload_game(w->kind), m, out);
}

/*
 * The one place that reads a search's figures out of the library, for position `item` of
 * `run`: the result's counters (the profiler's node-type and split counters among them)
 * and iterations (r; NULL when the search was made inside cutoff_connect4_solve, whose
 * counters are then the sum of the threads'), and each thread's counters and, when the
 * library has the profiler (`profiled`), its profile: time split and depths.
 */
static bool bench_take(const bench_t *b, bench_run_t *run, const bench_workload_t *w,
                       const cutoff_engine_t *e, int item, const cutoff_result_t *r, double time_s,
                       cutoff_move_t move, int32_t value, int depth, bool searched, cli_log_t *log)
{
	cutoff_counters_t sum = { 0 };
	for (int k = 0; searched && k < run->threads; k++) {
		cutoff_counters_t tc;
		cutoff_profile_t tp;
		int rc = cutoff_engine_thread_counters(e, k, &tc);
		if (rc == 0 && b->mach.profiled)
			rc = cutoff_engine_thread_profile(e, k, &tp);
		if (rc < 0) {
			bench_fail_code(b->err, "cannot read the thread counters", rc, log);
			return false;
		}
		run->thread_nodes[k] += tc.nodes;
		cutoff_counters_add(&sum, &tc);
		if (b->mach.profiled) {
			bench_thread_t *t = &run->thread_prof[k];
			t->time_s += tp.time_s;
			t->search_s += tp.search_s;
			t->idle_s += tp.idle_s;
			t->split_wait_s += tp.split_wait_s;
			t->lock_s += tp.lock_s;
			t->depth_reached += tp.depth_reached;
			t->depth_completed += tp.depth_completed;
		}
	}
	if (searched && b->mach.profiled)
		run->profiled++;
	const cutoff_counters_t *c = r ? &r->counters : &sum;
	cutoff_counters_add(&run->counters, c);
	run->time_s += time_s;
	run->item_nodes[item] = c->nodes;
	run->item_time[item] = time_s;
	run->item_depth[item] = depth;
	run->item_value[item] = value;
	move_text(w, move, run->item_move[item]);
	const bench_item_t *bi = &w->items[item];
	if (r && r->iterations > 0 && w->kind != BENCH_CONNECT4) {
		/* Knuth and Moore's b^ceil(d/2) + b^floor(d/2) - 1, for a b that need not be
		 * whole (the measured mean). */
		double d = r->iteration[r->iterations - 1].depth;
		run->last_leaves += (double)r->iteration[r->iterations - 1].counters.leaves;
		run->minimal +=
			pow(bi->branching, ceil(d / 2)) + pow(bi->branching, floor(d / 2)) - 1;
	} else if (searched) {
		run->minimal = NAN;
	}
	for (int i = 0; r && i < r->iterations; i++) {
		const cutoff_iteration_t *it = &r->iteration[i];
		if (it->depth <= 0 || it->depth >= CUTOFF_MAX_PLY)
			continue;
		run->it_nodes[it->depth] += it->counters.nodes;
		run->it_leaves[it->depth] += it->counters.leaves;
		run->it_items[it->depth]++;
	}
	return true;
}

/* The run's time split from its threads' profiles (NAN when there are none, or when the
 * per-thread figures miss some searches). */
static void bench_run_shares(bench_run_t *run)
{
	double total = 0, search = 0, idle = 0, wait = 0, lock = 0;
	for (int k = 0; k < run->threads; k++) {
		const bench_thread_t *t = &run->thread_prof[k];
		total += t->time_s;
		search += t->search_s;
		idle += t->idle_s;
		wait += t->split_wait_s;
		lock += t->lock_s;
	}
	if (run->profiled == 0 || run->incomplete_threads || total <= 0)
		return;
	run->share_search = search / total;
	run->share_idle = idle / total;
	run->share_split_wait = wait / total;
	run->share_lock_spin = lock / total;
}

static cutoff_engine_t *make_engine(const bench_t *b, const bench_workload_t *w, int driver,
                                    int threads, cli_log_t *log)
{
	cutoff_config_t cfg = w->cfg;
	cfg.threads = threads;
	cfg.driver = bench_is_cluster(driver) ? CUTOFF_DRIVER_LAZYSMP : (cutoff_driver_t)driver;
	cfg.log = cli_log_keep;
	cfg.log_user = log;
	if (bench_is_cluster(driver)) /* the cluster of the run's ranks (cli_cluster_use) */
		cli_cluster_configure(b->mpi.cluster, &cfg);
	int err;
	cutoff_engine_t *e = cutoff_engine_new(w->game, &cfg, &err);
	if (!e)
		bench_fail_code(b->err, "cannot make the engine", err, log);
	return e;
}

/* Adds each rank's share of the latest cluster search into the run. */
static void take_ranks(const bench_t *b, bench_run_t *run)
{
	for (int k = 0; k < run->nranks; k++) {
		cli_rank_stats_t st;
		if (!cli_cluster_stats(b->mpi.cluster, k, &st))
			continue;
		bench_rank_t *r = &run->rank_prof[k];
		r->nodes += (double)st.nodes;
		r->time_s += st.time_s;
		r->comm_s += st.comm_s;
		r->sent_entries += (double)st.sent_entries;
		r->received_entries += (double)st.received_entries;
		r->stored_entries += (double)st.stored_entries;
		r->sent_bytes += (double)st.sent_bytes;
		r->tt_hits_shared += (double)st.tt_hits_shared;
	}
}

bool bench_run(bench_t *b, bench_run_t *run)
{
	const bench_workload_t *w = &b->res.work[run->workload];
	cli_log_t log = { "" };
	const bool cluster = bench_is_cluster(run->driver);
	cutoff_engine_t *e = make_engine(b, w, run->driver, run->threads, &log);
	if (!e) {
		if (cluster) /* the other ranks would wait for this one */
			bench_abort_cluster(b, CLI_EXIT_FAIL);
		return false;
	}
	bool ok = true;
	for (int i = 0; ok && i < w->nitems; i++) {
		const bench_item_t *it = &w->items[i];
		int rc = cutoff_engine_clear(e);
		if (rc < 0) {
			bench_fail_code(b->err, "cannot clear the table", rc, &log);
			ok = false;
			break;
		}
		if (w->kind == BENCH_CONNECT4) {
			cutoff_connect4_solution_t s;
			rc = cutoff_connect4_solve_with(
				e, (const cutoff_connect4_state_t *)it->state, true,
				CUTOFF_CONNECT4_BISECT, cluster ? cli_cluster_search_by : NULL,
				b->mpi.cluster, &s);
			if (cluster && rc >= 0 && s.searches > 0)
				take_ranks(b,
				           run); /* the solve's last search: a weak solve has one */
			if (rc < 0) {
				bench_fail_code(b->err, "the solve failed", rc, &log);
				ok = false;
				break;
			}
			int want = (it->score > 0) - (it->score < 0);
			if (s.stopped || s.score != want)
				run->mismatches++;
			/* A weak solve is one search (none when the value is known at once), so the
			 * thread counters of the latest search are the whole solve. */
			if (s.searches > 1)
				run->incomplete_threads = true;
			ok = bench_take(b, run, w, e, i, NULL, s.time_s,
			                s.best_column < 0 ? CUTOFF_MOVE_NONE
			                                  : (cutoff_move_t)s.best_column,
			                s.score, it->depth, !s.known, &log);
			if (ok && cluster && s.nodes > run->item_nodes[i]) {
				/* The thread counters are this rank's: add the other ranks' nodes
				 * (the solve's count is every rank's); the other counters stay
				 * this rank's. */
				run->counters.nodes += s.nodes - run->item_nodes[i];
				run->item_nodes[i] = s.nodes;
			}
			if (ok && run->item_nodes[i] != s.nodes)
				run->incomplete_threads = true;
			continue;
		}
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.depth = it->depth;
		lim.iterate = workload_row(w->kind)->iterate;
		cutoff_result_t r;
		rc = cluster ? cli_cluster_search_by(b->mpi.cluster, e, it->state, &lim, &r)
		             : cutoff_engine_search(e, it->state, &lim, &r, NULL, NULL);
		if (cluster)
			take_ranks(b, run);
		if (rc == CUTOFF_ETERMINAL) {
			ok = bench_take(b, run, w, e, i, &r, 0.0, CUTOFF_MOVE_NONE, r.value, 0,
			                false, &log);
			continue;
		}
		if (rc < 0) {
			bench_fail_code(b->err, "the search failed", rc, &log);
			ok = false;
			break;
		}
		ok = bench_take(b, run, w, e, i, &r, r.time_s, r.best_move, r.value, r.depth, true,
		                &log);
	}
	cutoff_engine_free(e);
	bench_run_shares(run);
	return ok;
}

/* A free slot of b->res.quality, or NULL after a message (out of memory). */
static bench_quality_t *quality_slot(bench_t *b)
{
	if (b->res.nquality == b->res.cap_quality) {
		int cap = b->res.cap_quality ? 2 * b->res.cap_quality : 32;
		bench_quality_t *q = realloc(b->res.quality, (size_t)cap * sizeof(*q));
		if (!q) {
			bench_fail(b->err, "out of memory");
			return NULL;
		}
		b->res.quality = q;
		b->res.cap_quality = cap;
	}
	bench_quality_t *q = &b->res.quality[b->res.nquality];
	memset(q, 0, sizeof(*q));
	return q;
}

/* The positions of the quality runs: the suite's when one was given, else the chess
 * workload's. */
static int quality_positions(const bench_t *b)
{
	return b->res.suite.n ? b->res.suite.n : b->res.work[BENCH_CHESS].nitems;
}

/* Position i of the quality runs, scored into q (its move, and against the suite's
 * reference or the item's reference move). */
static void quality_score(const bench_t *b, int i, cutoff_move_t m, bench_quality_t *q)
{
	const bench_workload_t *w = &b->res.work[BENCH_CHESS];
	move_text(w, m, q->move);
	if (b->res.suite.n) {
		const bench_suite_entry_t *e = &b->res.suite.entries[i];
		q->agree = m == e->ref_move[0];
		q->loss = bench_suite_loss(e, m, &q->loss_bound);
	} else {
		const bench_item_t *it = &w->items[i];
		q->agree = it->ref_move[0] && strcmp(q->move, it->ref_move) == 0;
	}
}

bool bench_quality_run(bench_t *b, int driver, int threads)
{
	const bench_workload_t *w = &b->res.work[BENCH_CHESS];
	cli_log_t log = { "" };
	cutoff_engine_t *e = make_engine(b, w, driver, threads, &log);
	if (!e)
		return false;
	bool ok = true;
	const int n = quality_positions(b);
	for (int i = 0; ok && i < n; i++) {
		bench_quality_t *q = quality_slot(b);
		if (!q) {
			ok = false;
			break;
		}
		bench_progress(b, "quality at %" PRId64 " ms: %s, %d thread%s, position %d of %d",
		               b->set.quality_ms, cli_driver_name((cutoff_driver_t)driver), threads,
		               threads > 1 ? "s" : "", i + 1, n);
		int rc = cutoff_engine_clear(e);
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.depth = CUTOFF_MAX_PLY - 1;
		lim.iterate = true;
		lim.time_ms = (uint64_t)b->set.quality_ms;
		cutoff_result_t r;
		const void *root = b->res.suite.n ? (const void *)b->res.suite.entries[i].state
		                                  : (const void *)w->items[i].state;
		if (rc == 0)
			rc = cutoff_engine_search(e, root, &lim, &r, NULL, NULL);
		if (rc < 0) {
			bench_fail_code(b->err, "the search failed", rc, &log);
			ok = false;
			break;
		}
		q->driver = driver;
		q->threads = threads;
		q->item = i;
		q->depth = r.depth;
		q->nodes = r.counters.nodes;
		quality_score(b, i, r.best_move, q);
		b->res.nquality++;
	}
	cutoff_engine_free(e);
	return ok;
}

bool bench_references(bench_t *b, int extra)
{
	bench_workload_t *w = &b->res.work[BENCH_CHESS];
	cli_log_t log = { "" };
	cutoff_engine_t *e = NULL;
	bool ok = true;
	for (int i = 0; ok && i < w->nitems; i++) {
		bench_item_t *it = &w->items[i];
		if (it->ref_move[0])
			continue;
		if (!e && !(e = make_engine(b, w, b->set.base, 1, &log)))
			return false;
		bench_progress(b, "reference move of chess position %d of %d: %s, depth %d", i + 1,
		               w->nitems, cli_driver_name((cutoff_driver_t)b->set.base),
		               it->depth + extra);
		int rc = cutoff_engine_clear(e);
		cutoff_limits_t lim;
		cutoff_limits_default(&lim);
		lim.depth =
			it->depth + extra < CUTOFF_MAX_PLY ? it->depth + extra : CUTOFF_MAX_PLY - 1;
		lim.iterate = true;
		cutoff_result_t r;
		if (rc == 0)
			rc = cutoff_engine_search(e, it->state, &lim, &r, NULL, NULL);
		if (rc == CUTOFF_ETERMINAL)
			continue;
		if (rc < 0) {
			bench_fail_code(b->err, "the reference search failed", rc, &log);
			ok = false;
			break;
		}
		move_text(w, r.best_move, it->ref_move);
		it->ref_depth = r.depth;
	}
	cutoff_engine_free(e);
	return ok;
}

bool bench_write_chess_file(const bench_t *b, const char *path)
{
	const bench_workload_t *w = &b->res.work[BENCH_CHESS];
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	fprintf(f, "# The chess positions of this report, as `cutoff bench --chess-file` reads "
	           "them:\n# FEN ; depth D (ours) ; ref MOVE D (a deeper serial search) ; sf D "
	           "(Stockfish's depth) ; id WHERE\n");
	for (int i = 0; i < w->nitems; i++) {
		const bench_item_t *it = &w->items[i];
		fprintf(f, "%s ; depth %d", it->text, it->depth);
		if (it->ref_move[0])
			fprintf(f, " ; ref %s %d", it->ref_move, it->ref_depth);
		if (it->sf_depth)
			fprintf(f, " ; sf %d", it->sf_depth);
		/* A label with a ';' came from a quoted id: quoted again, it reads back whole. */
		fprintf(f, strchr(it->label, ';') ? " ; id \"%s\"\n" : " ; id %s\n", it->label);
	}
	return fclose(f) == 0;
}

/* A shell word: single-quoted when it holds anything but [A-Za-z0-9,._/-]. */
static void shell_word(FILE *f, const char *s)
{
	if (*s &&
	    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789,._/-") ==
	            strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* The parallel settings that differ from the defaults, as options of `cutoff search`
 * (" --placement P --NAME VALUE ..."), into buf. */
static void settings_given(const bench_t *b, char *buf, size_t size)
{
	cutoff_config_t def;
	cutoff_config_default(&def);
	size_t used = 0;
	buf[0] = '\0';
	if (b->set.cfg.placement != def.placement)
		used += (size_t)snprintf(buf, size, " --placement %s",
		                         cli_placement_names[b->set.cfg.placement]);
	for (int d = 0; d < cutoff_driver_count(); d++) {
		const cutoff_driver_option_t *o;
		int n = cutoff_driver_options((cutoff_driver_t)d, &o);
		for (int i = 0; i < n && used < size; i++) {
			int given = 0, usual = 0;
			char v[32];
			cutoff_config_get_option(&b->set.cfg, o[i].name, &given);
			cutoff_config_get_option(&def, o[i].name, &usual);
			if (given != usual)
				used += (size_t)snprintf(
					buf + used, size - used, " --%s %s", o[i].name,
					cli_option_text(&o[i], given, v, sizeof(v)));
		}
	}
}

bool bench_write_searches(const bench_t *b, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	const char *base = cli_driver_name((cutoff_driver_t)b->set.base);
	fprintf(f,
	        "# Every search of this report as one `cutoff search` (the %s driver, one "
	        "thread: the same\n# nodes, move and value as its rows). Give another driver "
	        "to --algo and --threads N\n# for a parallel row (its node counts vary from "
	        "run to run), --json for every counter.\n",
	        base);
	for (int k = 0; k < BENCH_NWORKLOADS; k++) {
		const bench_workload_t *w = &b->res.work[k];
		if (!b->set.workloads[k])
			continue;
		char extra[512];
		settings_given(b, extra, sizeof(extra));
		fprintf(f, "\n# %s: %s\n", bench_workload_names[k], w->source);
		for (int i = 0; i < w->nitems; i++) {
			const bench_item_t *it = &w->items[i];
			fprintf(f, "cutoff search --game %s --algo %s ", bench_workload_names[k],
			        base);
			switch (k) {
			case BENCH_CHESS:
				fputs("--fen ", f);
				shell_word(f, it->text);
				fprintf(f, " --depth %d", it->depth);
				break;
			case BENCH_CONNECT4:
				fputs("--moves ", f);
				shell_word(f, *it->text ? it->text : "-");
				fputs(" --window -1,1", f);
				break;
			default:
				fprintf(f, "--seed %s --branching %d --depth %d", it->text,
				        w->rparams.branching, w->rparams.depth);
				break;
			}
			fprintf(f, " --hash %zu%s\n", w->cfg.tt_mb, extra);
		}
	}
	return fclose(f) == 0;
}
