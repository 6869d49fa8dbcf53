/* SPDX-License-Identifier: MIT */
/*
 * uci/options.c — the options of `cutoff uci`: the table of them (what `uci` lists, what
 * setoption accepts), and the engine made from them.
 *
 * Algorithm lists every driver of the library's registry, and every driver option of the
 * registry is an option of its own (spin or combo, by its name: min-split), so that a
 * driver added to the library is offered here without an edit. setoption checks the
 * value and records it (s->want); the engine is made anew (Threads, Algorithm, Placement,
 * Pruning, a driver option) or its table resized (Hash) only when it is idle, at the next
 * isready or ucinewgame that finds no search running unstopped, or at the next go
 * (uci_apply_options): a burst of setoption lines builds one engine, a setoption sent
 * during a search takes effect after it, and isready answers once a big table is in
 * place. Move Overhead is in force at once.
 *
 * Owns s->opt (what the engine was made with), s->want and s->want_clear, and the engine
 * itself between searches. Invariant: s->opt describes s->engine whenever it exists, and
 * a failed build or resize leaves both as they were. Main thread only.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "uci/uci.h"

/* Pruning option: the combo's words and their CUTOFF_PRUNE_* bits. */
static const char *const pruning_names[] = { "none", "nullmove", "lmr", "all", NULL };
static const unsigned pruning_bits[] = { CUTOFF_PRUNE_NONE, CUTOFF_PRUNE_NULL_MOVE,
	                                 CUTOFF_PRUNE_LMR, CUTOFF_PRUNE_ALL };

/* The driver Algorithm starts with: the parallel driver that plays best on few threads
 * (the library's default when the registry has none of that name). */
static const char UCI_DEFAULT_DRIVER[] = "lazysmp";

static int default_driver(void)
{
	cutoff_driver_t d;
	return cutoff_driver_find(UCI_DEFAULT_DRIVER, &d) == CUTOFF_OK ? (int)d
	                                                               : (int)cli_driver_default();
}

void uci_options_default(uci_options_t *o)
{
	*o = (uci_options_t){ .threads = 1,
		              .hash_mb = 16,
		              .driver = default_driver(),
		              .placement = CUTOFF_PLACE_NONE,
		              .pruning = 3, /* all */
		              .overhead_ms = UCI_OVERHEAD_DEFAULT };
	cutoff_config_default(&o->drivers);
}

/* ---------------------------------------------------------------------------------------
 * The drivers' options
 * ------------------------------------------------------------------------------------- */

/* Calls fn(option, arg) for every driver option of the registry. */
static void each_driver_option(void (*fn)(const cutoff_driver_option_t *, void *), void *arg)
{
	for (int d = 0; d < cutoff_driver_count(); d++) {
		const cutoff_driver_option_t *o;
		int n = cutoff_driver_options((cutoff_driver_t)d, &o);
		for (int i = 0; i < n; i++)
			fn(&o[i], arg);
	}
}

typedef struct options_pair {
	const cutoff_config_t *a, *b;
	bool same;
} options_pair_t;

static void compare_option(const cutoff_driver_option_t *opt, void *arg)
{
	options_pair_t *p = arg;
	int x = 0, y = 0;
	cutoff_config_get_option(p->a, opt->name, &x);
	cutoff_config_get_option(p->b, opt->name, &y);
	p->same &= x == y;
}

static bool same_driver_options(const cutoff_config_t *a, const cutoff_config_t *b)
{
	options_pair_t p = { a, b, true };
	each_driver_option(compare_option, &p);
	return p.same;
}

static void copy_option(const cutoff_driver_option_t *opt, void *arg)
{
	options_pair_t *p = arg;
	int v;
	if (cutoff_config_get_option(p->a, opt->name, &v) == CUTOFF_OK)
		cutoff_config_set_option((cutoff_config_t *)p->b, opt->name, v);
}

/* The driver option called `name` (in any case, as UCI names are), or NULL. */
static const cutoff_driver_option_t *find_driver_option(const char *name)
{
	for (int d = 0; d < cutoff_driver_count(); d++) {
		const cutoff_driver_option_t *o;
		int n = cutoff_driver_options((cutoff_driver_t)d, &o);
		for (int i = 0; i < n; i++)
			if (strcasecmp(o[i].name, name) == 0)
				return &o[i];
	}
	return NULL;
}

