/* SPDX-License-Identifier: MIT */
/*
 * engine.c — the only door from the public API inward. An engine owns its game
 * description (a copy), its configuration, the table, the searchers and its driver's
 * state; it validates every argument that crosses the API and runs a search through the
 * chosen driver (driver.h: the engine names none of them; iterative deepening is
 * iterate.c's).
 *
 * Shared state and its owners:
 *   control    (search.h) stop: written by cutoff_engine_stop() from any thread (relaxed
 *              store), read by every searcher at each poll (relaxed load), cleared by the
 *              searching thread when its search returns; a stale read only delays a stop
 *              by one poll. halt: the driver's own stop ("some thread finished the
 *              last iteration", for drivers whose every thread iterates), or a
 *              searcher's that found the game breaking its contract (its fault, read
 *              here after the search: CUTOFF_EGAME), cleared before each search. nodes:
 *              the shared count.
 *   results    results[i] is written only by thread i during a search and read by the
 *              caller after cutoff_pool_run returns (the pool orders the two).
 *   searching  0 or 1; taken by compare-and-swap when a search starts, released with a
 *              release store when it ends: a second concurrent search of the same engine
 *              gets CUTOFF_EBUSY instead of sharing the stacks. The per-thread readers
 *              (cutoff_engine_thread_counters, _profile) load it with acquire and refuse
 *              with CUTOFF_EBUSY while it is 1; a 0 read pairs with the release, so they
 *              see every figure the search wrote.
 *   table, searchers, game, config
 *              written only while no search runs (creation, clear, set_algo, which take
 *              `searching` like a search does), read by the search.
 *   shares     each thread's export ring (share.h): pushed by its searcher during a
 *              search, taken by cutoff_engine_export's caller (one per thread at a time,
 *              the caller's promise), emptied here before each search.
 *   error      cutoff_engine_error's line: written (through cutoff_say, driver.h) only by a
 *              call that holds `searching` — a search, set_algo, set_tt_mb, each emptying
 *              it when it takes the engine (engine_take_speaking) — so two writers never
 *              meet; a call refused with CUTOFF_EBUSY does not touch it. Read by the caller
 *              once its call has returned (cutoff.h: not guarded against a reader on
 *              another thread during a call).
 *   profile    each searcher's counters and transition clock (search.h) are written by
 *              its own thread during a search and read here after cutoff_pool_run returns:
 *              summed into the result, and per thread by cutoff_engine_thread_counters and
 *              cutoff_engine_thread_profile. No atomic, no lock.
 */
#include <hwloc.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/atomic.h"
#include "base/log.h"
#include "base/platform.h"
#include "base/pool.h"
#include "base/topo.h"
#include "core/iterate.h"
#include "core/search.h"
#include "core/share.h"
#include "core/tt.h"
#include "drivers/driver.h"

/* The table flags for `cfg`: it remembers who wrote each entry when the profiler is built
 * in and asked for that (tt.c). */
static unsigned tt_flags(const cutoff_config_t *cfg)
{
	return CUTOFF_PROFILING && cfg->profile_tt_writers ? (unsigned)CUTOFF_TT_WRITERS : 0u;
}

/* The processing units this process may run on, for the pool's spin policy (pool.h): the
 * topology's allowed PUs (cut to the process's binding by cutoff_topology_load), but never more
 * than the system has online (a synthetic topology may describe a larger machine); 0 when
 * neither is known, and then the pool never spins. */
static int engine_pus(hwloc_topology_t topology)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	cutoff_topology_info_t info;
	int pus = topology && cutoff_topology_describe(topology, &info) == 0 ? info.pus : 0;
	if (online > 0 && (pus <= 0 || online < pus))
		pus = online > CUTOFF_MAX_THREADS ? CUTOFF_MAX_THREADS : (int)online;
	return pus;
}

struct cutoff_engine {
	cutoff_game_t game;
	cutoff_config_t cfg;
	hwloc_topology_t topology; /* cfg.topology, or our own when own_topology */
	bool own_topology;
	cutoff_tt_t *tt;
	cutoff_pool_t *pool;            /* cfg.threads threads, the caller being thread 0 */
	cutoff_searcher_t *searchers;   /* one per thread */
	cutoff_share_t *shares;         /* one export ring per thread, or NULL (share_ring 0) */
	cutoff_result_t *results;       /* one per thread, for the drivers */
	const cutoff_driver_ops_t *drv; /* cfg.driver's operations (driver.c) */
	void *drv_state;                /* what its create made, or NULL */
	cutoff_control_t control;
	uint64_t span_ns[2]; /* the latest search as the profiler times it: from the first
	                        searching thread's start to the last one's end */
	int searching;
	char error[CUTOFF_ERROR_SIZE]; /* cutoff_engine_error: written only by a call that
	                                  holds `searching` (engine_take) */
};

const char *cutoff_strerror(int code)
{
	switch (code) {
	case CUTOFF_OK:
		return "success";
	case CUTOFF_EINVAL:
		return "invalid argument";
	case CUTOFF_ENOMEM:
		return "out of memory";
	case CUTOFF_EGAME:
		return "invalid game description";
	case CUTOFF_EBUSY:
		return "engine is busy searching";
	case CUTOFF_ETERMINAL:
		return "position is terminal";
	case CUTOFF_ENOTSUP:
		return "not supported";
	case CUTOFF_ETHREAD:
		return "thread creation failed";
	case CUTOFF_EPEER:
		return "another process of the cluster did not answer in time, or answered "
		       "nonsense";
	default:
		return "unknown error";
	}
}

/* The header's version, which CMake reads too (project(... VERSION)): the two never
 * disagree. */
const char *cutoff_version(void) { return CUTOFF_VERSION_STRING; }

void cutoff_config_default(cutoff_config_t *cfg)
{
	if (!cfg)
		return;
	memset(cfg, 0, sizeof(*cfg));
	cfg->threads = 1;
	cfg->tt_mb = 16;
	cfg->algo = CUTOFF_ALGO_PVS;
	cfg->ordering = CUTOFF_ORDER_ALL;
	cfg->placement = CUTOFF_PLACE_NONE;
	cutoff_driver_config_default(cfg); /* the driver and every driver's options */
	cfg->tt_cutoffs = true;
	cfg->pruning = CUTOFF_PRUNE_NONE;
	cfg->extensions = CUTOFF_EXTEND_ALL;
}

