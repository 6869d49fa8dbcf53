/* SPDX-License-Identifier: MIT */
/*
 * report.c — counters and profiles as JSON, the parallel settings, and moves as words
 * (contract in report.h).
 */
#include "kit/report.h"

#include <inttypes.h>
#include <stdio.h>

#include "cutoff_games.h"
#include "kit/args.h"

uint64_t cli_counter(const cutoff_counters_t *c, const char *name)
{
	return cutoff_counter_value(c, cutoff_counter_find(name));
}

/* Every counter of the library's list, by its name: the search's, the profiler's and each
 * driver's (a driver's new counter reaches every report with no edit here). */
void cli_json_counters(json_writer_t *w, const char *key, const cutoff_counters_t *c)
{
	jw_begin_object(w, key);
	for (int i = 0; i < cutoff_counter_count(); i++)
		jw_uint(w, cutoff_counter_info(i)->name, cutoff_counter_value(c, i));
	jw_end(w);
}

void cli_json_driver_options(json_writer_t *w, const char *key, const cutoff_config_t *cfg)
{
	jw_begin_object(w, key);
	for (int d = 0; d < cutoff_driver_count(); d++) {
		const cutoff_driver_option_t *o;
		int n = cutoff_driver_options((cutoff_driver_t)d, &o);
		for (int i = 0; i < n; i++) {
			int value = 0;
			cutoff_config_get_option(cfg, o[i].name, &value);
			if (o[i].words && value >= o[i].min && value <= o[i].max)
				jw_string(w, o[i].name, o[i].words[value - o[i].min]);
			else
				jw_int(w, o[i].name, value);
		}
	}
	jw_end(w);
}

void cli_print_driver_counters(FILE *out, const cutoff_counters_t *c, double per)
{
	/* Each driver that counted something: all its counters, in the list's order. */
	for (int d = 0; d < cutoff_driver_count(); d++) {
		bool any = false;
		for (int i = 0; i < cutoff_counter_count(); i++) {
			const cutoff_counter_info_t *x = cutoff_counter_info(i);
			any |= x->counted_by == CUTOFF_COUNTED_BY_DRIVER && (int)x->driver == d &&
			       cutoff_counter_value(c, i) > 0;
		}
		for (int i = 0; any && i < cutoff_counter_count(); i++) {
			const cutoff_counter_info_t *x = cutoff_counter_info(i);
			if (x->counted_by != CUTOFF_COUNTED_BY_DRIVER || (int)x->driver != d)
				continue;
			uint64_t v = cutoff_counter_value(c, i);
			if (per == 1)
				cli_field(out, x->name, "%" PRIu64 " %s", v, x->unit);
			else
				cli_field(out, x->name, "mean %.2f %s", (double)v / per, x->unit);
		}
	}
}

void cli_print_parallel(FILE *out, cutoff_driver_t driver, const cutoff_config_t *par)
{
	char text[256];
	if (par->threads == 1 && driver == cli_driver_default())
		return;
	cli_field(out, "threads", "%d, %s driver, placement %s", par->threads,
	          cli_driver_name(driver), cli_placement_names[par->placement]);
	if (*cli_driver_options_text(par, driver, text, sizeof(text)))
		cli_field(out, "driver options", "%s", text);
}

void cli_json_parallel(json_writer_t *w, cutoff_driver_t driver, const cutoff_config_t *par)
{
	jw_string(w, "driver", cli_driver_name(driver));
	jw_int(w, "threads", par->threads);
	jw_string(w, "placement", cli_placement_names[par->placement]);
	cli_json_driver_options(w, "driver_options", par);
}

int cli_json_finish(json_writer_t *w, const char *cmd)
{
	if (jw_finish(w) < 0) {
		cli_error(cmd, "cannot write the JSON output");
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}

double cli_rate(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

double cli_per_second(uint64_t n, double seconds)
{
	return seconds > 0 ? (double)n / seconds : 0.0;
}

void cli_json_profile(json_writer_t *w, const char *key, const cutoff_profile_t *p)
{
	jw_begin_object(w, key);
	jw_double(w, "time_s", p->time_s);
	jw_double(w, "search_s", p->search_s);
	jw_double(w, "idle_s", p->idle_s);
	jw_double(w, "split_wait_s", p->split_wait_s);
	jw_double(w, "lock_s", p->lock_s);
	jw_int(w, "depth_reached", p->depth_reached);
	jw_int(w, "depth_completed", p->depth_completed);
	jw_end(w);
}

void cli_move_text(cli_game_t game, cutoff_move_t m, char out[16])
{
	if (m == CUTOFF_MOVE_NONE)
		snprintf(out, 16, "-");
	else if (game == CLI_GAME_CHESS)
		cutoff_chess_move_str(m, out, 16);
	else if (game == CLI_GAME_CONNECT4)
		snprintf(out, 16, "%d", (int)m + 1);
	else if (game == CLI_GAME_PGAME && m == CUTOFF_PGAME_PASS)
		snprintf(out, 16, "pass");
	else
		snprintf(out, 16, "%" PRIu32, m);
}
