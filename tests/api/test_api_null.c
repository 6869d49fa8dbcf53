/* SPDX-License-Identifier: MIT */
/*
 * NULL in every pointer argument of every public function: each function is called with
 * NULL in each of its pointer arguments in turn (the others valid), and with NULL in all
 * of them, and must do what its contract in include/ says for NULL — an error code, false,
 * 0, NULL or nothing — without a crash or a write through another argument. Functions
 * without a pointer argument are called once. Run under `make asan` too.
 *
 * Which functions: those of tests/api/api_functions.txt, which the test api_list checks against
 * the CUTOFF_API declarations of the headers. This test reads the list and fails for a
 * listed function it does not call, and for one it calls that is not listed.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cutoff_games.h"

#ifndef CUTOFF_API_LIST
#error "CUTOFF_API_LIST (the path of tests/api/api_functions.txt) is set by tests/CMakeLists.txt"
#endif

enum {
	MAX_COVERED = 128
};
static const char *covered[MAX_COVERED];
static int ncovered;

static void cover(const char *name)
{
	if (ncovered < MAX_COVERED)
		covered[ncovered++] = name;
}

/* Marks `fn` as called below; naming it makes the compiler check that it exists. */
#define COVER(fn)                                                                                  \
	do {                                                                                       \
		(void)(fn);                                                                        \
		cover(#fn);                                                                        \
	} while (0)

/* True when the n bytes at p all hold `byte` (a buffer the call must not have written). */
static bool untouched(const void *p, size_t n, unsigned char byte)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		if (b[i] != byte)
			return false;
	return true;
}

#define POISON 0xa5

static void info_count(void *user, const cutoff_result_t *partial)
{
	(void)partial;
	if (user)
		(*(int *)user)++;
}