void cutoff_limits_default(cutoff_limits_t *lim)
{
	if (!lim)
		return;
	memset(lim, 0, sizeof(*lim));
	lim->alpha = -CUTOFF_INF;
	lim->beta = CUTOFF_INF;
}

/* A voice that only tells cfg's log: for notes that fail nothing, and for the failures
 * of cutoff_engine_new, which leaves no engine to keep them (cutoff_config_check does). */
static cutoff_voice_t log_only(const cutoff_config_t *cfg)
{
	return (cutoff_voice_t){ cfg, NULL, 0 };
}

/* The voice of a call that holds the engine: its log, and its error buffer. */
static cutoff_voice_t engine_voice(cutoff_engine_t *e)
{
	return (cutoff_voice_t){ &e->cfg, e->error, sizeof(e->error) };
}

static int check_game(const cutoff_voice_t *v, const cutoff_game_t *g)
{
	const char *missing = !g->gen_moves  ? "gen_moves"
	                      : !g->play     ? "play"
	                      : !g->evaluate ? "evaluate"
	                      : !g->terminal ? "terminal"
	                      : !g->key      ? "key"
	                                     : NULL;
	if (missing) {
		cutoff_say(v, CUTOFF_LOG_WARN, "game: the required callback %s is NULL", missing);
		return CUTOFF_EGAME;
	}
	if (g->state_size < 1 || g->state_size > CUTOFF_MAX_STATE) {
		cutoff_say(v, CUTOFF_LOG_WARN, "game: state_size %zu is not in 1..%d",
		           g->state_size, CUTOFF_MAX_STATE);
		return CUTOFF_EGAME;
	}
	if (g->max_moves < 1 || g->max_moves > CUTOFF_MAX_MOVES) {
		cutoff_say(v, CUTOFF_LOG_WARN, "game: max_moves %d is not in 1..%d", g->max_moves,
		           CUTOFF_MAX_MOVES);
		return CUTOFF_EGAME;
	}
	return CUTOFF_OK;
}

static int check_config(const cutoff_voice_t *v, const cutoff_config_t *c)
{
	if (c->threads < 1 || c->threads > CUTOFF_MAX_THREADS) {
		cutoff_say(v, CUTOFF_LOG_WARN, "config: threads %d is not in 1..%d", c->threads,
		           CUTOFF_MAX_THREADS);
		return CUTOFF_EINVAL;
	}
	if (c->tt_mb > CUTOFF_MAX_TT_MB) {
		cutoff_say(v, CUTOFF_LOG_WARN, "config: tt_mb %zu is not in 0..%zu", c->tt_mb,
		           (size_t)CUTOFF_MAX_TT_MB);
		return CUTOFF_EINVAL;
	}
	if ((unsigned)c->algo > CUTOFF_ALGO_MTDF) {
		cutoff_say(v, CUTOFF_LOG_WARN, "config: algo %d is not a cutoff_algo_t",
		           (int)c->algo);
		return CUTOFF_EINVAL;
	}
	if (c->ordering & ~(unsigned)CUTOFF_ORDER_ALL) {
		cutoff_say(v, CUTOFF_LOG_WARN,
		           "config: ordering 0x%x has bits outside CUTOFF_ORDER_ALL", c->ordering);
		return CUTOFF_EINVAL;
	}
	if (c->aspiration < 0 || c->aspiration >= CUTOFF_INF) {
		cutoff_say(v, CUTOFF_LOG_WARN, "config: aspiration %d is not in 0..%d",
		           (int)c->aspiration, CUTOFF_INF - 1);
		return CUTOFF_EINVAL;
	}
	if (!cutoff_driver_ops(c->driver)) {
		cutoff_say(v, CUTOFF_LOG_WARN, "config: driver %d is not a cutoff_driver_t",
		           (int)c->driver);
		return CUTOFF_EINVAL;
	}
	if (c->pruning & ~(unsigned)CUTOFF_PRUNE_ALL) {
		cutoff_say(v, CUTOFF_LOG_WARN,
		           "config: pruning 0x%x has bits outside CUTOFF_PRUNE_ALL", c->pruning);
		return CUTOFF_EINVAL;
	}
	if (c->extensions & ~(unsigned)CUTOFF_EXTEND_ALL) {
		cutoff_say(v, CUTOFF_LOG_WARN,
		           "config: extensions 0x%x has bits outside CUTOFF_EXTEND_ALL",
		           c->extensions);
		return CUTOFF_EINVAL;
	}
	if (c->max_ply != 0 && (c->max_ply < 16 || c->max_ply > CUTOFF_PLY_LIMIT)) {
		cutoff_say(v, CUTOFF_LOG_WARN,
		           "config: max_ply %d is not 0 (the default, %d) or in 16..%d", c->max_ply,
		           CUTOFF_MAX_PLY, CUTOFF_PLY_LIMIT);
		return CUTOFF_EINVAL;
	}
	const int plies = cutoff_config_plies(c);
	if (c->tt_min_depth < 0 || c->tt_min_depth > plies) {
		cutoff_say(v, CUTOFF_LOG_WARN, "config: tt_min_depth %d is not in 0..%d (max_ply)",
		           c->tt_min_depth, plies);
		return CUTOFF_EINVAL;
	}
	if (c->etc_min_depth != 0 && (c->etc_min_depth < 2 || c->etc_min_depth > plies)) {
		cutoff_say(v, CUTOFF_LOG_WARN,
		           "config: etc_min_depth %d is not 0 or in 2..%d (max_ply)",
		           c->etc_min_depth, plies);
		return CUTOFF_EINVAL;
	}
	if (c->share_ring != 0 && (c->share_ring < 16 || c->share_ring > 1 << 20 ||
	                           (c->share_ring & (c->share_ring - 1)))) {
		cutoff_say(v, CUTOFF_LOG_WARN,
		           "config: share_ring %d is not 0 or a power of two in 16..1048576",
		           c->share_ring);
		return CUTOFF_EINVAL;
	}
	if (c->thread_base < 0 || c->thread_base > 1 << 20) {
		cutoff_say(v, CUTOFF_LOG_WARN, "config: thread_base %d is not in 0..1048576",
		           c->thread_base);
		return CUTOFF_EINVAL;
	}
	if ((unsigned)c->placement > CUTOFF_PLACE_SCATTER) {
		cutoff_say(v, CUTOFF_LOG_WARN, "config: placement %d is not a cutoff_placement_t",
		           (int)c->placement);
		return CUTOFF_EINVAL;
	}
	return cutoff_driver_check_options(v, c);
}

