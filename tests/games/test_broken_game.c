/* SPDX-License-Identifier: MIT */
/*
 * Games that break their contract inside the tree, and what the engine owes them: the
 * search ends with CUTOFF_EGAME and a log line that names the callback and the count (the
 * same line in cutoff_engine_error, for callers without a log), no memory outside the
 * engine's own is touched (this test runs under AddressSanitizer in CI), and the engine
 * searches correctly afterwards.
 *
 * The game: a hashed tree of branching 8 (= max_moves) and depth 6, whose ctx says how it
 * breaks at the nodes of ply 3 whose hash is 0 mod 5:
 *   TOO_MANY   gen_moves writes 11 moves and returns 11 (max_moves is 8)
 *   HUGE       gen_moves writes CUTOFF_MAX_MOVES moves and returns 300
 *   NEGATIVE   gen_moves returns -1
 *   NONE       gen_moves returns 0 in a state that terminal says is not over (a pass the
 *              game forgot to generate)
 *   NOISY      gen_noisy returns 9 at the horizon (quiescence)
 *   TERMINAL   terminal gives 31500 at those leaves of ply 6 (beyond +CUTOFF_WIN)
 *   EVALUATE   evaluate gives -CUTOFF_WIN_MIN at those nodes of ply 2, the horizon of a
 *              2-ply search (the contract wants |value| < CUTOFF_WIN_MIN)
 * and NOT_BROKEN, the same game keeping its contract, whose value the test knows by its
 * own negamax.
 * Every break is tried with every algorithm, under the serial, lazy SMP and YBW drivers at
 * 1, 2 and 4 threads (YBW with splits from 2 plies, so that helpers meet the break).
 */
#include <stdarg.h>
#include <string.h>

#include "check.h"
#include "cutoff.h"

typedef enum mode {
	NOT_BROKEN,
	TOO_MANY,
	HUGE,
	NEGATIVE,
	NONE,
	NOISY,
	TERMINAL,
	EVALUATE,
	MODES
} breakage_t;

static const char *const mode_names[MODES] = {
	"not broken", "11 moves",      "300 moves",      "-1 moves",
	"0 moves",    "9 noisy moves", "terminal 31500", "evaluate -WIN_MIN",
};

typedef struct game_ctx {
	breakage_t mode;
} game_ctx_t;

/* The mode the game is in, for the callbacks that have no ctx at hand (the test's own
 * negamax calls them with NULL: never broken). */
static breakage_t mode_of(const void *ctx)
{
	return ctx ? ((const game_ctx_t *)ctx)->mode : NOT_BROKEN;
}

typedef struct node {
	uint64_t h;
	int ply;
} node_t;

enum {
	BRANCHING = 8,
	DEPTH = 6
};

static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static bool breaks_here(const node_t *n) { return n->ply == 3 && n->h % 5 == 0; }

static int gen_moves(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints)
{
	const game_ctx_t *c = ctx;
	const node_t *n = state;
	int written = BRANCHING, returned = BRANCHING;
	if (breaks_here(n)) {
		switch (c->mode) {
		case TOO_MANY:
			written = returned = 11;
			break;
		case HUGE:
			written = CUTOFF_MAX_MOVES, returned = 300;
			break;
		case NEGATIVE:
			written = 0, returned = -1;
			break;
		case NONE:
			written = returned = 0;
			break;
		default:
			break;
		}
	}
	for (int i = 0; i < written; i++) {
		moves[i] = (cutoff_move_t)i;
		if (hints)
			hints[i] = 0;
	}
	return returned;
}

static int gen_noisy(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints)
{
	const game_ctx_t *c = ctx;
	const node_t *n = state;
	int k = c->mode == NOISY && n->h % 5 == 0 ? 9 : 0;
	for (int i = 0; i < k && i < BRANCHING; i++) {
		moves[i] = (cutoff_move_t)i;
		if (hints)
			hints[i] = 0;
	}
	return k;
}

static void play(const void *ctx, const void *state, cutoff_move_t move, void *child)
{
	(void)ctx;
	const node_t *n = state;
	node_t *c = child;
	c->h = mix(n->h + (move + 1) * UINT64_C(0x9e3779b97f4a7c15));
	c->ply = n->ply + 1;
}

static int32_t evaluate(const void *ctx, const void *state)
{
	const node_t *n = state;
	if (mode_of(ctx) == EVALUATE && n->ply == 2 && n->h % 5 == 0)
		return -CUTOFF_WIN_MIN;
	return (int32_t)(mix(n->h ^ 77) % 201) - 100;
}

static bool terminal(const void *ctx, const void *state, int32_t *value)
{
	const node_t *n = state;
	if (n->ply < DEPTH)
		return false;
	*value = mode_of(ctx) == TERMINAL && n->h % 5 == 0 ? 31500 : evaluate(ctx, state);
	return true;
}

static uint64_t key(const void *ctx, const void *state)
{
	(void)ctx;
	return ((const node_t *)state)->h;
}

