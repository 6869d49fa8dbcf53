/* SPDX-License-Identifier: MIT */
/*
 * The library's boundary: every bad argument gets an error code (never a crash, a print
 * or an exit), the log callback names the field that was wrong, and the engine is left
 * as it was. Also the documented behaviour of stops and limits.
 */
#include <hwloc.h>
#include <string.h>

#include "check.h"
#include "cutoff_games.h"

struct log {
	int calls;
	char last[256];
};

static void logger(void *user, cutoff_log_level_t level, const char *msg)
{
	struct log *l = user;
	(void)level;
	l->calls++;
	snprintf(l->last, sizeof(l->last), "%s", msg);
}

static int new_err(const cutoff_game_t *g, const cutoff_config_t *cfg)
{
	int err = 12345;
	cutoff_engine_t *e = cutoff_engine_new(g, cfg, &err);
	cutoff_engine_free(e);
	return e ? 0 : err;
}

struct nested {
	cutoff_engine_t *engine;
	const void *root;
	int rc;
	int cancel_rc;
	int counters_rc, profile_rc; /* the per-thread readers, during the search */
	bool untouched;              /* and what they were given is as it was */
	int calls;
};

static void nested_search(void *user, const cutoff_result_t *partial)
{
	struct nested *n = user;
	cutoff_limits_t lim;
	cutoff_result_t r;
	(void)partial;
	cutoff_limits_default(&lim);
	lim.depth = 1;
	n->rc = cutoff_engine_search(n->engine, n->root, &lim, &r, NULL, NULL);
	n->cancel_rc = cutoff_engine_cancel_stop(n->engine);
	cutoff_counters_t c, c0;
	cutoff_profile_t p, p0;
	memset(&c, 0x5a, sizeof(c));
	memset(&p, 0x5a, sizeof(p));
	c0 = c;
	p0 = p;
	n->counters_rc = cutoff_engine_thread_counters(n->engine, 0, &c);
	n->profile_rc = cutoff_engine_thread_profile(n->engine, 0, &p);
	n->untouched = memcmp(&c, &c0, sizeof(c)) == 0 && memcmp(&p, &p0, sizeof(p)) == 0;
	n->calls++;
}

