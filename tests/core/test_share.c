/* SPDX-License-Identifier: MIT */
/*
 * The library's side of sharing a table with other engines (cutoff.h, section 7), on
 * random trees, with no MPI: what a cluster layer relies on.
 *
 *   - export: a search's stores of at least the export depth, and only those, come out of
 *     the threads' rings, each the entry the engine's own table holds for its key (when
 *     not replaced since); depth 255 exports nothing from a search that is not solving;
 *     a small ring drops and says how many; the rings are emptied when a search starts;
 *   - import: another engine's entries go into a fresh engine's table through the store
 *     path and are found there (bounds as exported); they save the importing engine nodes
 *     on the same search, and the profiler counts its hits on them (tt_hits_shared);
 *     malformed entries (bound, value) are skipped and counted out;
 *   - the poll hook: called by thread 0 while it searches, with the engine; a stop from it
 *     ends the search (stopped, a legal move), and the answer of a search whose hook did
 *     nothing is the serial one;
 *   - thread_base: lazy SMP's skipping goes by the global index (thread 0 of an engine
 *     with base 1 skips the odd depths, as a helper does);
 *   - the configuration's checks of share_ring and thread_base.
 *
 * cutoff-test-labels: concurrent
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cutoff_games.h"

enum {
	RING = 1 << 14
};

static cutoff_tt_entry_t taken[4 * RING];

static cutoff_engine_t *make(const cutoff_game_t *g, cutoff_driver_t driver, int threads, int ring,
                             int base, bool writers)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.driver = driver;
	cfg.threads = threads;
	cfg.tt_mb = 4;
	cfg.share_ring = ring;
	cfg.thread_base = base;
	cfg.profile_tt_writers = writers;
	int err;
	cutoff_engine_t *e = cutoff_engine_new(g, &cfg, &err);
	CHECK(e != NULL, "engine: %s", cutoff_strerror(err));
	return e;
}

static cutoff_limits_t limits(int depth, bool iterate)
{
	cutoff_limits_t lim;
	cutoff_limits_default(&lim);
	lim.depth = depth;
	lim.iterate = iterate;
	return lim;
}

/* Takes everything thread t's ring holds; returns the count, *dropped its drop count. */
static int take_all(cutoff_engine_t *e, int t, uint64_t *dropped)
{
	int n = 0, got;
	while (n < 4 * RING && (got = cutoff_engine_export(e, t, taken + n, 64, dropped)) > 0)
		n += got;
	return n;
}

static void test_export(const cutoff_game_t *g, const cutoff_rtree_state_t *root)
{
	cutoff_result_t *r = malloc(sizeof(*r));
	cutoff_engine_t *e = make(g, CUTOFF_DRIVER_SERIAL, 1, RING, 0, false);
	cutoff_limits_t lim = limits(7, true);

	CHECK(cutoff_engine_export_depth(e, 3) == 0, "export depth 3");
	CHECK(cutoff_engine_search(e, root, &lim, r, NULL, NULL) == 0, "search");
	uint64_t dropped = 99;
	int n = take_all(e, 0, &dropped);
	CHECK(n > 0 && dropped == 0, "exported %d entries, dropped %llu", n,
	      (unsigned long long)dropped);
	int shallow = 0, bad = 0, deep = 0;
	for (int i = 0; i < n; i++) {
		const cutoff_tt_entry_t *x = &taken[i];
		shallow += x->depth < 3;
		deep += x->depth > 7;
		bad += x->bound < CUTOFF_BOUND_UPPER || x->bound > CUTOFF_BOUND_EXACT ||
		       (x->bound == CUTOFF_BOUND_UPPER && x->move != CUTOFF_MOVE_NONE) ||
		       x->value < -CUTOFF_WIN || x->value > CUTOFF_WIN;
	}
	CHECK(shallow == 0 && deep == 0,
	      "%d exported entries shallower than the export depth, "
	      "%d deeper than the search",
	      shallow, deep);
	CHECK(bad == 0, "%d exported entries with a bad bound, value or an upper bound's move",
	      bad);

	/* Depth 255: only values exact to the end, which a search that does not solve has
	 * none of. */
	cutoff_engine_export_depth(e, 255);
	cutoff_engine_clear(e);
	CHECK(cutoff_engine_search(e, root, &lim, r, NULL, NULL) == 0, "search at depth 255");
	CHECK(take_all(e, 0, NULL) == 0, "export depth 255 exports nothing");

	/* A ring of 16 overflows, and says so; a new search empties it. */
	cutoff_engine_free(e);
	e = make(g, CUTOFF_DRIVER_SERIAL, 1, 16, 0, false);
	cutoff_engine_search(e, root, &lim, r, NULL, NULL);
	n = take_all(e, 0, &dropped);
	CHECK(n > 0 && n < 16 && dropped > 0, "a ring of 16: %d taken, %llu dropped", n,
	      (unsigned long long)dropped);
	cutoff_engine_export_depth(e, 255);
	cutoff_engine_search(e, root, &lim, r, NULL, NULL);
	n = take_all(e, 0, &dropped);
	CHECK(n == 0 && dropped == 0, "a new search empties the ring: %d, %llu", n,
	      (unsigned long long)dropped);
	cutoff_engine_free(e);
	free(r);
}

