/* SPDX-License-Identifier: MIT */
/*
 * Why a call failed, for a caller without a log callback (issue 25, item 10): the engine's
 * cutoff_engine_error and, before an engine exists, cutoff_config_check. Checked here:
 *   - cutoff_config_check gives the line cutoff_engine_new tells the log, with the same
 *     code, for bad configurations and games; "" and 0 for good ones; a short buffer gets
 *     the line cut and NUL-terminated, and nothing is written past it;
 *   - cutoff_engine_error after each failing call that writes it (bad limits, NULL
 *     arguments, a terminal root, a game with no move at the root, set_algo and set_tt_mb
 *     refused), with no log callback; "" on a new engine and after a call that succeeds;
 *     the depth-0 refusal points at limits.solve;
 *   - a call refused with CUTOFF_EBUSY (from inside a search's info callback) leaves it
 *     untouched.
 * (The breaks inside the tree, under every driver, are test_broken_game's.)
 */
#include <string.h>

#include "check.h"
#include "cutoff_games.h"

struct log {
	char last[CUTOFF_ERROR_SIZE];
};

static void logger(void *user, cutoff_log_level_t level, const char *msg)
{
	struct log *l = user;
	(void)level;
	snprintf(l->last, sizeof(l->last), "%s", msg);
}

/* cutoff_config_check against what cutoff_engine_new says of the same cfg and game. */
static void check_like_new(const char *what, const cutoff_config_t *cfg, const cutoff_game_t *g,
                           const char *field)
{
	struct log log = { "" };
	cutoff_config_t logged = *cfg;
	logged.log = logger;
	logged.log_user = &log;
	int err = 0;
	cutoff_engine_t *e = cutoff_engine_new(g, &logged, &err);
	cutoff_engine_free(e);
	char msg[CUTOFF_ERROR_SIZE];
	memset(msg, 'x', sizeof(msg));
	int rc = cutoff_config_check(cfg, g, msg, sizeof(msg));
	CHECK(e == NULL && rc == err && rc < 0 && strcmp(msg, log.last) == 0 &&
	              strstr(msg, field) != NULL,
	      "%s: config_check %d \"%s\", engine_new %d logging \"%s\"", what, rc, msg, err,
	      log.last);
}

static void config_check(void)
{
	const cutoff_game_t *ttt = cutoff_ttt_game();
	cutoff_config_t cfg;
	char msg[CUTOFF_ERROR_SIZE];

	cutoff_config_default(&cfg);
	memset(msg, 'x', sizeof(msg));
	CHECK(cutoff_config_check(&cfg, ttt, msg, sizeof(msg)) == 0 && msg[0] == '\0',
	      "the defaults pass: 0, \"\" (\"%.20s\")", msg);

	cfg.threads = 0;
	check_like_new("threads 0", &cfg, ttt, "threads");
	cutoff_config_default(&cfg);
	cfg.share_ring = 17;
	check_like_new("share_ring 17", &cfg, ttt, "share_ring");
	cutoff_config_default(&cfg);
	cfg.abdada_table_bits = 30;
	check_like_new("a driver's option out of range", &cfg, ttt, "abdada_table_bits");
	cutoff_config_default(&cfg);
	cutoff_game_t g = *ttt;
	g.key = NULL;
	check_like_new("a game without key", &cfg, &g, "key");
	g = *ttt;
	g.max_moves = 0;
	check_like_new("a game with max_moves 0", &cfg, &g, "max_moves");
	CHECK(cutoff_config_check(&cfg, NULL, msg, sizeof(msg)) == CUTOFF_EINVAL &&
	              strstr(msg, "game") != NULL,
	      "a NULL game: CUTOFF_EINVAL, \"%s\"", msg);

	/* A short buffer: cut, terminated, and nothing written past it. */
	cfg.threads = -5;
	char small[12];
	memset(small, 'x', sizeof(small));
	CHECK(cutoff_config_check(&cfg, ttt, small, 8) == CUTOFF_EINVAL && strlen(small) == 7 &&
	              strncmp(small, "config:", 7) == 0 && small[8] == 'x',
	      "an 8-byte buffer gets 7 bytes and a NUL: \"%.8s\"", small);
	memset(small, 'x', sizeof(small));
	CHECK(cutoff_config_check(&cfg, ttt, small, 0) == CUTOFF_EINVAL && small[0] == 'x',
	      "size 0: nothing written");
}

/* A game whose root is not over but has no move: the game's fault, at ply 0. */
static int no_moves(const void *ctx, const void *state, cutoff_move_t *moves, int32_t *hints)
{
	(void)ctx, (void)state, (void)moves, (void)hints;
	return 0;
}

struct nested {
	cutoff_engine_t *engine;
	const void *root;
	int search_rc, algo_rc, tt_rc;
	bool untouched;
};

