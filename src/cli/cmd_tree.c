/* SPDX-License-Identifier: MIT */
/*
 * cmd_tree.c — `cutoff tree`: searches a run of synthetic uniform random trees with one
 * algorithm and compares the leaves it reads with Knuth and Moore's minimal tree, the
 * least any alpha-beta search can read. Every answer is checked against the tree's true
 * value (cutoff_rtree_value, a full negamax), so the command is a correctness check as
 * well as a measurement: it fails when any value differs.
 *
 * Tree i (from 0) is the one drawn with seed S + i (the last, S + N - 1, at most
 * 2^64 - 1), searched to its full depth with the full window (in one search, or by
 * iterative deepening with --iterate), on a cleared table and a fresh move-ordering
 * history, so that no tree profits from the one before. By default the engine keeps the
 * tree's own move order (--ordering none), which is what the minimal-tree comparison is
 * about; --ordering all measures the engine's heuristics instead, and --iterate reports the
 * first-move cut-off rate per iteration.
 *
 * With a parallel driver (--algo DRIVER, --threads N) the same check is the exactness test
 * of the driver at N threads: every tree's value must still be the true one. The report
 * adds the driver's own counters (split points, deferred moves) where it counted any,
 * and each thread's share of the nodes.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "cli/commands.h"
#include "cutoff.h"
#include "cutoff_games.h"
#include "kit/args.h"
#include "kit/json.h"
#include "kit/report.h"

/* clang-format off */
static const char tree_usage[] =
	"usage: cutoff tree [options]\n"
	"\n"
	"Searches N random uniform trees (every inner node has B children, every leaf is D\n"
	"plies deep, leaf values uniform in MIN..MAX) with one algorithm, checks each value\n"
	"against a full negamax of the tree, and compares the leaves read with the minimal\n"
	"tree B^ceil(D/2) + B^floor(D/2) - 1. Exits 1 when any value is wrong. Every tree is\n"
	"read in full to check its value, and best/worst ordering reads the subtrees again at\n"
	"every ply, so runs estimated at more than 1e10 leaf reads (a minute or two) are\n"
	"refused.\n";
/* clang-format on */

static const char *const order_names[] = { "natural", "best", "worst", NULL };
static const char *const model_names[] = { "iid", "incremental", NULL };

_Static_assert(CUTOFF_RTREE_NATURAL == 0 && CUTOFF_RTREE_BEST == 1 && CUTOFF_RTREE_WORST == 2,
               "order_names is indexed by cutoff_rtree_order_t");

/* A guess or a value must stay an ordinary score (not a win), with room to negate it. */
#define TREE_VALUE_LIMIT (CUTOFF_WIN_MIN - 1)

/* The most leaf reads a run may be expected to make: a minute or two of work
 * (docs/measurements.md, "(j) Figures behind the code's choices", leaf reads). */
#define TREE_MAX_READS 1e10

typedef struct tree_args {
	int64_t branching, depth, trees;
	uint64_t seed;
	int order;
	cutoff_driver_t driver;
	cutoff_algo_t algo;
	cutoff_config_t par; /* the engine template: threads, placement, the drivers' options */
	bool guess_true;
	bool no_check; /* --no-check: skip the oracle (for trees too big to read in full) */
	int64_t guess;
	int64_t hash_mb;
	int64_t value_min, value_max;
	int model;
	unsigned ordering;
	bool iterate;
	int64_t aspiration;
	bool json;
} tree_args_t;

enum {
	TREE_MAX_DEPTH = 30,
	TREE_SHARED_MB = 16 /* the default table of MTD(f) and of the parallel drivers */
};

typedef struct tree_totals {
	uint64_t leaves, leaves_min, leaves_max, nodes;
	uint64_t cutoffs, first_move_cutoffs, researches, passes;
	uint64_t splits;
	uint64_t mismatches;
	uint64_t *thread_nodes;             /* [par.threads]: each thread's nodes over all trees */
	cutoff_counters_t counters;         /* every counter, summed over the trees */
	cutoff_profile_t profile;           /* the searches' profiles, summed over the trees */
	cutoff_counters_t *thread_counters; /* [par.threads]: each thread's, over the trees */
	cutoff_profile_t *thread_profiles;  /* [par.threads]: likewise */
	double search_s;                    /* the searches alone, as the library timed them */
	double wall_s;                      /* everything: oracle, table clearing, searches */
	/* by iteration depth, with --iterate */
	uint64_t it_nodes[TREE_MAX_DEPTH + 1], it_cutoffs[TREE_MAX_DEPTH + 1],
		it_first[TREE_MAX_DEPTH + 1];
} tree_totals_t;