/* The engine's topology (the caller's, or this machine's loaded here; none when hwloc
 * cannot load one: memory is then plain and threads unbound) and its table. */
static int engine_place(cutoff_engine_t *e, const cutoff_config_t *cfg)
{
	const cutoff_voice_t voice = log_only(cfg);
	int rc = CUTOFF_OK;
	e->topology = cfg->topology;
	if (!e->topology) {
		void *topo = NULL;
		if (cutoff_topology_load(&topo) == 0) {
			e->topology = topo;
			e->own_topology = true;
		} else {
			cutoff_say(&voice, CUTOFF_LOG_WARN,
			           "hwloc could not load the topology: running unplaced");
		}
	}
	if (cfg->tt_mb > 0 &&
	    !(e->tt = cutoff_tt_new_placed(e->topology, cfg->tt_mb, tt_flags(cfg), &rc))) {
		cutoff_say(&voice, CUTOFF_LOG_WARN,
		           "config: a table of %zu MiB could not be allocated", cfg->tt_mb);
		return rc;
	}
	return CUTOFF_OK;
}

/* The pool of cfg->threads threads, bound by the placement plan when there is one (a
 * plan that cannot be made, or a thread that cannot be bound, is said and runs unbound). */
static int engine_start_pool(cutoff_engine_t *e, const cutoff_config_t *cfg)
{
	const cutoff_voice_t voice = log_only(cfg);
	int *plan = NULL, failures = 0;
	if (cfg->placement != CUTOFF_PLACE_NONE && e->topology) {
		plan = malloc(sizeof(int) * (size_t)cfg->threads);
		if (plan && cutoff_topology_plan(e->topology, cfg->threads, cfg->placement, plan,
		                                 NULL, NULL, NULL) < 0) {
			free(plan);
			plan = NULL;
		}
		if (!plan)
			cutoff_say(&voice, CUTOFF_LOG_WARN,
			           "placement: no plan could be made: running unbound");
	}
	int rc = cutoff_pool_new(cfg->threads, engine_pus(e->topology), e->topology, plan,
	                         &failures, &e->pool);
	free(plan);
	if (rc < 0) {
		cutoff_say(&voice, CUTOFF_LOG_WARN, "config: %d threads could not be started",
		           cfg->threads);
		return rc;
	}
	if (failures > 0)
		cutoff_say(
			&voice, CUTOFF_LOG_WARN,
			"placement: %d of %d worker threads could not be bound: they run unbound",
			failures, cfg->threads - 1);
	return CUTOFF_OK;
}

/* The searchers, their export rings (config.share_ring) and the driver's state. */
static int engine_searchers(cutoff_engine_t *e, const cutoff_config_t *cfg)
{
	/* Aligned: no two threads' searchers share a cache line (search.h). */
	e->searchers = aligned_alloc(_Alignof(cutoff_searcher_t),
	                             (size_t)cfg->threads * sizeof(*e->searchers));
	if (e->searchers)
		memset(e->searchers, 0, (size_t)cfg->threads * sizeof(*e->searchers));
	e->results = calloc((size_t)cfg->threads, sizeof(*e->results));
	int rc = e->searchers && e->results ? CUTOFF_OK : CUTOFF_ENOMEM;
	for (int i = 0; i < cfg->threads && rc == CUTOFF_OK; i++)
		rc = cutoff_searcher_init(&e->searchers[i], &e->game, e->tt, &e->control, i, cfg);
	if (rc == CUTOFF_OK && cfg->share_ring > 0) {
		e->shares = calloc((size_t)cfg->threads, sizeof(*e->shares));
		rc = e->shares ? CUTOFF_OK : CUTOFF_ENOMEM;
		for (int i = 0; i < cfg->threads && rc == CUTOFF_OK; i++) {
			rc = cutoff_share_init(&e->shares[i], (unsigned)cfg->share_ring);
			e->searchers[i].share = rc == CUTOFF_OK ? &e->shares[i] : NULL;
		}
	}
	e->drv = cutoff_driver_ops(cfg->driver);
	int base = cutoff_driver_counter_base(cfg->driver);
	for (int i = 0; i < cfg->threads && rc == CUTOFF_OK; i++)
		e->searchers[i].driver_count = &e->searchers[i].count.driver[base];
	if (rc == CUTOFF_OK && e->drv->create)
		rc = e->drv->create(cfg, &e->game, e->searchers, &e->drv_state);
	return rc;
}

/* cutoff_engine_new's checks before it allocates, told to v (cfg NULL: the defaults). */
static int check_new(const cutoff_voice_t *v, const cutoff_config_t *cfg, const cutoff_game_t *game)
{
	cutoff_config_t defaults;
	int rc;
	if (!cfg) {
		cutoff_config_default(&defaults);
		cfg = &defaults;
	}
	if (!game) {
		cutoff_say(v, CUTOFF_LOG_WARN, "game: NULL");
		return CUTOFF_EINVAL;
	}
	if ((rc = check_config(v, cfg)) < 0 || (rc = check_game(v, game)) < 0)
		return rc;
	return CUTOFF_OK;
}

int cutoff_config_check(const cutoff_config_t *cfg, const cutoff_game_t *game, char *msg,
                        size_t size)
{
	const cutoff_voice_t v = { NULL, msg, msg ? size : 0 };
	if (msg && size > 0)
		msg[0] = '\0';
	return check_new(&v, cfg, game);
}