static void null_engine(void)
{
	const cutoff_game_t *ttt = cutoff_ttt_game();
	cutoff_ttt_state_t st;
	cutoff_ttt_start(&st);
	int err;

	COVER(cutoff_strerror);
	CHECK(cutoff_strerror(CUTOFF_EINVAL) && cutoff_strerror(12345), "strerror is never NULL");
	COVER(cutoff_version);
	CHECK(cutoff_version() && strchr(cutoff_version(), '.'), "version");
	COVER(cutoff_profile_available);
	(void)cutoff_profile_available();

	COVER(cutoff_config_default);
	cutoff_config_default(NULL);
	COVER(cutoff_limits_default);
	cutoff_limits_default(NULL);

	/* The drivers' registry: no pointer argument but the outputs and names. */
	COVER(cutoff_driver_count);
	CHECK(cutoff_driver_count() >= 1, "driver_count");
	COVER(cutoff_driver_name);
	CHECK(cutoff_driver_name((cutoff_driver_t)cutoff_driver_count()) == NULL &&
	              cutoff_driver_name((cutoff_driver_t)-1) == NULL,
	      "driver_name(not a driver): NULL");
	COVER(cutoff_driver_description);
	CHECK(cutoff_driver_description((cutoff_driver_t)cutoff_driver_count()) == NULL,
	      "driver_description(not a driver): NULL");
	COVER(cutoff_driver_find);
	cutoff_driver_t drv = (cutoff_driver_t)77;
	CHECK(cutoff_driver_find(NULL, &drv) == CUTOFF_EINVAL && drv == (cutoff_driver_t)77,
	      "driver_find(NULL name)");
	CHECK(cutoff_driver_find(cutoff_driver_name((cutoff_driver_t)0), NULL) == CUTOFF_EINVAL,
	      "driver_find(NULL driver)");
	COVER(cutoff_driver_options);
	CHECK(cutoff_driver_options((cutoff_driver_t)0, NULL) == CUTOFF_EINVAL,
	      "driver_options(NULL)");
	{
		cutoff_config_t c;
		int v = 5;
		cutoff_config_default(&c);
		COVER(cutoff_config_get_option);
		CHECK(cutoff_config_get_option(NULL, "min-split", &v) == CUTOFF_EINVAL &&
		              cutoff_config_get_option(&c, NULL, &v) == CUTOFF_EINVAL &&
		              cutoff_config_get_option(&c, "min-split", NULL) == CUTOFF_EINVAL &&
		              v == 5,
		      "config_get_option(NULL ...)");
		COVER(cutoff_config_set_option);
		CHECK(cutoff_config_set_option(NULL, "min-split", 4) == CUTOFF_EINVAL &&
		              cutoff_config_set_option(&c, NULL, 4) == CUTOFF_EINVAL,
		      "config_set_option(NULL ...)");
		COVER(cutoff_config_set_option_str);
		cutoff_config_t c0 = c;
		CHECK(cutoff_config_set_option_str(NULL, "min-split", "4") == CUTOFF_EINVAL &&
		              cutoff_config_set_option_str(&c, NULL, "4") == CUTOFF_EINVAL &&
		              cutoff_config_set_option_str(&c, "min-split", NULL) ==
		                      CUTOFF_EINVAL &&
		              memcmp(&c, &c0, sizeof(c)) == 0,
		      "config_set_option_str(NULL ...): CUTOFF_EINVAL, cfg unchanged");
	}

	COVER(cutoff_engine_new);
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	err = 0;
	CHECK(cutoff_engine_new(NULL, &cfg, &err) == NULL && err == CUTOFF_EINVAL,
	      "engine_new(NULL game): NULL, CUTOFF_EINVAL (%d)", err);
	CHECK(cutoff_engine_new(NULL, NULL, NULL) == NULL, "engine_new(NULL, NULL, NULL): NULL");
	err = 1;
	cutoff_engine_t *e = cutoff_engine_new(ttt, NULL, &err);
	CHECK(e && err == 0, "engine_new(cfg NULL): the defaults (%d)", err);
	cutoff_engine_free(e);
	e = cutoff_engine_new(ttt, &cfg, NULL);
	CHECK(e != NULL, "engine_new(err NULL): made");

	COVER(cutoff_config_check);
	{
		char msg[CUTOFF_ERROR_SIZE];
		memset(msg, POISON, sizeof(msg));
		CHECK(cutoff_config_check(&cfg, NULL, msg, sizeof(msg)) == CUTOFF_EINVAL &&
		              strstr(msg, "game") != NULL,
		      "config_check(cfg, NULL game): CUTOFF_EINVAL, naming the game (%.40s)", msg);
		CHECK(cutoff_config_check(NULL, ttt, msg, sizeof(msg)) == 0 && msg[0] == '\0',
		      "config_check(NULL cfg): the defaults pass, \"\"");
		CHECK(cutoff_config_check(&cfg, ttt, NULL, sizeof(msg)) == 0 &&
		              cutoff_config_check(NULL, NULL, NULL, 0) == CUTOFF_EINVAL,
		      "config_check(msg NULL): the code alone");
	}

	COVER(cutoff_engine_free);
	cutoff_engine_free(NULL);
	COVER(cutoff_engine_error);
	CHECK(cutoff_engine_error(NULL) != NULL && cutoff_engine_error(NULL)[0] == '\0',
	      "engine_error(NULL): \"\", never NULL");
	COVER(cutoff_engine_clear);
	CHECK(cutoff_engine_clear(NULL) == CUTOFF_EINVAL, "engine_clear(NULL)");
	COVER(cutoff_engine_config);
	cutoff_config_t got;
	memset(&got, POISON, sizeof(got));
	CHECK(cutoff_engine_config(NULL, &got) == CUTOFF_EINVAL &&
	              untouched(&got, sizeof(got), POISON),
	      "engine_config(NULL, cfg): CUTOFF_EINVAL, cfg untouched");
	CHECK(cutoff_engine_config(e, NULL) == CUTOFF_EINVAL, "engine_config(e, NULL)");
	CHECK(cutoff_engine_config(NULL, NULL) == CUTOFF_EINVAL, "engine_config(NULL, NULL)");
	COVER(cutoff_engine_set_algo);
	CHECK(cutoff_engine_set_algo(NULL, CUTOFF_ALGO_PVS) == CUTOFF_EINVAL, "set_algo(NULL)");
	COVER(cutoff_engine_set_tt_mb);
	CHECK(cutoff_engine_set_tt_mb(NULL, 1) == CUTOFF_EINVAL, "set_tt_mb(NULL)");
	COVER(cutoff_engine_hashfull);
	CHECK(cutoff_engine_hashfull(NULL) == 0, "engine_hashfull(NULL): 0");
	COVER(cutoff_engine_stop);
	cutoff_engine_stop(NULL);
	COVER(cutoff_engine_cancel_stop);
	CHECK(cutoff_engine_cancel_stop(NULL) == CUTOFF_EINVAL, "cancel_stop(NULL)");
	COVER(cutoff_engine_export);
	cutoff_tt_entry_t entry;
	uint64_t dropped = 7;
	CHECK(cutoff_engine_export(NULL, 0, &entry, 1, &dropped) == CUTOFF_EINVAL && dropped == 7,
	      "export(NULL engine): CUTOFF_EINVAL, dropped untouched");
	CHECK(cutoff_engine_export(e, 0, NULL, 1, NULL) == CUTOFF_EINVAL, "export(out NULL)");
	CHECK(cutoff_engine_export(e, 0, &entry, 1, NULL) == CUTOFF_ENOTSUP,
	      "export(dropped NULL) without a ring: CUTOFF_ENOTSUP");
	COVER(cutoff_engine_export_depth);
	CHECK(cutoff_engine_export_depth(NULL, 3) == CUTOFF_EINVAL, "export_depth(NULL)");
	COVER(cutoff_engine_import);
	CHECK(cutoff_engine_import(NULL, &entry, 1) == CUTOFF_EINVAL, "import(NULL engine)");
	CHECK(cutoff_engine_import(e, NULL, 1) == CUTOFF_EINVAL, "import(in NULL, n 1)");
	CHECK(cutoff_engine_import(e, NULL, 0) == 0, "import(in NULL, n 0): nothing, 0");

	COVER(cutoff_engine_search);
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = 2;
	cutoff_result_t r;
	memset(&r, POISON, sizeof(r));
	CHECK(cutoff_engine_search(NULL, &st, &lim, &r, NULL, NULL) == CUTOFF_EINVAL &&
	              untouched(&r, sizeof(r), POISON),
	      "search(NULL engine): CUTOFF_EINVAL, result untouched");
	CHECK(cutoff_engine_search(e, NULL, &lim, &r, NULL, NULL) == CUTOFF_EINVAL &&
	              untouched(&r, sizeof(r), POISON),
	      "search(NULL root): CUTOFF_EINVAL, result untouched");
	CHECK(cutoff_engine_search(e, &st, NULL, &r, NULL, NULL) == CUTOFF_EINVAL &&
	              untouched(&r, sizeof(r), POISON),
	      "search(NULL limits): CUTOFF_EINVAL, result untouched");
	CHECK(cutoff_engine_search(e, &st, &lim, NULL, NULL, NULL) == CUTOFF_EINVAL,
	      "search(NULL result)");
	CHECK(cutoff_engine_search(NULL, NULL, NULL, NULL, NULL, NULL) == CUTOFF_EINVAL,
	      "search(all NULL)");
	lim.iterate = true;
	CHECK(cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == 0 && r.depth == 2,
	      "search(info NULL): searches");
	CHECK(cutoff_engine_search(e, &st, &lim, &r, info_count, NULL) == 0 && r.depth == 2,
	      "search(info_user NULL): searches, the callback gets NULL");
	lim.played_length = 1; /* a pointer inside limits: NULL played with a length */
	CHECK(cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == CUTOFF_EINVAL,
	      "search(limits.played NULL, played_length 1)");
	lim.played_length = 0;

	COVER(cutoff_engine_thread_counters);
	cutoff_counters_t c;
	memset(&c, POISON, sizeof(c));
	CHECK(cutoff_engine_thread_counters(NULL, 0, &c) == CUTOFF_EINVAL &&
	              untouched(&c, sizeof(c), POISON),
	      "thread_counters(NULL, 0, c): CUTOFF_EINVAL, c untouched");
	CHECK(cutoff_engine_thread_counters(e, 0, NULL) == CUTOFF_EINVAL,
	      "thread_counters(e, 0, NULL)");
	CHECK(cutoff_engine_thread_counters(NULL, 0, NULL) == CUTOFF_EINVAL,
	      "thread_counters(NULL, 0, NULL)");
	COVER(cutoff_engine_thread_profile);
	cutoff_profile_t p;
	memset(&p, POISON, sizeof(p));
	CHECK(cutoff_engine_thread_profile(NULL, 0, &p) == CUTOFF_EINVAL &&
	              untouched(&p, sizeof(p), POISON),
	      "thread_profile(NULL, 0, p): CUTOFF_EINVAL, p untouched");
	CHECK(cutoff_engine_thread_profile(e, 0, NULL) == CUTOFF_EINVAL,
	      "thread_profile(e, 0, NULL)");
	CHECK(cutoff_engine_thread_profile(NULL, 0, NULL) == CUTOFF_EINVAL,
	      "thread_profile(NULL, 0, NULL)");

	COVER(cutoff_counter_count);
	COVER(cutoff_counter_info);
	COVER(cutoff_counter_value);
	COVER(cutoff_counter_find);
	CHECK(cutoff_counter_count() > 0, "counter_count");
	CHECK(cutoff_counter_info(-1) == NULL, "counter_info(-1)");
	CHECK(cutoff_counter_value(NULL, 0) == 0, "counter_value(NULL, 0)");
	CHECK(cutoff_counter_find(NULL) == -1, "counter_find(NULL)");

	COVER(cutoff_counters_add);
	cutoff_counters_t sum;
	memset(&sum, POISON, sizeof(sum));
	memset(&c, 1, sizeof(c));
	cutoff_counters_add(NULL, &c);
	cutoff_counters_add(&sum, NULL);
	cutoff_counters_add(NULL, NULL);
	CHECK(untouched(&sum, sizeof(sum), POISON), "counters_add with a NULL: nothing added");
	COVER(cutoff_profile_add);
	cutoff_profile_t psum;
	memset(&psum, POISON, sizeof(psum));
	memset(&p, 0, sizeof(p));
	p.time_s = 1;
	cutoff_profile_add(NULL, &p);
	cutoff_profile_add(&psum, NULL);
	cutoff_profile_add(NULL, NULL);
	CHECK(untouched(&psum, sizeof(psum), POISON), "profile_add with a NULL: nothing added");

	cutoff_engine_free(e);
}