/*
 * The leaf reads a run costs, roughly: the oracle reads each tree in full (B^D), minimax
 * reads it in full once more, and best/worst ordering reads the subtrees of every node it
 * orders, which adds up to about one full tree per ply.
 */
static double estimated_reads(const tree_args_t *a)
{
	double full = pow((double)a->branching, (double)a->depth);
	double per_tree =
		full * ((a->no_check ? 0.0 : 1.0) + (a->algo == CUTOFF_ALGO_MINIMAX ? 1.0 : 0.0));
	if (a->order != CUTOFF_RTREE_NATURAL)
		per_tree += full * (double)a->depth;
	return per_tree * (double)a->trees;
}

/* The checks that involve several options; one line on stderr when one fails. */
static bool check_args(tree_args_t *a, const char *guess_text)
{
	char q[CLI_QUOTE_SIZE];

	if (a->value_min > a->value_max) {
		cli_error("tree", "--min %" PRId64 " is greater than --max %" PRId64, a->value_min,
		          a->value_max);
		return false;
	}
	/* The seeds are a plain range, never one that wraps past 2^64-1 to 0: the report's
	 * "seeds S..S+N-1" then means what it says. */
	if (a->seed > UINT64_MAX - (uint64_t)(a->trees - 1)) {
		cli_error("tree",
		          "--seed %" PRIu64 " with --trees %" PRId64 ": the seeds S..S+N-1 would "
		          "pass 2^64-1 (%" PRIu64 "); use --seed at most %" PRIu64
		          " or fewer trees",
		          a->seed, a->trees, UINT64_MAX, UINT64_MAX - (uint64_t)(a->trees - 1));
		return false;
	}
	if (guess_text) {
		if (strcmp(guess_text, "true") == 0) {
			a->guess_true = true;
		} else if (!cli_int_value(guess_text, -TREE_VALUE_LIMIT, TREE_VALUE_LIMIT,
		                          &a->guess)) {
			cli_error("tree",
			          "--guess: expected 'true' or an integer in %d..%d, got %s",
			          -TREE_VALUE_LIMIT, TREE_VALUE_LIMIT,
			          cli_quote(q, sizeof(q), guess_text));
			return false;
		}
	}
	int64_t step = a->value_max > -a->value_min ? a->value_max : -a->value_min;
	if (a->model == CUTOFF_RTREE_INCREMENTAL && step * a->depth >= CUTOFF_WIN_MIN) {
		cli_error("tree",
		          "--model incremental: --depth %" PRId64 " times the largest step %" PRId64
		          " must stay below %d",
		          a->depth, step, CUTOFF_WIN_MIN);
		return false;
	}
	double reads = estimated_reads(a);
	if (reads > TREE_MAX_READS) {
		bool ordered = a->order != CUTOFF_RTREE_NATURAL;
		bool minimax = a->algo == CUTOFF_ALGO_MINIMAX;
		cli_error("tree",
		          "--branching %" PRId64 " --depth %" PRId64 " --trees %" PRId64 "%s%s%s "
		          "would take about %.1e leaf reads (each tree is read in full to check "
		          "its value%s%s); the limit is %.0e: make the trees smaller or fewer",
		          a->branching, a->depth, a->trees, ordered ? " --order " : "",
		          ordered ? order_names[a->order] : "", minimax ? " --algo minimax" : "",
		          reads, minimax ? ", and again by minimax" : "",
		          ordered ? ", and again at every ply to order the moves" : "",
		          TREE_MAX_READS);
		return false;
	}
	return true;
}

