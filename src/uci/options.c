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

#include "uci/session.h"
#include "uci/uci.h"

/* Pruning's words, in the order `uci` lists them, and the CUTOFF_PRUNE_* bits of each. */
static const char *const pruning_names[] = { "all", "nullmove", "lmr", "none", NULL };
static const unsigned pruning_bits[] = { CUTOFF_PRUNE_ALL, CUTOFF_PRUNE_NULL_MOVE, CUTOFF_PRUNE_LMR,
	                                 CUTOFF_PRUNE_NONE };

/* The driver Algorithm starts with: the parallel driver that plays best on few threads
 * (the library's default when the registry has none of that name). */
static const char UCI_DEFAULT_DRIVER[] = "lazysmp";

static int default_driver(void)
{
	cutoff_driver_t d;
	return cutoff_driver_find(UCI_DEFAULT_DRIVER, &d) == CUTOFF_OK ? (int)d
	                                                               : (int)cli_driver_default();
}

/* The session's defaults: the library's (Threads, Hash, Placement, the drivers' options),
 * and UCI's own where a chess engine wants another (Pruning, Algorithm, Move Overhead).
 * The `uci` lines read their defaults from here, so each is written once. */
void uci_options_default(uci_options_t *o)
{
	*o = (uci_options_t){ .driver = default_driver(), .overhead_ms = UCI_OVERHEAD_DEFAULT };
	cutoff_config_default(&o->cfg);
	o->cfg.pruning = CUTOFF_PRUNE_ALL;
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
 * The option table: one row per option, from which its `uci` line, its setoption (the
 * check, the message when it fails, where the value lands) and its default all derive.
 * A row's value is an int64_t read and written by its get and put; a combo's value is the
 * index of its word.
 * ------------------------------------------------------------------------------------- */

typedef enum uci_kind {
	UCI_SPIN,      /* a number in min..max; unit says what it counts, in errors */
	UCI_COMBO,     /* one of words (in any case) */
	UCI_BUTTON,    /* no value */
	UCI_ALGORITHM, /* a combo of the registry's drivers (and cluster under mpirun) */
} uci_kind_t;

typedef struct uci_option {
	const char *name;
	uci_kind_t kind;
	const char *unit;
	int64_t min, max;
	const char *const *words;
	int64_t (*get)(const uci_options_t *o);
	void (*put)(uci_session_t *s, uci_options_t *o, int64_t v);
} uci_option_t;

static int64_t get_threads(const uci_options_t *o) { return o->cfg.threads; }

static void put_threads(uci_session_t *s, uci_options_t *o, int64_t v)
{
	(void)s;
	o->cfg.threads = (int)v;
}

static int64_t get_hash(const uci_options_t *o) { return (int64_t)o->cfg.tt_mb; }

static void put_hash(uci_session_t *s, uci_options_t *o, int64_t v)
{
	(void)s;
	o->cfg.tt_mb = (size_t)v;
}

static int64_t get_driver(const uci_options_t *o) { return o->driver; }

static void put_driver(uci_session_t *s, uci_options_t *o, int64_t v)
{
	(void)s;
	o->driver = (int)v;
}

static int64_t get_placement(const uci_options_t *o) { return (int64_t)o->cfg.placement; }

static void put_placement(uci_session_t *s, uci_options_t *o, int64_t v)
{
	(void)s;
	o->cfg.placement = (cutoff_placement_t)v;
}

static int64_t get_pruning(const uci_options_t *o)
{
	int64_t i = 0;
	while (pruning_names[i + 1] && pruning_bits[i] != o->cfg.pruning)
		i++;
	return i;
}

static void put_pruning(uci_session_t *s, uci_options_t *o, int64_t v)
{
	(void)s;
	o->cfg.pruning = pruning_bits[v];
}

static int64_t get_overhead(const uci_options_t *o) { return o->overhead_ms; }

static void put_overhead(uci_session_t *s, uci_options_t *o, int64_t v)
{
	o->overhead_ms = v;
	s->opt.overhead_ms = v; /* read by the next `go` only: in force at once */
}

static void press_clear_hash(uci_session_t *s, uci_options_t *o, int64_t v)
{
	(void)o;
	(void)v;
	s->want_clear = true;
}

/* The options in the order `uci` lists them, before the drivers' options. */
static const uci_option_t option_table[] = {
	{ "Threads", UCI_SPIN, "an integer", 1, CUTOFF_MAX_THREADS, NULL, get_threads,
	  put_threads },
	{ "Hash", UCI_SPIN, "MiB", 0, (int64_t)CUTOFF_MAX_TT_MB, NULL, get_hash, put_hash },
	{ "Algorithm", UCI_ALGORITHM, NULL, 0, 0, NULL, get_driver, put_driver },
	{ "Placement", UCI_COMBO, NULL, 0, 0, cli_placement_names, get_placement, put_placement },
	{ "Pruning", UCI_COMBO, NULL, 0, 0, pruning_names, get_pruning, put_pruning },
	{ "Move Overhead", UCI_SPIN, "ms", 0, UCI_OVERHEAD_MAX, NULL, get_overhead, put_overhead },
	{ "Clear Hash", UCI_BUTTON, NULL, 0, 0, NULL, NULL, press_clear_hash },
};
enum {
	OPTION_COUNT = sizeof(option_table) / sizeof(option_table[0])
};

/* The option called `name` (in any case), or NULL. */
static const uci_option_t *find_option(const char *name)
{
	for (int i = 0; i < OPTION_COUNT; i++) {
		if (strcasecmp(name, option_table[i].name) == 0)
			return &option_table[i];
	}
	return NULL;
}

/* The index of `word` (in any case) among the NULL-terminated words, or -1. */
static int choice_index(const char *const *words, const char *word)
{
	for (int i = 0; words[i]; i++) {
		if (strcasecmp(words[i], word) == 0)
			return i;
	}
	return -1;
}

/* The combo's words into buf: each after `before`, the last after `last` instead (" var "
 * for its `uci` line; ", " and " or " for what setoption expected). */
static const char *join_words(const char *const *words, const char *first, const char *before,
                              const char *last, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; words[i] && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s",
		                      !i             ? first
		                      : words[i + 1] ? before
		                                     : last,
		                      words[i]);
	return buf;
}