cutoff_engine_t *cutoff_engine_new(const cutoff_game_t *game, const cutoff_config_t *cfg, int *err)
{
	cutoff_config_t defaults;
	int dummy, rc;
	if (!err)
		err = &dummy;
	if (!cfg) {
		cutoff_config_default(&defaults);
		cfg = &defaults;
	}
	const cutoff_voice_t voice = log_only(cfg);
	if ((rc = check_new(&voice, cfg, game)) < 0) {
		*err = rc;
		return NULL;
	}
	cutoff_engine_t *e = calloc(1, sizeof(*e));
	if (!e) {
		*err = CUTOFF_ENOMEM;
		return NULL;
	}
	e->game = *game;
	e->cfg = *cfg;
	if ((rc = engine_place(e, cfg)) < 0 || (rc = engine_start_pool(e, cfg)) < 0 ||
	    (rc = engine_searchers(e, cfg)) < 0) {
		cutoff_engine_free(e);
		*err = rc;
		return NULL;
	}
	*err = CUTOFF_OK;
	return e;
}

void cutoff_engine_free(cutoff_engine_t *e)
{
	if (!e)
		return;
	for (int i = 0; e->searchers && i < e->cfg.threads; i++)
		cutoff_searcher_destroy(&e->searchers[i]);
	free(e->searchers);
	for (int i = 0; e->shares && i < e->cfg.threads; i++)
		cutoff_share_destroy(&e->shares[i]);
	free(e->shares);
	free(e->results);
	if (e->drv && e->drv->destroy)
		e->drv->destroy(e->drv_state);
	cutoff_pool_free(e->pool);
	cutoff_tt_free(e->tt);
	if (e->own_topology)
		cutoff_topology_free(e->topology);
	free(e);
}

/* Takes the engine for a search or a change of settings; false when it is busy. */
static bool engine_take(cutoff_engine_t *e) { return cutoff_int_cas(&e->searching, 0, 1); }

static void engine_release(cutoff_engine_t *e) { cutoff_int_store_release(&e->searching, 0); }

/* True while a search runs (for readers that must not take the engine, see above). */
static bool engine_busy(const cutoff_engine_t *e)
{
	return cutoff_int_load_acquire(&e->searching) != 0;
}

static void clear_job(void *arg, int index, int threads)
{
	cutoff_tt_clear_part(arg, index, threads);
}

/* Every thread of the engine clears its slice: the pages are touched (and, under a
 * first-touch policy, placed) by the threads that will use them. */
static void clear_table(cutoff_engine_t *e)
{
	if (e->tt)
		cutoff_pool_run(e->pool, clear_job, e->tt);
}

int cutoff_engine_clear(cutoff_engine_t *e)
{
	if (!e)
		return CUTOFF_EINVAL;
	if (!engine_take(e))
		return CUTOFF_EBUSY;
	clear_table(e);
	for (int i = 0; i < e->cfg.threads; i++)
		cutoff_searcher_forget(&e->searchers[i]);
	if (e->drv->forget)
		e->drv->forget(e->drv_state);
	engine_release(e);
	return CUTOFF_OK;
}

/* Takes the engine for a call that reports its failures through cutoff_engine_error,
 * emptying it; false (nothing touched) when the engine is busy. */
static bool engine_take_speaking(cutoff_engine_t *e)
{
	if (!engine_take(e))
		return false;
	e->error[0] = '\0';
	return true;
}

int cutoff_engine_set_tt_mb(cutoff_engine_t *e, size_t mb)
{
	int rc = CUTOFF_OK;
	if (!e)
		return CUTOFF_EINVAL;
	if (!engine_take_speaking(e))
		return CUTOFF_EBUSY;
	const cutoff_voice_t voice = engine_voice(e);
	cutoff_tt_t *tt = NULL;
	if (mb > CUTOFF_MAX_TT_MB) {
		cutoff_say(&voice, CUTOFF_LOG_WARN, "set_tt_mb: %zu MiB is not in 0..%zu", mb,
		           (size_t)CUTOFF_MAX_TT_MB);
		rc = CUTOFF_EINVAL;
	} else if (mb > 0 &&
	           !(tt = cutoff_tt_new_placed(e->topology, mb, tt_flags(&e->cfg), &rc))) {
		cutoff_say(&voice, CUTOFF_LOG_WARN,
		           "set_tt_mb: a table of %zu MiB could not be allocated", mb);
	} else {
		cutoff_tt_free(e->tt);
		e->tt = tt;
		for (int i = 0; i < e->cfg.threads; i++)
			e->searchers[i].tt = tt;
		e->cfg.tt_mb = mb;
	}
	engine_release(e);
	return rc;
}

int cutoff_engine_hashfull(const cutoff_engine_t *e)
{
	return e && e->tt ? cutoff_tt_hashfull(e->tt) : 0;
}

int cutoff_engine_config(const cutoff_engine_t *e, cutoff_config_t *cfg)
{
	if (!e || !cfg)
		return CUTOFF_EINVAL;
	*cfg = e->cfg;
	return CUTOFF_OK;
}

int cutoff_engine_set_algo(cutoff_engine_t *e, cutoff_algo_t algo)
{
	int rc = CUTOFF_OK;
	if (!e)
		return CUTOFF_EINVAL;
	if (!engine_take_speaking(e))
		return CUTOFF_EBUSY;
	if ((unsigned)algo > CUTOFF_ALGO_MTDF) {
		const cutoff_voice_t v = engine_voice(e);
		cutoff_say(&v, CUTOFF_LOG_WARN, "set_algo: %d is not a cutoff_algo_t", (int)algo);
		rc = CUTOFF_EINVAL;
	} else {
		e->cfg.algo = algo;
	}
	engine_release(e);
	return rc;
}

const char *cutoff_engine_error(const cutoff_engine_t *e) { return e ? e->error : ""; }

void cutoff_engine_stop(cutoff_engine_t *e)
{
	if (e)
		cutoff_int_store_relaxed(&e->control.stop, 1);
}

