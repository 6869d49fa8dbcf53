/* SPDX-License-Identifier: MIT */
/*
 * driver.h — the seam between the engine and a parallel search scheme (internal).
 *
 * A driver decides how the engine's threads share one search. It is a set of operations
 * (cutoff_driver_ops_t) in a file of its own, listed once in the registry (driver.c),
 * indexed by cutoff_driver_t. The engine (engine.c) only validates, makes and frees a
 * driver and runs its job on every thread of the pool; iterative deepening, aspiration
 * and the rules that end it are iterate.c's, shared by every driver; the serial core
 * (search.c) knows a driver only through two generic doors of the searcher:
 *
 *   searcher.younger   a hook the move loop calls once a node's eldest move has not cut
 *                      off (cutoff_younger_fn, search.h): it may search the younger
 *                      moves itself (YBW hands them to helpers, ABDADA defers the ones
 *                      another thread is searching);
 *   searcher.above     the chain of shared nodes above a thread's work whose cut-off
 *                      flags the search reads at every node (cutoff_above_t).
 *
 * The life of a driver, all on the caller's thread except `job`:
 *   create   once the searchers exist: allocates everything the driver will need (nothing
 *            may be allocated during a search) and sets each searcher's hook
 *            (younger, driver, younger_depth); *state may stay NULL;
 *   begin    before each search, no thread searching (NULL: nothing to do);
 *   job      each thread's share of the search (index 0 is the caller); the job calls
 *            cutoff_iterate for the threads that run iterative deepening;
 *   end      after the search, before the answer is read (NULL: nothing to do);
 *   pick     after the search: the thread whose result is the answer, from the job as
 *            the threads saw it (its configuration, limits and results; NULL: thread 0);
 *   destroy  with the engine.
 * `alone` says that only thread 0 takes part (the others' clocks stay at 0 and the node
 * limit is not shared out among them).
 *
 * Adding a driver: one file that defines its cutoff_driver_ops_t, a value in
 * cutoff_driver_t (cutoff.h), and one line in the registry (driver.c). Its options are
 * fields of cutoff_config_t, listed in the registry's option table with their range and
 * default: the registry checks them (cutoff_driver_check_options) and the command line
 * offers them (cutoff_driver_options). Its counters are its own file's, one line each
 * (CUTOFF_DRIVER_COUNTER_INFO below): the registry lists them with the search's, and
 * every report (search, bench, sim, tree) walks that list.
 */
#ifndef CUTOFF_DRIVER_H
#define CUTOFF_DRIVER_H

#include <stdbool.h>

#include "base/log.h"
#include "core/iterate.h"
#include "core/search.h"
#include "cutoff.h"

typedef struct cutoff_driver_ops {
	const char *name;        /* the word the command line and UCI use */
	const char *description; /* one line */
	bool alone;              /* only thread 0 searches */
	int (*create)(const cutoff_config_t *cfg, const cutoff_game_t *game,
	              cutoff_searcher_t *searchers, void **state);
	void (*destroy)(void *state);
	void (*begin)(void *state);
	void (*job)(const cutoff_job_t *job, int index);
	int (*pick)(const cutoff_job_t *job);
	/* After the search, every thread done, before the answer and the counters are read
	 * (NULL: nothing to do): a driver that searched on searchers of its own adds their
	 * counters to the engine's. */
	void (*end)(void *state);
	/* The engine forgot what ordering learnt (cutoff_engine_clear; NULL: nothing more to
	 * do): a driver with searchers of its own forgets theirs too. */
	void (*forget)(void *state);
	/* Its own counters, described in its own file (CUTOFF_DRIVER_COUNTER_INFO below):
	 * each thread counts counters[k] in its searcher's driver_count[k]. */
	const cutoff_counter_info_t *counters;
	int ncounters;
} cutoff_driver_ops_t;

/*
 * A driver's counters, one line each in the driver's file, which the registry lists with
 * the search's (cutoff_counter_info) so that every report shows them:
 *
 *   #define YBW_COUNTERS(X) X(YBW_SPLITS, "splits", "count", false, "split points made") ...
 *   #define YBW_COUNTER(id, ...) CUTOFF_DRIVER_COUNTER_INFO(CUTOFF_DRIVER_YBW, __VA_ARGS__)
 *   enum { YBW_COUNTERS(CUTOFF_DRIVER_COUNTER_ENUM) YBW_NCOUNTERS };
 *   static const cutoff_counter_info_t ybw_counters[] = { YBW_COUNTERS(YBW_COUNTER) };
 *
 * X(id, name, unit, profiler, meaning): `profiler` true when it is counted only in a build
 * with the profiler. The thread counts with `s->driver_count[YBW_SPLITS]++`.
 */
#define CUTOFF_DRIVER_COUNTER_ENUM(id, name, unit, profiler, meaning) id,
#define CUTOFF_DRIVER_COUNTER_INFO(driver, name, unit, profiler, meaning)                          \
	{ name, unit, meaning, CUTOFF_COUNTED_BY_DRIVER, profiler, false, driver },

/* True when a split rule (config.ybw_split_nodes, dts_split_nodes) lets a node of this
 * expected type split. */
static inline bool cutoff_split_type_allowed(cutoff_ybw_split_nodes_t rule, cutoff_node_type_t type)
{
	switch (rule) {
	case CUTOFF_YBW_SPLIT_NOT_CUT:
		return type != CUTOFF_NODE_CUT;
	case CUTOFF_YBW_SPLIT_ALL:
		return type == CUTOFF_NODE_ALL;
	default:
		return true;
	}
}

/* The first slot of count.driver[] that holds `driver`'s counters. */
int cutoff_driver_counter_base(cutoff_driver_t driver);

/* The registry: the driver's operations, or NULL when `driver` is not one. */
const cutoff_driver_ops_t *cutoff_driver_ops(cutoff_driver_t driver);

/* Checks every driver's options in cfg against their ranges in the registry (whichever
 * driver is chosen: changing the driver alone cannot make a configuration invalid);
 * names the field through cutoff_say(v) and returns CUTOFF_EINVAL when one is out of
 * range. */
int cutoff_driver_check_options(const cutoff_voice_t *v, const cutoff_config_t *cfg);

/* Sets cfg->driver to the default driver and every driver's options to their defaults. */
void cutoff_driver_config_default(cutoff_config_t *cfg);

/* The drivers, each defined in its own file. */
extern const cutoff_driver_ops_t cutoff_driver_serial_ops;
extern const cutoff_driver_ops_t cutoff_driver_lazysmp_ops;
extern const cutoff_driver_ops_t cutoff_driver_ybw_ops;
extern const cutoff_driver_ops_t cutoff_driver_abdada_ops;
extern const cutoff_driver_ops_t cutoff_driver_dts_ops; /* with CUTOFF_HAVE_FIBERS */

#endif /* CUTOFF_DRIVER_H */
