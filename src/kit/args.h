/* SPDX-License-Identifier: MIT */
/*
 * args.h — what every subcommand of the `cutoff` command shares: the option parser, the
 * one-line error messages, the exit codes and the aligned lines of a text report.
 *
 * Conventions (the same for every subcommand):
 *   - options are `--name value`, `--name=value` or flags `--name`; `--help` (or `-h`)
 *     anywhere prints the subcommand's usage to stdout and succeeds;
 *   - a usage error prints exactly one line on stderr, "cutoff <command>: <what>", names
 *     the option and what was expected, prints nothing on stdout and exits with
 *     CLI_EXIT_USAGE; a failure of the library or of the system exits with CLI_EXIT_FAIL;
 *   - an input file named on the command line that cannot be read — missing, a directory,
 *     not permitted, or an error part way through — is a usage error too: one line that
 *     names the option, the file and the reason (cli_open_input, cli_close_input below),
 *     nothing on stdout (every command reads its input files before it prints), and
 *     CLI_EXIT_USAGE, whatever the command;
 *   - a value shown back in a message is quoted, with control bytes escaped and long
 *     values shortened, so that the message stays on one line whatever was typed.
 *
 * Nothing here keeps state between calls: a subcommand's option table is its own local.
 */
#ifndef CUTOFF_KIT_ARGS_H
#define CUTOFF_KIT_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cutoff.h"

enum {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FAIL = 1, /* the library or the system failed, or a check failed */
	CLI_EXIT_USAGE = 2 /* the command line is wrong, or an input file it names cannot be
	                      read */
};

typedef enum cli_kind {
	CLI_FLAG,          /* dest.flag = true; takes no value */
	CLI_INT,           /* dest.i = an integer in [min, max] */
	CLI_UINT64,        /* dest.u = any integer in 0 .. UINT64_MAX */
	CLI_STRING,        /* dest.s = the value as given (points into argv) */
	CLI_CHOICE,        /* dest.choice = the index of the value in choices[] */
	CLI_ENGINE_OPTIONS /* the engine's settings into the template *dest.cfg: --threads,
	                      --placement and every driver option of the library's registry
	                      (--NAME VALUE, parsed by cutoff_config_set_option_str), each
	                      unless the table has an entry of that name; the entry's own
	                      name is never matched (CLI_ENGINE_OPTS) */
} cli_kind_t;

/*
 * One option of a subcommand. The table is a local array of the subcommand; cli_parse()
 * writes the destinations and `given`, and leaves a destination untouched when its option
 * is absent, so the subcommand sets its defaults before parsing. When an option is given
 * twice, the last one wins.
 */
typedef struct cli_opt {
	const char *name; /* "depth" for --depth */
	cli_kind_t kind;
	union {
		bool *flag;
		int64_t *i;
		uint64_t *u;
		const char **s;
		int *choice;
		cutoff_config_t *cfg;
	} dest;
	int64_t min, max;           /* CLI_INT: the accepted range, inclusive */
	const char *const *choices; /* CLI_CHOICE: the accepted words, NULL-terminated */
	const char *arg;            /* --help: the value's name after --NAME ("D", "MB"); NULL
	                               for a flag, and a choice shows its words, a|b|c */
	const char *help;           /* --help: what the option does, where %r stands for the
	                               accepted range (min..max; a CLI_UINT64's 0..2^64-1,
	                               in digits) or words (a, b or c) and %d
	                               for the default, read from the destination when --help
	                               is read (so set before cli_parse); %% is a %. NULL: not
	                               listed (an alias, or a row that is only parsed) */
	bool given;                 /* written by cli_parse(): the option was on the line */
} cli_opt_t;

typedef enum cli_status {
	CLI_PARSED, /* go on: every destination is set */
	CLI_HELP,   /* --help: the usage was printed to stdout; exit CLI_EXIT_OK */
	CLI_BAD     /* a usage error was printed to stderr; exit CLI_EXIT_USAGE */
} cli_status_t;