static void null_tt(void)
{
	COVER(cutoff_tt_new);
	cutoff_tt_t *tt = cutoff_tt_new(1, 0, NULL);
	CHECK(tt != NULL, "tt_new(err NULL): made");
	CHECK(cutoff_tt_new(0, 0, NULL) == NULL, "tt_new(0 MiB, err NULL): NULL");
	COVER(cutoff_tt_free);
	cutoff_tt_free(NULL);
	COVER(cutoff_tt_clear_part);
	cutoff_tt_clear_part(NULL, 0, 1);
	COVER(cutoff_tt_clear);
	cutoff_tt_clear(NULL);
	COVER(cutoff_tt_new_search);
	cutoff_tt_new_search(NULL);
	COVER(cutoff_tt_store);
	cutoff_tt_store(NULL, 42, 3, 0, CUTOFF_BOUND_EXACT, 7, 1);
	COVER(cutoff_tt_hashfull);
	CHECK(cutoff_tt_hashfull(NULL) == 0, "tt_hashfull(NULL): 0");
	COVER(cutoff_tt_entries);
	CHECK(cutoff_tt_entries(NULL) == 0, "tt_entries(NULL): 0");

	COVER(cutoff_tt_probe);
	cutoff_tt_hit_t hit;
	memset(&hit, POISON, sizeof(hit));
	CHECK(!cutoff_tt_probe(NULL, 42, 3, 0, &hit) && hit.lower == -CUTOFF_INF &&
	              hit.upper == CUTOFF_INF && hit.move == CUTOFF_MOVE_NONE && hit.depth == -1,
	      "tt_probe(NULL table): false, hit says nothing found (%d %d %u %d)", (int)hit.lower,
	      (int)hit.upper, hit.move, hit.depth);
	if (tt) {
		cutoff_tt_store(tt, 42, 3, 0, CUTOFF_BOUND_EXACT, 7, 1);
		CHECK(cutoff_tt_probe(tt, 42, 3, 0, &hit) && hit.lower == 7,
		      "the table made here finds what it stored");
	}
	CHECK(!cutoff_tt_probe(tt, 42, 3, 0, NULL), "tt_probe(hit NULL): false");
	CHECK(!cutoff_tt_probe(NULL, 42, 3, 0, NULL), "tt_probe(NULL, NULL): false");
	cutoff_tt_free(tt);
}

