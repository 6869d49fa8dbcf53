/* SPDX-License-Identifier: MIT */
/*
 * args.c — the option parser, error lines and report lines shared by the subcommands.
 * The conventions are in args.h.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "kit/args.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cutoff.h"

const char *const cli_algo_names[] = { "minimax", "alphabeta", "pvs", "mtdf", NULL };

_Static_assert(CUTOFF_ALGO_MINIMAX == 0 && CUTOFF_ALGO_ALPHABETA == 1 && CUTOFF_ALGO_PVS == 2 &&
                       CUTOFF_ALGO_MTDF == 3,
               "cli_algo_names is indexed by cutoff_algo_t");
const char *const cli_placement_names[] = { "none", "compact", "scatter", NULL };

_Static_assert(CUTOFF_PLACE_NONE == 0 && CUTOFF_PLACE_COMPACT == 1 && CUTOFF_PLACE_SCATTER == 2,
               "cli_placement_names is indexed by cutoff_placement_t");
_Static_assert(sizeof(long long) == sizeof(int64_t), "strtoll and strtoull cover 64 bits");

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	if (cmd)
		fprintf(stderr, "cutoff %s: ", cmd);
	else
		fputs("cutoff: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_error_text(const char *cmd, const char *message) { cli_error(cmd, "%s", message); }

uint64_t cli_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double cli_now_s(void) { return (double)cli_now_ns() / 1e9; }

/* cli_quote and cli_quote_ascii: the one quoting of user text; `ascii` escapes the bytes
 * above 0x7e too. */
static const char *quote_text(char *buf, size_t size, const char *text, bool ascii)
{
	/* Room for the closing quote, "..." and the terminator, and for the longest escape
	 * (4 bytes) that may be written just before the limit. */
	size_t limit = size - 9, n = 0;
	buf[n++] = '\'';
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (n >= limit) {
			memcpy(buf + n, "...", 3);
			n += 3;
			break;
		}
		if (*p == '\\' || *p == '\'') {
			buf[n++] = '\\';
			buf[n++] = (char)*p;
		} else if (*p < 0x20 || *p == 0x7f || (ascii && *p > 0x7e)) {
			n += (size_t)snprintf(buf + n, size - n, "\\x%02x", *p);
		} else {
			buf[n++] = (char)*p;
		}
	}
	buf[n++] = '\'';
	buf[n] = '\0';
	return buf;
}

const char *cli_quote(char *buf, size_t size, const char *text)
{
	return quote_text(buf, size, text, false);
}

const char *cli_quote_ascii(char *buf, size_t size, const char *text)
{
	return quote_text(buf, size, text, true);
}

void cli_log_keep(void *user, cutoff_log_level_t level, const char *message)
{
	cli_log_t *log = user;
	if (level < CUTOFF_LOG_WARN)
		return;
	snprintf(log->last, sizeof(log->last), "%s", message);
	/* It ends up inside a one-line error message. */
	for (char *p = log->last; *p; p++) {
		if ((unsigned char)*p < 0x20)
			*p = ' ';
	}
}

void cli_fail(const char *cmd, const char *what, int code, const cli_log_t *log)
{
	if (log && log->last[0])
		cli_error(cmd, "%s: %s (%s)", what, cutoff_strerror(code), log->last);
	else
		cli_error(cmd, "%s: %s", what, cutoff_strerror(code));
}

static void input_error(const char *cmd, const char *opt, const char *path, int why)
{
	char q[CLI_QUOTE_SIZE];
	cli_quote(q, sizeof(q), path);
	if (opt)
		cli_error(cmd, "--%s %s: cannot read it: %s", opt, q, strerror(why));
	else
		cli_error(cmd, "%s: cannot read it: %s", q, strerror(why));
}

FILE *cli_open_input(const char *cmd, const char *opt, const char *path)
{
	FILE *f = fopen(path, "r");
	int why = f ? 0 : errno;
	struct stat st;
	if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		f = NULL;
		why = EISDIR;
	}
	if (!f)
		input_error(cmd, opt, path, why);
	return f;
}

bool cli_close_input(const char *cmd, const char *opt, const char *path, FILE *f)
{
	/* errno is still the failed read's: every caller stops reading at the first failure
	 * and comes here. */
	int why = ferror(f) ? (errno ? errno : EIO) : 0;
	fclose(f);
	if (why)
		input_error(cmd, opt, path, why);
	return why == 0;
}