/* The most words of a combo, NULL included. */
enum {
	UCI_MAX_WORDS = 32
};

/* The Algorithm's words: the registry's drivers, then cluster under mpirun. */
static void algorithm_words(const uci_session_t *s, const char **words, int size)
{
	int n = 0;
	for (int d = 0; d < cutoff_driver_count() && n < size - 2; d++)
		words[n++] = cli_driver_name((cutoff_driver_t)d);
	if (s->cluster)
		words[n++] = "cluster";
	words[n] = NULL;
}

static void say_option(uci_session_t *s, const uci_option_t *opt, const uci_options_t *def)
{
	const char *words[UCI_MAX_WORDS];
	char list[256];
	switch (opt->kind) {
	case UCI_SPIN:
		uci_say(s,
		        "option name %s type spin default %" PRId64 " min %" PRId64 " max %" PRId64,
		        opt->name, opt->get(def), opt->min, opt->max);
		break;
	case UCI_COMBO:
		uci_say(s, "option name %s type combo default %s%s", opt->name,
		        opt->words[opt->get(def)],
		        join_words(opt->words, " var ", " var ", " var ", list, sizeof(list)));
		break;
	case UCI_ALGORITHM:
		algorithm_words(s, words, (int)(sizeof(words) / sizeof(words[0])));
		uci_say(s, "option name %s type combo default %s%s", opt->name,
		        s->cluster ? "cluster" : cli_driver_name((cutoff_driver_t)opt->get(def)),
		        join_words(words, " var ", " var ", " var ", list, sizeof(list)));
		break;
	case UCI_BUTTON:
		uci_say(s, "option name %s type button", opt->name);
		break;
	}
}

const char *uci_option_names(char *buf, size_t size)
{
	const char *names[OPTION_COUNT + 1];
	for (int i = 0; i < OPTION_COUNT; i++)
		names[i] = option_table[i].name;
	names[OPTION_COUNT] = NULL;
	return join_words(names, "", ", ", ", ", buf, size);
}

void uci_say_options(uci_session_t *s)
{
	uci_options_t def;
	uci_options_default(&def);
	for (int i = 0; i < OPTION_COUNT; i++)
		say_option(s, &option_table[i], &def);
	each_driver_option(say_driver_option, s);
}

