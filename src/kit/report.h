/* SPDX-License-Identifier: MIT */
/*
 * report.h — the search's counters and profile as JSON, for every subcommand that
 * reports them (search, tree, bench); their sums are the library's cutoff_counters_add and
 * cutoff_profile_add. One spelling of every field:
 * the JSON key is the field's name in cutoff.h (cutoff_counters_t, cutoff_profile_t).
 * Beside them, the pieces the commands' reports share: the parallel settings, the end of
 * a JSON report, rates, and moves in words.
 */
#ifndef CUTOFF_KIT_REPORT_H
#define CUTOFF_KIT_REPORT_H

#include <stdio.h>

#include "cutoff.h"
#include "kit/args.h"
#include "kit/games.h"
#include "kit/json.h"

/* Counter `name` of c, through the library's list (0 when it has none of that name): how
 * the command reads a driver's counter, which is not a field of the struct. */
uint64_t cli_counter(const cutoff_counters_t *c, const char *name);

/* Writes an object of every counter of the library's list (cutoff_counter_info), by name,
 * under `key` (NULL inside an array). */
void cli_json_counters(json_writer_t *w, const char *key, const cutoff_counters_t *c);

/* Writes an object of the profile's times and depths, under `key`. */
void cli_json_profile(json_writer_t *w, const char *key, const cutoff_profile_t *p);

/* Writes an object of every driver option of the library's registry (each driver's, not
 * only the one in use) with its value in *cfg, under `key`: a word option as its word, a
 * number as a number, keyed by the option's name ("min-split"). */
void cli_json_driver_options(json_writer_t *w, const char *key, const cutoff_config_t *cfg);

/* The drivers' own counters, as lines of a text report (cli_field): every counter of each
 * driver that counted something, by name and unit, from the library's list; `per` divides
 * each count (1 for one search, the number of searches for a mean). */
void cli_print_driver_counters(FILE *out, const cutoff_counters_t *c, double per);

/* The threads, the driver and its options as lines of a text report (cli_field), when
 * the search is not the default one (one thread, the default driver): a default run's
 * report stays as it always was. */
void cli_print_parallel(FILE *out, cutoff_driver_t driver, const cutoff_config_t *par);

/* The same as the JSON fields "driver", "threads", "placement" and "driver_options"
 * (cli_json_driver_options), always. */
void cli_json_parallel(json_writer_t *w, cutoff_driver_t driver, const cutoff_config_t *par);

/* Ends a command's JSON report (jw_finish): CLI_EXIT_OK, or CLI_EXIT_FAIL after
 * "cutoff <cmd>: cannot write the JSON output". */
int cli_json_finish(json_writer_t *w, const char *cmd);

/* part / whole, 0 when whole is 0; n / seconds, 0 when no time passed. */
double cli_rate(uint64_t part, uint64_t whole);
double cli_per_second(uint64_t n, double seconds);

/* A move in the game's own words, into out (16 bytes): "-" for none, UCI notation for
 * chess, the column 1..7 for Connect Four, the cell or "pass" for the game with passes,
 * the square or child index for the others. */
void cli_move_text(cli_game_t game, cutoff_move_t m, char out[16]);

#endif /* CUTOFF_KIT_REPORT_H */