int cli_read_line(FILE *f, char *buf, size_t size)
{
	size_t n = 0;
	int c;
	bool too_long = false, nul = false;
	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == '\0')
			nul = true;
		else if (n + 1 < size)
			buf[n++] = (char)c;
		else
			too_long = true;
	}
	if (c == EOF && n == 0 && !too_long && !nul)
		return CLI_LINE_END;
	if (n > 0 && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	return nul ? CLI_LINE_NUL : too_long ? CLI_LINE_LONG : (int)n;
}

void cli_field(FILE *out, const char *label, const char *fmt, ...)
{
	va_list ap;
	fprintf(out, "%-22s", label);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}

/* strtoll and strtoull skip leading blanks and strtoull takes "-1" as UINT64_MAX, so the
 * first character is checked here: a digit, or a '-' / '+' sign when signed. */
bool cli_int_value(const char *text, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	long long v;

	if (!((text[0] >= '0' && text[0] <= '9') || text[0] == '-' || text[0] == '+'))
		return false;
	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || v < min || v > max)
		return false;
	*out = (int64_t)v;
	return true;
}

bool cli_parse_int(const char *cmd, const char *opt, const char *text, int64_t min, int64_t max,
                   int64_t *out)
{
	char q[CLI_QUOTE_SIZE];

	if (cli_int_value(text, min, max, out))
		return true;
	cli_error(cmd, "--%s: expected an integer in %" PRId64 "..%" PRId64 ", got %s", opt, min,
	          max, cli_quote(q, sizeof(q), text));
	return false;
}

bool cli_parse_uint64(const char *cmd, const char *opt, const char *text, uint64_t *out)
{
	char q[CLI_QUOTE_SIZE];
	char *end;
	unsigned long long v = 0;
	bool ok = false;

	if (text[0] >= '0' && text[0] <= '9') {
		errno = 0;
		v = strtoull(text, &end, 10);
		ok = errno == 0 && *end == '\0';
	}
	if (!ok) {
		cli_error(cmd, "--%s: expected an integer in 0..%" PRIu64 ", got %s", opt,
		          UINT64_MAX, cli_quote(q, sizeof(q), text));
		return false;
	}
	*out = (uint64_t)v;
	return true;
}

static bool parse_choice(const char *cmd, const char *opt, const char *text,
                         const char *const *choices, int *out)
{
	char q[CLI_QUOTE_SIZE];
	char list[256] = "";
	size_t used = 0;

	for (int i = 0; choices[i]; i++) {
		if (strcmp(text, choices[i]) == 0) {
			*out = i;
			return true;
		}
	}
	for (int i = 0; choices[i] && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s", i ? ", " : "",
		                         choices[i]);
	cli_error(cmd, "--%s: expected one of %s, got %s", opt, list,
	          cli_quote(q, sizeof(q), text));
	return false;
}

static cli_opt_t *find_opt(cli_opt_t *opts, int nopts, const char *name, size_t len)
{
	for (int i = 0; i < nopts; i++) {
		if (opts[i].kind != CLI_ENGINE_OPTIONS && strlen(opts[i].name) == len &&
		    memcmp(opts[i].name, name, len) == 0)
			return &opts[i];
	}
	return NULL;
}

static cli_opt_t *find_kind(cli_opt_t *opts, int nopts, cli_kind_t kind)
{
	for (int i = 0; i < nopts; i++)
		if (opts[i].kind == kind)
			return &opts[i];
	return NULL;
}

bool cli_given(const cli_opt_t *opts, int nopts, const char *name)
{
	for (int i = 0; i < nopts; i++) {
		if (strcmp(opts[i].name, name) == 0)
			return opts[i].given;
	}
	return false;
}

static bool store_value(const char *cmd, cli_opt_t *o, const char *value)
{
	switch (o->kind) {
	case CLI_INT:
		return cli_parse_int(cmd, o->name, value, o->min, o->max, o->dest.i);
	case CLI_UINT64:
		return cli_parse_uint64(cmd, o->name, value, o->dest.u);
	case CLI_STRING:
		*o->dest.s = value;
		return true;
	case CLI_CHOICE:
		return parse_choice(cmd, o->name, value, o->choices, o->dest.choice);
	case CLI_FLAG:
	case CLI_ENGINE_OPTIONS:
		break;
	}
	return false;
}