/*
 * Parses argv[1 .. argc) (argv[0] is the subcommand's name, `cmd`) against opts[0 ..
 * nopts). For --help it prints `usage` as is (the synopsis and what the command does),
 * then a line for each option with a help text, in the table's order, its range, words
 * and default read from its row (so that nothing the parser checks is written twice),
 * then --help itself. Rejects unknown options, missing or
 * unexpected values, malformed or out-of-range numbers, unknown words and stray
 * positional arguments. A value that starts with "--" after a separate option is taken as
 * a missing value (write --name=--x to mean it); negative numbers ("-5") are values.
 * With a CLI_ENGINE_OPTIONS entry, an option the table does not name is looked up among
 * the engine's settings, and --help prints the drivers' options after `usage`.
 */
cli_status_t cli_parse(const char *cmd, const char *usage, cli_opt_t *opts, int nopts, int argc,
                       char **argv);

/* The exit status of a command whose cli_parse() did not return CLI_PARSED:
 * CLI_EXIT_OK after --help, CLI_EXIT_USAGE after a usage error. A command reads
 *     cli_status_t st = cli_parse(...);
 *     if (st != CLI_PARSED)
 *             return cli_parse_exit(st); */
int cli_parse_exit(cli_status_t status);

/* True when the option called `name` was on the command line (after cli_parse()). */
bool cli_given(const cli_opt_t *opts, int nopts, const char *name);

/* Strict number parsing, for values that need more than a table entry (a word or a
 * number, a range known only after parsing). True with *out set, or false after printing
 * "cutoff <cmd>: --<opt>: expected ..., got '<text>'". The whole text must be the number:
 * no blanks, no trailing characters, no empty string, no overflow. cli_int_value() is the
 * same test without the message, for a caller that words its own. */
bool cli_int_value(const char *text, int64_t min, int64_t max, int64_t *out);
bool cli_parse_int(const char *cmd, const char *opt, const char *text, int64_t min, int64_t max,
                   int64_t *out);
bool cli_parse_uint64(const char *cmd, const char *opt, const char *text, uint64_t *out);

/* The command line's one clock: CLOCK_MONOTONIC, in seconds and in nanoseconds (the
 * clock the library's own times are read on, so that the two can be compared). */
double cli_now_s(void);
uint64_t cli_now_ns(void);