/* `option name NAME type spin|combo ...` for a driver option of the registry. */
static void say_driver_option(const cutoff_driver_option_t *opt, void *arg)
{
	uci_session_t *s = arg;
	cutoff_config_t def;
	char v[32], words[256];
	int value = 0;
	size_t n = 0;
	cutoff_config_default(&def);
	cutoff_config_get_option(&def, opt->name, &value);
	if (!opt->words) {
		uci_say(s, "option name %s type spin default %d min %d max %d", opt->name, value,
		        opt->min, opt->max);
		return;
	}
	words[0] = '\0';
	for (int i = 0; i <= opt->max - opt->min && n < sizeof(words); i++)
		n += (size_t)snprintf(words + n, sizeof(words) - n, " var %s", opt->words[i]);
	uci_say(s, "option name %s type combo default %s%s", opt->name,
	        cli_option_text(opt, value, v, sizeof(v)), words);
}

/* Sets the driver option `opt` in *cfg from `value`, as the library reads it
 * (cutoff_config_set_option_str: one of its words or a number in its range), a word in
 * any case as UCI's names are; false after saying what was expected. */
static bool set_driver_option(uci_session_t *s, const cutoff_driver_option_t *opt,
                              const char *value, cutoff_config_t *cfg)
{
	char q[UCI_QUOTE_SIZE], lower[UCI_QUOTE_SIZE], expected[256];
	size_t n = strlen(value);
	if (n < sizeof(lower)) {
		for (size_t i = 0; i <= n; i++)
			lower[i] = (char)tolower((unsigned char)value[i]);
		if (cutoff_config_set_option_str(cfg, opt->name, lower) == CUTOFF_OK)
			return true;
	}
	uci_say_error(s, "setoption: %s: expected %s, got %s", opt->name,
	              cli_option_expected(opt, expected, sizeof(expected)),
	              cli_quote_ascii(q, sizeof(q), value));
	return false;
}

/* ---------------------------------------------------------------------------------------
 * The option table: for each option, its `uci` line and its setoption. A setter checks
 * the value and records it in *o (a copy of s->want, stored back when it returns true),
 * or says what was expected and returns false.
 * ------------------------------------------------------------------------------------- */

static int choice_index(const char *const *names, const char *word)
{
	for (int i = 0; names[i]; i++) {
		if (strcasecmp(names[i], word) == 0)
			return i;
	}
	return -1;
}

static void say_threads(uci_session_t *s)
{
	uci_say(s, "option name Threads type spin default 1 min 1 max %d", CUTOFF_MAX_THREADS);
}

static bool set_threads(uci_session_t *s, uci_options_t *o, const char *value)
{
	char q[UCI_QUOTE_SIZE];
	if (!cli_int_value(value, 1, CUTOFF_MAX_THREADS, &o->threads)) {
		uci_say_error(s, "setoption: Threads: expected an integer in 1..%d, got %s",
		              CUTOFF_MAX_THREADS, cli_quote_ascii(q, sizeof(q), value));
		return false;
	}
	return true;
}

static void say_hash(uci_session_t *s)
{
	uci_say(s, "option name Hash type spin default 16 min 0 max %zu", (size_t)CUTOFF_MAX_TT_MB);
}

static bool set_hash(uci_session_t *s, uci_options_t *o, const char *value)
{
	char q[UCI_QUOTE_SIZE];
	if (!cli_int_value(value, 0, (int64_t)CUTOFF_MAX_TT_MB, &o->hash_mb)) {
		uci_say_error(s, "setoption: Hash: expected MiB in 0..%zu, got %s",
		              (size_t)CUTOFF_MAX_TT_MB, cli_quote_ascii(q, sizeof(q), value));
		return false;
	}
	return true;
}

static void say_algorithm(uci_session_t *s)
{
	char names[256];
	size_t n = 0;
	for (int d = 0; d < cutoff_driver_count() && n < sizeof(names); d++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, " var %s",
		                      cli_driver_name((cutoff_driver_t)d));
	if (s->cluster)
		n += (size_t)snprintf(names + n, sizeof(names) - n, " var cluster");
	uci_say(s, "option name Algorithm type combo default %s%s",
	        s->cluster ? "cluster" : cli_driver_name((cutoff_driver_t)default_driver()), names);
}

static bool set_algorithm(uci_session_t *s, uci_options_t *o, const char *value)
{
	char q[UCI_QUOTE_SIZE], list[256];
	int k = -1;
	for (int d = 0; d < cutoff_driver_count(); d++)
		if (strcasecmp(value, cli_driver_name((cutoff_driver_t)d)) == 0)
			k = d;
	if (strcasecmp(value, "cluster") == 0) {
		if (!s->cluster) {
			uci_say_error(s, "setoption: Algorithm: cluster runs under mpirun only "
			                 "(mpirun -np N cutoff uci)");
			return false;
		}
		k = DRIVER_CLUSTER;
	}
	if (k < 0) {
		uci_say_error(s, "setoption: Algorithm: expected one of %s%s, got %s",
		              cli_driver_list(list, sizeof(list)), s->cluster ? ", cluster" : "",
		              cli_quote_ascii(q, sizeof(q), value));
		return false;
	}
	o->driver = k;
	return true;
}