static void test_import(const cutoff_game_t *g, const cutoff_rtree_state_t *root)
{
	cutoff_result_t *r = malloc(sizeof(*r));
	cutoff_limits_t lim = limits(8, true);

	/* The exporter, and what a fresh engine costs on the same search. */
	cutoff_engine_t *a = make(g, CUTOFF_DRIVER_LAZYSMP, 2, RING, 0, false);
	cutoff_engine_export_depth(a, 2);
	CHECK(cutoff_engine_search(a, root, &lim, r, NULL, NULL) == 0, "exporter's search");
	const int32_t value = r->value;
	int n = 0;
	for (int t = 0; t < 2; t++) {
		int got;
		while (n < 4 * RING && (got = cutoff_engine_export(a, t, taken + n, 64, NULL)) > 0)
			n += got;
	}
	CHECK(n > 100, "%d entries exported by two threads", n);

	cutoff_engine_t *fresh = make(g, CUTOFF_DRIVER_SERIAL, 1, 0, 0, true);
	CHECK(cutoff_engine_search(fresh, root, &lim, r, NULL, NULL) == 0, "fresh search");
	const uint64_t fresh_nodes = r->counters.nodes;
	CHECK(r->value == value, "fresh value %d = exporter's %d", r->value, value);
	CHECK(r->counters.tt_hits_shared == 0, "no shared hits without imports");

	cutoff_engine_t *b = make(g, CUTOFF_DRIVER_SERIAL, 1, 0, 0, true);
	int written = cutoff_engine_import(b, taken, n);
	CHECK(written > 0 && written <= n, "imported %d of %d", written, n);
	CHECK(cutoff_engine_search(b, root, &lim, r, NULL, NULL) == 0, "search after import");
	CHECK(r->value == value && r->bound == CUTOFF_BOUND_EXACT,
	      "value after import %d = %d, exact", r->value, value);
	CHECK(r->counters.nodes < fresh_nodes, "imported entries save nodes: %llu < %llu",
	      (unsigned long long)r->counters.nodes, (unsigned long long)fresh_nodes);
	CHECK(r->counters.tt_hits_shared > 0 &&
	              r->counters.tt_hits_shared <= r->counters.tt_hits_other,
	      "hits on imported entries counted: %llu (other %llu)",
	      (unsigned long long)r->counters.tt_hits_shared,
	      (unsigned long long)r->counters.tt_hits_other);

	/* Malformed entries are skipped. */
	cutoff_tt_entry_t junk[3] = {
		{ .key = 1, .move = 0, .value = 5, .depth = 3, .bound = 0 },
		{ .key = 2, .move = 0, .value = 5, .depth = 3, .bound = 4 },
		{ .key = 3,
		  .move = 0,
		  .value = CUTOFF_WIN + 1,
		  .depth = 3,
		  .bound = CUTOFF_BOUND_EXACT },
	};
	CHECK(cutoff_engine_import(b, junk, 3) == 0, "malformed entries are not written");
	cutoff_tt_entry_t good = {
		.key = 4, .move = 1, .value = 7, .depth = 3, .bound = CUTOFF_BOUND_EXACT
	};
	CHECK(cutoff_engine_import(b, &good, 1) == 1, "a good one is");
	CHECK(cutoff_engine_import(b, &good, -1) == CUTOFF_EINVAL, "n < 0: CUTOFF_EINVAL");
	cutoff_engine_t *none = NULL;
	{
		cutoff_config_t cfg;
		cutoff_config_default(&cfg);
		cfg.tt_mb = 0;
		none = cutoff_engine_new(g, &cfg, NULL);
	}
	CHECK(cutoff_engine_import(none, &good, 1) == CUTOFF_ENOTSUP, "no table: CUTOFF_ENOTSUP");
	cutoff_engine_free(none);
	cutoff_engine_free(a);
	cutoff_engine_free(b);
	cutoff_engine_free(fresh);
	free(r);
}

