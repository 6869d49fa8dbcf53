/* SPDX-License-Identifier: MIT */
/*
 * cmd_search.c — `cutoff search`: one search of one position of any of the games, reported
 * with every counter of the search (and each thread's), so that one run of `cutoff bench`,
 * `cutoff solve` or `cutoff tree` can be repeated and read in full, and the algorithms
 * compared on a game whose figures are known (from the empty tic-tac-toe board: value 0,
 * 549,946 nodes for minimax).
 *
 * Each game's defaults are its search row of the one table, kit/games.c, which the lab's
 * workloads search with too, so that the same search comes out with the same nodes:
 *   ttt       alphabeta, depth 9 (the whole game), no table, square order: the textbook
 *             counts;
 *   chess     PVS by iterative deepening, 16 MiB, every ordering heuristic, null move +
 *             LMR, quiescence and check extensions: an engine's search (`cutoff bench`'s
 *             chess workload; `cutoff epd` has its own row: 64 MiB, a second a position);
 *   connect4  PVS, one search to the end of the game (the game's bounds hook stops each
 *             line where the window's score can no longer come), 4 MiB, ordering tt,hints,
 *             exact (`cutoff solve --weak --algo pvs --etc-min-depth 0` is --window -1,1);
 *   rtree     an incremental random tree searched to its leaves by iterative deepening,
 *             64 MiB, every ordering heuristic (`cutoff bench`'s rtree workload);
 *   pgame     solved to the end, 16 MiB, every ordering heuristic.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cutoff.h"
#include "cutoff_games.h"
#include "kit/args.h"
#include "kit/games.h"
#include "kit/json.h"
#include "kit/ranks.h"
#include "kit/report.h"

/* clang-format off */
static const char search_usage[] =
	"usage: cutoff search [--game GAME] [--position P] [--algo ALGO] [options]\n"
	"\n"
	"Searches one position with one algorithm and reports its value, best move, principal\n"
	"variation and every counter (each thread's too). Every position visited, the root\n"
	"included, counts as a node. Repeats one search of `cutoff bench` (its report folder's\n"
	"searches.txt lists them), `cutoff solve --weak` (--window -1,1) or `cutoff tree`.\n"
	"Defaults named per game are those of its row of the games' table, which the bench's\n"
	"workloads search with too.\n";
/* clang-format on */

enum {
	GAME_TTT = CLI_GAME_TTT,
	GAME_CHESS = CLI_GAME_CHESS,
	GAME_CONNECT4 = CLI_GAME_CONNECT4,
	GAME_RTREE = CLI_GAME_RTREE,
	GAME_PGAME = CLI_GAME_PGAME
};
static const char *const game_titles[] = { "ttt (tic-tac-toe)", "chess", "connect4 (Connect Four)",
	                                   "rtree (random tree)",
	                                   "pgame (random game with passes)" };
static const char *const model_names[] = { "iid", "incremental", NULL };
static const int max_depth[] = { 9, CUTOFF_MAX_PLY - 1, CUTOFF_CONNECT4_CELLS + 1, 30,
	                         CUTOFF_MAX_PLY - 1 };

/* The game and the position being searched: owned by cli_search, freed by game_free. */
typedef struct search_game {
	int id;
	const cutoff_game_t *game;
	cutoff_chess_t *chess;
	cutoff_rtree_t *rtree;
	cutoff_pgame_t *pgame;
	int32_t oracle_value; /* pgame: the exact value and the longest line, from its oracle */
	int oracle_length;
	_Alignas(16) uint64_t root[CUTOFF_MAX_STATE / 8];
	char text[CUTOFF_CHESS_FEN_SIZE]; /* the position as the report shows it */
	char side[24];                    /* who moves: "x", "white", "first player" */
} search_game_t;

static void game_free(search_game_t *g)
{
	cutoff_chess_free(g->chess);
	cutoff_rtree_free(g->rtree);
	cutoff_pgame_free(g->pgame);
}

static const char *bound_name(cutoff_bound_t b)
{
	switch (b) {
	case CUTOFF_BOUND_EXACT:
		return "exact";
	case CUTOFF_BOUND_LOWER:
		return "lower";
	case CUTOFF_BOUND_UPPER:
		return "upper";
	case CUTOFF_BOUND_NONE:
		break;
	}
	return "none";
}

/* A move in the game's own words (cli_move_text). */
static void move_text(const search_game_t *g, cutoff_move_t m, char out[16])
{
	cli_move_text((cli_game_t)g->id, m, out);
}

/* The same move as a JSON value: a string for chess, a number for the others (as the
 * command always wrote them). */
static void json_move(json_writer_t *w, const char *key, const search_game_t *g, cutoff_move_t m)
{
	char text[16];
	if (m == CUTOFF_MOVE_NONE) {
		jw_null(w, key);
	} else if (g->id == GAME_CHESS) {
		move_text(g, m, text);
		jw_string(w, key, text);
	} else {
		jw_uint(w, key, g->id == GAME_CONNECT4 ? m + 1 : m);
	}
}

static bool ttt_position(const char *text, search_game_t *g)
{
	char q[CLI_QUOTE_SIZE];
	cutoff_ttt_state_t *s = (cutoff_ttt_state_t *)g->root;
	size_t len = strlen(text);
	if (len != 9 || strspn(text, "xXoO.-") != len) {
		cli_error("search", "--position: expected 9 squares, each x, o, '.' or '-', got %s",
		          cli_quote(q, sizeof(q), text));
		return false;
	}
	if (cutoff_ttt_parse(text, s) < 0) {
		cli_error("search",
		          "--position: not a position of a game (x moves first, so x has as many "
		          "squares as o or one more, and the side to move has no line yet), got %s",
		          cli_quote(q, sizeof(q), text));
		return false;
	}
	return true;
}