static void null_topology(void)
{
	COVER(cutoff_topology_describe);
	cutoff_topology_info_t info;
	CHECK(cutoff_topology_describe(NULL, &info) == 0 && info.pus >= 1,
	      "topology_describe(NULL topology): this machine's (%d PUs)", info.pus);
	CHECK(cutoff_topology_describe(NULL, NULL) == CUTOFF_EINVAL,
	      "topology_describe(NULL, NULL)");

	COVER(cutoff_topology_plan);
	int pu[2], core[2], package[2], numa[2];
	CHECK(cutoff_topology_plan(NULL, 2, CUTOFF_PLACE_COMPACT, NULL, core, package, numa) ==
	              CUTOFF_EINVAL,
	      "topology_plan(pu NULL)");
	CHECK(cutoff_topology_plan(NULL, 2, CUTOFF_PLACE_COMPACT, NULL, NULL, NULL, NULL) ==
	              CUTOFF_EINVAL,
	      "topology_plan(all NULL)");
	CHECK(cutoff_topology_plan(NULL, 2, CUTOFF_PLACE_COMPACT, pu, NULL, NULL, NULL) == 0 &&
	              pu[0] == -1,
	      "topology_plan(NULL topology, core, package, numa NULL): planned");
	int *outs[3] = { core, package, numa };
	for (int k = 0; k < 3; k++) {
		int *a[3] = { core, package, numa };
		a[k] = NULL;
		memset(outs[k], POISON, sizeof(core));
		CHECK(cutoff_topology_plan(NULL, 2, CUTOFF_PLACE_SCATTER, pu, a[0], a[1], a[2]) ==
		                      0 &&
		              untouched(outs[k], sizeof(core), POISON),
		      "topology_plan(output %d NULL): planned, that output not written", k);
	}
}