int cutoff_engine_cancel_stop(cutoff_engine_t *e)
{
	if (!e)
		return CUTOFF_EINVAL;
	if (!engine_take(e))
		return CUTOFF_EBUSY;
	cutoff_int_store_relaxed(&e->control.stop, 0);
	engine_release(e);
	return CUTOFF_OK;
}

/* The limits of a search, told to the engine's voice (its log and error). */
static int check_limits(cutoff_engine_t *e, const cutoff_limits_t *l)
{
	const cutoff_voice_t v = engine_voice(e);
	const int deepest = cutoff_config_plies(&e->cfg) - 1;
	if (l->depth < (l->solve ? 0 : 1) || l->depth > deepest) {
		if (l->solve)
			cutoff_say(
				&v, CUTOFF_LOG_WARN,
				"limits: depth %d is not in 0..%d (with limits.solve, 0 searches "
				"to the end of the game; config.max_ply raises the limit)",
				l->depth, deepest);
		else
			cutoff_say(&v, CUTOFF_LOG_WARN,
			           "limits: depth %d is not in 1..%d (to search to the end of the "
			           "game with no depth, set limits.solve and leave depth 0)",
			           l->depth, deepest);
		return CUTOFF_EINVAL;
	}
	if (l->alpha < -CUTOFF_INF || l->beta > CUTOFF_INF || l->alpha >= l->beta) {
		cutoff_say(&v, CUTOFF_LOG_WARN,
		           "limits: window (%d, %d) is not -%d <= alpha < beta <= %d",
		           (int)l->alpha, (int)l->beta, CUTOFF_INF, CUTOFF_INF);
		return CUTOFF_EINVAL;
	}
	if (l->guess <= -CUTOFF_INF || l->guess >= CUTOFF_INF) {
		cutoff_say(&v, CUTOFF_LOG_WARN, "limits: guess %d is not inside (-%d, %d)",
		           (int)l->guess, CUTOFF_INF, CUTOFF_INF);
		return CUTOFF_EINVAL;
	}
	if (l->played_length < 0 || (l->played_length > 0 && !l->played)) {
		cutoff_say(&v, CUTOFF_LOG_WARN, "limits: played_length %d without a played array",
		           l->played_length);
		return CUTOFF_EINVAL;
	}
	if (l->time_ms > UINT64_MAX / 2000000u) {
		cutoff_say(&v, CUTOFF_LOG_WARN, "limits: time_ms %llu is absurd",
		           (unsigned long long)l->time_ms);
		return CUTOFF_EINVAL;
	}
	return CUTOFF_OK;
}

_Static_assert(sizeof(cutoff_counters_t) % sizeof(uint64_t) == 0, "counters are all uint64_t");

void cutoff_counters_add(cutoff_counters_t *sum, const cutoff_counters_t *c)
{
	uint64_t w[sizeof(*sum) / sizeof(uint64_t)], x[sizeof(*sum) / sizeof(uint64_t)];
	if (!sum || !c)
		return;
	memcpy(w, sum, sizeof(w));
	memcpy(x, c, sizeof(x));
	uint64_t seldepth = sum->seldepth > c->seldepth ? sum->seldepth : c->seldepth;
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		w[i] += x[i];
	memcpy(sum, w, sizeof(w));
	sum->seldepth = seldepth; /* a maximum, not a sum */
}

/* The span of the latest search: from the first start to the last end of the threads
 * that took part (a serial search's other threads left their clocks at 0). */
static void measure_span(cutoff_engine_t *e)
{
	e->span_ns[0] = e->span_ns[1] = 0;
	for (int i = 0; i < e->cfg.threads; i++) {
		const cutoff_prof_clock_t *c = &e->searchers[i].prof;
		if (c->start_ns == 0)
			continue;
		if (e->span_ns[0] == 0 || c->start_ns < e->span_ns[0])
			e->span_ns[0] = c->start_ns;
		if (c->end_ns > e->span_ns[1])
			e->span_ns[1] = c->end_ns;
	}
}

/* Thread i's profile of the latest search, from its transition clock (search.h): every
 * thread is accounted the whole span, and the parts of it outside its own start and end
 * (it came late, left early, or took no part) are idle. */
static cutoff_profile_t thread_profile(const cutoff_engine_t *e, int i)
{
	cutoff_profile_t p;
	memset(&p, 0, sizeof(p));
	if (!CUTOFF_PROFILING)
		return p;
	const cutoff_prof_clock_t *c = &e->searchers[i].prof;
	uint64_t from = e->span_ns[0], to = e->span_ns[1];
	uint64_t total = to > from ? to - from : 0, idle = c->idle_ns;
	if (c->start_ns == 0)
		idle = total;
	else
		idle += (c->start_ns - from) + (to - c->end_ns);
	uint64_t waits = idle + c->split_wait_ns + c->lock_ns;
	p.time_s = (double)total / 1e9;
	p.search_s = (double)(total > waits ? total - waits : 0) / 1e9;
	p.idle_s = (double)idle / 1e9;
	p.split_wait_s = (double)c->split_wait_ns / 1e9;
	p.lock_s = (double)c->lock_ns / 1e9;
	p.depth_reached = c->depth_reached;
	p.depth_completed = e->results[i].depth;
	return p;
}

void cutoff_profile_add(cutoff_profile_t *sum, const cutoff_profile_t *p)
{
	if (!sum || !p)
		return;
	sum->time_s += p->time_s;
	sum->search_s += p->search_s;
	sum->idle_s += p->idle_s;
	sum->split_wait_s += p->split_wait_s;
	sum->lock_s += p->lock_s;
	if (p->depth_reached > sum->depth_reached)
		sum->depth_reached = p->depth_reached;
	if (p->depth_completed > sum->depth_completed)
		sum->depth_completed = p->depth_completed;
}

/*
 * The principal variation, continued from the table where the search's own stops: a PV
 * ends where a node was answered by the table, so its line below is in the table. From
 * the last position of the PV, while the table's entries deep enough for the rest of the
 * line (exact to the end, for a solved value) prove the root's value seen from that side
 * as a lower bound (so their move reaches it) with a move that the game generates there,
 * the move is added; it stops at a terminal position, a position already on the line (a
 * cycle), or the ply limit. Only for an exact root value. Runs on the caller's thread
 * after the search, over searcher 0's stacks; the search itself is not touched.
 */