/* The trees of the run (their seed aside); NULL after one line on stderr. */
static cutoff_rtree_t *make_trees(const tree_args_t *a)
{
	cutoff_rtree_params_t params;
	cutoff_rtree_params_default(&params);
	params.branching = (int)a->branching;
	params.depth = (int)a->depth;
	params.value_min = (int32_t)a->value_min;
	params.value_max = (int32_t)a->value_max;
	params.order = (cutoff_rtree_order_t)a->order;
	params.model = (cutoff_rtree_model_t)a->model;
	int err;
	cutoff_rtree_t *tree = cutoff_rtree_new(&params, &err);
	if (!tree)
		cli_fail("tree", "cannot make the trees", err, NULL);
	return tree;
}

static cutoff_engine_t *make_engine(const tree_args_t *a, const cutoff_rtree_t *tree,
                                    cli_log_t *log)
{
	cutoff_config_t cfg;
	cli_engine_config(&cfg, &a->par, a->driver, a->algo, a->hash_mb, log);
	cfg.ordering = a->ordering;
	cfg.aspiration = (int32_t)a->aspiration;
	return cli_engine_new("tree", cutoff_rtree_game(tree), &cfg, log);
}

/* Zeroes the totals, the per-thread arrays they point to included. */
static void reset_totals(const tree_args_t *a, tree_totals_t *t)
{
	uint64_t *thread_nodes = t->thread_nodes;
	cutoff_counters_t *thread_counters = t->thread_counters;
	cutoff_profile_t *thread_profiles = t->thread_profiles;
	memset(t, 0, sizeof(*t));
	t->thread_nodes = thread_nodes;
	t->thread_counters = thread_counters;
	t->thread_profiles = thread_profiles;
	memset(thread_nodes, 0, (size_t)a->par.threads * sizeof(*thread_nodes));
	memset(thread_counters, 0, (size_t)a->par.threads * sizeof(*thread_counters));
	memset(thread_profiles, 0, (size_t)a->par.threads * sizeof(*thread_profiles));
	t->leaves_min = UINT64_MAX;
}

/* Adds one tree's search to the totals (its threads aside). */
static void add_result(tree_totals_t *t, const cutoff_result_t *r)
{
	const cutoff_counters_t *c = &r->counters;
	t->leaves += c->leaves;
	if (c->leaves < t->leaves_min)
		t->leaves_min = c->leaves;
	if (c->leaves > t->leaves_max)
		t->leaves_max = c->leaves;
	t->nodes += c->nodes;
	t->cutoffs += c->cutoffs;
	t->first_move_cutoffs += c->first_move_cutoffs;
	t->researches += c->researches;
	t->passes += c->mtdf_passes;
	t->splits += cli_counter(c, "splits");
	t->search_s += r->time_s;
	cutoff_counters_add(&t->counters, c);
	cutoff_profile_add(&t->profile, &r->profile);
	for (int k = 0; k < r->iterations; k++) {
		const cutoff_iteration_t *it = &r->iteration[k];
		t->it_nodes[it->depth] += it->counters.nodes;
		t->it_cutoffs[it->depth] += it->counters.cutoffs;
		t->it_first[it->depth] += it->counters.first_move_cutoffs;
	}
}

/* Adds each thread's counters and profile of the latest search to the totals. */
static int add_threads(const tree_args_t *a, cutoff_engine_t *engine, tree_totals_t *t,
                       const cli_log_t *log)
{
	for (int k = 0; k < (int)a->par.threads; k++) {
		cutoff_counters_t tc;
		cutoff_profile_t tp;
		int rc = cutoff_engine_thread_counters(engine, k, &tc);
		if (rc == 0)
			rc = cutoff_engine_thread_profile(engine, k, &tp);
		if (rc < 0) {
			cli_fail("tree", "cannot read the thread counters", rc, log);
			return CLI_EXIT_FAIL;
		}
		t->thread_nodes[k] += tc.nodes;
		cutoff_counters_add(&t->thread_counters[k], &tc);
		cutoff_profile_add(&t->thread_profiles[k], &tp);
	}
	return CLI_EXIT_OK;
}

/* Searches tree i on a cleared table, checks its value against the oracle (unless
 * --no-check) and adds it to the totals; CLI_EXIT_FAIL after one line. */