/* Prints "cutoff <cmd>: <message>\n" on stderr ("cutoff: <message>" when cmd is NULL).
 * The message must be one line; quote user text in it with cli_quote(). */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* cli_error(cmd, "%s", message): for a message made elsewhere (an error that a module below
 * the command returned as text, the lab's bench_error_t), as a function to hand on. */
void cli_error_text(const char *cmd, const char *message);

/* Writes 'text' into buf (size >= 16) in single quotes, with control bytes and quotes
 * escaped and anything beyond about 60 bytes cut to "...". Returns buf. */
enum {
	CLI_QUOTE_SIZE = 80
};
const char *cli_quote(char *buf, size_t size, const char *text);

/* cli_quote with every byte above 0x7e escaped too, for a reader that wants ASCII (a UCI
 * GUI never gets garbage raw). */
const char *cli_quote_ascii(char *buf, size_t size, const char *text);

/*
 * Input files named on the command line. cli_open_input() opens `path` for reading, or
 * prints "cutoff <cmd>: --<opt> '<path>': cannot read it: <reason>" (strerror's reason;
 * "Is a directory" for a directory, which fopen would open) and returns NULL.
 * cli_close_input() closes it and returns true, or prints the same line for a read error
 * met meanwhile and returns false. `opt` is the option without its dashes, or NULL for a
 * file the command found by itself. Either failure means CLI_EXIT_USAGE (args.h above).
 */
FILE *cli_open_input(const char *cmd, const char *opt, const char *path);
bool cli_close_input(const char *cmd, const char *opt, const char *path, FILE *f);

/*
 * One line of an input file into buf (size bytes), without its newline and a carriage
 * return before it, NUL-terminated. Returns its length, or CLI_LINE_END at the end of the
 * file (or a read error: cli_close_input says so); CLI_LINE_NUL for a line holding a NUL
 * byte, else CLI_LINE_LONG for one longer than size - 1 bytes (newline not counted). Such a
 * line is read to its end whatever it holds, so that the next call reads the next line
 * and a caller that counts calls names the line the file's reader would (fgets splits a
 * long line in two, and a NUL byte hides the rest of the line from strlen).
 */
enum {
	CLI_LINE_END = -1,
	CLI_LINE_LONG = -2,
	CLI_LINE_NUL = -3
};
int cli_read_line(FILE *f, char *buf, size_t size);

/* One line of a text report: the label padded to a common column, then the formatted
 * value. */
void cli_field(FILE *out, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Library failures. An engine made with .log = cli_log_keep and .log_user = a cli_log_t
 * keeps the library's last warning there, so that a failure is one line saying both the
 * error code and what the library objected to. */
typedef struct cli_log {
	char last[200]; /* the last warning, or "" */
} cli_log_t;
void cli_log_keep(void *user, cutoff_log_level_t level, const char *message);

/* Prints "cutoff <cmd>: <what>: <cutoff_strerror(code)>" and, when log is not NULL and has
 * a warning, " (<warning>)". */
void cli_fail(const char *cmd, const char *what, int code, const cli_log_t *log);

/* --OPT as a comma-separated list of names among names[0 .. n): flags[i] set for each
 * one given, the others cleared. False after "cutoff <cmd>: --<opt>: expected a
 * comma-separated list of a, b, c, got '<text>'". */
bool cli_parse_names(const char *cmd, const char *opt, const char *text, const char *const *names,
                     bool *flags, int n);

/* --ordering: "none", "all", or a comma-separated list of tt, hints, killers, history.
 * True with *out set to CUTOFF_ORDER_* bits, or false after a one-line error. */
bool cli_parse_ordering(const char *cmd, const char *text, unsigned *out);

/* For --help: what --ordering and --pruning take ("none, all, or a list of tt,..."), and
 * CUTOFF_ORDER_* or CUTOFF_PRUNE_* bits in those words ("tt,hints", "on"). Return buf. */
const char *cli_ordering_forms(char *buf, size_t size);
const char *cli_ordering_text(unsigned bits, char *buf, size_t size);
const char *cli_pruning_forms(char *buf, size_t size);
const char *cli_pruning_text(unsigned bits, char *buf, size_t size);

/* --etc-min-depth, read as an integer 0..CUTOFF_MAX_PLY: true when it is 0 (never) or at
 * least 2, else false after a one-line error (1 would ask about children at the horizon,
 * which have no entries; the engine refuses it too). */
bool cli_check_etc_min_depth(const char *cmd, int64_t depth);

/* --pruning: on (all), off (none), or a comma-separated list of null, lmr. True with
 * *out set to CUTOFF_PRUNE_* bits, or false after a one-line error. */
bool cli_parse_pruning(const char *cmd, const char *text, unsigned *out);

/* The algorithm names accepted by --algo, indexed by cutoff_algo_t; NULL-terminated. */
extern const char *const cli_algo_names[];

/* The placement policies, indexed by cutoff_placement_t; NULL-terminated. */
extern const char *const cli_placement_names[];

/*
 * The drivers, all from the library's registry (cutoff_driver_count and the functions
 * beside it), so that a driver added there reaches every command without an edit here.
 * cli_driver_default() is the library's default driver (cutoff_config_default): the one
 * an algorithm alone runs under, which a label leaves out, and the baseline of the bench.
 * cli_driver_name() is the registry's name, or "?" for a value that is not a driver.
 * cli_driver_list() writes the names into buf as "a, b, c"; returns buf.
 */
cutoff_driver_t cli_driver_default(void);
const char *cli_driver_name(cutoff_driver_t driver);
const char *cli_driver_list(char *buf, size_t size);

/*
 * --algo of every command that searches: ALGO (minimax, alphabeta, pvs, mtdf: that
 * algorithm under the default driver), DRIVER (any driver of the registry, with `lone`
 * underneath: the command's own algorithm, PVS but for `cutoff solve`), or DRIVER/ALGO.
 * True with *driver and *algo set, or false after a one-line error that lists the accepted
 * forms and the registry's drivers.
 */
bool cli_parse_algo(const char *cmd, const char *text, cutoff_algo_t lone, cutoff_driver_t *driver,
                    cutoff_algo_t *algo);

/* The NULL-terminated `words` as "a, b" then `last` (" or ", " and ") and the last word.
 * Returns buf. */
const char *cli_join_words(const char *const *words, const char *last, char *buf, size_t size);

/* For --help: the forms --algo takes, "ALGO (minimax, ...) ...; DRIVER (serial, ...) with
 * LONE at every node; or DRIVER/ALGO", from the names cli_parse_algo accepts. Returns
 * buf. */
const char *cli_algo_forms(cutoff_algo_t lone, char *buf, size_t size);

/* The name of a driver and algorithm as reports show it: the algorithm alone under the
 * default driver ("alphabeta"), DRIVER/ALGO otherwise. Returns buf. */
enum {
	CLI_ALGO_LABEL_SIZE = 32
};
const char *cli_algo_label(cutoff_driver_t driver, cutoff_algo_t algo, char *buf, size_t size);

/*
 * A driver option of the registry by name: true with *driver (its driver) and *opt set.
 * cli_option_text() writes an option's value as the command line takes it (a word, or
 * the number) into buf; returns buf. cli_option_expected() writes what the option takes,
 * from its row ("one of off, on", "an integer in 1..128"), for an error; returns buf.
 * cli_driver_options_text() writes the options of `driver` in `cfg` as "name value, name
 * value" ("" when it has none); returns buf.
 */
bool cli_driver_option_find(const char *name, cutoff_driver_t *driver,
                            const cutoff_driver_option_t **opt);
const char *cli_option_text(const cutoff_driver_option_t *opt, int value, char *buf, size_t size);
const char *cli_option_expected(const cutoff_driver_option_t *opt, char *buf, size_t size);
const char *cli_driver_options_text(const cutoff_config_t *cfg, cutoff_driver_t driver, char *buf,
                                    size_t size);

/* Sets the driver option `opt` in *cfg from `text`, as cutoff_config_set_option_str
 * reads it (one of its words, or a number in its range): the library is the one parser of
 * a driver option's text. False after "cutoff <cmd>: --<name>: expected ..., got ...". */
bool cli_set_driver_option(const char *cmd, const cutoff_driver_option_t *opt, const char *text,
                           cutoff_config_t *cfg);

/*
 * What every command that searches in parallel shares: --threads, --placement, and every
 * driver option of the registry as --NAME VALUE (--min-split 4, --lazy-skip off), written
 * straight into the command's engine template: a cutoff_config_t it starts from
 * cutoff_config_default() and hands to cli_engine_config(), which copies it whole.
 * CLI_ENGINE_OPTS(tmpl) is the one option-table entry that takes them all; its --help line
 * points at the end of --help, where cli_parse lists them (cli_print_engine_usage), their
 * ranges and defaults read from the library.
 */
extern const char *const cli_onoff_names[]; /* "off", "on", NULL */

/* The engine configuration of a search: the template *par as given (threads, placement,
 * the drivers' options, the defaults elsewhere), then the driver, the algorithm, the table
 * of hash_mb MiB, and the library's last warning kept in *log (cli_log_keep). The command
 * sets the rest. */
void cli_engine_config(cutoff_config_t *cfg, const cutoff_config_t *par, cutoff_driver_t driver,
                       cutoff_algo_t algo, int64_t hash_mb, cli_log_t *log);

/* True when `path` is a regular file this process may execute. */
bool cli_executable(const char *path);

/* The program `name` as posix_spawnp would find it: `name` itself when it holds a '/',
 * else the first executable `DIR/name` of the PATH's folders. Its path in buf, or NULL
 * (buf too small for a candidate counts as not found). */
const char *cli_find_program(const char *name, char *buf, size_t size);

/* The CPUs this process may run on: its affinity mask (sched_getaffinity), else the CPUs
 * online; at least 1. */
int cli_usable_cpus(void);

/* cutoff_engine_new, or NULL after "cutoff <cmd>: cannot make the engine: ..." (cli_fail,
 * with the warning kept in *log). With more threads than cli_usable_cpus(), a warning on
 * stderr ("cutoff <cmd>: warning: --threads N exceeds the C CPUs ..."), except under
 * mpirun, where the cluster's own warning speaks. */
cutoff_engine_t *cli_engine_new(const char *cmd, const cutoff_game_t *game,
                                const cutoff_config_t *cfg, const cli_log_t *log);

/* clang-format off */
#define CLI_ENGINE_OPTS(tmpl) \
	{ .name = "engine options", .kind = CLI_ENGINE_OPTIONS, .dest.cfg = (tmpl), \
	  .help = "the engine's settings and any driver's option (listed at the end, with " \
	          "their ranges and defaults)" }

/* A table's rows on one line each: --NAME into the destination at `value` (a pointer),
 * with its --help (`arg`, `help`: the fields above). An integer in lo..hi (int64_t), a
 * flag (bool), a string (const char *), a word of `words` (int: its index). */
#define CLI_INT_OPT(name_, value, lo, hi, arg_, help_) \
	{ .name = (name_), .kind = CLI_INT, .dest.i = (value), .min = (lo), .max = (hi), \
	  .arg = (arg_), .help = (help_) }
#define CLI_FLAG_OPT(name_, value, help_) \
	{ .name = (name_), .kind = CLI_FLAG, .dest.flag = (value), .help = (help_) }
#define CLI_STRING_OPT(name_, value, arg_, help_) \
	{ .name = (name_), .kind = CLI_STRING, .dest.s = (value), .arg = (arg_), \
	  .help = (help_) }
#define CLI_CHOICE_OPT(name_, value, words, help_) \
	{ .name = (name_), .kind = CLI_CHOICE, .dest.choice = (value), .choices = (words), \
	  .help = (help_) }

/*
 * --threads N (1..CUTOFF_MAX_THREADS, into the int64_t at `value`) and --placement P (a
 * word of cli_placement_names, into the int at `value`: a cutoff_placement_t): the rows
 * through which CLI_ENGINE_OPTS reads its two engine settings, as entries of their own
 * for a command that takes them without an engine template (topo plans a placement,
 * ttbench runs its own threads), so that every command accepts the same range and words
 * and says the same errors. The command's help text says its own default.
 */
#define CLI_THREADS_OPT(value, help_) \
	CLI_INT_OPT("threads", value, 1, CUTOFF_MAX_THREADS, "N", help_)
#define CLI_PLACEMENT_OPT(value, help_) \
	CLI_CHOICE_OPT("placement", value, cli_placement_names, help_)
/* clang-format on */

/* The engine's settings (--threads when `threads`, that is, when the command has no
 * --threads of its own; --placement) and the drivers' options as the last part of --help,
 * their ranges and defaults read from the library: what cli_parse prints after the usage
 * of a command with CLI_ENGINE_OPTS. */
void cli_print_engine_usage(FILE *out, bool threads);

#endif /* CUTOFF_KIT_ARGS_H */
