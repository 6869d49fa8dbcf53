/*
 * search.c — `cutoff search`: one search of one position, reported with the search's
 * counters, so that the algorithms can be compared on a game whose figures are known (from
 * the empty tic-tac-toe board: value 0, 549,946 nodes for minimax). By default one thread
 * runs the serial driver; --algo DRIVER/ALGO and --threads N run a parallel driver, and
 * the report adds each thread's nodes.
 */
#include <inttypes.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "cutoff.h"
#include "cutoff_games.h"
#include "json.h"
#include "report.h"

/* clang-format off */
static const char search_usage[] =
	"usage: cutoff search [--game ttt] [--algo ALGO] [options]\n"
	"\n"
	"Searches one position with one algorithm and reports its value, best move and\n"
	"counters. Tic-tac-toe moves come in square order (0..8, row by row) and every\n"
	"position visited, the root included, counts as a node.\n"
	"\n"
	"  --game NAME       the game: ttt (tic-tac-toe); default ttt\n"
	"  --algo ALGO       the algorithm at every node: minimax, alphabeta, pvs or mtdf\n"
	"                    (on the serial driver); or a parallel driver: serial,\n"
	"                    lazysmp or ybw (with pvs), or DRIVER/ALGO such as ybw/mtdf.\n"
	"                    Minimax never splits: ybw/minimax searches on one thread\n"
	"                    (lazysmp/minimax runs the same full search on every one).\n"
	"                    Default alphabeta\n"
	"  --position TEXT   9 squares row by row: x, o, '.' or '-' for empty (x moves\n"
	"                    first; the side to move follows from the counts); default the\n"
	"                    empty board\n"
	"  --depth D         plies to search, 1..9; default 9 (the whole game)\n"
	"  --hash MB         transposition table in MiB, 0..65536 (0: none); default 16 for\n"
	"                    mtdf and lazysmp (whose threads share only the table), 0 for\n"
	"                    the others (so that the classic counts come out)\n"
	"  --ordering O      the engine's move ordering: none (square order), all, or a list\n"
	"                    of tt,hints,killers,history; default none\n"
	CLI_PARALLEL_USAGE
	"  --json            print one JSON object instead of the text report\n"
	"  --help            print this help\n";
/* clang-format on */

enum {
	GAME_TTT = 0
};
static const char *const game_names[] = { "ttt", NULL };

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

/* The position written back as 9 characters, whatever spelling it was given in. */
static void ttt_text(const cutoff_ttt_state_t *s, char text[10])
{
	for (int i = 0; i < 9; i++)
		text[i] = s->x >> i & 1 ? 'x' : s->o >> i & 1 ? 'o' : '.';
	text[9] = '\0';
}

static bool ttt_x_to_move(const cutoff_ttt_state_t *s)
{
	return __builtin_popcount(s->x) == __builtin_popcount(s->o);
}

/* Reads --position; on failure prints why (the library only says "invalid"). */
static bool read_position(const char *text, cutoff_ttt_state_t *state)
{
	char q[CLI_QUOTE_SIZE];
	size_t len = strlen(text);

	if (len != 9 || strspn(text, "xXoO.-") != len) {
		cli_error("search", "--position: expected 9 squares, each x, o, '.' or '-', got %s",
		          cli_quote(q, sizeof(q), text));
		return false;
	}
	if (cutoff_ttt_parse(text, state) < 0) {
		cli_error("search",
		          "--position: not a position of a game (x moves first, so x has as many "
		          "squares as o or one more, and the side to move has no line yet), got %s",
		          cli_quote(q, sizeof(q), text));
		return false;
	}
	return true;
}