static int search_tree(const tree_args_t *a, const cutoff_rtree_t *tree, cutoff_engine_t *engine,
                       int64_t i, tree_totals_t *t, const cli_log_t *log)
{
	cutoff_rtree_state_t root;
	cutoff_rtree_root(tree, a->seed + (uint64_t)i, &root);
	int32_t truth = a->no_check && !a->guess_true ? 0 : cutoff_rtree_value(tree, &root);

	int rc = cutoff_engine_clear(engine);
	if (rc < 0) {
		cli_fail("tree", "cannot clear the table", rc, log);
		return CLI_EXIT_FAIL;
	}
	cutoff_limits_t limits;
	cutoff_limits_default(&limits);
	limits.depth = (int)a->depth;
	limits.iterate = a->iterate;
	limits.guess = a->guess_true ? truth : (int32_t)a->guess;

	cutoff_result_t r;
	rc = cutoff_engine_search(engine, &root, &limits, &r, NULL, NULL);
	if (rc < 0) {
		cli_fail("tree", "the search failed", rc, log);
		return CLI_EXIT_FAIL;
	}
	add_result(t, &r);
	if (add_threads(a, engine, t, log) != CLI_EXIT_OK)
		return CLI_EXIT_FAIL;
	if (!a->no_check && (r.value != truth || r.bound != CUTOFF_BOUND_EXACT || r.stopped))
		t->mismatches++;
	return CLI_EXIT_OK;
}

/* Searches every tree; CLI_EXIT_OK with *t filled, or CLI_EXIT_FAIL after one line. */
static int run_trees(const tree_args_t *a, tree_totals_t *t)
{
	cli_log_t log = { "" };
	cutoff_rtree_t *tree = make_trees(a);
	if (!tree)
		return CLI_EXIT_FAIL;
	cutoff_engine_t *engine = make_engine(a, tree, &log);
	if (!engine) {
		cutoff_rtree_free(tree);
		return CLI_EXIT_FAIL;
	}
	int status = CLI_EXIT_OK;
	double t0 = cli_now_s();
	reset_totals(a, t);
	for (int64_t i = 0; i < a->trees && status == CLI_EXIT_OK; i++)
		status = search_tree(a, tree, engine, i, t, &log);
	t->wall_s = cli_now_s() - t0;
	cutoff_engine_free(engine);
	cutoff_rtree_free(tree);
	return status;
}

/* The derived figures, computed once for both reports. */
typedef struct tree_figures {
	double leaves_mean, nodes_mean, researches_mean, passes_mean, splits_mean;
	uint64_t minimal;
	double ratio, fmc_rate, nps;
} tree_figures_t;

static tree_figures_t figures(const tree_args_t *a, const tree_totals_t *t)
{
	double n = (double)a->trees;
	tree_figures_t f = {
		.leaves_mean = (double)t->leaves / n,
		.nodes_mean = (double)t->nodes / n,
		.researches_mean = (double)t->researches / n,
		.passes_mean = (double)t->passes / n,
		.splits_mean = (double)t->splits / n,
		.minimal = cutoff_minimal_tree((int)a->branching, (int)a->depth),
		.fmc_rate = cli_rate(t->first_move_cutoffs, t->cutoffs),
		.nps = cli_per_second(t->nodes, t->search_s),
	};
	f.ratio = f.minimal ? f.leaves_mean / (double)f.minimal : 0.0;
	return f;
}