int main(void)
{
	const cutoff_game_t *ttt = cutoff_ttt_game();
	cutoff_config_t cfg;
	struct log log = { 0 };

	for (int code = 0; code >= CUTOFF_EPEER; code--)
		CHECK(strcmp(cutoff_strerror(code), "unknown error") != 0, "code %d has a name",
		      code);
	CHECK(strcmp(cutoff_strerror(-999), "unknown error") == 0, "unknown codes are named so");
	CHECK(strcmp(cutoff_version(), CUTOFF_VERSION_STRING) == 0 &&
	              CUTOFF_VERSION_NUMBER == CUTOFF_VERSION_MAJOR * 10000 +
	                                               CUTOFF_VERSION_MINOR * 100 +
	                                               CUTOFF_VERSION_PATCH,
	      "the library's version %s is the header's %s", cutoff_version(),
	      CUTOFF_VERSION_STRING);

	/* Configurations. */
	cutoff_config_default(&cfg);
	cfg.log = logger;
	cfg.log_user = &log;
	CHECK(new_err(NULL, &cfg) == CUTOFF_EINVAL, "NULL game");
	CHECK(new_err(ttt, NULL) == 0, "NULL config means the defaults");
	int bad_threads[] = { 0, -1, CUTOFF_MAX_THREADS + 1 };
	for (int i = 0; i < 3; i++) {
		cfg.threads = bad_threads[i];
		CHECK(new_err(ttt, &cfg) == CUTOFF_EINVAL && strstr(log.last, "threads"),
		      "threads %d refused, naming the field (\"%s\")", bad_threads[i], log.last);
	}
	cutoff_config_default(&cfg);
	cfg.log = logger;
	cfg.log_user = &log;
	cfg.tt_mb = CUTOFF_MAX_TT_MB + 1;
	CHECK(new_err(ttt, &cfg) == CUTOFF_EINVAL && strstr(log.last, "tt_mb"),
	      "absurd table size refused");
	cfg.tt_mb = 1;
	cfg.algo = (cutoff_algo_t)99;
	CHECK(new_err(ttt, &cfg) == CUTOFF_EINVAL && strstr(log.last, "algo"),
	      "unknown algorithm refused");
	cfg.algo = CUTOFF_ALGO_PVS;
	cfg.driver = (cutoff_driver_t)7;
	CHECK(new_err(ttt, &cfg) == CUTOFF_EINVAL && strstr(log.last, "driver"),
	      "unknown driver refused");
	cfg.driver = CUTOFF_DRIVER_SERIAL;
	cfg.tt_min_depth = -1;
	CHECK(new_err(ttt, &cfg) == CUTOFF_EINVAL && strstr(log.last, "tt_min_depth"),
	      "negative tt_min_depth refused");
	cfg.tt_min_depth = CUTOFF_MAX_PLY + 1;
	CHECK(new_err(ttt, &cfg) == CUTOFF_EINVAL && strstr(log.last, "tt_min_depth"),
	      "tt_min_depth beyond the ply limit refused");
	cfg.tt_min_depth = 0;
	cfg.etc_min_depth = 1;
	CHECK(new_err(ttt, &cfg) == CUTOFF_EINVAL && strstr(log.last, "etc_min_depth"),
	      "etc_min_depth 1 refused (a child at depth 0 is a leaf: nothing to ask)");
	cfg.etc_min_depth = CUTOFF_MAX_PLY + 1;
	CHECK(new_err(ttt, &cfg) == CUTOFF_EINVAL && strstr(log.last, "etc_min_depth"),
	      "etc_min_depth beyond the ply limit refused");
	cfg.etc_min_depth = -2;
	CHECK(new_err(ttt, &cfg) == CUTOFF_EINVAL && strstr(log.last, "etc_min_depth"),
	      "negative etc_min_depth refused");
	cfg.etc_min_depth = 0;
	cfg.abdada_min_depth = -1;
	CHECK(new_err(ttt, &cfg) == CUTOFF_EINVAL && strstr(log.last, "abdada_min_depth"),
	      "a driver's option is checked whichever driver is chosen");
	cfg.abdada_min_depth = 0;

	/* Games. */
	cutoff_game_t g = *ttt;
	g.play = NULL;
	CHECK(new_err(&g, &cfg) == CUTOFF_EGAME && strstr(log.last, "play"),
	      "missing callback named");
	g = *ttt;
	g.state_size = 0;
	CHECK(new_err(&g, &cfg) == CUTOFF_EGAME && strstr(log.last, "state_size"), "state_size 0");
	g = *ttt;
	g.max_moves = CUTOFF_MAX_MOVES + 1;
	CHECK(new_err(&g, &cfg) == CUTOFF_EGAME && strstr(log.last, "max_moves"),
	      "max_moves too big");

	/* Searches. */
	cutoff_engine_t *e = cutoff_engine_new(ttt, &cfg, NULL);
	cutoff_ttt_state_t st;
	cutoff_result_t r;
	cutoff_limits_t lim;
	cutoff_ttt_start(&st);
	cutoff_limits_default(&lim);
	CHECK(cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == CUTOFF_EINVAL &&
	              strstr(log.last, "depth"),
	      "depth 0 refused");
	int bad_depths[] = { -1, CUTOFF_MAX_PLY, 1 << 30 };
	for (int i = 0; i < 3; i++) {
		lim.depth = bad_depths[i];
		CHECK(cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == CUTOFF_EINVAL,
		      "depth %d refused", bad_depths[i]);
	}
	lim.depth = 3;
	lim.alpha = 5;
	lim.beta = 5;
	CHECK(cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == CUTOFF_EINVAL &&
	              strstr(log.last, "window"),
	      "empty window refused");
	lim.alpha = -CUTOFF_INF - 1;
	CHECK(cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == CUTOFF_EINVAL,
	      "alpha below -INF");
	cutoff_limits_default(&lim);
	lim.depth = 3;
	CHECK(cutoff_engine_search(NULL, &st, &lim, &r, NULL, NULL) == CUTOFF_EINVAL,
	      "NULL engine");
	CHECK(cutoff_engine_search(e, NULL, &lim, &r, NULL, NULL) == CUTOFF_EINVAL, "NULL root");
	CHECK(cutoff_engine_search(e, &st, NULL, &r, NULL, NULL) == CUTOFF_EINVAL, "NULL limits");
	CHECK(cutoff_engine_search(e, &st, &lim, NULL, NULL, NULL) == CUTOFF_EINVAL, "NULL result");
	CHECK(cutoff_engine_set_algo(e, (cutoff_algo_t)-1) == CUTOFF_EINVAL,
	      "set_algo refuses junk");
	CHECK(cutoff_engine_clear(NULL) == CUTOFF_EINVAL, "clear(NULL)");
	CHECK(cutoff_engine_config(e, NULL) == CUTOFF_EINVAL, "config(e, NULL)");
	cutoff_engine_free(NULL);

	/* After all those refusals the engine still works. */
	lim.depth = 9;
	CHECK(cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == 0 && r.value == 0,
	      "still searches");

	/* A search of a busy engine is refused (here: from inside its own info callback). */
	struct nested n = { e, &st, 0, 0, 0, 0, false, 0 };
	lim.iterate = true;
	CHECK(cutoff_engine_search(e, &st, &lim, &r, nested_search, &n) == 0 && n.calls > 0 &&
	              n.rc == CUTOFF_EBUSY,
	      "a second search of a busy engine gets CUTOFF_EBUSY (%d)", n.rc);
	CHECK(n.cancel_rc == CUTOFF_EBUSY, "a stop cannot be withdrawn during a search (%d)",
	      n.cancel_rc);
	CHECK(n.counters_rc == CUTOFF_EBUSY && n.profile_rc == CUTOFF_EBUSY && n.untouched,
	      "thread_counters and thread_profile during a search: CUTOFF_EBUSY (%d, %d), "
	      "nothing written",
	      n.counters_rc, n.profile_rc);
	{
		cutoff_counters_t c;
		cutoff_profile_t p;
		CHECK(cutoff_engine_thread_counters(e, 0, &c) == 0 &&
		              cutoff_engine_thread_profile(e, 0, &p) == 0 && c.nodes > 0,
		      "and once the search is over, they answer");
	}
	CHECK(cutoff_engine_cancel_stop(NULL) == CUTOFF_EINVAL, "cancel_stop(NULL)");

	/* A stop before the search: it stops at once, yet names a legal move. */
	cutoff_engine_stop(e);
	CHECK(cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == 0 && r.stopped &&
	              r.bound == CUTOFF_BOUND_NONE && r.best_move < 9,
	      "stopped before depth 1: no value, a legal move (%u)", r.best_move);
	CHECK(cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == 0 && !r.stopped && r.depth == 9,
	      "the stop is spent: the next search runs to the end");

	/* A stop withdrawn before the search does not stop it. */
	cutoff_engine_stop(e);
	CHECK(cutoff_engine_cancel_stop(e) == CUTOFF_OK, "a pending stop is withdrawn");
	CHECK(cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == 0 && !r.stopped && r.depth == 9,
	      "a withdrawn stop does not stop the next search");

	/* A node limit ends an iterative search with the deepest completed iteration. */
	cutoff_engine_clear(e);
	lim.nodes = 3000;
	CHECK(cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == 0 && r.stopped &&
	              r.depth >= 1 && r.depth < 9 && r.counters.nodes <= 3000 && r.best_move < 9,
	      "node limit: stopped at depth %d after %llu nodes", r.depth,
	      (unsigned long long)r.counters.nodes);
	cutoff_engine_free(e);

	/* Placement through a topology that cannot bind (synthetic): the engine says so once
	 * through the log and runs unbound; its searches are unaffected. */
	hwloc_topology_t synthetic;
	hwloc_topology_init(&synthetic);
	hwloc_topology_set_synthetic(synthetic, "package:1 numa:2 core:4 pu:2");
	hwloc_topology_load(synthetic);
	cutoff_config_default(&cfg);
	log.calls = 0;
	cfg.log = logger;
	cfg.log_user = &log;
	cfg.topology = synthetic;
	cfg.placement = CUTOFF_PLACE_COMPACT;
	cfg.threads = 4;
	cfg.driver = CUTOFF_DRIVER_YBW;
	e = cutoff_engine_new(ttt, &cfg, NULL);
	CHECK(e && log.calls == 1 && strstr(log.last, "could not be bound"),
	      "refused binding is logged once (%d calls: \"%s\")", log.calls, log.last);
	cutoff_ttt_start(&st);
	cutoff_limits_default(&lim);
	lim.depth = 9;
	CHECK(e && cutoff_engine_search(e, &st, &lim, &r, NULL, NULL) == 0 && r.value == 0 &&
	              log.calls == 1,
	      "an unbound engine still searches, and says nothing more");
	cutoff_engine_free(e);
	hwloc_topology_destroy(synthetic);

	/* Bundled games validate their input too. */
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 0;
	int err = 0;
	CHECK(cutoff_rtree_new(&p, &err) == NULL && err == CUTOFF_EINVAL, "rtree branching 0");
	cutoff_rtree_params_default(&p);
	p.value_min = 10;
	p.value_max = -10;
	CHECK(cutoff_rtree_new(&p, &err) == NULL && err == CUTOFF_EINVAL,
	      "rtree empty value range");
	const char *bad_boards[] = {
		"", "xx", "xxxxxxxxxx", "xx.o....?", "xxx......", "ooo.xx..."
	};
	for (int i = 0; i < 6; i++)
		CHECK(cutoff_ttt_parse(bad_boards[i], &st) == CUTOFF_EINVAL,
		      "ttt board '%s' refused", bad_boards[i]);
	CHECK(cutoff_ttt_parse(NULL, &st) == CUTOFF_EINVAL, "ttt board NULL refused");

	/* cutoff_counters_add / cutoff_profile_add: the result's figures are the threads'
	 * summed with them (counters added, seldepth and depths the maximum). */
	{
		cutoff_config_default(&cfg);
		cfg.driver = CUTOFF_DRIVER_YBW;
		cfg.threads = 3;
		cfg.tt_mb = 0;
		cfg.ybw_min_split_depth = 2;
		cfg.dts_min_split_depth = cfg.ybw_min_split_depth;
		cfg.dts_min_split_nodes = 1;
		cutoff_engine_t *sum_e = cutoff_engine_new(ttt, &cfg, NULL);
		cutoff_ttt_state_t start;
		cutoff_ttt_start(&start);
		cutoff_limits_t sum_lim;
		cutoff_limits_default(&sum_lim);
		sum_lim.depth = 9;
		sum_lim.iterate = true;
		cutoff_result_t sum_r;
		CHECK(sum_e && cutoff_engine_search(sum_e, &start, &sum_lim, &sum_r, NULL, NULL) ==
		                       0,
		      "ybw x3 search");
		cutoff_counters_t csum = { 0 };
		cutoff_profile_t psum = { 0 };
		for (int i = 0; sum_e && i < 3; i++) {
			cutoff_counters_t c;
			cutoff_profile_t pr;
			cutoff_engine_thread_counters(sum_e, i, &c);
			cutoff_engine_thread_profile(sum_e, i, &pr);
			cutoff_counters_add(&csum, &c);
			cutoff_profile_add(&psum, &pr);
		}
		CHECK(memcmp(&csum, &sum_r.counters, sizeof(csum)) == 0 && csum.nodes > 0 &&
		              csum.seldepth <= 9,
		      "the threads' counters, summed, are the result's");
		CHECK(psum.time_s == sum_r.profile.time_s &&
		              psum.depth_completed == sum_r.profile.depth_completed,
		      "the threads' profiles, summed, are the result's");
		cutoff_engine_free(sum_e);
	}
	return check_report();
}