static double rate(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

static double per_second(uint64_t n, double seconds)
{
	return seconds > 0 ? (double)n / seconds : 0.0;
}

typedef struct search_report {
	const char *algo; /* the label: "alphabeta", "ybw/pvs" */
	cutoff_driver_t driver;
	const cli_parallel_t *par;
	const cutoff_counters_t *per_thread; /* par->threads of them */
	const cutoff_profile_t *profiles;    /* par->threads of them */
	int depth;
	int64_t hash_mb;
	const char *position; /* canonical text */
	bool x_to_move;
	bool terminal;
	const cutoff_result_t *r;
} search_report_t;

static int print_json(const search_report_t *rep)
{
	const cutoff_result_t *r = rep->r;
	const cutoff_counters_t *c = &r->counters;
	json_writer_t w;

	json_init(&w, stdout);
	json_begin_object(&w, NULL);
	json_string(&w, "game", "ttt");
	json_string(&w, "position", rep->position);
	json_string(&w, "to_move", rep->x_to_move ? "x" : "o");
	json_string(&w, "algo", rep->algo);
	json_string(&w, "driver", cli_driver_names[rep->driver]);
	json_int(&w, "threads", rep->par->threads);
	json_string(&w, "placement", cli_placement_names[rep->par->placement]);
	json_int(&w, "min_split", rep->par->min_split);
	json_int(&w, "max_helpers", rep->par->max_helpers);
	json_int(&w, "depth", rep->depth);
	json_int(&w, "hash_mb", rep->hash_mb);
	json_bool(&w, "terminal", rep->terminal);
	json_int(&w, "value", r->value);
	json_string(&w, "bound", bound_name(r->bound));
	if (r->best_move == CUTOFF_MOVE_NONE)
		json_null(&w, "best_move");
	else
		json_uint(&w, "best_move", r->best_move);
	json_begin_array(&w, "pv");
	for (int i = 0; i < r->pv_length; i++)
		json_uint(&w, NULL, r->pv[i]);
	json_end(&w);
	json_uint(&w, "nodes", c->nodes);
	json_uint(&w, "leaves", c->leaves);
	json_uint(&w, "cutoffs", c->cutoffs);
	json_uint(&w, "first_move_cutoffs", c->first_move_cutoffs);
	json_double(&w, "first_move_cutoff_rate", rate(c->first_move_cutoffs, c->cutoffs));
	json_uint(&w, "researches", c->researches);
	json_uint(&w, "mtdf_passes", c->mtdf_passes);
	json_uint(&w, "tt_probes", c->tt_probes);
	json_uint(&w, "tt_hits", c->tt_hits);
	json_uint(&w, "tt_cutoffs", c->tt_cutoffs);
	json_uint(&w, "splits", c->splits);
	json_double(&w, "time_s", r->time_s);
	json_double(&w, "nps", per_second(c->nodes, r->time_s));
	json_bool(&w, "profiled", cutoff_profile_available());
	cli_json_counters(&w, "counters", c);
	cli_json_profile(&w, "profile", &r->profile);
	json_begin_array(&w, "per_thread");
	for (int i = 0; i < (int)rep->par->threads; i++) {
		json_begin_object(&w, NULL);
		json_int(&w, "thread", i);
		json_uint(&w, "nodes", rep->per_thread[i].nodes);
		json_double(&w, "nps", per_second(rep->per_thread[i].nodes, r->time_s));
		json_end(&w);
	}
	json_end(&w);
	/* Beside per_thread (whose flat shape scripts read): every counter and the profile. */
	json_begin_array(&w, "per_thread_profile");
	for (int i = 0; i < (int)rep->par->threads; i++) {
		json_begin_object(&w, NULL);
		json_int(&w, "thread", i);
		cli_json_counters(&w, "counters", &rep->per_thread[i]);
		cli_json_profile(&w, "profile", &rep->profiles[i]);
		json_end(&w);
	}
	json_end(&w);
	json_end(&w);
	if (json_finish(&w) < 0) {
		cli_error("search", "cannot write the JSON output");
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}

static void print_text(const search_report_t *rep)
{
	const cutoff_result_t *r = rep->r;
	const cutoff_counters_t *c = &r->counters;
	const char *side = rep->x_to_move ? "x" : "o";

	cli_field(stdout, "game", "ttt (tic-tac-toe)");
	cli_field(stdout, "position", "%s (%s to move)", rep->position, side);
	if (rep->terminal) {
		/* The library searched nothing: there is only the position's own value. */
		cli_field(stdout, "value", "%" PRId32 " (for %s; the game is over)", r->value,
		          side);
		cli_field(stdout, "best move", "none: the game is over");
		return;
	}
	cli_field(stdout, "algorithm", "%s", rep->algo);
	/* The default (one thread, serial) keeps the report as it always was. */
	bool parallel = rep->par->threads > 1 || rep->driver != CUTOFF_DRIVER_SERIAL;
	if (parallel)
		cli_field(stdout, "threads", "%" PRId64 ", %s driver, placement %s",
		          rep->par->threads, cli_driver_names[rep->driver],
		          cli_placement_names[rep->par->placement]);
	if (rep->driver == CUTOFF_DRIVER_YBW)
		cli_field(stdout, "split rules",
		          "at least %" PRId64 " plies left, at most %" PRId64 " helpers",
		          rep->par->min_split, rep->par->max_helpers);
	cli_field(stdout, "depth", "%d", rep->depth);
	cli_field(stdout, "table", "%" PRId64 " MiB", rep->hash_mb);
	cli_field(stdout, "value", "%" PRId32 " (for %s, the side to move; %s)", r->value, side,
	          bound_name(r->bound));
	cli_field(stdout, "best move", "%" PRIu32, r->best_move);
	fprintf(stdout, "%-22s", "principal variation");
	for (int i = 0; i < r->pv_length; i++)
		fprintf(stdout, "%s%" PRIu32, i ? " " : "", r->pv[i]);
	fputc('\n', stdout);
	cli_field(stdout, "nodes", "%" PRIu64, c->nodes);
	cli_field(stdout, "leaves", "%" PRIu64, c->leaves);
	cli_field(stdout, "cut-offs", "%" PRIu64, c->cutoffs);
	cli_field(stdout, "first-move cut-offs", "%.1f %% (%" PRIu64 ")",
	          100.0 * rate(c->first_move_cutoffs, c->cutoffs), c->first_move_cutoffs);
	cli_field(stdout, "re-searches", "%" PRIu64, c->researches);
	cli_field(stdout, "MTD(f) passes", "%" PRIu64, c->mtdf_passes);
	cli_field(stdout, "table hits", "%" PRIu64 " of %" PRIu64 " probes (%" PRIu64 " cut-offs)",
	          c->tt_hits, c->tt_probes, c->tt_cutoffs);
	if (rep->driver == CUTOFF_DRIVER_YBW)
		cli_field(stdout, "split points", "%" PRIu64, c->splits);
	cli_field(stdout, "time", "%.6f s", r->time_s);
	cli_field(stdout, "nodes per second", "%.0f", per_second(c->nodes, r->time_s));
	for (int i = 0; rep->par->threads > 1 && i < (int)rep->par->threads; i++) {
		char label[32];
		const cutoff_counters_t *t = &rep->per_thread[i];
		snprintf(label, sizeof(label), "thread %d", i);
		cli_field(stdout, label, "%" PRIu64 " nodes (%.1f %%), %.0f nodes per second",
		          t->nodes, 100.0 * rate(t->nodes, c->nodes),
		          per_second(t->nodes, r->time_s));
	}
}

int cli_search(int argc, char **argv)
{
	int game = GAME_TTT;
	const char *algo_text = "alphabeta";
	cutoff_driver_t driver;
	cutoff_algo_t algo;
	cli_parallel_t par;
	const char *position = NULL;
	int64_t depth = 9, hash_mb = 0;
	const char *ordering_text = "none";
	unsigned ordering;
	bool json = false;
	cli_opt_t opts[] = {
		{ .name = "game", .kind = CLI_CHOICE, .dest.choice = &game, .choices = game_names },
		{ .name = "algo", .kind = CLI_STRING, .dest.s = &algo_text },
		{ .name = "position", .kind = CLI_STRING, .dest.s = &position },
		{ .name = "depth", .kind = CLI_INT, .dest.i = &depth, .min = 1, .max = 9 },
		{ .name = "hash", .kind = CLI_INT, .dest.i = &hash_mb, .min = 0, .max = 65536 },
		{ .name = "ordering", .kind = CLI_STRING, .dest.s = &ordering_text },
		{ .name = "json", .kind = CLI_FLAG, .dest.flag = &json },
		CLI_PARALLEL_OPTS(&par),
	};
	const int nopts = (int)(sizeof(opts) / sizeof(opts[0]));

	cli_parallel_default(&par);
	switch (cli_parse("search", search_usage, opts, nopts, argc, argv)) {
	case CLI_HELP:
		return CLI_EXIT_OK;
	case CLI_BAD:
		return CLI_EXIT_USAGE;
	case CLI_PARSED:
		break;
	}
	if (!cli_parse_algo("search", algo_text, &driver, &algo))
		return CLI_EXIT_USAGE;
	/* MTD(f) without a table searches the tree again on every pass, and lazy SMP's
	 * threads share nothing else; the others run without one by default so that their
	 * counts are the textbook ones. */
	if (!cli_given(opts, nopts, "hash"))
		hash_mb = algo == CUTOFF_ALGO_MTDF || driver == CUTOFF_DRIVER_LAZYSMP ? 16 : 0;
	if (!cli_parse_ordering("search", ordering_text, &ordering))
		return CLI_EXIT_USAGE;

	cutoff_ttt_state_t root;
	if (position) {
		if (!read_position(position, &root))
			return CLI_EXIT_USAGE;
	} else {
		cutoff_ttt_start(&root);
	}
	(void)game; /* one game so far: --game only validates the name */

	cli_log_t log = { "" };
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cli_parallel_apply(&par, &cfg);
	cfg.driver = driver;
	cfg.algo = algo;
	cfg.tt_mb = (size_t)hash_mb;
	cfg.ordering = ordering;
	cfg.log = cli_log_keep;
	cfg.log_user = &log;

	int err;
	cutoff_engine_t *engine = cutoff_engine_new(cutoff_ttt_game(), &cfg, &err);
	if (!engine) {
		cli_fail("search", "cannot make the engine", err, &log);
		return CLI_EXIT_FAIL;
	}
	cutoff_limits_t limits;
	cutoff_limits_default(&limits);
	limits.depth = (int)depth;
	limits.iterate = false;

	cutoff_result_t result;
	int rc = cutoff_engine_search(engine, &root, &limits, &result, NULL, NULL);
	if (rc < 0 && rc != CUTOFF_ETERMINAL) {
		cli_fail("search", "the search failed", rc, &log);
		cutoff_engine_free(engine);
		return CLI_EXIT_FAIL;
	}
	static cutoff_counters_t per_thread[CUTOFF_MAX_THREADS];
	static cutoff_profile_t profiles[CUTOFF_MAX_THREADS];
	for (int i = 0; i < (int)par.threads; i++) {
		int trc = cutoff_engine_thread_counters(engine, i, &per_thread[i]);
		if (trc == 0)
			trc = cutoff_engine_thread_profile(engine, i, &profiles[i]);
		if (trc < 0) {
			cli_fail("search", "cannot read the thread counters", trc, &log);
			cutoff_engine_free(engine);
			return CLI_EXIT_FAIL;
		}
	}
	cutoff_engine_free(engine);

	char text[10];
	ttt_text(&root, text);
	char label[CLI_ALGO_LABEL_SIZE];
	search_report_t rep = {
		.algo = cli_algo_label(driver, algo, label, sizeof(label)),
		.driver = driver,
		.par = &par,
		.per_thread = per_thread,
		.profiles = profiles,
		.depth = (int)depth,
		.hash_mb = hash_mb,
		.position = text,
		.x_to_move = ttt_x_to_move(&root),
		.terminal = rc == CUTOFF_ETERMINAL,
		.r = &result,
	};
	if (json)
		return print_json(&rep);
	print_text(&rep);
	return CLI_EXIT_OK;
}