static void say_placement(uci_session_t *s)
{
	char names[256];
	size_t n = 0;
	for (int i = 0; cli_placement_names[i]; i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, " var %s",
		                      cli_placement_names[i]);
	uci_say(s, "option name Placement type combo default none%s", names);
}

static bool set_placement(uci_session_t *s, uci_options_t *o, const char *value)
{
	char q[UCI_QUOTE_SIZE];
	if ((o->placement = choice_index(cli_placement_names, value)) < 0) {
		uci_say_error(s, "setoption: Placement: expected none, compact or scatter, got %s",
		              cli_quote_ascii(q, sizeof(q), value));
		return false;
	}
	return true;
}

static void say_pruning(uci_session_t *s)
{
	uci_say(s, "option name Pruning type combo default all var all var nullmove var lmr var "
	           "none");
}

static bool set_pruning(uci_session_t *s, uci_options_t *o, const char *value)
{
	char q[UCI_QUOTE_SIZE];
	if ((o->pruning = choice_index(pruning_names, value)) < 0) {
		uci_say_error(s, "setoption: Pruning: expected all, nullmove, lmr or none, got %s",
		              cli_quote_ascii(q, sizeof(q), value));
		return false;
	}
	return true;
}

static void say_overhead(uci_session_t *s)
{
	uci_say(s, "option name Move Overhead type spin default %d min 0 max %d",
	        UCI_OVERHEAD_DEFAULT, UCI_OVERHEAD_MAX);
}

static bool set_overhead(uci_session_t *s, uci_options_t *o, const char *value)
{
	char q[UCI_QUOTE_SIZE];
	if (!cli_int_value(value, 0, UCI_OVERHEAD_MAX, &o->overhead_ms)) {
		uci_say_error(s, "setoption: Move Overhead: expected ms in 0..%d, got %s",
		              UCI_OVERHEAD_MAX, cli_quote_ascii(q, sizeof(q), value));
		return false;
	}
	/* Read by the next `go` only: in force at once. */
	s->opt.overhead_ms = o->overhead_ms;
	return true;
}

static void say_clear_hash(uci_session_t *s) { uci_say(s, "option name Clear Hash type button"); }

static bool press_clear_hash(uci_session_t *s, uci_options_t *o, const char *value)
{
	(void)o;
	(void)value;
	s->want_clear = true;
	return true;
}

/* The options in the order `uci` lists them, before the drivers' options. */
static const struct uci_option {
	const char *name;
	bool button; /* takes no value */
	void (*say)(uci_session_t *s);
	bool (*set)(uci_session_t *s, uci_options_t *o, const char *value);
} option_table[] = {
	{ "Threads", false, say_threads, set_threads },
	{ "Hash", false, say_hash, set_hash },
	{ "Algorithm", false, say_algorithm, set_algorithm },
	{ "Placement", false, say_placement, set_placement },
	{ "Pruning", false, say_pruning, set_pruning },
	{ "Move Overhead", false, say_overhead, set_overhead },
	{ "Clear Hash", true, say_clear_hash, press_clear_hash },
};
enum {
	OPTION_COUNT = sizeof(option_table) / sizeof(option_table[0])
};

/* The option called `name` (in any case), or NULL. */
static const struct uci_option *find_option(const char *name)
{
	for (int i = 0; i < OPTION_COUNT; i++) {
		if (strcasecmp(name, option_table[i].name) == 0)
			return &option_table[i];
	}
	return NULL;
}

void uci_say_options(uci_session_t *s)
{
	for (int i = 0; i < OPTION_COUNT; i++)
		option_table[i].say(s);
	each_driver_option(say_driver_option, s);
}

/* Whether the value of setoption `so` is there (or absent, for a button) and fits; else
 * says what is wrong. shown is the option's name. */
static bool value_present(uci_session_t *s, const uci_setoption_t *so, bool button,
                          const char *shown)
{
	if (button) {
		if (so->has_value) {
			uci_say_error(s, "setoption: %s is a button and takes no value", shown);
			return false;
		}
	} else if (!so->has_value || so->value[0] == '\0') {
		uci_say_error(s, "setoption: %s needs a value", shown);
		return false;
	} else if (so->long_value) {
		uci_say_error(s, "setoption: the value of %s is too long", shown);
		return false;
	}
	return true;
}