static void null_chess(void)
{
	COVER(cutoff_chess_new);
	cutoff_chess_t *chess = cutoff_chess_new(NULL);
	CHECK(chess != NULL, "chess_new(err NULL): made");
	if (!chess)
		return;
	COVER(cutoff_chess_free);
	cutoff_chess_free(NULL);
	COVER(cutoff_chess_game);
	CHECK(cutoff_chess_game(NULL) == NULL, "chess_game(NULL): NULL");

	cutoff_chess_state_t st, out;
	char buf[CUTOFF_CHESS_FEN_SIZE], msg[100];
	COVER(cutoff_chess_start);
	memset(&out, POISON, sizeof(out));
	cutoff_chess_start(NULL, &out);
	CHECK(untouched(&out, sizeof(out), POISON), "chess_start(NULL, state): nothing written");
	cutoff_chess_start(chess, NULL);
	cutoff_chess_start(chess, &st);

	COVER(cutoff_chess_parse_fen);
	const char *fen = CUTOFF_CHESS_START_FEN;
	CHECK(cutoff_chess_parse_fen(NULL, fen, &out, msg, sizeof(msg)) == CUTOFF_EINVAL &&
	              strcmp(msg, "FEN: a NULL argument") == 0 &&
	              untouched(&out, sizeof(out), POISON),
	      "parse_fen(NULL chess): '%s', out untouched", msg);
	CHECK(cutoff_chess_parse_fen(chess, NULL, &out, msg, sizeof(msg)) == CUTOFF_EINVAL &&
	              strcmp(msg, "FEN: a NULL argument") == 0 &&
	              untouched(&out, sizeof(out), POISON),
	      "parse_fen(NULL fen): '%s', out untouched", msg);
	CHECK(cutoff_chess_parse_fen(chess, fen, NULL, msg, sizeof(msg)) == CUTOFF_EINVAL &&
	              strcmp(msg, "FEN: a NULL argument") == 0,
	      "parse_fen(NULL out): '%s'", msg);
	CHECK(cutoff_chess_parse_fen(chess, fen, &out, NULL, sizeof(msg)) == 0,
	      "parse_fen(err NULL): read");
	CHECK(cutoff_chess_parse_fen(chess, "x", &st, NULL, sizeof(msg)) == CUTOFF_EINVAL,
	      "parse_fen(err NULL): a bad FEN still refused");
	CHECK(cutoff_chess_parse_fen(NULL, NULL, NULL, NULL, 0) == CUTOFF_EINVAL,
	      "parse_fen(all NULL)");

	COVER(cutoff_chess_fen);
	CHECK(cutoff_chess_fen(NULL, &st, buf, sizeof(buf)) == CUTOFF_EINVAL && buf[0] == '\0',
	      "chess_fen(NULL chess): CUTOFF_EINVAL, buf \"\"");
	CHECK(cutoff_chess_fen(chess, NULL, buf, sizeof(buf)) == CUTOFF_EINVAL && buf[0] == '\0',
	      "chess_fen(NULL state): CUTOFF_EINVAL, buf \"\"");
	CHECK(cutoff_chess_fen(chess, &st, NULL, sizeof(buf)) == CUTOFF_EINVAL,
	      "chess_fen(NULL buf)");
	CHECK(cutoff_chess_fen(NULL, NULL, NULL, 0) == CUTOFF_EINVAL, "chess_fen(all NULL)");

	cutoff_move_t m = CUTOFF_MOVE_NONE, e2e4;
	CHECK(cutoff_chess_parse_move(chess, &st, "e2e4", &e2e4, NULL, 0) == 0, "e2e4");
	int (*const parsers[2])(const cutoff_chess_t *, const cutoff_chess_state_t *, const char *,
	                        cutoff_move_t *, char *,
	                        size_t) = { cutoff_chess_parse_move, cutoff_chess_parse_san };
	const char *const texts[2] = { "e2e4", "e4" };
	COVER(cutoff_chess_parse_move);
	COVER(cutoff_chess_parse_san);
	for (int k = 0; k < 2; k++) {
		const char *name = k ? "parse_san" : "parse_move";
		CHECK(parsers[k](NULL, &st, texts[k], &m, msg, sizeof(msg)) == CUTOFF_EINVAL &&
		              strstr(msg, "a NULL argument") && m == CUTOFF_MOVE_NONE,
		      "%s(NULL chess): '%s'", name, msg);
		CHECK(parsers[k](chess, NULL, texts[k], &m, msg, sizeof(msg)) == CUTOFF_EINVAL &&
		              strstr(msg, "a NULL argument") && m == CUTOFF_MOVE_NONE,
		      "%s(NULL state): '%s'", name, msg);
		CHECK(parsers[k](chess, &st, NULL, &m, msg, sizeof(msg)) == CUTOFF_EINVAL &&
		              strstr(msg, "a NULL argument") && m == CUTOFF_MOVE_NONE,
		      "%s(NULL text): '%s'", name, msg);
		CHECK(parsers[k](chess, &st, texts[k], NULL, msg, sizeof(msg)) == CUTOFF_EINVAL &&
		              strstr(msg, "a NULL argument"),
		      "%s(NULL move): '%s'", name, msg);
		CHECK(parsers[k](chess, &st, texts[k], &m, NULL, sizeof(msg)) == 0 && m == e2e4,
		      "%s(err NULL): read", name);
		m = CUTOFF_MOVE_NONE;
		CHECK(parsers[k](NULL, NULL, NULL, NULL, NULL, 0) == CUTOFF_EINVAL, "%s(all NULL)",
		      name);
	}

	COVER(cutoff_chess_parse_epd);
	{
		char line[] = "4k3/8/8/8/8/8/8/4K3 w - - bm Kd1;";
		cutoff_chess_epd_t epd;
		epd.error = CUTOFF_CHESS_EPD_OK;
		CHECK(cutoff_chess_parse_epd(NULL, line, &epd, msg, sizeof(msg)) == CUTOFF_EINVAL &&
		              strstr(msg, "a NULL argument") &&
		              epd.error == CUTOFF_CHESS_EPD_NULL &&
		              strcmp(line, "4k3/8/8/8/8/8/8/4K3 w - - bm Kd1;") == 0,
		      "parse_epd(NULL chess): '%s', the line untouched", msg);
		CHECK(cutoff_chess_parse_epd(chess, NULL, &epd, msg, sizeof(msg)) ==
		                      CUTOFF_EINVAL &&
		              strstr(msg, "a NULL argument"),
		      "parse_epd(NULL line): '%s'", msg);
		CHECK(cutoff_chess_parse_epd(chess, line, NULL, msg, sizeof(msg)) ==
		                      CUTOFF_EINVAL &&
		              strstr(msg, "a NULL argument"),
		      "parse_epd(NULL out): '%s'", msg);
		CHECK(cutoff_chess_parse_epd(chess, line, &epd, NULL, sizeof(msg)) == 0 &&
		              epd.nops == 1,
		      "parse_epd(err NULL): read");
		CHECK(cutoff_chess_parse_epd(NULL, NULL, NULL, NULL, 0) == CUTOFF_EINVAL,
		      "parse_epd(all NULL)");
	}

	COVER(cutoff_chess_san);
	CHECK(cutoff_chess_san(NULL, &st, e2e4, buf, sizeof(buf)) == CUTOFF_EINVAL &&
	              buf[0] == '\0',
	      "chess_san(NULL chess)");
	CHECK(cutoff_chess_san(chess, NULL, e2e4, buf, sizeof(buf)) == CUTOFF_EINVAL &&
	              buf[0] == '\0',
	      "chess_san(NULL state)");
	CHECK(cutoff_chess_san(chess, &st, e2e4, NULL, sizeof(buf)) == CUTOFF_EINVAL,
	      "chess_san(NULL buf)");
	CHECK(cutoff_chess_san(NULL, NULL, e2e4, NULL, 0) == CUTOFF_EINVAL, "chess_san(all NULL)");
	COVER(cutoff_chess_move_str);
	CHECK(cutoff_chess_move_str(e2e4, NULL, CUTOFF_CHESS_MOVE_SIZE) == CUTOFF_EINVAL,
	      "move_str(NULL buf)");

	COVER(cutoff_chess_play);
	memset(&out, POISON, sizeof(out));
	CHECK(cutoff_chess_play(NULL, &st, e2e4, &out) == CUTOFF_EINVAL &&
	              untouched(&out, sizeof(out), POISON),
	      "chess_play(NULL chess): child untouched");
	CHECK(cutoff_chess_play(chess, NULL, e2e4, &out) == CUTOFF_EINVAL &&
	              untouched(&out, sizeof(out), POISON),
	      "chess_play(NULL state): child untouched");
	CHECK(cutoff_chess_play(chess, &st, e2e4, NULL) == CUTOFF_EINVAL, "chess_play(NULL child)");
	CHECK(cutoff_chess_play(NULL, NULL, e2e4, NULL) == CUTOFF_EINVAL, "chess_play(all NULL)");

	COVER(cutoff_chess_moves);
	cutoff_move_t moves[CUTOFF_MAX_MOVES];
	CHECK(cutoff_chess_moves(NULL, &st, moves) == CUTOFF_EINVAL, "chess_moves(NULL chess)");
	CHECK(cutoff_chess_moves(chess, NULL, moves) == CUTOFF_EINVAL, "chess_moves(NULL state)");
	CHECK(cutoff_chess_moves(chess, &st, NULL) == CUTOFF_EINVAL, "chess_moves(NULL moves)");
	CHECK(cutoff_chess_moves(NULL, NULL, NULL) == CUTOFF_EINVAL, "chess_moves(all NULL)");

	COVER(cutoff_chess_in_check);
	cutoff_chess_state_t checked;
	CHECK(cutoff_chess_parse_fen(chess, "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", &checked, NULL, 0) ==
	              0,
	      "a position in check");
	CHECK(!cutoff_chess_in_check(NULL, &checked), "in_check(NULL chess): false");
	CHECK(!cutoff_chess_in_check(chess, NULL), "in_check(NULL state): false");
	CHECK(!cutoff_chess_in_check(NULL, NULL), "in_check(all NULL): false");

	COVER(cutoff_chess_perft);
	uint64_t nodes = 12345;
	CHECK(cutoff_chess_perft(NULL, &st, 1, &nodes) == CUTOFF_EINVAL && nodes == 12345,
	      "perft(NULL chess): nodes untouched");
	CHECK(cutoff_chess_perft(chess, NULL, 1, &nodes) == CUTOFF_EINVAL && nodes == 12345,
	      "perft(NULL state): nodes untouched");
	CHECK(cutoff_chess_perft(chess, &st, 1, NULL) == CUTOFF_EINVAL, "perft(NULL nodes)");
	CHECK(cutoff_chess_perft(NULL, NULL, 1, NULL) == CUTOFF_EINVAL, "perft(all NULL)");

	cutoff_chess_free(chess);
}