/* The game with passes from its seed, and what its oracle says of the start. */
static bool pgame_setup(search_game_t *g, const char *position, int cells, int legal)
{
	int rc;
	cutoff_pgame_params_t p;
	cutoff_pgame_params_default(&p);
	if (position && !cli_parse_uint64("search", "seed", position, &p.seed))
		return false;
	p.cells = cells;
	p.legal = legal;
	if (!(g->pgame = cutoff_pgame_new(&p, &rc))) {
		cli_fail("search", "cannot make the game", rc, NULL);
		return false;
	}
	g->game = cutoff_pgame_game(g->pgame);
	cutoff_pgame_state_t *root = (cutoff_pgame_state_t *)g->root;
	cutoff_pgame_root(g->pgame, root);
	if ((rc = cutoff_pgame_solve(g->pgame, root, &g->oracle_value, &g->oracle_length)) < 0) {
		cli_fail("search", "the game's oracle failed", rc, NULL);
		return false;
	}
	snprintf(g->text, sizeof(g->text), "%" PRIu64 " (%d cells, %d %% legal)", p.seed, cells,
	         legal);
	snprintf(g->side, sizeof(g->side), "the first player");
	return true;
}

/* Makes the game and reads the position (NULL: the start); false after a one-line error. */
static bool game_setup(search_game_t *g, const char *position, int64_t depth, int branching,
                       int model, int cells, int legal)
{
	char q[CLI_QUOTE_SIZE], err[160];
	int rc = 0;
	switch (g->id) {
	case GAME_TTT: {
		cutoff_ttt_state_t *s = (cutoff_ttt_state_t *)g->root;
		if (position && !ttt_position(position, g))
			return false;
		if (!position)
			cutoff_ttt_start(s);
		g->game = cutoff_ttt_game();
		for (int i = 0; i < 9; i++)
			g->text[i] = s->x >> i & 1 ? 'x' : s->o >> i & 1 ? 'o' : '.';
		g->text[9] = '\0';
		snprintf(g->side, sizeof(g->side), "%s",
		         __builtin_popcount(s->x) == __builtin_popcount(s->o) ? "x" : "o");
		return true;
	}
	case GAME_CHESS: {
		cutoff_chess_state_t *s = (cutoff_chess_state_t *)g->root;
		if (!(g->chess = cutoff_chess_new(&rc))) {
			cli_fail("search", "cannot make the chess context", rc, NULL);
			return false;
		}
		g->game = cutoff_chess_game(g->chess);
		if (!position) {
			cutoff_chess_start(g->chess, s);
		} else if (cutoff_chess_parse_fen(g->chess, position, s, err, sizeof(err)) < 0) {
			cli_error("search", "--position: %s: %s", err,
			          cli_quote(q, sizeof(q), position));
			return false;
		}
		cutoff_chess_fen(g->chess, s, g->text, sizeof(g->text));
		snprintf(g->side, sizeof(g->side), "%s",
		         strstr(g->text, " w ") ? "white" : "black");
		return true;
	}
	case GAME_CONNECT4: {
		cutoff_connect4_state_t *s = (cutoff_connect4_state_t *)g->root;
		const char *moves = position && strcmp(position, "-") != 0 ? position : "";
		if (cutoff_connect4_parse(moves, s, err, sizeof(err)) < 0) {
			cli_error("search", "--position: %s", err);
			return false;
		}
		g->game = cutoff_connect4_game();
		snprintf(g->text, sizeof(g->text), "%s", *moves ? moves : "-");
		snprintf(g->side, sizeof(g->side), "%s",
		         s->stones % 2 ? "second player" : "first player");
		return true;
	}
	case GAME_RTREE: {
		uint64_t seed = 1;
		if (position && !cli_parse_uint64("search", "seed", position, &seed))
			return false;
		cutoff_rtree_params_t p;
		cutoff_rtree_params_default(&p);
		p.branching = branching;
		p.depth = (int)depth;
		p.model = model ? CUTOFF_RTREE_INCREMENTAL : CUTOFF_RTREE_IID;
		if (!(g->rtree = cutoff_rtree_new(&p, &rc))) {
			cli_fail("search", "cannot make the random tree", rc, NULL);
			return false;
		}
		g->game = cutoff_rtree_game(g->rtree);
		cutoff_rtree_root(g->rtree, seed, (cutoff_rtree_state_t *)g->root);
		snprintf(g->text, sizeof(g->text), "%" PRIu64, seed);
		snprintf(g->side, sizeof(g->side), "the root's player");
		return true;
	}
	case GAME_PGAME:
		return pgame_setup(g, position, cells, legal);
	}
	return false;
}

/* --window A,B: two integers, -CUTOFF_INF <= A < B <= CUTOFF_INF. */
static bool parse_window(const char *text, int32_t *alpha, int32_t *beta)
{
	char q[CLI_QUOTE_SIZE], a[32];
	const char *comma = strchr(text, ',');
	int64_t lo, hi;
	if (comma && (size_t)(comma - text) < sizeof(a)) {
		memcpy(a, text, (size_t)(comma - text));
		a[comma - text] = '\0';
		if (cli_int_value(a, -CUTOFF_INF, CUTOFF_INF, &lo) &&
		    cli_int_value(comma + 1, -CUTOFF_INF, CUTOFF_INF, &hi) && lo < hi) {
			*alpha = (int32_t)lo;
			*beta = (int32_t)hi;
			return true;
		}
	}
	cli_error("search", "--window: expected A,B with -%d <= A < B <= %d, got %s", CUTOFF_INF,
	          CUTOFF_INF, cli_quote(q, sizeof(q), text));
	return false;
}

