/* SPDX-License-Identifier: MIT */
/*
 * cmd_drivers.c — `cutoff drivers`: the library's parallel drivers and their options, as its
 * registry lists them (cutoff_driver_count and the functions beside it). Every other
 * command takes its drivers from the same registry: what this prints is what --algo,
 * the drivers' --OPTION VALUE, bench --drivers and UCI's Algorithm accept. With
 * --counters, the library's list of counters (cutoff_counter_info): every report's
 * "counters" holds exactly these.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cutoff.h"
#include "kit/args.h"
#include "kit/json.h"
#include "kit/report.h"

/* clang-format off */
static const char drivers_usage[] =
	"usage: cutoff drivers [--names | --counters] [--json]\n"
	"\n"
	"Lists the library's parallel drivers: each one's name (what --algo DRIVER,\n"
	"bench --drivers and UCI's Algorithm take), what it does, and its options, each\n"
	"taken as --NAME VALUE by every command that takes --threads (search, tree,\n"
	"solve, epd, bench) and as a UCI option of the same name, with its range and\n"
	"default. The driver marked 'default' is the one an algorithm alone runs under.\n";
/* clang-format on */

/* The values an option takes, as the command line writes them: "off|on" or "1..128". */
static const char *range_text(const cutoff_driver_option_t *o, char *buf, size_t size)
{
	size_t used = 0;
	buf[0] = '\0';
	if (!o->words) {
		snprintf(buf, size, "%d..%d", o->min, o->max);
		return buf;
	}
	for (int k = 0; k <= o->max - o->min && used < size; k++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", k ? "|" : "",
		                         o->words[k]);
	return buf;
}

static void print_text(const cutoff_config_t *def)
{
	for (int d = 0; d < cutoff_driver_count(); d++) {
		const cutoff_driver_option_t *o;
		int n = cutoff_driver_options((cutoff_driver_t)d, &o);
		printf("%-10s %s%s\n", cli_driver_name((cutoff_driver_t)d),
		       cutoff_driver_description((cutoff_driver_t)d),
		       (cutoff_driver_t)d == def->driver ? " (default)" : "");
		for (int i = 0; i < n; i++) {
			char range[128], v[32], head[160];
			int value = 0;
			cutoff_config_get_option(def, o[i].name, &value);
			snprintf(head, sizeof(head), "--%s %s", o[i].name,
			         range_text(&o[i], range, sizeof(range)));
			printf("  %-28s %s; default %s\n", head, o[i].help,
			       cli_option_text(&o[i], value, v, sizeof(v)));
		}
	}
}

static int print_json(const cutoff_config_t *def)
{
	json_writer_t w;
	jw_init(&w, stdout);
	jw_begin_array(&w, NULL);
	for (int d = 0; d < cutoff_driver_count(); d++) {
		const cutoff_driver_option_t *o;
		int n = cutoff_driver_options((cutoff_driver_t)d, &o);
		jw_begin_object(&w, NULL);
		jw_string(&w, "name", cli_driver_name((cutoff_driver_t)d));
		jw_string(&w, "description", cutoff_driver_description((cutoff_driver_t)d));
		jw_bool(&w, "default", (cutoff_driver_t)d == def->driver);
		jw_begin_array(&w, "options");
		for (int i = 0; i < n; i++) {
			char v[32];
			int value = 0;
			cutoff_config_get_option(def, o[i].name, &value);
			jw_begin_object(&w, NULL);
			jw_string(&w, "name", o[i].name);
			jw_string(&w, "help", o[i].help);
			jw_int(&w, "min", o[i].min);
			jw_int(&w, "max", o[i].max);
			if (o[i].words) {
				jw_begin_array(&w, "words");
				for (int k = 0; k <= o[i].max - o[i].min; k++)
					jw_string(&w, NULL, o[i].words[k]);
				jw_end(&w);
				jw_string(&w, "default",
				          cli_option_text(&o[i], value, v, sizeof(v)));
			} else {
				jw_null(&w, "words");
				jw_int(&w, "default", value);
			}
			jw_end(&w);
		}
		jw_end(&w);
		jw_end(&w);
	}
	jw_end(&w);
	return cli_json_finish(&w, "drivers");
}

/* Who counts counter x, in a word: "search", "profiler" or the driver's name. */
static const char *counted_by(const cutoff_counter_info_t *x)
{
	switch (x->counted_by) {
	case CUTOFF_COUNTED_BY_SEARCH:
		return "search";
	case CUTOFF_COUNTED_BY_PROFILER:
		return "profiler";
	default:
		return cli_driver_name(x->driver);
	}
}

static int print_counters(bool json)
{
	json_writer_t w;
	if (json) {
		jw_init(&w, stdout);
		jw_begin_array(&w, NULL);
	}
	for (int i = 0; i < cutoff_counter_count(); i++) {
		const cutoff_counter_info_t *x = cutoff_counter_info(i);
		if (!json) {
			printf("%-22s %-12s %-9s %s%s%s\n", x->name, x->unit, counted_by(x),
			       x->meaning, x->profiler ? " (with the profiler)" : "",
			       x->maximum ? " (a maximum)" : "");
			continue;
		}
		jw_begin_object(&w, NULL);
		jw_string(&w, "name", x->name);
		jw_string(&w, "unit", x->unit);
		jw_string(&w, "counted_by", counted_by(x));
		jw_string(&w, "meaning", x->meaning);
		jw_bool(&w, "profiler", x->profiler);
		jw_bool(&w, "maximum", x->maximum);
		jw_end(&w);
	}
	if (!json)
		return CLI_EXIT_OK;
	jw_end(&w);
	return cli_json_finish(&w, "drivers");
}

int cli_drivers(int argc, char **argv)
{
	bool names = false, json = false, counters = false;
	cli_opt_t opts[] = {
		CLI_FLAG_OPT("names", &names, "print the drivers' names only, one a line"),
		CLI_FLAG_OPT("counters", &counters,
		             "print the library's counters instead: each one's name (its key in "
		             "every report's \"counters\"), unit, who counts it (the search, the "
		             "profiler or a driver) and meaning"),
		CLI_FLAG_OPT("json", &json, "print them as JSON instead"),
	};
	cli_status_t st = cli_parse("drivers", drivers_usage, opts,
	                            (int)(sizeof(opts) / sizeof(opts[0])), argc, argv);
	if (st != CLI_PARSED)
		return cli_parse_exit(st);
	if (names && (json || counters)) {
		cli_error("drivers", "--names with --%s: give one", json ? "json" : "counters");
		return CLI_EXIT_USAGE;
	}
	if (counters)
		return print_counters(json);
	cutoff_config_t def;
	cutoff_config_default(&def);
	if (json)
		return print_json(&def);
	if (names) {
		for (int d = 0; d < cutoff_driver_count(); d++)
			printf("%s\n", cli_driver_name((cutoff_driver_t)d));
		return CLI_EXIT_OK;
	}
	print_text(&def);
	return CLI_EXIT_OK;
}