/* The engine's own settings among CLI_ENGINE_OPTIONS, besides the drivers' options: their
 * rows (args.h), which write into *threads and *placement. */
enum {
	ENGINE_ROWS = 2
};
static void engine_rows(cli_opt_t rows[ENGINE_ROWS], int64_t *threads, int *placement)
{
	rows[0] = (cli_opt_t)CLI_THREADS_OPT(threads, NULL);
	rows[1] = (cli_opt_t)CLI_PLACEMENT_OPT(placement, NULL);
}

/* True when `name` is a setting of CLI_ENGINE_OPTIONS: threads, placement, or a driver
 * option of the registry. */
static bool engine_setting(const char *name)
{
	cli_opt_t rows[ENGINE_ROWS];
	int64_t threads;
	int placement;
	cutoff_driver_t d;
	const cutoff_driver_option_t *opt;
	engine_rows(rows, &threads, &placement);
	return find_opt(rows, ENGINE_ROWS, name, strlen(name)) ||
	       cli_driver_option_find(name, &d, &opt);
}

/* The engine's setting `name` (engine_setting) from `text` into *cfg; false after one
 * line. */
static bool set_engine_setting(const char *cmd, const char *name, const char *text,
                               cutoff_config_t *cfg)
{
	cli_opt_t rows[ENGINE_ROWS];
	int64_t threads;
	int placement;
	engine_rows(rows, &threads, &placement);
	cli_opt_t *row = find_opt(rows, ENGINE_ROWS, name, strlen(name));
	if (row) {
		if (!store_value(cmd, row, text))
			return false;
		if (row == &rows[0])
			cfg->threads = (int)threads;
		else
			cfg->placement = (cutoff_placement_t)placement;
		return true;
	}
	cutoff_driver_t d;
	const cutoff_driver_option_t *opt;
	return cli_driver_option_find(name, &d, &opt) && cli_set_driver_option(cmd, opt, text, cfg);
}

int cli_parse_exit(cli_status_t status)
{
	return status == CLI_HELP ? CLI_EXIT_OK : CLI_EXIT_USAGE;
}

static void print_usage(FILE *out, const char *usage, const cli_opt_t *opts, int nopts);

cli_status_t cli_parse(const char *cmd, const char *usage, cli_opt_t *opts, int nopts, int argc,
                       char **argv)
{
	char q[CLI_QUOTE_SIZE], word[64];

	/* --help wins over any error elsewhere on the line: whoever asks for it is finding
	 * out how to write the line. */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			print_usage(stdout, usage, opts, nopts);
			return CLI_HELP;
		}
	}
	for (int i = 0; i < nopts; i++)
		opts[i].given = false;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
			if (arg[0] == '-' && arg[1] != '\0' && strcmp(arg, "--") != 0)
				cli_error(cmd, "unknown option %s", cli_quote(q, sizeof(q), arg));
			else
				cli_error(cmd, "unexpected argument %s",
				          cli_quote(q, sizeof(q), arg));
			return CLI_BAD;
		}
		const char *name = arg + 2;
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		cli_opt_t *o = find_opt(opts, nopts, name, len);
		cli_opt_t *engine = find_kind(opts, nopts, CLI_ENGINE_OPTIONS);
		const char *setting = NULL; /* the engine's setting that o stands for */
		if (!o && engine && len < 64) {
			snprintf(word, sizeof(word), "%.*s", (int)len, name);
			if (engine_setting(word))
				o = engine, setting = word;
		}
		if (!o) {
			char shown[CLI_QUOTE_SIZE];
			snprintf(shown, sizeof(shown), "--%.*s", (int)len, name);
			cli_error(cmd, "unknown option %s", cli_quote(q, sizeof(q), shown));
			return CLI_BAD;
		}
		o->given = true;
		if (o->kind == CLI_FLAG) {
			if (eq) {
				cli_error(cmd, "--%s takes no value, got %s", o->name,
				          cli_quote(q, sizeof(q), eq + 1));
				return CLI_BAD;
			}
			*o->dest.flag = true;
			continue;
		}
		const char *value;
		if (eq) {
			value = eq + 1;
		} else {
			if (i + 1 >= argc || strncmp(argv[i + 1], "--", 2) == 0) {
				cli_error(cmd, "--%s needs a value", setting ? setting : o->name);
				return CLI_BAD;
			}
			value = argv[++i];
		}
		if (setting ? !set_engine_setting(cmd, setting, value, o->dest.cfg)
		            : !store_value(cmd, o, value))
			return CLI_BAD;
	}
	return CLI_PARSED;
}