/* What the command line asked for, each game's defaults filled in (see the top of this
 * file): read by parse_options, then fixed. */
typedef struct search_args {
	int game;                            /* GAME_* */
	const cli_game_defaults_t *defaults; /* the game's row of kit/games.c */
	const char *position; /* --position or the game's own spelling of it; NULL: the start */
	const char *algo_text, *ordering_text, *pruning_text, *window_text;
	int64_t depth, hash_mb, tt_min_depth, etc_min_depth, time_ms, branching, cells, legal;
	int iterate, model, solve; /* indexes in cli_onoff_names, model_names */
	bool json, tt_writers;
	cutoff_config_t par; /* the engine template: threads, placement, the drivers' options */
	cli_cluster_opts_t copts;
	bool cluster; /* --algo cluster */
	cutoff_driver_t driver;
	cutoff_algo_t algo;
	unsigned ordering, pruning;
	cutoff_limits_t limits; /* all but the depth, set once the position is known */
} search_args_t;

typedef struct search_report {
	const search_game_t *g;
	const char *algo; /* the label: ALGO, or DRIVER/ALGO (cli_algo_label) */
	cutoff_driver_t driver;
	const cutoff_config_t *par;
	const cutoff_counters_t *per_thread; /* par->threads of them */
	const cutoff_profile_t *profiles;    /* par->threads of them */
	const cutoff_limits_t *lim;
	int64_t hash_mb;
	unsigned ordering, pruning;
	bool terminal;
	const cutoff_result_t *r;
	const cli_cluster_t *cluster; /* --algo cluster: the ranks' table; else NULL */
} search_report_t;

/* ---- the JSON report ---- */

/* What was searched, and how. */
static void json_settings(json_writer_t *w, const search_report_t *rep)
{
	const search_game_t *g = rep->g;
	jw_string(w, "game", cli_game_names[g->id]);
	jw_string(w, "position", g->text);
	jw_string(w, "to_move", g->side);
	jw_string(w, "algo", rep->algo);
	cli_json_parallel(w, rep->driver, rep->par);
	jw_int(w, "depth", rep->lim->depth);
	jw_bool(w, "iterate", rep->lim->iterate);
	jw_bool(w, "solve", rep->lim->solve);
	jw_int(w, "alpha", rep->lim->alpha);
	jw_int(w, "beta", rep->lim->beta);
	jw_uint(w, "time_limit_ms", rep->lim->time_ms);
	jw_int(w, "hash_mb", rep->hash_mb);
	jw_uint(w, "ordering", rep->ordering);
	jw_uint(w, "pruning", rep->pruning);
}

/* The answer and the counters of the whole search. */
static void json_result(json_writer_t *w, const search_report_t *rep)
{
	const cutoff_result_t *r = rep->r;
	const cutoff_counters_t *c = &r->counters;
	const search_game_t *g = rep->g;
	jw_bool(w, "terminal", rep->terminal);
	jw_bool(w, "stopped", r->stopped);
	jw_bool(w, "solved", r->solved);
	if (g->id == GAME_PGAME) {
		jw_int(w, "oracle_value", g->oracle_value);
		jw_int(w, "longest_line", g->oracle_length);
	}
	jw_int(w, "value", r->value);
	jw_string(w, "bound", bound_name(r->bound));
	jw_int(w, "depth_completed", r->depth);
	json_move(w, "best_move", g, r->best_move);
	jw_begin_array(w, "pv");
	for (int i = 0; i < r->pv_length; i++)
		json_move(w, NULL, g, r->pv[i]);
	jw_end(w);
	jw_uint(w, "nodes", c->nodes);
	jw_uint(w, "leaves", c->leaves);
	jw_uint(w, "cutoffs", c->cutoffs);
	jw_uint(w, "first_move_cutoffs", c->first_move_cutoffs);
	jw_double(w, "first_move_cutoff_rate", cli_rate(c->first_move_cutoffs, c->cutoffs));
	jw_uint(w, "researches", c->researches);
	jw_uint(w, "mtdf_passes", c->mtdf_passes);
	jw_uint(w, "tt_probes", c->tt_probes);
	jw_uint(w, "tt_hits", c->tt_hits);
	jw_uint(w, "tt_cutoffs", c->tt_cutoffs);
	jw_uint(w, "splits", cli_counter(c, "splits")); /* the report before the list had it */
	jw_double(w, "time_s", r->time_s);
	jw_double(w, "nps", cli_per_second(c->nodes, r->time_s));
	jw_bool(w, "profiled", cutoff_profile_available());
	cli_json_counters(w, "counters", c);
	cli_json_profile(w, "profile", &r->profile);
}

static void json_iterations(json_writer_t *w, const search_report_t *rep)
{
	const cutoff_result_t *r = rep->r;
	jw_begin_array(w, "iterations");
	for (int i = 0; i < r->iterations; i++) {
		const cutoff_iteration_t *it = &r->iteration[i];
		jw_begin_object(w, NULL);
		jw_int(w, "depth", it->depth);
		jw_int(w, "value", it->value);
		jw_string(w, "bound", bound_name(it->bound));
		jw_bool(w, "solved", it->solved);
		json_move(w, "best_move", rep->g, it->best_move);
		jw_uint(w, "nodes", it->counters.nodes);
		jw_uint(w, "leaves", it->counters.leaves);
		jw_double(w, "time_s", it->time_s);
		jw_end(w);
	}
	jw_end(w);
}