void uci_set_option(uci_session_t *s, const uci_setoption_t *so)
{
	char q[UCI_QUOTE_SIZE];
	const struct uci_option *opt = so->long_name ? NULL : find_option(so->name);
	const cutoff_driver_option_t *driver_opt =
		so->long_name || opt ? NULL : find_driver_option(so->name);
	if (!opt && !driver_opt) {
		uci_say_error(s, "setoption: unknown option %s",
		              cli_quote_ascii(q, sizeof(q), so->name));
		return;
	}
	if (!value_present(s, so, opt && opt->button, opt ? opt->name : driver_opt->name))
		return;
	uci_options_t o = s->want;
	if (opt) {
		if (!opt->set(s, &o, so->value))
			return;
	} else if (!set_driver_option(s, driver_opt, so->value, &o.drivers)) {
		return;
	}
	s->want = o;
}

/* ---------------------------------------------------------------------------------------
 * The engine
 * ------------------------------------------------------------------------------------- */

static cutoff_engine_t *make_engine(uci_session_t *s, const uci_options_t *o, int *err)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	cfg.threads = (int)o->threads;
	cfg.tt_mb = (size_t)o->hash_mb;
	cfg.driver =
		o->driver == DRIVER_CLUSTER ? CUTOFF_DRIVER_LAZYSMP : (cutoff_driver_t)o->driver;
	cfg.algo = CUTOFF_ALGO_PVS;
	if (o->driver == DRIVER_CLUSTER)
		cli_cluster_configure(s->cluster, &cfg);
	cfg.placement = (cutoff_placement_t)o->placement;
	cfg.pruning = pruning_bits[o->pruning];
	options_pair_t copy = { &o->drivers, &cfg, true };
	each_driver_option(copy_option, &copy);
	cfg.log = cli_log_keep;
	cfg.log_user = &s->log;
	s->log.last[0] = '\0';
	return cutoff_engine_new(s->game, &cfg, err);
}

void uci_option_text(const uci_options_t *o, char *buf, size_t size)
{
	char drivers[256];
	const bool cluster = o->driver == DRIVER_CLUSTER;
	cli_driver_options_text(&o->drivers,
	                        cluster ? CUTOFF_DRIVER_LAZYSMP : (cutoff_driver_t)o->driver,
	                        drivers, sizeof(drivers));
	snprintf(buf, size,
	         "Threads %" PRId64 ", Hash %" PRId64
	         ", Algorithm %s, Placement %s, Pruning %s%s%s",
	         o->threads, o->hash_mb,
	         cluster ? "cluster" : cli_driver_name((cutoff_driver_t)o->driver),
	         cli_placement_names[o->placement], pruning_names[o->pruning],
	         drivers[0] ? ", " : "", drivers);
}

bool uci_apply_options(uci_session_t *s)
{
	char was[512], asked[512];
	int rc = 0;
	uci_options_t *o = &s->opt, *w = &s->want;
	if (!s->engine || w->threads != o->threads || w->driver != o->driver ||
	    w->placement != o->placement || w->pruning != o->pruning ||
	    !same_driver_options(&w->drivers, &o->drivers)) {
		cutoff_engine_t *e = make_engine(s, w, &rc);
		if (e) {
			cutoff_engine_free(s->engine);
			s->engine = e;
			*o = *w;
			s->want_clear = false; /* a new engine is empty */
		}
	} else if (w->hash_mb != o->hash_mb) {
		s->log.last[0] = '\0';
		if ((rc = cutoff_engine_set_tt_mb(s->engine, (size_t)w->hash_mb)) == 0)
			o->hash_mb = w->hash_mb;
	}
	if (rc != 0) {
		uci_option_text(w, asked, sizeof(asked));
		uci_option_text(o, was, sizeof(was));
		uci_say_error(s, "setoption: cannot apply %s: %s%s%s; %s %s", asked,
		              cutoff_strerror(rc), s->log.last[0] ? ": " : "", s->log.last,
		              s->engine ? "kept" : "back to", was);
		*w = *o;
		/* The first engine failed: make one with the options before the change. */
		if (!s->engine && (s->engine = make_engine(s, o, &rc)) == NULL)
			uci_say_error(s, "cannot make the engine: %s%s%s", cutoff_strerror(rc),
			              s->log.last[0] ? ": " : "", s->log.last);
	}
	if (s->engine && s->want_clear) {
		s->want_clear = false;
		if ((rc = cutoff_engine_clear(s->engine)) != 0)
			uci_say_error(s, "ucinewgame: %s", cutoff_strerror(rc));
	}
	return s->engine != NULL;
}