/* From inside a search: every call that writes the error is refused, and writes nothing. */
static void busy_calls(void *user, const cutoff_result_t *partial)
{
	struct nested *n = user;
	cutoff_limits_t lim;
	cutoff_result_t r;
	(void)partial;
	cutoff_limits_default(&lim); /* depth 0: bad limits too */
	n->search_rc = cutoff_engine_search(n->engine, n->root, &lim, &r, NULL, NULL);
	n->algo_rc = cutoff_engine_set_algo(n->engine, (cutoff_algo_t)99);
	n->tt_rc = cutoff_engine_set_tt_mb(n->engine, CUTOFF_MAX_TT_MB + 1);
	n->untouched = cutoff_engine_error(n->engine)[0] == '\0';
}

static void engine_error(void)
{
	cutoff_engine_t *e = cutoff_engine_new(cutoff_ttt_game(), NULL, NULL);
	cutoff_ttt_state_t st;
	cutoff_limits_t lim;
	cutoff_result_t r;
	cutoff_ttt_start(&st);
	CHECK(e && strcmp(cutoff_engine_error(e), "") == 0, "a new engine: \"\"");

	cutoff_limits_default(&lim);
	CHECK(cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == CUTOFF_EINVAL &&
	              strstr(cutoff_engine_error(e), "depth 0") &&
	              strstr(cutoff_engine_error(e), "limits.solve"),
	      "depth 0 without solve: the error points at limits.solve: \"%s\"",
	      cutoff_engine_error(e));
	lim.depth = 3;
	lim.alpha = lim.beta = 7;
	CHECK(cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == CUTOFF_EINVAL &&
	              strstr(cutoff_engine_error(e), "window"),
	      "an empty window: \"%s\"", cutoff_engine_error(e));
	cutoff_limits_default(&lim);
	lim.depth = 3;
	CHECK(cutoff_engine_search(e, NULL, &lim, &r, NULL, NULL) == CUTOFF_EINVAL &&
	              strstr(cutoff_engine_error(e), "root"),
	      "a NULL root: \"%s\"", cutoff_engine_error(e));
	CHECK(cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == 0 &&
	              strcmp(cutoff_engine_error(e), "") == 0,
	      "a search that succeeds empties it: \"%s\"", cutoff_engine_error(e));

	CHECK(cutoff_engine_set_algo(e, (cutoff_algo_t)99) == CUTOFF_EINVAL &&
	              strstr(cutoff_engine_error(e), "99"),
	      "set_algo 99: \"%s\"", cutoff_engine_error(e));
	CHECK(cutoff_engine_set_algo(e, CUTOFF_ALGO_PVS) == 0 && !cutoff_engine_error(e)[0],
	      "set_algo PVS: \"\"");
	CHECK(cutoff_engine_set_tt_mb(e, CUTOFF_MAX_TT_MB + 1) == CUTOFF_EINVAL &&
	              strstr(cutoff_engine_error(e), "MiB"),
	      "set_tt_mb too large: \"%s\"", cutoff_engine_error(e));

	cutoff_ttt_state_t over;
	CHECK(cutoff_ttt_parse("xxxoo....", &over) == 0, "x has the top row");
	CHECK(cutoff_engine_search(e, &over, &lim, &r, NULL, NULL) == CUTOFF_ETERMINAL &&
	              strstr(cutoff_engine_error(e), "terminal"),
	      "a terminal root: \"%s\"", cutoff_engine_error(e));

	/* Busy: the calls made from inside a search are refused and write nothing. */
	struct nested n = { e, &st, 0, 0, 0, false };
	lim.iterate = true;
	CHECK(cutoff_engine_search(e, &st, &lim, &r, busy_calls, &n) == 0 &&
	              n.search_rc == CUTOFF_EBUSY && n.algo_rc == CUTOFF_EBUSY &&
	              n.tt_rc == CUTOFF_EBUSY && n.untouched,
	      "busy: search %d, set_algo %d, set_tt_mb %d, error untouched %d", n.search_rc,
	      n.algo_rc, n.tt_rc, n.untouched);
	cutoff_engine_free(e);

	/* The game's fault at the root, with no log callback. */
	cutoff_game_t g = *cutoff_ttt_game();
	g.gen_moves = no_moves;
	e = cutoff_engine_new(&g, NULL, NULL);
	CHECK(e && cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == CUTOFF_EGAME &&
	              strstr(cutoff_engine_error(e), "gen_moves returned no move at ply 0"),
	      "no move at the root: CUTOFF_EGAME, \"%s\"", e ? cutoff_engine_error(e) : "");
	cutoff_engine_free(e);
}

int main(void)
{
	config_check();
	engine_error();
	return check_report();
}