static void json_threads(json_writer_t *w, const search_report_t *rep)
{
	jw_begin_array(w, "per_thread");
	for (int i = 0; i < (int)rep->par->threads; i++) {
		jw_begin_object(w, NULL);
		jw_int(w, "thread", i);
		jw_uint(w, "nodes", rep->per_thread[i].nodes);
		jw_double(w, "nps", cli_per_second(rep->per_thread[i].nodes, rep->r->time_s));
		jw_end(w);
	}
	jw_end(w);
	/* Beside per_thread (whose flat shape scripts read): every counter and the profile. */
	jw_begin_array(w, "per_thread_profile");
	for (int i = 0; i < (int)rep->par->threads; i++) {
		jw_begin_object(w, NULL);
		jw_int(w, "thread", i);
		cli_json_counters(w, "counters", &rep->per_thread[i]);
		cli_json_profile(w, "profile", &rep->profiles[i]);
		jw_end(w);
	}
	jw_end(w);
}

static int print_json(const search_report_t *rep)
{
	json_writer_t w;
	jw_init(&w, stdout);
	jw_begin_object(&w, NULL);
	json_settings(&w, rep);
	json_result(&w, rep);
	json_iterations(&w, rep);
	json_threads(&w, rep);
	if (rep->cluster)
		cli_cluster_json_ranks(rep->cluster, &w, "ranks");
	jw_end(&w);
	return cli_json_finish(&w, "search");
}

/* ---- the text report ---- */

/* How the search was run: the algorithm, the threads, the limits, the table. */
static void text_settings(const search_report_t *rep)
{
	const cutoff_limits_t *lim = rep->lim;
	const cutoff_result_t *r = rep->r;
	cli_field(stdout, "algorithm", "%s", rep->algo);
	if (rep->cluster) {
		char text[128];
		cli_field(stdout, "cluster", "%s",
		          cli_cluster_text(rep->cluster, text, sizeof(text)));
	}
	cli_print_parallel(stdout, rep->driver, rep->par);
	if (lim->solve && lim->depth == 0)
		cli_field(stdout, "depth", "to the end of the game%s (completed %d)",
		          lim->iterate ? " by iterative deepening" : "", r->depth);
	else if (lim->iterate)
		cli_field(stdout, "depth", "%d by iterative deepening (completed %d)", lim->depth,
		          r->depth);
	else
		cli_field(stdout, "depth", "%d", lim->depth);
	if (lim->solve)
		cli_field(stdout, "solved", "%s",
		          r->solved ? "yes: no line met the horizon"
		                    : "no: some line met the horizon");
	if (rep->g->id == GAME_PGAME)
		cli_field(stdout, "oracle", "value %" PRId32 ", longest line %d plies",
		          rep->g->oracle_value, rep->g->oracle_length);
	if (lim->alpha > -CUTOFF_INF || lim->beta < CUTOFF_INF)
		cli_field(stdout, "window", "(%" PRId32 ", %" PRId32 ")", lim->alpha, lim->beta);
	if (lim->time_ms)
		cli_field(stdout, "time limit", "%" PRIu64 " ms%s", lim->time_ms,
		          r->stopped ? " (reached: the search was stopped)" : "");
	cli_field(stdout, "table", "%" PRId64 " MiB", rep->hash_mb);
	if (rep->pruning)
		cli_field(stdout, "pruning", "%s%s%s",
		          rep->pruning & CUTOFF_PRUNE_NULL_MOVE ? "null move" : "",
		          rep->pruning == CUTOFF_PRUNE_ALL ? ", " : "",
		          rep->pruning & CUTOFF_PRUNE_LMR ? "late move reductions" : "");
}

/* The value, the moves and the counters of the whole search. */
static void text_result(const search_report_t *rep)
{
	const cutoff_result_t *r = rep->r;
	const cutoff_counters_t *c = &r->counters;
	const search_game_t *g = rep->g;
	char mv[16];
	cli_field(stdout, "value", "%" PRId32 " (for %s, the side to move; %s)", r->value, g->side,
	          bound_name(r->bound));
	move_text(g, r->best_move, mv);
	cli_field(stdout, "best move", "%s", mv);
	fprintf(stdout, "%-22s", "principal variation");
	for (int i = 0; i < r->pv_length; i++) {
		move_text(g, r->pv[i], mv);
		fprintf(stdout, "%s%s", i ? " " : "", mv);
	}
	fputc('\n', stdout);
	cli_field(stdout, "nodes", "%" PRIu64, c->nodes);
	cli_field(stdout, "leaves", "%" PRIu64, c->leaves);
	cli_field(stdout, "cut-offs", "%" PRIu64, c->cutoffs);
	cli_field(stdout, "first-move cut-offs", "%.1f %% (%" PRIu64 ")",
	          100.0 * cli_rate(c->first_move_cutoffs, c->cutoffs), c->first_move_cutoffs);
	cli_field(stdout, "re-searches", "%" PRIu64, c->researches);
	cli_field(stdout, "MTD(f) passes", "%" PRIu64, c->mtdf_passes);
	cli_field(stdout, "table hits", "%" PRIu64 " of %" PRIu64 " probes (%" PRIu64 " cut-offs)",
	          c->tt_hits, c->tt_probes, c->tt_cutoffs);
	cli_print_driver_counters(stdout, c, 1);
	cli_field(stdout, "time", "%.6f s", r->time_s);
	cli_field(stdout, "nodes per second", "%.0f", cli_per_second(c->nodes, r->time_s));
}