static void null_connect4(void)
{
	cutoff_connect4_state_t st, out;
	char msg[100];
	COVER(cutoff_connect4_game);
	CHECK(cutoff_connect4_game() != NULL, "connect4_game");
	COVER(cutoff_connect4_start);
	cutoff_connect4_start(NULL);
	cutoff_connect4_start(&st);

	COVER(cutoff_connect4_parse);
	memset(&out, POISON, sizeof(out));
	CHECK(cutoff_connect4_parse(NULL, &out, msg, sizeof(msg)) == CUTOFF_EINVAL && msg[0] &&
	              untouched(&out, sizeof(out), POISON),
	      "connect4_parse(NULL moves): '%s', st untouched", msg);
	CHECK(cutoff_connect4_parse("44", NULL, msg, sizeof(msg)) == CUTOFF_EINVAL && msg[0],
	      "connect4_parse(NULL st): '%s'", msg);
	CHECK(cutoff_connect4_parse("44", &out, NULL, sizeof(msg)) == 0,
	      "connect4_parse(err NULL): read");
	CHECK(cutoff_connect4_parse("48", &out, NULL, sizeof(msg)) == CUTOFF_EINVAL,
	      "connect4_parse(err NULL): bad moves still refused");
	CHECK(cutoff_connect4_parse(NULL, NULL, NULL, 0) == CUTOFF_EINVAL,
	      "connect4_parse(all NULL)");

	COVER(cutoff_connect4_play);
	CHECK(cutoff_connect4_play(NULL, 3) == CUTOFF_EINVAL, "connect4_play(NULL)");
	COVER(cutoff_connect4_has_four);
	CHECK(!cutoff_connect4_has_four(NULL), "has_four(NULL): false");
	COVER(cutoff_connect4_winning_column);
	CHECK(cutoff_connect4_winning_column(NULL) == -1, "winning_column(NULL): -1");
	COVER(cutoff_connect4_depth);
	CHECK(cutoff_connect4_depth(NULL, -1, 1) == CUTOFF_EINVAL, "connect4_depth(NULL)");

	COVER(cutoff_connect4_solve);
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.tt_mb = 1;
	cutoff_engine_t *e = cutoff_engine_new(cutoff_connect4_game(), &cfg, NULL);
	CHECK(e != NULL, "a Connect Four engine");
	cutoff_connect4_solution_t sol;
	memset(&sol, POISON, sizeof(sol));
	CHECK(cutoff_connect4_solve(NULL, &st, true, CUTOFF_CONNECT4_MTDF, &sol) == CUTOFF_EINVAL &&
	              untouched(&sol, sizeof(sol), POISON),
	      "connect4_solve(NULL engine): solution untouched");
	CHECK(cutoff_connect4_solve(e, NULL, true, CUTOFF_CONNECT4_MTDF, &sol) == CUTOFF_EINVAL &&
	              untouched(&sol, sizeof(sol), POISON),
	      "connect4_solve(NULL state): solution untouched");
	CHECK(cutoff_connect4_solve(e, &st, true, CUTOFF_CONNECT4_MTDF, NULL) == CUTOFF_EINVAL,
	      "connect4_solve(NULL solution)");
	CHECK(cutoff_connect4_solve(NULL, NULL, true, CUTOFF_CONNECT4_MTDF, NULL) == CUTOFF_EINVAL,
	      "connect4_solve(all NULL)");
	COVER(cutoff_connect4_solve_with);
	memset(&sol, POISON, sizeof(sol));
	CHECK(cutoff_connect4_solve_with(NULL, &st, true, CUTOFF_CONNECT4_MTDF, NULL, NULL, &sol) ==
	                      CUTOFF_EINVAL &&
	              untouched(&sol, sizeof(sol), POISON),
	      "connect4_solve_with(NULL engine): solution untouched");
	CHECK(cutoff_connect4_solve_with(e, NULL, true, CUTOFF_CONNECT4_MTDF, NULL, NULL, &sol) ==
	              CUTOFF_EINVAL,
	      "connect4_solve_with(NULL state)");
	CHECK(cutoff_connect4_solve_with(e, &st, true, CUTOFF_CONNECT4_MTDF, NULL, NULL, NULL) ==
	              CUTOFF_EINVAL,
	      "connect4_solve_with(NULL solution)");
	cutoff_engine_free(e);
}