typedef struct poll_seen {
	cutoff_engine_t *engine;
	int calls, stop_at;
	bool wrong_engine, nodes_decrease;
	uint64_t nodes;
} poll_seen_t;

static void on_poll(void *user, cutoff_engine_t *engine, uint64_t nodes)
{
	poll_seen_t *p = user;
	p->nodes_decrease |= nodes < p->nodes;
	p->nodes = nodes;
	p->wrong_engine |= engine != p->engine;
	if (++p->calls == p->stop_at)
		cutoff_engine_stop(engine);
}

static void test_poll(const cutoff_game_t *g, const cutoff_rtree_state_t *root)
{
	cutoff_result_t *r = malloc(sizeof(*r));
	cutoff_engine_t *e = make(g, CUTOFF_DRIVER_LAZYSMP, 3, 0, 0, false);
	cutoff_engine_t *serial = make(g, CUTOFF_DRIVER_SERIAL, 1, 0, 0, false);
	cutoff_limits_t lim = limits(9, true);
	poll_seen_t seen = { .engine = serial };
	lim.poll = on_poll;
	lim.poll_user = &seen;
	CHECK(cutoff_engine_search(serial, root, &lim, r, NULL, NULL) == 0, "serial search");
	const int32_t value = r->value;
	seen = (poll_seen_t){ .engine = serial };
	cutoff_engine_clear(serial);
	CHECK(cutoff_engine_search(serial, root, &lim, r, NULL, NULL) == 0, "again");
	CHECK(!seen.nodes_decrease && seen.nodes > 0 && seen.nodes <= r->counters.nodes,
	      "the hook's node count grows, to %llu of %llu", (unsigned long long)seen.nodes,
	      (unsigned long long)r->counters.nodes);
	CHECK(seen.calls > 2 && !seen.wrong_engine, "serial: %d polls with its engine (%llu nodes)",
	      seen.calls, (unsigned long long)r->counters.nodes);
	const int serial_polls = seen.calls;
	(void)serial_polls;

	seen = (poll_seen_t){ .engine = e };
	cutoff_engine_clear(e);
	CHECK(cutoff_engine_search(e, root, &lim, r, NULL, NULL) == 0, "lazy SMP search");
	CHECK(seen.calls > 0 && !seen.wrong_engine, "lazy SMP: %d polls with its engine",
	      seen.calls);
	CHECK(r->value == value && !r->stopped, "a hook that does nothing: value %d = %d", r->value,
	      value);

	seen = (poll_seen_t){ .engine = e, .stop_at = 2 };
	cutoff_engine_clear(e);
	CHECK(cutoff_engine_search(e, root, &lim, r, NULL, NULL) == 0, "stopped search");
	CHECK(r->stopped && r->best_move != CUTOFF_MOVE_NONE && seen.calls <= 3,
	      "a stop from the hook ends the search (stopped %d, %d polls)", r->stopped,
	      seen.calls);
	cutoff_engine_free(e);
	cutoff_engine_free(serial);
	free(r);
}