/* Each iteration (with --iterate), each thread (with several), each rank (a cluster). */
static void text_parts(const search_report_t *rep)
{
	const cutoff_result_t *r = rep->r;
	char mv[16], label[32];
	for (int i = 0; rep->lim->iterate && i < r->iterations; i++) {
		const cutoff_iteration_t *it = &r->iteration[i];
		snprintf(label, sizeof(label), "iteration %d", it->depth);
		move_text(rep->g, it->best_move, mv);
		cli_field(stdout, label,
		          "value %" PRId32 " (%s%s), move %s, %" PRIu64 " nodes, at %.3f s",
		          it->value, bound_name(it->bound), it->solved ? ", solved" : "", mv,
		          it->counters.nodes, it->time_s);
	}
	for (int i = 0; rep->par->threads > 1 && i < (int)rep->par->threads; i++) {
		const cutoff_counters_t *t = &rep->per_thread[i];
		snprintf(label, sizeof(label), "thread %d", i);
		cli_field(stdout, label, "%" PRIu64 " nodes (%.1f %%), %.0f nodes per second",
		          t->nodes, 100.0 * cli_rate(t->nodes, r->counters.nodes),
		          cli_per_second(t->nodes, r->time_s));
	}
	if (rep->cluster)
		cli_cluster_print_ranks(rep->cluster, stdout);
}

static void print_text(const search_report_t *rep)
{
	const search_game_t *g = rep->g;
	cli_field(stdout, "game", "%s", game_titles[g->id]);
	cli_field(stdout, "position", "%s (%s to move)", g->text, g->side);
	if (rep->terminal) {
		/* The library searched nothing: there is only the position's own value. */
		cli_field(stdout, "value", "%" PRId32 " (for %s; the game is over)", rep->r->value,
		          g->side);
		cli_field(stdout, "best move", "none: the game is over");
		return;
	}
	text_settings(rep);
	text_result(rep);
	text_parts(rep);
}

/* ---- the command line ---- */

/* One position option; the game's own name for it is only a spelling. `given` holds
 * --position, --fen, --moves and --seed as given (NULL: absent). */
static bool pick_position(search_args_t *a, const char *const given[4])
{
	const char *names[] = { "--position", "--fen", "--moves", "--seed" };
	const char *own[] = { NULL, "--fen", "--moves", "--seed", "--seed" };
	a->position = given[0];
	for (int i = 1; i < 4; i++) {
		if (!given[i])
			continue;
		if (!own[a->game] || strcmp(own[a->game], names[i]) != 0) {
			cli_error("search", "%s is not an option of --game %s (use --position)",
			          names[i], cli_game_names[a->game]);
			return false;
		}
		if (given[0]) {
			cli_error("search", "--position and %s name the same thing: give one",
			          names[i]);
			return false;
		}
		a->position = given[i];
	}
	return true;
}

/* The options that only one game takes. */
static bool game_options_fit(const search_args_t *a, const cli_opt_t *opts, int nopts)
{
	if (a->game != GAME_RTREE &&
	    (cli_given(opts, nopts, "branching") || cli_given(opts, nopts, "model"))) {
		cli_error("search", "--branching and --model are options of --game rtree only");
		return false;
	}
	if (a->game != GAME_PGAME &&
	    (cli_given(opts, nopts, "cells") || cli_given(opts, nopts, "legal"))) {
		cli_error("search", "--cells and --legal are options of --game pgame only");
		return false;
	}
	return true;
}

/* --algo (its default the game's), and the cluster's options only with --algo cluster. */
static bool pick_algo(search_args_t *a, const cli_opt_t *opts, int nopts)
{
	if (!cli_given(opts, nopts, "algo"))
		a->algo_text = cli_algo_names[a->defaults->algo];
	a->cluster = cli_cluster_wanted(a->algo_text);
	return cli_cluster_parse_algo("search", a->algo_text, CUTOFF_ALGO_PVS, &a->copts,
	                              &a->driver, &a->algo) &&
	       cli_cluster_check_options("search", a->cluster, opts, nopts);
}

/* --solve and --depth, with the game's defaults and limits. */
static bool pick_depth(search_args_t *a, const cli_opt_t *opts, int nopts)
{
	if (!cli_given(opts, nopts, "solve"))
		a->solve = a->defaults->solve;
	if (!cli_given(opts, nopts, "depth"))
		a->depth = a->solve ? 0 : a->defaults->depth;
	if (a->game == GAME_PGAME && a->depth == 0 && a->solve != 1) {
		cli_error("search", "--game pgame with --solve off needs a --depth (its oracle "
		                    "prints the longest line)");
		return false;
	}
	if (a->depth > max_depth[a->game]) {
		char q[CLI_QUOTE_SIZE], v[24];
		snprintf(v, sizeof(v), "%" PRId64, a->depth);
		cli_error("search", "--depth: expected 1..%d for --game %s, got %s",
		          max_depth[a->game], cli_game_names[a->game], cli_quote(q, sizeof(q), v));
		return false;
	}
	return true;
}

/* --iterate, --hash, --etc-min-depth, --ordering, --pruning and --branching, with the
 * game's defaults. */