bool cli_parse_names(const char *cmd, const char *opt, const char *text, const char *const *names,
                     bool *flags, int n)
{
	char q[CLI_QUOTE_SIZE], list[256] = "";
	size_t used = 0;
	for (int i = 0; i < n; i++)
		flags[i] = false;
	const char *p = text;
	for (;;) {
		size_t len = strcspn(p, ",");
		int found = -1;
		for (int i = 0; i < n; i++)
			if (strlen(names[i]) == len && strncmp(p, names[i], len) == 0)
				found = i;
		if (found < 0) {
			for (int i = 0; i < n; i++)
				used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
				                         i ? ", " : "", names[i]);
			cli_error(cmd, "--%s: expected a comma-separated list of %s, got %s", opt,
			          list, cli_quote(q, sizeof(q), text));
			return false;
		}
		flags[found] = true;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	return true;
}

bool cli_check_etc_min_depth(const char *cmd, int64_t depth)
{
	if (depth != 1)
		return true;
	cli_error(cmd, "--etc-min-depth: 1 is not 0 (never) or 2..%d", CUTOFF_MAX_PLY);
	return false;
}

/* The words of --ordering and --pruning, each with its CUTOFF_ORDER_* or CUTOFF_PRUNE_*
 * bits: the first two stand alone (none or all of them), the others make lists. */
typedef struct bits_word {
	const char *word;
	unsigned bits;
} bits_word_t;

static const bits_word_t ordering_words[] = {
	{ "none", CUTOFF_ORDER_NONE },       { "all", CUTOFF_ORDER_ALL },
	{ "tt", CUTOFF_ORDER_TT },           { "hints", CUTOFF_ORDER_HINTS },
	{ "killers", CUTOFF_ORDER_KILLERS }, { "history", CUTOFF_ORDER_HISTORY },
};
static const bits_word_t pruning_words[] = {
	{ "on", CUTOFF_PRUNE_ALL },
	{ "off", CUTOFF_PRUNE_NONE },
	{ "null", CUTOFF_PRUNE_NULL_MOVE },
	{ "lmr", CUTOFF_PRUNE_LMR },
};
#define NWORDS(w) (int)(sizeof(w) / sizeof((w)[0]))

/* "a, b, or a list of c,d,e" of words[0 .. n). */
static const char *bits_forms(const bits_word_t *words, int n, char *buf, size_t size)
{
	size_t used =
		(size_t)snprintf(buf, size, "%s, %s, or a list of ", words[0].word, words[1].word);
	for (int i = 2; i < n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i > 2 ? "," : "",
		                         words[i].word);
	return buf;
}

/* bits in words[0 .. n): the word that stands alone for them, or the list. */
static const char *bits_text(const bits_word_t *words, int n, unsigned bits, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < 2; i++) {
		if (bits == words[i].bits) {
			snprintf(buf, size, "%s", words[i].word);
			return buf;
		}
	}
	for (int i = 2; i < n && used < size; i++)
		if (bits & words[i].bits)
			used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? "," : "",
			                         words[i].word);
	return buf;
}

const char *cli_ordering_forms(char *buf, size_t size)
{
	return bits_forms(ordering_words, NWORDS(ordering_words), buf, size);
}

const char *cli_ordering_text(unsigned bits, char *buf, size_t size)
{
	return bits_text(ordering_words, NWORDS(ordering_words), bits, buf, size);
}

const char *cli_pruning_forms(char *buf, size_t size)
{
	return bits_forms(pruning_words, NWORDS(pruning_words), buf, size);
}

const char *cli_pruning_text(unsigned bits, char *buf, size_t size)
{
	return bits_text(pruning_words, NWORDS(pruning_words), bits, buf, size);
}