static int print_json(const tree_args_t *a, const tree_totals_t *t)
{
	tree_figures_t f = figures(a, t);
	char algo_label[CLI_ALGO_LABEL_SIZE];
	json_writer_t w;

	jw_init(&w, stdout);
	jw_begin_object(&w, NULL);
	jw_int(&w, "branching", a->branching);
	jw_int(&w, "depth", a->depth);
	jw_int(&w, "trees", a->trees);
	jw_uint(&w, "seed", a->seed);
	jw_string(&w, "order", order_names[a->order]);
	jw_string(&w, "algo", cli_algo_label(a->driver, a->algo, algo_label, sizeof(algo_label)));
	cli_json_parallel(&w, a->driver, &a->par);
	/* The word 'true' as given on the command line, or the number. */
	if (a->guess_true)
		jw_string(&w, "guess", "true");
	else
		jw_int(&w, "guess", a->guess);
	jw_int(&w, "hash_mb", a->hash_mb);
	jw_int(&w, "value_min", a->value_min);
	jw_int(&w, "value_max", a->value_max);
	jw_string(&w, "model", model_names[a->model]);
	jw_uint(&w, "ordering", a->ordering);
	jw_bool(&w, "iterate", a->iterate);
	jw_int(&w, "aspiration", a->aspiration);
	jw_double(&w, "leaves_mean", f.leaves_mean);
	jw_uint(&w, "leaves_min", t->leaves_min);
	jw_uint(&w, "leaves_max", t->leaves_max);
	jw_double(&w, "nodes_mean", f.nodes_mean);
	jw_uint(&w, "minimal_tree", f.minimal);
	jw_double(&w, "ratio", f.ratio);
	if (a->no_check)
		jw_null(&w, "mismatches");
	else
		jw_uint(&w, "mismatches", t->mismatches);
	jw_uint(&w, "cutoffs", t->cutoffs);
	jw_uint(&w, "first_move_cutoffs", t->first_move_cutoffs);
	jw_double(&w, "first_move_cutoff_rate", f.fmc_rate);
	jw_double(&w, "researches_mean", f.researches_mean);
	jw_double(&w, "passes_mean", f.passes_mean);
	jw_double(&w, "splits_mean", f.splits_mean);
	jw_begin_array(&w, "per_thread_nodes_mean");
	for (int k = 0; k < (int)a->par.threads; k++)
		jw_double(&w, NULL, (double)t->thread_nodes[k] / (double)a->trees);
	jw_end(&w);
	jw_double(&w, "time_s", t->search_s);
	jw_double(&w, "wall_s", t->wall_s);
	jw_double(&w, "nps", f.nps);
	/* Sums over the trees (seldepth and the depths: the maxima). */
	jw_bool(&w, "profiled", cutoff_profile_available());
	cli_json_counters(&w, "counters", &t->counters);
	cli_json_profile(&w, "profile", &t->profile);
	jw_begin_array(&w, "per_thread_profile");
	for (int k = 0; k < (int)a->par.threads; k++) {
		jw_begin_object(&w, NULL);
		jw_int(&w, "thread", k);
		cli_json_counters(&w, "counters", &t->thread_counters[k]);
		cli_json_profile(&w, "profile", &t->thread_profiles[k]);
		jw_end(&w);
	}
	jw_end(&w);
	jw_begin_array(&w, "iterations");
	for (int d = 1; a->iterate && d <= a->depth; d++) {
		jw_begin_object(&w, NULL);
		jw_int(&w, "depth", d);
		jw_double(&w, "nodes_mean", (double)t->it_nodes[d] / (double)a->trees);
		jw_uint(&w, "cutoffs", t->it_cutoffs[d]);
		jw_double(&w, "first_move_cutoff_rate", cli_rate(t->it_first[d], t->it_cutoffs[d]));
		jw_end(&w);
	}
	jw_end(&w);
	jw_end(&w);
	return cli_json_finish(&w, "tree");
}

