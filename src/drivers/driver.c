/* SPDX-License-Identifier: MIT */
/*
 * driver.c — the registry of drivers: one line a driver, each driver's options, and the
 * list of counters (the search's and the profiler's, then each driver's).
 *
 * Everything here is constant: the table of operations indexed by cutoff_driver_t, and
 * the options, each a field of cutoff_config_t named by its offset and kind, with its
 * range — the one place a driver option's range is written: cutoff_engine_new checks
 * every option against it (cutoff_driver_check_options), cutoff_config_set_option
 * refuses values outside it (and cutoff_config_set_option_str reads an option's words
 * from the same table), front ends print it. The engine finds a driver's operations here
 * (cutoff_driver_ops); front ends find the names, descriptions and options through the
 * public functions below, so that a new driver reaches the command line, the bench and
 * UCI without another edit.
 *
 * Counters. The search's and the profiler's are the named fields of cutoff_counters_t,
 * described once by CUTOFF_COUNTERS in cutoff.h; each driver describes its own in its file
 * (driver.h says how) and counts them in count.driver[], at slots given here in the
 * registry's order: driver d's k-th counter is driver[base(d) + k], for every result,
 * whichever driver made it, so that a counter's index and JSON key never depend on the
 * driver. The list that cutoff_counter_info walks is the search's table, then each
 * driver's table.
 */
#include "drivers/driver.h"

#include <limits.h>
#include <stddef.h>
#include <string.h>

/* The registry: adding a driver is a value in cutoff_driver_t and a line here. */
static const cutoff_driver_ops_t *const DRIVERS[] = {
	[CUTOFF_DRIVER_SERIAL] = &cutoff_driver_serial_ops,
	[CUTOFF_DRIVER_LAZYSMP] = &cutoff_driver_lazysmp_ops,
	[CUTOFF_DRIVER_YBW] = &cutoff_driver_ybw_ops,
	[CUTOFF_DRIVER_ABDADA] = &cutoff_driver_abdada_ops,
#ifdef CUTOFF_HAVE_FIBERS
	[CUTOFF_DRIVER_DTS] = &cutoff_driver_dts_ops,
#endif
};

enum {
	DRIVER_COUNT = (int)(sizeof DRIVERS / sizeof DRIVERS[0])
};

/* How an option's value is kept in the configuration. */
typedef enum field_kind {
	FIELD_INT,  /* int */
	FIELD_BOOL, /* bool */
	FIELD_ENUM  /* an enum, as large as an int */
} field_kind_t;

typedef struct option {
	cutoff_driver_t driver;
	const char *field; /* its name in cutoff_config_t, for the log */
	size_t offset;
	field_kind_t kind;
	int def; /* the default value */
} option_t;

static const char *const ONOFF[] = { "off", "on", NULL };
static const char *const ABDADA_VARIANTS[] = { "classic", "simplified", NULL };
static const char *const YBW_SPLIT_NODES[] = { "any", "not-cut", "all", NULL };

_Static_assert(CUTOFF_ABDADA_CLASSIC == 0 && CUTOFF_ABDADA_SIMPLIFIED == 1,
               "ABDADA_VARIANTS is indexed by cutoff_abdada_variant_t");
_Static_assert(CUTOFF_YBW_SPLIT_ANY == 0 && CUTOFF_YBW_SPLIT_NOT_CUT == 1 &&
                       CUTOFF_YBW_SPLIT_ALL == 2,
               "YBW_SPLIT_NODES is indexed by cutoff_ybw_split_nodes_t");
_Static_assert(sizeof(cutoff_abdada_variant_t) == sizeof(int) &&
                       sizeof(cutoff_ybw_split_nodes_t) == sizeof(int),
               "enum options are ints");

/*
 * Every driver option, one row each, grouped by driver: the driver that reads it, its
 * field of cutoff_config_t and how the field is kept, the word front ends offer it by,
 * one line of help, its range (or the words standing for min .. max) and its default.
 * OPTIONS, the public part that cutoff_driver_options hands out (one slice per driver),
 * and FIELDS, where each option lands, are both made from these rows: written once, they
 * cannot disagree.
 */