static void pv_from_table(cutoff_engine_t *e, const void *root, cutoff_result_t *r)
{
	const cutoff_game_t *g = &e->game;
	cutoff_searcher_t *s = &e->searchers[0];
	uint64_t keys[CUTOFF_PLY_LIMIT];
	/* The root's value seen from the side to move at ply p (the game's side hook: only a
	 * move that passes the turn negates it), and how far apart a repetition can be. */
	int32_t want = r->value;
	const int step = g->side ? 1 : 2;
	if (!e->tt || r->bound != CUTOFF_BOUND_EXACT || r->pv_length == 0)
		return;
	memcpy(cutoff_searcher_state(s, 0), root, g->state_size);
	for (int p = 0;; p++) {
		void *st = cutoff_searcher_state(s, p);
		int32_t v;
		if (p >= s->max_ply - 1 || g->terminal(g->ctx, st, &v))
			return;
		keys[p] = g->key(g->ctx, st);
		for (int q = p - step; q >= 0; q -= step)
			if (keys[q] == keys[p])
				return;
		if (p >= r->pv_length) {
			cutoff_tt_hit_t hit;
			/* Entries of the depth the line has left (a solved value: exact to the
			 * end), so that bounds of shallower iterations do not mix in. */
			int depth = r->solved      ? CUTOFF_TT_DEPTH_END
			            : r->depth > p ? r->depth - p
			                           : 0;
			if (!cutoff_tt_probe(e->tt, keys[p], depth, p, &hit) || hit.lower != want ||
			    hit.move == CUTOFF_MOVE_NONE)
				return;
			cutoff_move_t *m = s->moves; /* scratch: the search is over */
			int n = g->gen_moves(g->ctx, st, m, NULL), i = 0;
			while (i < n && i < g->max_moves && m[i] != hit.move)
				i++;
			if (i >= n || i >= g->max_moves)
				return;
			r->pv[r->pv_length++] = hit.move;
		}
		void *child = cutoff_searcher_state(s, p + 1);
		g->play(g->ctx, st, r->pv[p], child);
		if (!g->side || g->side(g->ctx, child) != g->side(g->ctx, st))
			want = -want;
	}
}

/* A solved search's principal variation made a proof line (cutoff_search_prove_pv), on
 * searcher 0 and the caller's thread once every thread is done. The root's own move was
 * proved by the search, so it stays when nothing after it could be. */
static void prove_pv(cutoff_engine_t *e, const void *root, cutoff_result_t *r)
{
	cutoff_searcher_t *s = &e->searchers[0];
	if (!r->solved || r->bound != CUTOFF_BOUND_EXACT || r->pv_length == 0)
		return;
	memcpy(cutoff_searcher_state(s, 0), root, e->game.state_size);
	cutoff_int_store_relaxed(&e->control.halt, 0); /* a driver's end of the search */
	int n = cutoff_search_prove_pv(s, r->value, r->pv, r->pv_length, &r->pv_nodes);
	r->pv_length = n > 0 ? n : 1;
	r->pv_proof = true;
}

/* Tells the log and the engine's error how the game broke its contract (search.h,
 * cutoff_fault_t). */
static void say_fault(cutoff_engine_t *e, const cutoff_fault_t *f)
{
	const cutoff_voice_t v = engine_voice(e);
	if (f->value)
		cutoff_say(&v, CUTOFF_LOG_WARN,
		           "game: %s returned the value %d at ply %d, outside %d..%d%s",
		           f->callback, f->count, f->ply, -(CUTOFF_WIN_MIN - 1), CUTOFF_WIN_MIN - 1,
		           strcmp(f->callback, "terminal") == 0 ? " (or +-CUTOFF_WIN for a win)"
		                                                : " (|value| < CUTOFF_WIN_MIN)");
	else if (f->count == 0)
		cutoff_say(
			&v, CUTOFF_LOG_WARN,
			"game: %s returned no move at ply %d, in a state that terminal says is not "
			"over (a pass must be a move that gen_moves generates)",
			f->callback, f->ply);
	else
		cutoff_say(&v, CUTOFF_LOG_WARN,
		           "game: %s returned %d moves at ply %d, outside %d..%d (max_moves)",
		           f->callback, f->count, f->ply,
		           strcmp(f->callback, "gen_noisy") == 0 ? 0 : 1, e->game.max_moves);
}

/* When some thread found the game breaking its contract, the search's answer is void:
 * tells the log, keeps only what the search cost (counters, times) and returns true. */
static bool answer_is_void(cutoff_engine_t *e, cutoff_result_t *r)
{
	for (int i = 0; i < e->cfg.threads; i++) {
		if (!e->searchers[i].fault.callback)
			continue;
		say_fault(e, &e->searchers[i].fault);
		r->value = 0;
		r->bound = CUTOFF_BOUND_NONE;
		r->best_move = CUTOFF_MOVE_NONE;
		r->depth = 0;
		r->stopped = r->solved = false;
		r->pv_length = 0;
		r->iterations = 0;
		return true;
	}
	return false;
}

/* Each thread's share of the search: the driver's job, timed for the profiler. */
static void search_job(void *arg, int index, int threads)
{
	const cutoff_job_t *job = arg;
	cutoff_searcher_t *s = &job->searchers[index];
	const cutoff_driver_ops_t *drv = cutoff_driver_ops(job->cfg->driver);
	/* A thread that takes no part leaves its clock at 0. */
	bool part = index == 0 || !drv->alone;
	(void)threads;
	if (CUTOFF_PROFILING && part)
		s->prof.start_ns = cutoff_now_ns();
	drv->job(job, index);
	if (CUTOFF_PROFILING && part)
		s->prof.end_ns = cutoff_now_ns();
}