static void print_text(const tree_args_t *a, const tree_totals_t *t)
{
	tree_figures_t f = figures(a, t);
	char algo_label[CLI_ALGO_LABEL_SIZE];

	cli_field(stdout, "trees", "%" PRId64 " (seeds %" PRIu64 "..%" PRIu64 ")", a->trees,
	          a->seed, a->seed + (uint64_t)(a->trees - 1));
	cli_field(stdout, "tree",
	          "branching %" PRId64 ", depth %" PRId64 ", values %" PRId64 "..%" PRId64
	          ", %s order",
	          a->branching, a->depth, a->value_min, a->value_max, order_names[a->order]);
	cli_field(stdout, "model", "%s", model_names[a->model]);
	cli_field(stdout, "algorithm", "%s, table %" PRId64 " MiB, ordering 0x%x%s",
	          cli_algo_label(a->driver, a->algo, algo_label, sizeof(algo_label)), a->hash_mb,
	          a->ordering, a->iterate ? ", iterative deepening" : "");
	cli_print_parallel(stdout, a->driver, &a->par);
	if (a->algo == CUTOFF_ALGO_MTDF) {
		if (a->guess_true)
			cli_field(stdout, "first guess", "each tree's true value");
		else
			cli_field(stdout, "first guess", "%" PRId64, a->guess);
	}
	cli_field(stdout, "leaves", "mean %.2f, min %" PRIu64 ", max %" PRIu64, f.leaves_mean,
	          t->leaves_min, t->leaves_max);
	cli_field(stdout, "nodes", "mean %.2f", f.nodes_mean);
	cli_field(stdout, "minimal tree", "%" PRIu64 " leaves", f.minimal);
	cli_field(stdout, "ratio", "%.3f (leaves mean / minimal tree)", f.ratio);
	if (a->no_check)
		cli_field(stdout, "mismatches", "not checked (--no-check)");
	else
		cli_field(stdout, "mismatches", "%" PRIu64, t->mismatches);
	cli_field(stdout, "first-move cut-offs", "%.1f %% of %" PRIu64, 100.0 * f.fmc_rate,
	          t->cutoffs);
	cli_field(stdout, "re-searches", "mean %.2f", f.researches_mean);
	if (a->algo == CUTOFF_ALGO_MTDF)
		cli_field(stdout, "MTD(f) passes", "mean %.2f", f.passes_mean);
	cli_print_driver_counters(stdout, &t->counters, (double)a->trees);
	cli_field(stdout, "time", "%.6f s searching, %.6f s in all", t->search_s, t->wall_s);
	cli_field(stdout, "nodes per second", "%.0f", f.nps);
	for (int k = 0; a->par.threads > 1 && k < (int)a->par.threads; k++) {
		char name[32];
		snprintf(name, sizeof(name), "thread %d", k);
		cli_field(stdout, name, "nodes mean %.2f (%.1f %%)",
		          (double)t->thread_nodes[k] / (double)a->trees,
		          100.0 * cli_rate(t->thread_nodes[k], t->nodes));
	}
	for (int d = 1; a->iterate && d <= a->depth; d++) {
		char label[32];
		snprintf(label, sizeof(label), "iteration %d", d);
		cli_field(stdout, label, "nodes mean %.1f, first-move cut-offs %.1f %% of %" PRIu64,
		          (double)t->it_nodes[d] / (double)a->trees,
		          100.0 * cli_rate(t->it_first[d], t->it_cutoffs[d]), t->it_cutoffs[d]);
	}
}

/* Reads the command line into *a: CLI_PARSED to go on, or as cli_parse (after one line on
 * stderr for a usage error). */