bool cli_parse_ordering(const char *cmd, const char *text, unsigned *out)
{
	char q[CLI_QUOTE_SIZE], forms[128];
	unsigned bits = 0;
	const char *p = text;

	for (;;) {
		size_t len = strcspn(p, ",");
		int i = 0;
		for (; i < NWORDS(ordering_words); i++)
			if (strlen(ordering_words[i].word) == len &&
			    strncmp(p, ordering_words[i].word, len) == 0)
				break;
		if (len == 0 || i == NWORDS(ordering_words)) {
			cli_error(cmd, "--ordering: expected %s; got %s",
			          cli_ordering_forms(forms, sizeof(forms)),
			          cli_quote(q, sizeof(q), text));
			return false;
		}
		bits |= ordering_words[i].bits;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	*out = bits;
	return true;
}

bool cli_parse_pruning(const char *cmd, const char *text, unsigned *out)
{
	char q[CLI_QUOTE_SIZE], forms[128];
	/* all and none: the words of --ordering, taken here too */
	if (!strcmp(text, pruning_words[0].word) || !strcmp(text, "all")) {
		*out = pruning_words[0].bits;
		return true;
	}
	if (!strcmp(text, pruning_words[1].word) || !strcmp(text, "none")) {
		*out = pruning_words[1].bits;
		return true;
	}
	unsigned bits = 0;
	const char *p = text;
	for (;;) {
		size_t len = strcspn(p, ",");
		int i = 2;
		for (; i < NWORDS(pruning_words); i++)
			if (strlen(pruning_words[i].word) == len &&
			    strncmp(p, pruning_words[i].word, len) == 0)
				break;
		if (i == NWORDS(pruning_words)) {
			cli_error(cmd, "--pruning: expected %s; got %s",
			          cli_pruning_forms(forms, sizeof(forms)),
			          cli_quote(q, sizeof(q), text));
			return false;
		}
		bits |= pruning_words[i].bits;
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	*out = bits;
	return true;
}

/* The index of the `len` bytes at `text` in names[], or -1. */
static int find_name(const char *const *names, const char *text, size_t len)
{
	for (int i = 0; names[i]; i++) {
		if (strlen(names[i]) == len && memcmp(names[i], text, len) == 0)
			return i;
	}
	return -1;
}

cutoff_driver_t cli_driver_default(void)
{
	cutoff_config_t cfg;
	cutoff_config_default(&cfg);
	return cfg.driver;
}

const char *cli_driver_name(cutoff_driver_t driver)
{
	const char *name = cutoff_driver_name(driver);
	return name ? name : "?";
}

const char *cli_join_words(const char *const *words, const char *last, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int k = 0; words[k] && used < size; k++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s",
		                         k == 0         ? ""
		                         : words[k + 1] ? ", "
		                                        : last,
		                         words[k]);
	return buf;
}

const char *cli_driver_list(char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int d = 0; d < cutoff_driver_count() && used < size; d++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", d ? ", " : "",
		                         cutoff_driver_name((cutoff_driver_t)d));
	return buf;
}

/* The driver called by the `len` bytes at `text`, or -1. */
static int find_driver(const char *text, size_t len)
{
	char name[64];
	cutoff_driver_t d;
	if (len >= sizeof(name))
		return -1;
	memcpy(name, text, len);
	name[len] = '\0';
	return cutoff_driver_find(name, &d) == CUTOFF_OK ? (int)d : -1;
}

bool cli_parse_algo(const char *cmd, const char *text, cutoff_algo_t lone, cutoff_driver_t *driver,
                    cutoff_algo_t *algo)
{
	char q[CLI_QUOTE_SIZE], list[256];
	const char *slash = strchr(text, '/');
	int d = -1, a = -1;

	if (slash) {
		d = find_driver(text, (size_t)(slash - text));
		a = find_name(cli_algo_names, slash + 1, strlen(slash + 1));
	} else if ((a = find_name(cli_algo_names, text, strlen(text))) >= 0) {
		d = (int)cli_driver_default();
	} else if ((d = find_driver(text, strlen(text))) >= 0) {
		a = (int)lone;
	}
	if (d < 0 || a < 0) {
		cli_error(cmd,
		          "--algo: expected ALGO, DRIVER or DRIVER/ALGO (ALGO: minimax, alphabeta, "
		          "pvs, mtdf; DRIVER: %s), got %s",
		          cli_driver_list(list, sizeof(list)), cli_quote(q, sizeof(q), text));
		return false;
	}
	*driver = (cutoff_driver_t)d;
	*algo = (cutoff_algo_t)a;
	return true;
}