/*
 * A result is mostly its iterations (CUTOFF_MAX_PLY of them, each with its counters: tens
 * of KiB in all), and a search fills only the first few: clearing or copying the whole of
 * it cost more than the search itself on a position solved in a few dozen nodes. So a
 * result is cleared up to its iterations (result_clear: iteration[] is appended to, whole
 * entries, never read past `iterations`), and copied as its head and the iterations it
 * has (result_copy); the entries past them are left as they were (cutoff.h).
 */
static void result_clear(cutoff_result_t *r) { memset(r, 0, offsetof(cutoff_result_t, iteration)); }

static void result_copy(cutoff_result_t *dst, const cutoff_result_t *src)
{
	memcpy(dst, src, offsetof(cutoff_result_t, iteration));
	memcpy(dst->iteration, src->iteration, (size_t)src->iterations * sizeof(src->iteration[0]));
}

/* Readies a search: the table's new generation, the control block (everything the
 * threads read is written here, before the pool starts them), the export rings, the
 * driver, and each thread's searcher and result. */
static void search_begin(cutoff_engine_t *e, const void *root, const cutoff_limits_t *limits,
                         uint64_t t0)
{
	const int threads = e->cfg.threads;
	if (e->tt)
		cutoff_tt_new_search(e->tt);
	e->control.halt = 0;
	e->control.nodes = 0;
	e->control.node_limit = limits->nodes;
	e->control.deadline_ns = limits->time_ms ? t0 + limits->time_ms * 1000000u : 0;
	e->control.threads = e->drv->alone ? 1 : threads;
	e->control.poll = limits->poll;
	e->control.poll_user = limits->poll_user;
	e->control.engine = e;
	for (int i = 0; e->shares && i < threads; i++)
		cutoff_share_reset(&e->shares[i]);
	if (e->drv->begin)
		e->drv->begin(e->drv_state);
	for (int i = 0; i < threads; i++) {
		cutoff_searcher_start(&e->searchers[i], root, limits->played, limits->played_length,
		                      limits->solve);
		result_clear(&e->results[i]);
		e->results[i].best_move = CUTOFF_MOVE_NONE;
	}
}

/* The answer once the pool is done: the driver's pick of the threads' results (the
 * last resort's move when it has none), with the counters and profiles of every thread. */
static void search_answer(cutoff_engine_t *e, const cutoff_job_t *job, cutoff_result_t *r,
                          cutoff_move_t last_resort)
{
	const int threads = e->cfg.threads;
	if (e->drv->end)
		e->drv->end(e->drv_state);
	int pick = e->drv->pick ? e->drv->pick(job) : 0;
	result_copy(r, &e->results[pick]);
	if (r->best_move == CUTOFF_MOVE_NONE)
		r->best_move = last_resort;
	memset(&r->counters, 0, sizeof(r->counters));
	memset(&r->profile, 0, sizeof(r->profile));
	measure_span(e);
	for (int i = 0; i < threads; i++)
		cutoff_searcher_fold(&e->searchers[i]);
	for (int i = 0; i < threads; i++) {
		cutoff_counters_add(&r->counters, &e->searchers[i].count);
		cutoff_profile_t p = thread_profile(e, i);
		cutoff_profile_add(&r->profile, &p);
	}
}

/*
 * A solve with no depth (limits.solve, depth 0) is one search to max_ply - 1 plies,
 * a bound and not a depth anybody asked for. Once solved, the depth it reports is the
 * longest line it met (counters.seldepth: every line ended, at the end of the game or at
 * a table entry exact to the end, within that many plies), and its one iteration says the
 * same. Unsolved, it keeps max_ply - 1: the depth it did search to.
 */
static void solved_depth(const cutoff_config_t *cfg, const cutoff_limits_t *l, cutoff_result_t *r)
{
	const int deepest = cutoff_config_plies(cfg) - 1;
	if (!l->solve || l->depth != 0 || !r->solved || r->depth != deepest ||
	    r->counters.seldepth < 1 || r->counters.seldepth >= (uint64_t)deepest)
		return;
	r->depth = (int)r->counters.seldepth;
	if (r->iterations > 0 && r->iteration[r->iterations - 1].depth == deepest)
		r->iteration[r->iterations - 1].depth = r->depth;
}

/*
 * Why a search asked to solve did not (cutoff.h, CUTOFF_UNSOLVED_*): result.unsolved, and
 * the same in words in the engine's error (an INFO line for the log: an answer, not a
 * fault). The ply limit is seen in seldepth: a node at the last ply is always a leaf of the
 * limit, so a search that reached it met the limit (unless that node was the game's end,
 * which only the rarest game hits exactly there).
 */
static void why_unsolved(cutoff_engine_t *e, const cutoff_limits_t *l, cutoff_result_t *r)
{
	static const char *const why[] = {
		"",
		"a limit or a stop ended it first",
		"lines reached the ply limit (config.max_ply)",
		"the game goes on past the depth asked (limits.depth)",
		"repetitions or null-move cut-offs made values hold only for their path",
		"the table answered with entries that hold only to a depth (clear it first)",
	};
	if (!l->solve || r->solved)
		return;
	const cutoff_counters_t *c = &r->counters;
	r->unsolved = r->stopped ? CUTOFF_UNSOLVED_STOPPED
	              : c->seldepth >= (uint64_t)(cutoff_config_plies(&e->cfg) - 1)
	                      ? CUTOFF_UNSOLVED_PLY_LIMIT
	              : l->depth > 0                              ? CUTOFF_UNSOLVED_DEPTH
	              : c->repetitions > 0 || c->null_cutoffs > 0 ? CUTOFF_UNSOLVED_PATH
	                                                          : CUTOFF_UNSOLVED_TABLE;
	const cutoff_voice_t v = engine_voice(e);
	cutoff_say(&v, CUTOFF_LOG_INFO,
	           "solve: not solved at depth %d: %s; the value %d is the horizon's, not the "
	           "game's",
	           r->depth, why[r->unsolved], (int)r->value);
}

/* A search refused before it starts (the engine held, its error emptied): NULL
 * arguments and bad limits, told to the engine's voice. */