/* clang-format off */
#define DRIVER_OPTIONS(X)                                                                          \
	X(LAZYSMP, lazysmp_skip, BOOL, "lazy-skip",                                                \
	  "helpers skip iterations in blocks (diversity)", 0, 1, ONOFF, 1)                         \
	X(LAZYSMP, lazysmp_vote, BOOL, "lazy-vote",                                                \
	  "a stopped search answers with the threads' vote on the move (Stockfish 11-17), not "    \
	  "the deepest thread", 0, 1, ONOFF, 0 /* until measured */)                               \
	X(YBW, ybw_min_split_depth, INT, "min-split",                                              \
	  "split only where at least this many plies remain", 1, CUTOFF_MAX_PLY, NULL, 3)          \
	X(YBW, ybw_max_helpers, INT, "max-helpers",                                                \
	  "most helpers at one split point", 1, CUTOFF_MAX_THREADS, NULL, 8)                       \
	X(YBW, ybw_split_after, INT, "split-after",                                                \
	  "moves a node searches alone before it may split (1: the eldest)", 1, 8, NULL, 1)        \
	X(YBW, ybw_late_join, BOOL, "late-join",                                                   \
	  "no effect: every join is an idle thread's own (kept so that settings still load)", 0,   \
	  1, ONOFF, 1)                                                                             \
	X(YBW, ybw_split_nodes, ENUM, "split-nodes",                                               \
	  "which nodes may split, by expected type: any, not-cut (PV and ALL), all (ALL only)",   \
	  0, 2, YBW_SPLIT_NODES, CUTOFF_YBW_SPLIT_ANY)                                             \
	X(YBW, ybw_max_splits, INT, "max-splits",                                                  \
	  "split points one thread may have open at once", 1, CUTOFF_MAX_PLY, NULL,                \
	  CUTOFF_MAX_PLY)                                                                          \
	X(ABDADA, abdada_variant, ENUM, "abdada-variant",                                          \
	  "classic (Weill: the child position busy) or simplified (Kerrigan: the move busy)", 0,  \
	  1, ABDADA_VARIANTS, CUTOFF_ABDADA_SIMPLIFIED)                                            \
	X(ABDADA, abdada_min_depth, INT, "abdada-min-depth",                                       \
	  "defer and mark moves only where at least this many plies remain (0: 6 under 16 "       \
	  "threads, 4 from 16)", 0, CUTOFF_MAX_PLY, NULL, 0)                                       \
	X(ABDADA, abdada_table_bits, INT, "abdada-table-bits",                                     \
	  "the busy marks' side table has 2^bits slots", 8, 24, NULL, 12)                          \
	X(DTS, dts_min_split_depth, INT, "dts-min-split",                                          \
	  "offer a node's younger moves only where at least this many plies remain", 1,           \
	  CUTOFF_MAX_PLY, NULL, 2)                                                                 \
	X(DTS, dts_fibers, INT, "dts-fibers",                                                      \
	  "searches (fibers) per thread: parked owners hold one each", 2, 64, NULL, 4)             \
	X(DTS, dts_min_split_nodes, INT, "dts-min-nodes",                                          \
	  "offer a node's younger moves only where its eldest move took at least this many "      \
	  "nodes (0: 32 under 16 threads, 1 from 16)", 0, 1 << 30, NULL, 0)                        \
	X(DTS, dts_split_nodes, ENUM, "dts-split-nodes",                                           \
	  "which nodes may offer their younger moves, by expected type: any, not-cut (PV and "    \
	  "ALL), all (ALL only)", 0, 2, YBW_SPLIT_NODES, CUTOFF_YBW_SPLIT_ANY)
/* clang-format on */

#define OPTION_PUBLIC(driver, field, kind, name, help, min, max, words, def)                       \
	{ name, help, min, max, words },