const char *cli_algo_forms(cutoff_algo_t lone, char *buf, size_t size)
{
	char algos[128], drivers[256];
	cli_join_words(cli_algo_names, " or ", algos, sizeof(algos));
	snprintf(buf, size,
	         "ALGO, the algorithm at every node: %s (on the %s driver); DRIVER, a driver of "
	         "'cutoff drivers' (%s), with %s at every node; or DRIVER/ALGO such as ybw/mtdf",
	         algos, cli_driver_name(cli_driver_default()),
	         cli_driver_list(drivers, sizeof(drivers)), cli_algo_names[lone]);
	return buf;
}

const char *cli_algo_label(cutoff_driver_t driver, cutoff_algo_t algo, char *buf, size_t size)
{
	const char *a = (unsigned)algo <= CUTOFF_ALGO_MTDF ? cli_algo_names[algo] : "?";
	if (driver == cli_driver_default())
		snprintf(buf, size, "%s", a);
	else
		snprintf(buf, size, "%s/%s", cli_driver_name(driver), a);
	return buf;
}

bool cli_driver_option_find(const char *name, cutoff_driver_t *driver,
                            const cutoff_driver_option_t **opt)
{
	for (int d = 0; d < cutoff_driver_count(); d++) {
		const cutoff_driver_option_t *o;
		int n = cutoff_driver_options((cutoff_driver_t)d, &o);
		for (int i = 0; i < n; i++)
			if (strcmp(o[i].name, name) == 0) {
				*driver = (cutoff_driver_t)d;
				*opt = &o[i];
				return true;
			}
	}
	return false;
}

const char *cli_option_text(const cutoff_driver_option_t *opt, int value, char *buf, size_t size)
{
	if (opt->words && value >= opt->min && value <= opt->max)
		snprintf(buf, size, "%s", opt->words[value - opt->min]);
	else
		snprintf(buf, size, "%d", value);
	return buf;
}

const char *cli_driver_options_text(const cutoff_config_t *cfg, cutoff_driver_t driver, char *buf,
                                    size_t size)
{
	const cutoff_driver_option_t *o;
	int n = cutoff_driver_options(driver, &o);
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && used < size; i++) {
		char v[32];
		int value = 0;
		cutoff_config_get_option(cfg, o[i].name, &value);
		used += (size_t)snprintf(buf + used, size - used, "%s%s %s", i ? ", " : "",
		                         o[i].name, cli_option_text(&o[i], value, v, sizeof(v)));
	}
	return buf;
}

const char *cli_option_expected(const cutoff_driver_option_t *opt, char *buf, size_t size)
{
	if (!opt->words) {
		snprintf(buf, size, "an integer in %d..%d", opt->min, opt->max);
		return buf;
	}
	size_t used = (size_t)snprintf(buf, size, "one of ");
	for (int i = 0; i <= opt->max - opt->min && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
		                         opt->words[i]);
	return buf;
}

bool cli_set_driver_option(const char *cmd, const cutoff_driver_option_t *opt, const char *text,
                           cutoff_config_t *cfg)
{
	char q[CLI_QUOTE_SIZE], expected[256];
	if (cutoff_config_set_option_str(cfg, opt->name, text) == CUTOFF_OK)
		return true;
	cli_error(cmd, "--%s: expected %s, got %s", opt->name,
	          cli_option_expected(opt, expected, sizeof(expected)),
	          cli_quote(q, sizeof(q), text));
	return false;
}

/* Writes `text` from column `indent`, wrapped at `width` columns, starting at column
 * `col` on the current line; a '\n' in it starts a line. */
static void print_wrapped(FILE *out, const char *text, int col, int indent, int width)
{
	const char *p = text;
	while (*p) {
		size_t word = strcspn(p, " \n");
		if (*p == '\n') {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
			p++;
			continue;
		}
		if (col > indent && col + 1 + (int)word > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)word, p);
		col += (int)word;
		p += word;
		while (*p == ' ')
			p++;
	}
	fputc('\n', out);
}

/* One option of --help's last part: "  --NAME ARG" then text, wrapped from column 20. */
static void print_option_usage(FILE *out, const char *name, const char *arg, const char *text)
{
	char head[128];
	int col = snprintf(head, sizeof(head), "  --%s%s%s", name, arg[0] ? " " : "", arg);
	fputs(head, out);
	if (col <= 18)
		fprintf(out, "%*s", 20 - col, "");
	else
		fprintf(out, "\n%20s", "");
	print_wrapped(out, text, 20, 20, 86);
}