static int search_refused(cutoff_engine_t *e, const void *root, const cutoff_limits_t *limits,
                          const cutoff_result_t *r)
{
	const char *null = !root ? "root" : !limits ? "limits" : !r ? "result" : NULL;
	if (null) {
		const cutoff_voice_t v = engine_voice(e);
		cutoff_say(&v, CUTOFF_LOG_WARN, "search: %s is NULL", null);
		return CUTOFF_EINVAL;
	}
	return check_limits(e, limits);
}

int cutoff_engine_search(cutoff_engine_t *e, const void *root, const cutoff_limits_t *limits,
                         cutoff_result_t *r, cutoff_info_fn info, void *info_user)
{
	int rc;
	if (!e)
		return CUTOFF_EINVAL;
	if (!engine_take_speaking(e))
		return CUTOFF_EBUSY;
	if ((rc = search_refused(e, root, limits, r)) < 0) {
		engine_release(e); /* a stop sent before stays for the next search */
		return rc;
	}

	const cutoff_game_t *g = &e->game;
	const cutoff_job_t job = { .cfg = &e->cfg,
		                   .lim = limits,
		                   .searchers = e->searchers,
		                   .results = e->results,
		                   .control = &e->control,
		                   .driver = e->drv_state,
		                   .t0 = cutoff_now_ns(),
		                   .info = info,
		                   .info_user = info_user };
	cutoff_searcher_t *s0 = &e->searchers[0];
	int32_t value;

	result_clear(r);
	r->best_move = CUTOFF_MOVE_NONE;
	if (g->terminal(g->ctx, root, &value)) {
		if (!cutoff_value_allowed(value, true)) {
			say_fault(e, &(cutoff_fault_t){ "terminal", value, 0, true });
			rc = CUTOFF_EGAME;
			goto out;
		}
		r->value = value;
		r->bound = CUTOFF_BOUND_EXACT;
		rc = CUTOFF_ETERMINAL;
		/* An answer, not a fault: kept for the caller, an INFO line for the log. */
		const cutoff_voice_t v = engine_voice(e);
		cutoff_say(&v, CUTOFF_LOG_INFO,
		           "search: the root is terminal (value %d): there is no move to search",
		           (int)value);
		goto out;
	}
	/* The first legal move is the answer of last resort, when a stop comes before any
	 * iteration completes. */
	int n = g->gen_moves(g->ctx, root, s0->moves, s0->hints);
	if (n < 1 || n > g->max_moves) {
		say_fault(e, &(cutoff_fault_t){ "gen_moves", n, 0, false });
		rc = CUTOFF_EGAME;
		goto out;
	}
	cutoff_move_t last_resort = s0->moves[0];
	search_begin(e, root, limits, job.t0);
	cutoff_pool_run(e->pool, search_job, (void *)&job);
	search_answer(e, &job, r, last_resort);
	r->stopped = r->depth < cutoff_final_depth(limits, cutoff_config_plies(&e->cfg)) &&
	             !r->solved && !cutoff_mate_proven(&e->cfg, r->value, r->bound, r->depth);
	solved_depth(&e->cfg, limits, r);
	rc = answer_is_void(e, r) ? CUTOFF_EGAME : CUTOFF_OK;
	if (rc == CUTOFF_OK)
		why_unsolved(e, limits, r);
	if (rc == CUTOFF_OK)
		pv_from_table(e, root, r);
	if (rc == CUTOFF_OK)
		prove_pv(e, root, r);
out:
	r->time_s = (double)(cutoff_now_ns() - job.t0) / 1e9;
	cutoff_int_store_relaxed(&e->control.stop, 0);
	engine_release(e);
	return rc;
}

int cutoff_engine_thread_counters(const cutoff_engine_t *e, int thread, cutoff_counters_t *out)
{
	if (!e || !out || thread < 0 || thread >= e->cfg.threads)
		return CUTOFF_EINVAL;
	if (engine_busy(e))
		return CUTOFF_EBUSY;
	*out = e->searchers[thread].count;
	return CUTOFF_OK;
}

int cutoff_engine_thread_profile(const cutoff_engine_t *e, int thread, cutoff_profile_t *out)
{
	if (!e || !out || thread < 0 || thread >= e->cfg.threads)
		return CUTOFF_EINVAL;
	if (engine_busy(e))
		return CUTOFF_EBUSY;
	*out = thread_profile(e, thread);
	return CUTOFF_OK;
}

bool cutoff_profile_available(void) { return CUTOFF_PROFILING; }

int cutoff_engine_export(cutoff_engine_t *e, int thread, cutoff_tt_entry_t *out, int max,
                         uint64_t *dropped)
{
	if (!e || !out || thread < 0 || thread >= e->cfg.threads || max < 0)
		return CUTOFF_EINVAL;
	if (!e->shares)
		return CUTOFF_ENOTSUP;
	cutoff_share_t *sh = &e->shares[thread];
	if (dropped)
		*dropped = cutoff_u64_load_relaxed(&sh->dropped);
	return cutoff_share_take(sh, out, max);
}

int cutoff_engine_export_depth(cutoff_engine_t *e, int depth)
{
	if (!e || depth < 0 || depth > 255)
		return CUTOFF_EINVAL;
	cutoff_int_store_relaxed(&e->control.export_depth, depth);
	return CUTOFF_OK;
}

int cutoff_engine_import(cutoff_engine_t *e, const cutoff_tt_entry_t *in, int n)
{
	if (!e || n < 0 || (!in && n > 0))
		return CUTOFF_EINVAL;
	if (!e->tt)
		return CUTOFF_ENOTSUP;
	int written = 0;
	for (int i = 0; i < n; i++) {
		const cutoff_tt_entry_t *x = &in[i];
		if (x->bound < CUTOFF_BOUND_UPPER || x->bound > CUTOFF_BOUND_EXACT ||
		    x->value > CUTOFF_WIN || x->value < -CUTOFF_WIN)
			continue;
		written += cutoff_tt_store_by(e->tt, x->key, x->depth, 0, (cutoff_bound_t)x->bound,
		                              x->value, x->move,
		                              CUTOFF_TT_IMPORTED) == CUTOFF_TT_WRITTEN;
	}
	return written;
}