/* The value of `opt` that `value` names into *v; false after saying what was expected. */
static bool option_value(uci_session_t *s, const uci_option_t *opt, const char *value, int64_t *v)
{
	const char *words[UCI_MAX_WORDS];
	char q[UCI_QUOTE_SIZE], list[256];
	int k;
	switch (opt->kind) {
	case UCI_SPIN:
		if (cli_int_value(value, opt->min, opt->max, v))
			return true;
		uci_say_error(s, "setoption: %s: expected %s in %" PRId64 "..%" PRId64 ", got %s",
		              opt->name, opt->unit, opt->min, opt->max,
		              cli_quote_ascii(q, sizeof(q), value));
		return false;
	case UCI_COMBO:
		if ((k = choice_index(opt->words, value)) >= 0) {
			*v = k;
			return true;
		}
		uci_say_error(s, "setoption: %s: expected %s, got %s", opt->name,
		              join_words(opt->words, "", ", ", " or ", list, sizeof(list)),
		              cli_quote_ascii(q, sizeof(q), value));
		return false;
	case UCI_ALGORITHM:
		algorithm_words(s, words, (int)(sizeof(words) / sizeof(words[0])));
		if ((k = choice_index(words, value)) >= 0) {
			*v = k; /* cluster comes after the drivers, as DRIVER_CLUSTER does */
			return true;
		}
		if (strcasecmp(value, "cluster") == 0) {
			uci_say_error(s, "setoption: Algorithm: cluster runs under mpirun only "
			                 "(mpirun -np N cutoff uci)");
			return false;
		}
		uci_say_error(s, "setoption: Algorithm: expected one of %s%s, got %s",
		              cli_driver_list(list, sizeof(list)), s->cluster ? ", cluster" : "",
		              cli_quote_ascii(q, sizeof(q), value));
		return false;
	case UCI_BUTTON:
		*v = 0;
		return true;
	}
	return false;
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
	const uci_option_t *opt = so->long_name ? NULL : find_option(so->name);
	const cutoff_driver_option_t *driver_opt =
		so->long_name || opt ? NULL : find_driver_option(so->name);
	if (!opt && !driver_opt) {
		uci_say_error(s, "setoption: unknown option %s",
		              cli_quote_ascii(q, sizeof(q), so->name));
		return;
	}
	if (!value_present(s, so, opt && opt->kind == UCI_BUTTON,
	                   opt ? opt->name : driver_opt->name))
		return;
	uci_options_t o = s->want;
	if (opt) {
		int64_t v;
		if (!option_value(s, opt, so->value, &v))
			return;
		opt->put(s, &o, v);
	} else if (!set_driver_option(s, driver_opt, so->value, &o.cfg)) {
		return;
	}
	s->want = o;
}

/* ---------------------------------------------------------------------------------------
 * The engine
 * ------------------------------------------------------------------------------------- */

static cutoff_engine_t *make_engine(uci_session_t *s, const uci_options_t *o, int *err)
{
	cutoff_config_t cfg = o->cfg;
	cfg.driver =
		o->driver == DRIVER_CLUSTER ? CUTOFF_DRIVER_LAZYSMP : (cutoff_driver_t)o->driver;
	cfg.algo = CUTOFF_ALGO_PVS;
	if (o->driver == DRIVER_CLUSTER)
		cli_cluster_configure(s->cluster, &cfg);
	cfg.log = cli_log_keep;
	cfg.log_user = &s->log;
	s->log.last[0] = '\0';
	return cutoff_engine_new(s->game, &cfg, err);
}

void uci_option_text(const uci_options_t *o, char *buf, size_t size)
{
	char drivers[256];
	const bool cluster = o->driver == DRIVER_CLUSTER;
	cli_driver_options_text(&o->cfg,
	                        cluster ? CUTOFF_DRIVER_LAZYSMP : (cutoff_driver_t)o->driver,
	                        drivers, sizeof(drivers));
	snprintf(buf, size,
	         "Threads %" PRId64 ", Hash %" PRId64
	         ", Algorithm %s, Placement %s, Pruning %s%s%s",
	         get_threads(o), get_hash(o),
	         cluster ? "cluster" : cli_driver_name((cutoff_driver_t)o->driver),
	         cli_placement_names[get_placement(o)], pruning_names[get_pruning(o)],
	         drivers[0] ? ", " : "", drivers);
}

bool uci_apply_options(uci_session_t *s)
{
	char was[512], asked[512];
	int rc = 0;
	uci_options_t *o = &s->opt, *w = &s->want;
	if (!s->engine || w->cfg.threads != o->cfg.threads || w->driver != o->driver ||
	    w->cfg.placement != o->cfg.placement || w->cfg.pruning != o->cfg.pruning ||
	    !same_driver_options(&w->cfg, &o->cfg)) {
		cutoff_engine_t *e = make_engine(s, w, &rc);
		if (e) {
			cutoff_engine_free(s->engine);
			s->engine = e;
			*o = *w;
			s->want_clear = false; /* a new engine is empty */
		}
	} else if (w->cfg.tt_mb != o->cfg.tt_mb) {
		s->log.last[0] = '\0';
		if ((rc = cutoff_engine_set_tt_mb(s->engine, w->cfg.tt_mb)) == 0)
			o->cfg.tt_mb = w->cfg.tt_mb;
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