static bool pick_engine(search_args_t *a, const cli_opt_t *opts, int nopts)
{
	const cli_game_defaults_t *d = a->defaults;
	if (!cli_given(opts, nopts, "iterate"))
		a->iterate = d->iterate;
	if (!cli_given(opts, nopts, "hash"))
		a->hash_mb =
			(int64_t)(a->algo == CUTOFF_ALGO_MTDF || a->driver != cli_driver_default()
		                          ? d->tt_mb_shared
		                          : d->tt_mb);
	if (!cli_given(opts, nopts, "etc-min-depth"))
		a->etc_min_depth = d->etc_min_depth;
	if (!cli_given(opts, nopts, "branching"))
		a->branching = d->branching;
	a->ordering = d->ordering;
	a->pruning = d->pruning;
	return (!a->ordering_text ||
	        cli_parse_ordering("search", a->ordering_text, &a->ordering)) &&
	       (!a->pruning_text || cli_parse_pruning("search", a->pruning_text, &a->pruning));
}

/* The limits but the depth, which may depend on the position (connect4). */
static bool set_limits(search_args_t *a)
{
	cutoff_limits_t *lim = &a->limits;
	cutoff_limits_default(lim);
	if (a->window_text && !parse_window(a->window_text, &lim->alpha, &lim->beta))
		return false;
	lim->guess = lim->beta < CUTOFF_INF ? lim->beta : 0;
	lim->iterate = a->iterate == 1;
	lim->time_ms = (uint64_t)a->time_ms;
	lim->solve = a->solve == 1;
	return true;
}

/* --help's texts that name each game's default, read from the games' table (kit/games.c)
 * and the limits above. */
typedef struct search_help {
	char depth[512], solve[384], algo[1024], iterate[160], hash[384], etc[256];
	char ordering[384], pruning[256], branching[128], window[160];
} search_help_t;

static void solve_value(const cli_game_defaults_t *d, char *out, size_t size)
{
	snprintf(out, size, "%s", cli_onoff_names[d->solve]);
}

static void algo_value(const cli_game_defaults_t *d, char *out, size_t size)
{
	snprintf(out, size, "%s", cli_algo_names[d->algo]);
}

static void iterate_value(const cli_game_defaults_t *d, char *out, size_t size)
{
	snprintf(out, size, "%s", cli_onoff_names[d->iterate]);
}

static void hash_value(const cli_game_defaults_t *d, char *out, size_t size)
{
	if (d->tt_mb == d->tt_mb_shared)
		snprintf(out, size, "%zu", d->tt_mb);
	else
		snprintf(out, size,
		         "%zu (%zu for mtdf and for every driver but serial, whose threads share "
		         "the table)",
		         d->tt_mb, d->tt_mb_shared);
}

static void etc_value(const cli_game_defaults_t *d, char *out, size_t size)
{
	snprintf(out, size, "%d", d->etc_min_depth);
}

static void ordering_value(const cli_game_defaults_t *d, char *out, size_t size)
{
	cli_ordering_text(d->ordering, out, size);
}

static void pruning_value(const cli_game_defaults_t *d, char *out, size_t size)
{
	cli_pruning_text(d->pruning, out, size);
}

static void search_help(search_help_t *h)
{
	char list[384], forms[128];
	size_t used = (size_t)snprintf(h->depth, sizeof(h->depth), "plies to search:");
	for (int g = 0; g <= GAME_PGAME && used < sizeof(h->depth); g++) {
		const cli_game_defaults_t *d = cli_game_defaults((cli_game_t)g, CLI_USE_SEARCH);
		char v[48];
		snprintf(v, sizeof(v), "%d", d->depth);
		used += (size_t)snprintf(h->depth + used, sizeof(h->depth) - used,
		                         "%s %s 1..%d, default %s", g ? ";" : "", cli_game_names[g],
		                         max_depth[g],
		                         d->depth   ? v
		                         : d->solve ? "to the end (--solve)"
		                                    : "the rest of the game");
	}
	snprintf(h->depth + used, sizeof(h->depth) - used,
	         ". Connect Four's bounds stop each line where the window's score can no longer "
	         "come; an rtree is as deep as its search");
	snprintf(h->solve, sizeof(h->solve),
	         "search to the end of the game (cutoff_limits_t.solve): values that never met "
	         "the horizon hold at every depth; without --depth there is no depth limit, and "
	         "--iterate on deepens until an iteration meets no horizon. Default %s",
	         cli_game_defaults_text(list, sizeof(list), CLI_USE_SEARCH, solve_value));
	snprintf(h->algo, sizeof(h->algo),
	         "%s" CLI_CLUSTER_ALGO_HELP ". Minimax never splits: ybw/minimax searches on one "
	         "thread (lazysmp/minimax runs the same full search on every one). Default %s",
	         cli_algo_forms(CUTOFF_ALGO_PVS, list, sizeof(list)),
	         cli_game_defaults_text(forms, sizeof(forms), CLI_USE_SEARCH, algo_value));
	snprintf(h->iterate, sizeof(h->iterate),
	         "iterative deepening 1..D, each iteration reported; default %s",
	         cli_game_defaults_text(list, sizeof(list), CLI_USE_SEARCH, iterate_value));
	snprintf(h->hash, sizeof(h->hash), "transposition table in MiB, %%r (0: none); default %s",
	         cli_game_defaults_text(list, sizeof(list), CLI_USE_SEARCH, hash_value));
	snprintf(h->etc, sizeof(h->etc),
	         "enhanced transposition cut-offs at nodes with at least N plies left "
	         "(config.etc_min_depth): %%r but 1, 0 meaning never; default %s",
	         cli_game_defaults_text(list, sizeof(list), CLI_USE_SEARCH, etc_value));
	snprintf(h->ordering, sizeof(h->ordering),
	         "the engine's move ordering: %s (none: the game's order); default %s",
	         cli_ordering_forms(forms, sizeof(forms)),
	         cli_game_defaults_text(list, sizeof(list), CLI_USE_SEARCH, ordering_value));
	snprintf(h->pruning, sizeof(h->pruning),
	         "speculative pruning (values then are inexact): %s; default %s",
	         cli_pruning_forms(forms, sizeof(forms)),
	         cli_game_defaults_text(list, sizeof(list), CLI_USE_SEARCH, pruning_value));
	snprintf(h->window, sizeof(h->window),
	         "the root window, -%d <= A < B <= %d; default the full window (a fail-soft "
	         "value outside it is a bound)",
	         CUTOFF_INF, CUTOFF_INF);
	snprintf(h->branching, sizeof(h->branching),
	         "rtree: children per inner node, %%r; default %d",
	         cli_game_defaults(CLI_GAME_RTREE, CLI_USE_SEARCH)->branching);
}

