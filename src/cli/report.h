/*
 * report.h — the search's counters and profile as JSON, and their sums, for every
 * subcommand that reports them (search, tree, bench). One spelling of every field:
 * the JSON key is the field's name in cutoff.h (cutoff_counters_t, cutoff_profile_t).
 */
#ifndef CUTOFF_CLI_REPORT_H
#define CUTOFF_CLI_REPORT_H

#include "cutoff.h"
#include "json.h"

/* Adds c into *sum: every counter added, seldepth the maximum. */
void cli_counters_add(cutoff_counters_t *sum, const cutoff_counters_t *c);

/* Adds p into *sum: times added, depths the maximum (as the result's profile sums threads). */
void cli_profile_add(cutoff_profile_t *sum, const cutoff_profile_t *p);

/* Writes an object of every counter, under `key` (NULL inside an array). */
void cli_json_counters(json_writer_t *w, const char *key, const cutoff_counters_t *c);

/* Writes an object of the profile's times and depths, under `key`. */
void cli_json_profile(json_writer_t *w, const char *key, const cutoff_profile_t *p);

#endif /* CUTOFF_CLI_REPORT_H */