static void null_small_games(void)
{
	cutoff_ttt_state_t t;
	COVER(cutoff_ttt_game);
	CHECK(cutoff_ttt_game() != NULL, "ttt_game");
	COVER(cutoff_ttt_start);
	cutoff_ttt_start(NULL);
	COVER(cutoff_ttt_parse);
	memset(&t, POISON, sizeof(t));
	CHECK(cutoff_ttt_parse(NULL, &t) == CUTOFF_EINVAL && untouched(&t, sizeof(t), POISON),
	      "ttt_parse(NULL text): state untouched");
	CHECK(cutoff_ttt_parse("x........", NULL) == CUTOFF_EINVAL, "ttt_parse(NULL state)");
	CHECK(cutoff_ttt_parse(NULL, NULL) == CUTOFF_EINVAL, "ttt_parse(all NULL)");

	COVER(cutoff_rtree_params_default);
	cutoff_rtree_params_default(NULL);
	COVER(cutoff_rtree_new);
	int err = 0;
	CHECK(cutoff_rtree_new(NULL, &err) == NULL && err == CUTOFF_EINVAL,
	      "rtree_new(NULL params): NULL, CUTOFF_EINVAL");
	CHECK(cutoff_rtree_new(NULL, NULL) == NULL, "rtree_new(NULL, NULL): NULL");
	cutoff_rtree_params_t params;
	cutoff_rtree_params_default(&params);
	params.depth = 3;
	cutoff_rtree_t *tree = cutoff_rtree_new(&params, NULL);
	CHECK(tree != NULL, "rtree_new(err NULL): made");
	COVER(cutoff_rtree_free);
	cutoff_rtree_free(NULL);
	COVER(cutoff_rtree_game);
	CHECK(cutoff_rtree_game(NULL) == NULL, "rtree_game(NULL): NULL");
	COVER(cutoff_rtree_root);
	cutoff_rtree_state_t root;
	memset(&root, POISON, sizeof(root));
	cutoff_rtree_root(NULL, 1, &root);
	CHECK(untouched(&root, sizeof(root), POISON), "rtree_root(NULL tree): root untouched");
	cutoff_rtree_root(tree, 1, NULL);
	cutoff_rtree_root(tree, 1, &root);
	COVER(cutoff_rtree_value);
	CHECK(cutoff_rtree_value(NULL, &root) == 0, "rtree_value(NULL tree): 0");
	CHECK(cutoff_rtree_value(tree, NULL) == 0, "rtree_value(NULL state): 0");
	CHECK(cutoff_rtree_value(NULL, NULL) == 0, "rtree_value(all NULL): 0");
	cutoff_rtree_free(tree);
	COVER(cutoff_minimal_tree);
	CHECK(cutoff_minimal_tree(6, 6) == 431, "minimal_tree(6, 6)");

	COVER(cutoff_pgame_params_default);
	cutoff_pgame_params_default(NULL);
	COVER(cutoff_pgame_new);
	err = 0;
	CHECK(cutoff_pgame_new(NULL, &err) == NULL && err == CUTOFF_EINVAL,
	      "pgame_new(NULL params): NULL, CUTOFF_EINVAL");
	CHECK(cutoff_pgame_new(NULL, NULL) == NULL, "pgame_new(NULL, NULL): NULL");
	cutoff_pgame_params_t pp;
	cutoff_pgame_params_default(&pp);
	pp.cells = 6;
	cutoff_pgame_t *pg = cutoff_pgame_new(&pp, NULL);
	CHECK(pg != NULL, "pgame_new(err NULL): made");
	COVER(cutoff_pgame_free);
	cutoff_pgame_free(NULL);
	COVER(cutoff_pgame_game);
	CHECK(cutoff_pgame_game(NULL) == NULL, "pgame_game(NULL): NULL");
	COVER(cutoff_pgame_root);
	cutoff_pgame_state_t proot;
	memset(&proot, POISON, sizeof(proot));
	cutoff_pgame_root(NULL, &proot);
	CHECK(untouched(&proot, sizeof(proot), POISON), "pgame_root(NULL game): root untouched");
	cutoff_pgame_root(pg, NULL);
	cutoff_pgame_root(pg, &proot);
	COVER(cutoff_pgame_solve);
	int32_t pv = 12345;
	int plen = 12345;
	CHECK(cutoff_pgame_solve(NULL, &proot, &pv, &plen) == CUTOFF_EINVAL && pv == 12345 &&
	              plen == 12345,
	      "pgame_solve(NULL game): CUTOFF_EINVAL, outputs untouched");
	CHECK(cutoff_pgame_solve(pg, NULL, &pv, &plen) == CUTOFF_EINVAL && pv == 12345,
	      "pgame_solve(NULL state): CUTOFF_EINVAL");
	CHECK(cutoff_pgame_solve(NULL, NULL, NULL, NULL) == CUTOFF_EINVAL, "pgame_solve(all NULL)");
	CHECK(cutoff_pgame_solve(pg, &proot, NULL, NULL) == CUTOFF_OK,
	      "pgame_solve(NULL outputs): 0, nothing written");
	cutoff_pgame_free(pg);
}