static void test_thread_base(const cutoff_game_t *g, const cutoff_rtree_state_t *root)
{
	cutoff_result_t *r = malloc(sizeof(*r));
	cutoff_limits_t lim = limits(6, true);
	cutoff_engine_t *e = make(g, CUTOFF_DRIVER_LAZYSMP, 1, 0, 0, false);
	CHECK(cutoff_engine_search(e, root, &lim, r, NULL, NULL) == 0 && r->iterations == 6,
	      "base 0: thread 0 runs every depth (%d iterations)", r->iterations);
	cutoff_engine_free(e);
	e = make(g, CUTOFF_DRIVER_LAZYSMP, 1, 0, 1, false);
	CHECK(cutoff_engine_search(e, root, &lim, r, NULL, NULL) == 0, "base 1");
	bool odd = false;
	for (int i = 0; i < r->iterations; i++)
		odd |= r->iteration[i].depth % 2 == 1;
	CHECK(r->iterations == 3 && !odd && r->depth == 6,
	      "base 1: thread 0 skips the odd depths as helper 1 does (%d iterations)",
	      r->iterations);
	cutoff_engine_free(e);

	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	const int bad_rings[] = { -1, 8, 15, 24, 1 << 21 };
	for (size_t i = 0; i < sizeof bad_rings / sizeof bad_rings[0]; i++) {
		cfg.share_ring = bad_rings[i];
		int err = 0;
		CHECK(!cutoff_engine_new(g, &cfg, &err) && err == CUTOFF_EINVAL,
		      "share_ring %d refused", bad_rings[i]);
	}
	cfg.share_ring = 0;
	cfg.thread_base = -1;
	int err = 0;
	CHECK(!cutoff_engine_new(g, &cfg, &err) && err == CUTOFF_EINVAL, "thread_base -1 refused");
	cfg.thread_base = (1 << 20) + 1;
	CHECK(!cutoff_engine_new(g, &cfg, &err) && err == CUTOFF_EINVAL,
	      "thread_base 2^20+1 refused");
	CHECK(cutoff_engine_export_depth(NULL, 1) == CUTOFF_EINVAL, "export_depth(NULL)");
	free(r);
}

int main(void)
{
	cutoff_rtree_params_t p;
	cutoff_rtree_params_default(&p);
	p.branching = 6;
	p.depth = 9;
	p.model = CUTOFF_RTREE_INCREMENTAL;
	p.value_min = -10;
	p.value_max = 10;
	cutoff_rtree_t *tree = cutoff_rtree_new(&p, NULL);
	CHECK(tree != NULL, "tree");
	const cutoff_game_t *g = cutoff_rtree_game(tree);
	cutoff_rtree_state_t root;
	cutoff_rtree_root(tree, 5, &root);

	test_export(g, &root);
	test_import(g, &root);
	p.branching = 8;
	p.depth = 12;
	p.model = CUTOFF_RTREE_IID;
	p.value_min = -1000;
	p.value_max = 1000;
	cutoff_rtree_t *big = cutoff_rtree_new(&p, NULL);
	cutoff_rtree_state_t big_root;
	cutoff_rtree_root(big, 6, &big_root);
	test_poll(cutoff_rtree_game(big), &big_root);
	cutoff_rtree_free(big);
	test_thread_base(g, &root);
	cutoff_engine_t *e = make(g, CUTOFF_DRIVER_SERIAL, 1, 0, 0, false);
	CHECK(cutoff_engine_export_depth(e, 256) == CUTOFF_EINVAL &&
	              cutoff_engine_export_depth(e, -1) == CUTOFF_EINVAL,
	      "export depth out of 0..255 refused");
	cutoff_engine_free(e);
	cutoff_rtree_free(tree);
	return check_report();
}