/* Reads the command line into *a, each game's defaults filled in: CLI_PARSED to go on,
 * or as cli_parse (after one line on stderr for a usage error). */
static cli_status_t parse_options(int argc, char **argv, search_args_t *a)
{
	const char *given[4] = { NULL, NULL, NULL, NULL }; /* --position, --fen, --moves, --seed */
	search_help_t h;
	search_help(&h);
	cli_opt_t opts[] = {
		CLI_CHOICE_OPT("game", &a->game, cli_game_names,
		               "the game (ttt: tic-tac-toe; rtree: a random tree; pgame: a random "
		               "game with passes, an Othello endgame's model); default %d"),
		CLI_STRING_OPT(
			"position", &given[0], "P",
			"ttt: 9 squares row by row, x, o, '.' or '-' (x moves first); chess: "
			"a FEN; connect4: the columns played, 1..7 ('' or '-': the empty "
			"board); rtree, pgame: the seed, 0..2^64-1. Default: the start "
			"(rtree, pgame: seed 1). --fen, --moves and --seed are the same "
			"option"),
		CLI_STRING_OPT("fen", &given[1], NULL, NULL),
		CLI_STRING_OPT("moves", &given[2], NULL, NULL),
		CLI_STRING_OPT("seed", &given[3], NULL, NULL),
		CLI_INT_OPT("depth", &a->depth, 1, CUTOFF_MAX_PLY - 1, "D", h.depth),
		CLI_CHOICE_OPT("solve", &a->solve, cli_onoff_names, h.solve),
		CLI_STRING_OPT("algo", &a->algo_text, "ALGO", h.algo),
		CLI_CHOICE_OPT("iterate", &a->iterate, cli_onoff_names, h.iterate),
		CLI_STRING_OPT("window", &a->window_text, "A,B", h.window),
		CLI_INT_OPT("time", &a->time_ms, 1, 86400000, "MS",
		            "stop after MS milliseconds, %r (the deepest completed iteration "
		            "answers; under lazysmp with --lazy-vote on, the thread its threads' "
		            "vote chose); default none"),
		CLI_INT_OPT("hash", &a->hash_mb, 0, 65536, "MB", h.hash),
		CLI_INT_OPT("tt-min-depth", &a->tt_min_depth, 0, CUTOFF_MAX_PLY, "N",
		            "nodes with fewer than N plies left neither probe nor store the table "
		            "(config.tt_min_depth), %r; default %d"),
		CLI_INT_OPT("etc-min-depth", &a->etc_min_depth, 0, CUTOFF_MAX_PLY, "N", h.etc),
		CLI_STRING_OPT("ordering", &a->ordering_text, "O", h.ordering),
		CLI_STRING_OPT("pruning", &a->pruning_text, "P", h.pruning),
		CLI_INT_OPT("branching", &a->branching, 2, 64, "B", h.branching),
		CLI_CHOICE_OPT("model", &a->model, model_names,
		               "rtree: incremental (each move adds a step to the mover's score) or "
		               "iid (independent leaves); default %d"),
		CLI_INT_OPT("cells", &a->cells, 1, 22, "N",
		            "pgame: empty cells at the start, %r; default %d. The report gives the "
		            "exact value and the longest line (the game's oracle)"),
		CLI_INT_OPT("legal", &a->legal, 1, 100, "P",
		            "pgame: per cent of empty cells legal for a side, %r; default %d"),
		CLI_ENGINE_OPTS(&a->par),
		CLI_CLUSTER_OPTS(&a->copts),
		CLI_FLAG_OPT("profile-tt-writers", &a->tt_writers,
		             "count the table hits on entries another thread (or rank) wrote"),
		CLI_FLAG_OPT("json", &a->json, "print one JSON object instead of the text report"),
	};
	const int nopts = (int)(sizeof(opts) / sizeof(opts[0]));

	cutoff_config_default(&a->par);
	cli_status_t st = cli_parse("search", search_usage, opts, nopts, argc, argv);
	if (st != CLI_PARSED)
		return st;
	a->defaults = cli_game_defaults((cli_game_t)a->game, CLI_USE_SEARCH);
	if (!pick_position(a, given) || !game_options_fit(a, opts, nopts) ||
	    !pick_algo(a, opts, nopts) || !pick_depth(a, opts, nopts) ||
	    !pick_engine(a, opts, nopts) || !set_limits(a) ||
	    !cli_check_etc_min_depth("search", a->etc_min_depth))
		return CLI_BAD;
	return CLI_PARSED;
}

/* ---- the search ---- */

/* The engine's configuration from the options. */
static void make_config(const search_args_t *a, cli_log_t *log, cutoff_config_t *cfg)
{
	cli_engine_config(cfg, &a->par, a->driver, a->algo, a->hash_mb, log);
	cfg->extensions = a->defaults->extensions;
	cfg->tt_cutoffs = a->defaults->tt_cutoffs;
	cfg->tt_min_depth = (int)a->tt_min_depth;
	cfg->etc_min_depth = (int)a->etc_min_depth;
	cfg->ordering = a->ordering;
	cfg->pruning = a->pruning;
	cfg->profile_tt_writers = a->tt_writers;
}