/* The words of a choice as "a|b|c", or the range "min..max" of a number. */
static const char *range_text(const char *const *words, int nwords, int64_t min, int64_t max,
                              char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int k = 0; words && k < nwords && words[k] && used < size; k++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", k ? "|" : "", words[k]);
	if (!words)
		snprintf(buf, size, "%" PRId64 "..%" PRId64, min, max);
	return buf;
}

/* The value of o's destination, as --help shows a default. */
static void default_text(const cli_opt_t *o, char *buf, size_t size)
{
	switch (o->kind) {
	case CLI_INT:
		snprintf(buf, size, "%" PRId64, *o->dest.i);
		return;
	case CLI_UINT64:
		snprintf(buf, size, "%" PRIu64, *o->dest.u);
		return;
	case CLI_STRING:
		snprintf(buf, size, "%s", *o->dest.s ? *o->dest.s : "none");
		return;
	case CLI_CHOICE:
		snprintf(buf, size, "%s", o->choices[*o->dest.choice]);
		return;
	case CLI_FLAG:
		snprintf(buf, size, "%s", *o->dest.flag ? "on" : "off");
		return;
	case CLI_ENGINE_OPTIONS:
		break;
	}
	buf[0] = '\0';
}

/* o's help text with %r (its range or words) and %d (its default) filled in. */
static void help_text(const cli_opt_t *o, char *buf, size_t size)
{
	char part[512];
	size_t used = 0;
	for (const char *p = o->help; *p && used + 1 < size; p++) {
		if (p[0] != '%' || (p[1] != 'r' && p[1] != 'd')) {
			buf[used++] = *p;
			if (p[0] == '%' && p[1] == '%')
				p++;
			continue;
		}
		if (*++p == 'd')
			default_text(o, part, sizeof(part));
		else if (o->kind == CLI_CHOICE)
			cli_join_words(o->choices, " or ", part, sizeof(part));
		else if (o->kind == CLI_UINT64)
			snprintf(part, sizeof(part), "0..%" PRIu64, UINT64_MAX);
		else
			snprintf(part, sizeof(part), "%" PRId64 "..%" PRId64, o->min, o->max);
		used += (size_t)snprintf(buf + used, size - used, "%s", part);
		if (used >= size)
			used = size - 1;
	}
	buf[used] = '\0';
}

/* --help: the usage, each listed option from its row, --help, and the engine's settings
 * when the command takes them. */
static void print_usage(FILE *out, const char *usage, const cli_opt_t *opts, int nopts)
{
	char text[2048], arg[512];
	bool threads = find_opt((cli_opt_t *)opts, nopts, "threads", strlen("threads"));
	fputs(usage, out);
	fputc('\n', out);
	for (int i = 0; i < nopts; i++) {
		const cli_opt_t *o = &opts[i];
		if (!o->help)
			continue;
		help_text(o, text, sizeof(text));
		if (o->kind == CLI_ENGINE_OPTIONS) {
			/* A table with its own --threads (a list of counts, say) takes only
			 * the engine's other settings. */
			if (threads)
				print_option_usage(out, "placement", "P, --OPTION VALUE", text);
			else
				print_option_usage(out, "threads",
				                   "N, --placement P, --OPTION VALUE", text);
			continue;
		}
		arg[0] = '\0';
		if (o->arg)
			snprintf(arg, sizeof(arg), "%s", o->arg);
		else if (o->kind == CLI_CHOICE)
			range_text(o->choices, INT32_MAX, 0, 0, arg, sizeof(arg));
		print_option_usage(out, o->name, arg, text);
	}
	print_option_usage(out, "help", "", "print this help");
	if (find_kind((cli_opt_t *)opts, nopts, CLI_ENGINE_OPTIONS))
		cli_print_engine_usage(out, !threads);
}