static cli_status_t parse_options(int argc, char **argv, tree_args_t *a)
{
	const char *guess_text = NULL;
	const char *ordering_text = "none";
	const char *algo_text = "alphabeta";
	char algo_help[1024], hash_help[384], forms[512];
	snprintf(algo_help, sizeof(algo_help),
	         "%s. Minimax never splits: ybw/minimax searches on one thread (lazysmp/minimax "
	         "runs the same full search on every one). Default %%d",
	         cli_algo_forms(CUTOFF_ALGO_PVS, forms, sizeof(forms)));
	snprintf(hash_help, sizeof(hash_help),
	         "transposition table in MiB, %%r (0: none); default %d for mtdf and for every "
	         "driver but serial (whose threads share the table), 0 for the others; it is "
	         "cleared before every tree, which costs about 30 us a MiB: use a small one for "
	         "many small trees",
	         TREE_SHARED_MB);
	snprintf(forms, sizeof(forms),
	         "the engine's move ordering: %s (none: the tree's order); default %%d",
	         cli_ordering_forms(forms + 256, 256));
	cli_opt_t opts[] = {
		CLI_INT_OPT("branching", &a->branching, 1, 64, "B",
		            "children per inner node, %r; default %d"),
		CLI_INT_OPT("depth", &a->depth, 1, TREE_MAX_DEPTH, "D",
		            "depth of every leaf, %r; default %d"),
		CLI_INT_OPT("trees", &a->trees, 1, 1000000, "N", "trees to search, %r; default %d"),
		{ .name = "seed",
		  .kind = CLI_UINT64,
		  .dest.u = &a->seed,
		  .arg = "S",
		  .help = "tree i uses seed S+i, 0..2^64-1 (S+N-1 too); default %d" },
		CLI_CHOICE_OPT("order", &a->order, order_names,
		               "move order (best and worst sort the moves by their true value, "
		               "found by reading the subtrees); default %d"),
		CLI_STRING_OPT("algo", &algo_text, "ALGO", algo_help),
		CLI_STRING_OPT("guess", &guess_text, "G",
		               "MTD(f)'s first guess, an integer, or 'true' for each tree's true "
		               "value (a perfect guess); default 0; only mtdf uses it"),
		CLI_INT_OPT("hash", &a->hash_mb, 0, 65536, "MB", hash_help),
		CLI_INT_OPT("min", &a->value_min, -TREE_VALUE_LIMIT, TREE_VALUE_LIMIT, "V",
		            "the least leaf value (incremental model: of each step), %r; default "
		            "%d"),
		CLI_INT_OPT("max", &a->value_max, -TREE_VALUE_LIMIT, TREE_VALUE_LIMIT, "V",
		            "the greatest, %r; default %d"),
		CLI_CHOICE_OPT("model", &a->model, model_names,
		               "iid (leaves drawn independently) or incremental (each move adds a "
		               "step; shallow values predict deep ones); default %d"),
		CLI_STRING_OPT("ordering", &ordering_text, "O", forms),
		CLI_FLAG_OPT("iterate", &a->iterate,
		             "iterative deepening 1..D (reports each iteration)"),
		CLI_INT_OPT("aspiration", &a->aspiration, 0, 10000, "A",
		            "with --iterate: aspiration half-width, %r (0: off); default %d"),
		CLI_ENGINE_OPTS(&a->par),
		CLI_FLAG_OPT("no-check", &a->no_check,
		             "do not read every tree in full to check its value (for trees too big "
		             "for that: a measurement, not a check)"),
		CLI_FLAG_OPT("json", &a->json, "print one JSON object instead of the text report"),
	};
	const int nopts = (int)(sizeof(opts) / sizeof(opts[0]));

	cutoff_config_default(&a->par);
	cli_status_t st = cli_parse("tree", tree_usage, opts, nopts, argc, argv);
	if (st != CLI_PARSED)
		return st;
	if (!cli_parse_algo("tree", algo_text, CUTOFF_ALGO_PVS, &a->driver, &a->algo))
		return CLI_BAD;
	/* As for `cutoff search`: MTD(f) needs a table to be efficient and a parallel
	 * driver's threads share what they learn through it; the serial search runs without
	 * one so that the leaf counts are those of the textbook algorithms. */
	if (!cli_given(opts, nopts, "hash"))
		a->hash_mb = a->algo == CUTOFF_ALGO_MTDF || a->driver != cli_driver_default()
		                     ? TREE_SHARED_MB
		                     : 0;
	if (!check_args(a, guess_text) || !cli_parse_ordering("tree", ordering_text, &a->ordering))
		return CLI_BAD;
	return CLI_PARSED;
}

int cli_tree(int argc, char **argv)
{
	tree_args_t a = {
		.branching = 6,
		.depth = 6,
		.trees = 20,
		.seed = 1,
		.order = CUTOFF_RTREE_NATURAL,
		.algo = CUTOFF_ALGO_ALPHABETA, /* both set from --algo */
		.value_min = -100,
		.value_max = 100,
	};
	cli_status_t st = parse_options(argc, argv, &a);
	if (st != CLI_PARSED)
		return cli_parse_exit(st);

	static uint64_t thread_nodes[CUTOFF_MAX_THREADS];
	static cutoff_counters_t thread_counters[CUTOFF_MAX_THREADS];
	static cutoff_profile_t thread_profiles[CUTOFF_MAX_THREADS];
	tree_totals_t t = { .thread_nodes = thread_nodes,
		            .thread_counters = thread_counters,
		            .thread_profiles = thread_profiles };
	int status = run_trees(&a, &t);
	if (status != CLI_EXIT_OK)
		return status;
	if (a.json) {
		status = print_json(&a, &t);
		if (status != CLI_EXIT_OK)
			return status;
	} else {
		print_text(&a, &t);
	}
	if (t.mismatches > 0) {
		cli_error("tree",
		          "%" PRIu64 " of %" PRId64 " values differ from the trees' true values",
		          t.mismatches, a.trees);
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}