#define OPTION_FIELD(driver, field, kind, name, help, min, max, words, def)                        \
	{ CUTOFF_DRIVER_##driver, #field, offsetof(cutoff_config_t, field), FIELD_##kind, def },
static const cutoff_driver_option_t OPTIONS[] = { DRIVER_OPTIONS(OPTION_PUBLIC) };
static const option_t FIELDS[] = { DRIVER_OPTIONS(OPTION_FIELD) };
#undef OPTION_PUBLIC
#undef OPTION_FIELD

enum {
	OPTION_COUNT = (int)(sizeof OPTIONS / sizeof OPTIONS[0])
};

const cutoff_driver_ops_t *cutoff_driver_ops(cutoff_driver_t driver)
{
	return (unsigned)driver < DRIVER_COUNT ? DRIVERS[driver] : NULL;
}

int cutoff_driver_count(void) { return DRIVER_COUNT; }

/* ---- counters ---- */

/* CUTOFF_COUNTERS' `who`: counted_by, profiler, maximum. */
#define WHO_SEARCH CUTOFF_COUNTED_BY_SEARCH, false, false
#define WHO_SEARCH_MAX CUTOFF_COUNTED_BY_SEARCH, false, true
#define WHO_PROFILER CUTOFF_COUNTED_BY_PROFILER, true, false
#define COUNTER_INFO(name, unit, who, meaning)                                                     \
	{ #name, unit, meaning, WHO_##who, CUTOFF_DRIVER_SERIAL },
static const cutoff_counter_info_t CORE_COUNTERS[] = { CUTOFF_COUNTERS(COUNTER_INFO) };
#undef COUNTER_INFO
#define COUNTER_OFFSET(name, unit, who, meaning) offsetof(cutoff_counters_t, name),
static const size_t CORE_OFFSETS[] = { CUTOFF_COUNTERS(COUNTER_OFFSET) };
#undef COUNTER_OFFSET

enum {
	CORE_COUNT = (int)(sizeof CORE_COUNTERS / sizeof CORE_COUNTERS[0])
};
_Static_assert(sizeof(cutoff_counters_t) ==
                       (CORE_COUNT + CUTOFF_DRIVER_COUNTERS) * sizeof(uint64_t),
               "cutoff_counters_t holds CUTOFF_COUNTERS' fields and driver[] alone");

int cutoff_driver_counter_base(cutoff_driver_t driver)
{
	int base = 0;
	for (int d = 0; d < (int)driver && d < DRIVER_COUNT; d++)
		base += DRIVERS[d]->ncounters;
	return base;
}

int cutoff_counter_count(void)
{
	/* Every driver's counters fit in driver[]: checked here, where they are summed, since
	 * the tables live in the drivers' files (a test calls this at once). */
	int n = cutoff_driver_counter_base((cutoff_driver_t)DRIVER_COUNT);
	return n <= CUTOFF_DRIVER_COUNTERS ? CORE_COUNT + n : CORE_COUNT;
}

/* Counter i's place: a field (*offset) or a driver's (*driver, *k); false for a bad i. */
static bool counter_place(int i, size_t *offset, int *driver, int *k)
{
	if (i < 0 || i >= cutoff_counter_count())
		return false;
	*driver = -1;
	if (i < CORE_COUNT) {
		*offset = CORE_OFFSETS[i];
		return true;
	}
	i -= CORE_COUNT;
	for (int d = 0; d < DRIVER_COUNT; i -= DRIVERS[d++]->ncounters)
		if (i < DRIVERS[d]->ncounters) {
			*driver = d;
			*k = i;
			return true;
		}
	return false;
}

const cutoff_counter_info_t *cutoff_counter_info(int i)
{
	size_t offset;
	int d, k;
	if (!counter_place(i, &offset, &d, &k))
		return NULL;
	return d < 0 ? &CORE_COUNTERS[i] : &DRIVERS[d]->counters[k];
}

uint64_t cutoff_counter_value(const cutoff_counters_t *c, int i)
{
	size_t offset;
	int d, k;
	if (!c || !counter_place(i, &offset, &d, &k))
		return 0;
	if (d >= 0)
		return c->driver[cutoff_driver_counter_base((cutoff_driver_t)d) + k];
	uint64_t v;
	memcpy(&v, (const char *)c + offset, sizeof(v));
	return v;
}

int cutoff_counter_find(const char *name)
{
	for (int i = 0; name && i < cutoff_counter_count(); i++)
		if (strcmp(cutoff_counter_info(i)->name, name) == 0)
			return i;
	return -1;
}

const char *cutoff_driver_name(cutoff_driver_t driver)
{
	const cutoff_driver_ops_t *ops = cutoff_driver_ops(driver);
	return ops ? ops->name : NULL;
}

const char *cutoff_driver_description(cutoff_driver_t driver)
{
	const cutoff_driver_ops_t *ops = cutoff_driver_ops(driver);
	return ops ? ops->description : NULL;
}

int cutoff_driver_find(const char *name, cutoff_driver_t *driver)
{
	if (!name || !driver)
		return CUTOFF_EINVAL;
	for (int d = 0; d < DRIVER_COUNT; d++)
		if (strcmp(DRIVERS[d]->name, name) == 0) {
			*driver = (cutoff_driver_t)d;
			return CUTOFF_OK;
		}
	return CUTOFF_EINVAL;
}

int cutoff_driver_options(cutoff_driver_t driver, const cutoff_driver_option_t **options)
{
	if (!options || !cutoff_driver_ops(driver))
		return CUTOFF_EINVAL;
	int first = 0, n = 0;
	while (first < OPTION_COUNT && FIELDS[first].driver != driver)
		first++;
	while (first + n < OPTION_COUNT && FIELDS[first + n].driver == driver)
		n++;
	*options = &OPTIONS[first];
	return n;
}

static int find_option(const char *name)
{
	for (int i = 0; name && i < OPTION_COUNT; i++)
		if (strcmp(OPTIONS[i].name, name) == 0)
			return i;
	return -1;
}

int cutoff_config_get_option(const cutoff_config_t *cfg, const char *name, int *value)
{
	int i = find_option(name);
	if (!cfg || !value || i < 0)
		return CUTOFF_EINVAL;
	const char *field = (const char *)cfg + FIELDS[i].offset;
	if (FIELDS[i].kind == FIELD_BOOL) {
		bool b;
		memcpy(&b, field, sizeof b);
		*value = b;
	} else {
		memcpy(value, field, sizeof(int));
	}
	return CUTOFF_OK;
}

int cutoff_config_set_option(cutoff_config_t *cfg, const char *name, int value)
{
	int i = find_option(name);
	if (!cfg || i < 0 || value < OPTIONS[i].min || value > OPTIONS[i].max)
		return CUTOFF_EINVAL;
	char *field = (char *)cfg + FIELDS[i].offset;
	if (FIELDS[i].kind == FIELD_BOOL) {
		bool b = value != 0;
		memcpy(field, &b, sizeof b);
	} else {
		memcpy(field, &value, sizeof(int));
	}
	return CUTOFF_OK;
}

/* The value `text` writes: one of the option's words, or a whole decimal number (sign
 * allowed, nothing else around it); false for anything else, or a number beyond int. */
static bool option_value(const cutoff_driver_option_t *o, const char *text, int *value)
{
	for (int w = 0; o->words && w <= o->max - o->min; w++)
		if (strcmp(o->words[w], text) == 0) {
			*value = o->min + w;
			return true;
		}
	const char *p = text + (*text == '-' || *text == '+');
	long long v = 0;
	if (*p == '\0')
		return false;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((v = v * 10 + (*p - '0')) > (long long)INT_MAX + 1)
			return false;
	v = *text == '-' ? -v : v;
	if (*p != '\0' || v > INT_MAX || v < INT_MIN)
		return false;
	*value = (int)v;
	return true;
}

int cutoff_config_set_option_str(cutoff_config_t *cfg, const char *name, const char *text)
{
	int i = find_option(name), value;
	if (!cfg || i < 0 || !text || !option_value(&OPTIONS[i], text, &value))
		return CUTOFF_EINVAL;
	return cutoff_config_set_option(cfg, name, value);
}

void cutoff_driver_config_default(cutoff_config_t *cfg)
{
	cfg->driver = CUTOFF_DRIVER_SERIAL;
	for (int i = 0; i < OPTION_COUNT; i++)
		cutoff_config_set_option(cfg, OPTIONS[i].name, FIELDS[i].def);
}

int cutoff_driver_check_options(const cutoff_voice_t *v, const cutoff_config_t *cfg)
{
	for (int i = 0; i < OPTION_COUNT; i++) {
		int value = 0;
		cutoff_config_get_option(cfg, OPTIONS[i].name, &value);
		if (value < OPTIONS[i].min || value > OPTIONS[i].max) {
			cutoff_say(v, CUTOFF_LOG_WARN, "config: %s %d is not in %d..%d",
			           FIELDS[i].field, value, OPTIONS[i].min, OPTIONS[i].max);
			return CUTOFF_EINVAL;
		}
	}
	return CUTOFF_OK;
}