/* Every name of the list is covered above, and every name covered is in the list. */
static void check_list(const char *path)
{
	FILE *f = fopen(path, "r");
	CHECK(f != NULL, "cannot read the list %s", path);
	if (!f)
		return;
	char line[256];
	bool listed[MAX_COVERED] = { false };
	int nlisted = 0, missing = 0;
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char name[sizeof(line)];
		if (sscanf(line, "%255s", name) != 1)
			continue;
		nlisted++;
		bool found = false;
		for (int i = 0; i < ncovered; i++)
			if (strcmp(covered[i], name) == 0)
				found = listed[i] = true;
		if (!found) {
			missing++;
			printf("FAIL: %s (listed in %s) is never called with NULL here\n", name,
			       path);
		}
	}
	fclose(f);
	int unlisted = 0;
	for (int i = 0; i < ncovered; i++)
		if (!listed[i]) {
			unlisted++;
			printf("FAIL: %s is called here but not listed in %s\n", covered[i], path);
		}
	CHECK(missing == 0 && unlisted == 0 && nlisted == ncovered,
	      "the %d functions listed are the %d called (%d not called, %d not listed)", nlisted,
	      ncovered, missing, unlisted);
	printf("%d public functions called with NULL in each pointer argument\n", ncovered);
}

int main(void)
{
	null_engine();
	null_tt();
	null_topology();
	null_chess();
	null_connect4();
	null_small_games();
	check_list(CUTOFF_API_LIST);
	return check_report();
}