void cli_print_engine_usage(FILE *out, bool threads)
{
	cutoff_config_t def;
	char text[512], range[128], v[32];
	cli_opt_t rows[ENGINE_ROWS];
	int64_t unused_threads;
	int unused_placement, nwords = 0;
	cutoff_config_default(&def);
	/* The engine's own settings: the range and words of the rows that parse them
	 * (engine_rows), the defaults the library's (cutoff_config_default). */
	engine_rows(rows, &unused_threads, &unused_placement);
	fputs("\nThe engine's settings (defaults: the library's):\n", out);
	if (threads) {
		snprintf(text, sizeof(text),
		         "threads of the engine, %s; default %d; under the serial driver the "
		         "threads beyond the first only help clear the table",
		         range_text(NULL, 0, rows[0].min, rows[0].max, range, sizeof(range)),
		         def.threads);
		print_option_usage(out, rows[0].name, "N", text);
	}
	while (rows[1].choices[nwords])
		nwords++;
	snprintf(text, sizeof(text), "where the threads run (see 'cutoff topo'); default %s",
	         rows[1].choices[def.placement]);
	print_option_usage(out, rows[1].name,
	                   range_text(rows[1].choices, nwords, 0, 0, range, sizeof(range)), text);
	fputs("\nThe drivers' options (from the library's registry; see 'cutoff drivers'):\n", out);
	for (int d = 0; d < cutoff_driver_count(); d++) {
		const cutoff_driver_option_t *o;
		int n = cutoff_driver_options((cutoff_driver_t)d, &o);
		for (int i = 0; i < n; i++) {
			int value = 0;
			range_text(o[i].words, o[i].max - o[i].min + 1, o[i].min, o[i].max, range,
			           sizeof(range));
			cutoff_config_get_option(&def, o[i].name, &value);
			snprintf(text, sizeof(text), "%s: %s%s%s; default %s",
			         cli_driver_name((cutoff_driver_t)d), o[i].help,
			         o[i].words ? "" : ", ", o[i].words ? "" : range,
			         cli_option_text(&o[i], value, v, sizeof(v)));
			print_option_usage(out, o[i].name, o[i].words ? range : "N", text);
		}
	}
}

const char *const cli_onoff_names[] = { "off", "on", NULL };

void cli_engine_config(cutoff_config_t *cfg, const cutoff_config_t *par, cutoff_driver_t driver,
                       cutoff_algo_t algo, int64_t hash_mb, cli_log_t *log)
{
	*cfg = *par;
	cfg->driver = driver;
	cfg->algo = algo;
	cfg->tt_mb = (size_t)hash_mb;
	cfg->log = cli_log_keep;
	cfg->log_user = log;
}

bool cli_executable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

const char *cli_find_program(const char *name, char *buf, size_t size)
{
	size_t len = strlen(name);
	if (strchr(name, '/')) {
		if (len + 1 > size)
			return NULL;
		snprintf(buf, size, "%s", name);
		return cli_executable(buf) ? buf : NULL;
	}
	for (const char *path = getenv("PATH"); path && *path;) {
		size_t n = strcspn(path, ":");
		if (n > 0 && n + len + 2 <= size) {
			snprintf(buf, size, "%.*s/%s", (int)n, path, name);
			if (cli_executable(buf))
				return buf;
		}
		path += n + (path[n] == ':');
	}
	return NULL;
}

int cli_usable_cpus(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN); /* a mask wider than cpu_set_t's 1024 CPUs */
	return n > 0 ? (int)n : 1;
}

/* More threads than CPUs take turns on them, and a parallel search is then often slower
 * than on fewer threads, even than on one (docs/measurements.md, "(j) Figures behind the
 * code's choices", oversubscription), so the user is told. Not under mpirun: there every
 * rank runs this same command line, and the cluster's own warning (cli_cluster_configure:
 * rank 0, with the remedy for mpirun's
 * binding) speaks for them. */
static void warn_threads(const char *cmd, int threads)
{
	const char *ranks = getenv("OMPI_COMM_WORLD_SIZE");
	int cpus = cli_usable_cpus();
	if (threads <= cpus || (ranks && atoi(ranks) > 1))
		return;
	cli_error(cmd,
	          "warning: --threads %d exceeds the %d CPU%s this process may run on (its "
	          "affinity mask): the threads take turns on %s, and the search may be slower "
	          "than on %d thread%s (YBW lets only that many search at once)",
	          threads, cpus, cpus == 1 ? "" : "s", cpus == 1 ? "it" : "them", cpus,
	          cpus == 1 ? "" : "s");
}

cutoff_engine_t *cli_engine_new(const char *cmd, const cutoff_game_t *game,
                                const cutoff_config_t *cfg, const cli_log_t *log)
{
	int err;
	cutoff_engine_t *engine = cutoff_engine_new(game, cfg, &err);
	if (!engine)
		cli_fail(cmd, "cannot make the engine", err, log);
	else
		warn_threads(cmd, cfg->threads);
	return engine;
}