static int32_t negamax(const node_t *n)
{
	int32_t v;
	if (terminal(NULL, n, &v))
		return v;
	int32_t best = -CUTOFF_INF;
	for (cutoff_move_t m = 0; m < BRANCHING; m++) {
		node_t c;
		play(NULL, n, m, &c);
		v = -negamax(&c);
		if (v > best)
			best = v;
	}
	return best;
}

typedef struct log_seen {
	int lines;
	char last[256];
} log_seen_t;

static void on_log(void *user, cutoff_log_level_t level, const char *message)
{
	log_seen_t *seen = user;
	(void)level;
	seen->lines++;
	snprintf(seen->last, sizeof seen->last, "%s", message);
}

static void one(breakage_t mode, cutoff_driver_t driver, int threads, cutoff_algo_t algo)
{
	static const char *const drivers[] = { "serial", "lazysmp", "ybw" };
	game_ctx_t ctx = { NOT_BROKEN };
	cutoff_game_t g = {
		.name = "broken",
		.state_size = sizeof(node_t),
		.max_moves = BRANCHING,
		.ctx = &ctx,
		.gen_moves = gen_moves,
		.play = play,
		.evaluate = evaluate,
		.terminal = terminal,
		.key = key,
		.gen_noisy = gen_noisy,
	};
	log_seen_t seen = { 0, "" };
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.threads = threads;
	cfg.driver = driver;
	cfg.algo = algo;
	cfg.tt_mb = algo == CUTOFF_ALGO_MTDF ? 1 : 0;
	cfg.ybw_min_split_depth = 2;
	cfg.dts_min_split_depth = cfg.ybw_min_split_depth;
	cfg.dts_min_split_nodes = 1;
	cfg.log = on_log;
	cfg.log_user = &seen;
	int err = 0;
	cutoff_engine_t *e = cutoff_engine_new(&g, &cfg, &err);
	CHECK(e != NULL, "engine_new: %d", err);
	if (!e)
		return;
	node_t root = { mix(12345), 0 };
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	/* the noisy and evaluation breaks sit at the horizon */
	lim.depth = mode == NOISY || mode == EVALUATE ? 2 : DEPTH;
	lim.iterate = true;
	cutoff_result_t r;

	ctx.mode = mode;
	int rc = cutoff_engine_search(e, &root, &lim, &r, NULL, NULL);
	const char *callback = mode == NOISY      ? "gen_noisy"
	                       : mode == TERMINAL ? "terminal"
	                       : mode == EVALUATE ? "evaluate"
	                                          : "gen_moves";
	CHECK(rc == CUTOFF_EGAME && r.bound == CUTOFF_BOUND_NONE &&
	              r.best_move == CUTOFF_MOVE_NONE && strstr(seen.last, callback),
	      "%s, %s x%d, algo %d: rc %d (want %d), bound %d, log '%s'", mode_names[mode],
	      drivers[driver], threads, (int)algo, rc, CUTOFF_EGAME, (int)r.bound, seen.last);
	char count[16];
	snprintf(count, sizeof count, "%d",
	         mode == TOO_MANY   ? 11
	         : mode == HUGE     ? 300
	         : mode == NEGATIVE ? -1
	         : mode == NONE     ? 0
	         : mode == TERMINAL ? 31500
	         : mode == EVALUATE ? -CUTOFF_WIN_MIN
	                            : 9);
	CHECK(mode == NONE ? strstr(seen.last, "no move") != NULL
	                   : strstr(seen.last, count) != NULL,
	      "%s: the log line names the count: '%s'", mode_names[mode], seen.last);
	CHECK(strcmp(cutoff_engine_error(e), seen.last) == 0,
	      "%s, %s x%d: cutoff_engine_error gives the log's line without a log: '%s'",
	      mode_names[mode], drivers[driver], threads, cutoff_engine_error(e));

	/* Mended, the same engine searches on as if nothing had happened. */
	ctx.mode = NOT_BROKEN;
	lim.depth = DEPTH;
	rc = cutoff_engine_search(e, &root, &lim, &r, NULL, NULL);
	CHECK(rc == 0 && r.value == negamax(&root) && r.bound == CUTOFF_BOUND_EXACT &&
	              cutoff_engine_error(e)[0] == '\0',
	      "%s, %s x%d: afterwards rc %d value %d (negamax %d)", mode_names[mode],
	      drivers[driver], threads, rc, (int)r.value, (int)negamax(&root));
	cutoff_engine_free(e);
}

int main(void)
{
	int searched = 0;
	for (int mode = TOO_MANY; mode < MODES; mode++)
		for (int driver = 0; driver < 3; driver++)
			for (int threads = 1; threads <= 4; threads *= 2) {
				if (driver == CUTOFF_DRIVER_SERIAL && threads > 1)
					continue;
				for (int algo = 0; algo <= CUTOFF_ALGO_MTDF; algo++) {
					one((breakage_t)mode, (cutoff_driver_t)driver, threads,
					    (cutoff_algo_t)algo);
					searched++;
				}
			}
	printf("%d broken searches: CUTOFF_EGAME, the callback and count (or value) logged, the "
	       "engine exact afterwards\n",
	       searched);
	return check_report();
}