/* Each thread's counters and profile after the search, into arrays of par.threads that
 * the caller frees (even after a failure); CLI_EXIT_OK or CLI_EXIT_FAIL after one line. */
static int read_threads(cutoff_engine_t *engine, int threads, cutoff_counters_t **per_thread,
                        cutoff_profile_t **profiles, const cli_log_t *log)
{
	*per_thread = calloc((size_t)threads, sizeof(**per_thread));
	*profiles = calloc((size_t)threads, sizeof(**profiles));
	if (!*per_thread || !*profiles) {
		cli_error("search", "out of memory");
		return CLI_EXIT_FAIL;
	}
	for (int i = 0; i < threads; i++) {
		int rc = cutoff_engine_thread_counters(engine, i, &(*per_thread)[i]);
		if (rc == 0)
			rc = cutoff_engine_thread_profile(engine, i, &(*profiles)[i]);
		if (rc < 0) {
			cli_fail("search", "cannot read the thread counters", rc, log);
			return CLI_EXIT_FAIL;
		}
	}
	return CLI_EXIT_OK;
}

/* Prints the report of a search whose result is *r (rc: the search's return). */
static int report(const search_args_t *a, const search_game_t *g, const cli_cluster_t *cc, int rc,
                  const cutoff_result_t *r, const cutoff_counters_t *per_thread,
                  const cutoff_profile_t *profiles)
{
	char label[CLI_ALGO_LABEL_SIZE];
	search_report_t rep = {
		.g = g,
		.algo = cc ? "cluster" : cli_algo_label(a->driver, a->algo, label, sizeof(label)),
		.driver = a->driver,
		.par = &a->par,
		.per_thread = per_thread,
		.profiles = profiles,
		.lim = &a->limits,
		.hash_mb = a->hash_mb,
		.ordering = a->ordering,
		.pruning = a->pruning,
		.terminal = rc == CUTOFF_ETERMINAL,
		.r = r,
		.cluster = cc,
	};
	if (a->json)
		return print_json(&rep);
	print_text(&rep);
	return CLI_EXIT_OK;
}

/* Makes the engine, searches the game's root and reports. Every rank of a cluster runs
 * this same command line; a failure of one to make its engine or to search must end all
 * (cli_cluster_abort), since the others wait for it in the search. */
static int run_search(const search_args_t *a, const search_game_t *g, cli_cluster_t *cc)
{
	cli_log_t log = { "" };
	cutoff_config_t cfg;
	make_config(a, &log, &cfg);
	if (cc)
		cli_cluster_configure(cc, &cfg);
	cutoff_engine_t *engine = cli_engine_new("search", g->game, &cfg, &log);
	if (!engine) {
		if (cc)
			cli_cluster_abort(cc, CLI_EXIT_FAIL);
		return CLI_EXIT_FAIL;
	}
	static cutoff_result_t result; /* 33 KB: not on the stack */
	int rc = cc ? cli_cluster_search(cc, engine, g->root, &a->limits, &result, NULL, NULL)
	            : cutoff_engine_search(engine, g->root, &a->limits, &result, NULL, NULL);
	if (rc < 0 && rc != CUTOFF_ETERMINAL) {
		if (cc && *cli_cluster_error(cc))
			cli_error("search", "the cluster search failed: %s: %s",
			          cutoff_strerror(rc), cli_cluster_error(cc));
		else
			cli_fail("search", "the search failed", rc, &log);
		cutoff_engine_free(engine);
		if (cc)
			cli_cluster_abort(cc, CLI_EXIT_FAIL);
		return CLI_EXIT_FAIL;
	}
	cutoff_counters_t *per_thread = NULL;
	cutoff_profile_t *profiles = NULL;
	int status = read_threads(engine, (int)a->par.threads, &per_thread, &profiles, &log);
	cutoff_engine_free(engine);
	if (status == CLI_EXIT_OK)
		status = report(a, g, cc, rc, &result, per_thread, profiles);
	free(per_thread);
	free(profiles);
	return status;
}

int cli_search(int argc, char **argv)
{
	cutoff_pgame_params_t pgame;
	cutoff_pgame_params_default(&pgame);
	search_args_t a = {
		.game = GAME_TTT,
		.cells = pgame.cells,
		.legal = pgame.legal,
		.model = 1,
		.copts = { 0, 0, -1 },
	};
	cli_status_t st = parse_options(argc, argv, &a);
	if (st != CLI_PARSED)
		return cli_parse_exit(st);

	search_game_t g = { .id = a.game };
	if (!game_setup(&g, a.position, a.depth, (int)a.branching, a.model, (int)a.cells,
	                (int)a.legal)) {
		game_free(&g);
		return CLI_EXIT_USAGE;
	}
	if (g.id == GAME_CONNECT4 && a.depth == 0 && !a.limits.solve) /* to the end */
		a.depth = CUTOFF_CONNECT4_CELLS -
		          ((const cutoff_connect4_state_t *)g.root)->stones + 1;
	a.limits.depth = (int)a.depth;

	cli_cluster_t *cc = NULL;
	if (a.cluster && !(cc = cli_cluster_start("search", &a.copts))) {
		game_free(&g);
		return CLI_EXIT_FAIL;
	}
	int status = run_search(&a, &g, cc);
	game_free(&g);
	cli_cluster_end(cc);
	return status;
}
