/* SPDX-License-Identifier: MIT */
/*
 * cluster.h — the command line's side of the cluster layer (include/cutoff_cluster.h):
 * `--algo cluster` under mpirun, for search and UCI. In a build without MPI every entry
 * point exists and says how to get MPI ("skipped: MPI not found" at build time).
 *
 * Under mpirun every rank runs the same command line; only rank 0 prints: cli_cluster_start
 * sends the other ranks' standard output to /dev/null (their errors stay on stderr).
 */
#ifndef CUTOFF_KIT_RANKS_H
#define CUTOFF_KIT_RANKS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cutoff.h"

/* The options of `--algo cluster`: the driver inside each rank and the exchange. */
typedef struct cli_cluster_opts {
	int driver;          /* index in cli_cluster_driver_names: lazysmp, abdada */
	int exchange;        /* index in cli_cluster_exchange_names: ring, all, none */
	int64_t share_depth; /* the least depth of a shared entry (cutoff_cluster_config_t's
	                        min_depth); -1: the layer's default */
} cli_cluster_opts_t;

extern const char *const cli_cluster_driver_names[];   /* "lazysmp", "abdada", NULL */
extern const char *const cli_cluster_exchange_names[]; /* "ring", "all", "none", NULL */

/* What --algo's help says of `--algo cluster`, after the other forms (cli_algo_forms). */
#define CLI_CLUSTER_ALGO_HELP                                                                      \
	"; or cluster, under mpirun: every rank searches with its own engine and table, "          \
	"sharing deep entries (docs/cluster.md); only rank 0 prints"

/* clang-format off */
#define CLI_CLUSTER_OPTS(o)                                                                \
	CLI_CHOICE_OPT("cluster-driver", &(o)->driver, cli_cluster_driver_names,           \
	               "--algo cluster: the driver inside each rank; default %d"),         \
	CLI_CHOICE_OPT("exchange", &(o)->exchange, cli_cluster_exchange_names,             \
	               "--algo cluster: where each rank's deep entries go (none: "        \
	               "nowhere, the ranks only stop and vote together); default %d"),     \
	CLI_INT_OPT("share-depth", &(o)->share_depth, 0, 255, "D",                         \
	            "--algo cluster: the least depth of a shared entry, %r, raised by one " \
	            "while batches overflow and back while they are light; default the "  \
	            "cluster layer's (cutoff_cluster_config_t.min_depth)")
/* clang-format on */

typedef struct cli_cluster cli_cluster_t;

/* True when --algo names the cluster. */
bool cli_cluster_wanted(const char *algo_text);

/* The driver each rank runs. */
cutoff_driver_t cli_cluster_driver(const cli_cluster_opts_t *o);

/* --algo of a command that offers `--algo cluster`: for the cluster, the driver each rank
 * runs under PVS; otherwise cli_parse_algo's driver and algorithm (`lone`: a driver named
 * alone searches with it). False after its one-line error. */
bool cli_cluster_parse_algo(const char *cmd, const char *algo_text, cutoff_algo_t lone,
                            const cli_cluster_opts_t *o, cutoff_driver_t *driver,
                            cutoff_algo_t *algo);

/* False after a one-line error when, without --algo cluster (`cluster` false), a cluster
 * option (CLI_CLUSTER_OPTS: --cluster-driver, --exchange, --share-depth) is in the
 * command's parsed table opts[0 .. nopts). */
struct cli_opt;
bool cli_cluster_check_options(const char *cmd, bool cluster, const struct cli_opt *opts,
                               int nopts);

/* Starts MPI (MPI_THREAD_MULTIPLE) and the cluster; on ranks other than 0, stdout goes
 * to /dev/null. NULL after a one-line error (no MPI in this build, too low a thread
 * level). */
cli_cluster_t *cli_cluster_start(const char *cmd, const cli_cluster_opts_t *o);

int cli_cluster_rank(const cli_cluster_t *cc);

/* The simulator's (cutoff sim): a rank's cluster already made on the simulated network (a
 * cutoff_cluster_t, owned from here: cli_cluster_end frees it). NULL when out of memory;
 * in the other builds, NULL. */
cli_cluster_t *cli_cluster_over(void *cluster, const cli_cluster_opts_t *o);

/* One line for a report: "N ranks, exchange E, each rank DRIVER". */
const char *cli_cluster_text(const cli_cluster_t *cc, char *buf, size_t size);

/* cutoff_cluster_configure, cutoff_cluster_search, cutoff_cluster_stop, _cancel_stop. */
void cli_cluster_configure(cli_cluster_t *cc, cutoff_config_t *cfg);
int cli_cluster_search(cli_cluster_t *cc, cutoff_engine_t *e, const void *root,
                       const cutoff_limits_t *lim, cutoff_result_t *r, cutoff_info_fn info,
                       void *info_user);
void cli_cluster_stop(cli_cluster_t *cc);

/* cli_cluster_search without an info callback, with the cluster as `user`: the search
 * function of cutoff_connect4_solve_with. */
int cli_cluster_search_by(void *user, cutoff_engine_t *e, const void *root,
                          const cutoff_limits_t *lim, cutoff_result_t *r);
void cli_cluster_cancel_stop(cli_cluster_t *cc);

/* The latest failure's words (cutoff_cluster_error). */
const char *cli_cluster_error(const cli_cluster_t *cc);

/* One rank's share of the latest search (cutoff_cluster_stats_t's figures, for front
 * ends that are built without MPI too). */
typedef struct cli_rank_stats {
	uint64_t nodes;
	double time_s, comm_s;
	uint64_t sent_entries, received_entries, stored_entries, sent_bytes, tt_hits_shared;
} cli_rank_stats_t;

/* True with *out filled for `rank` (0 .. ranks-1) of the latest search. */
bool cli_cluster_stats(const cli_cluster_t *cc, int rank, cli_rank_stats_t *out);

/* The number of ranks (1 for NULL). */
int cli_cluster_size(const cli_cluster_t *cc);

/* Makes the clusters of the first R ranks for each R of ranks[0 .. n) (1 .. the world),
 * beside the whole world's (collective over every rank). False when one cannot be made. */
bool cli_cluster_prepare(cli_cluster_t *cc, const int *ranks, int n);

/* Makes the cluster of the first R ranks (prepared, or all of them) the one that later
 * calls use; false when this rank is not one of them (it then takes no part). */
bool cli_cluster_use(cli_cluster_t *cc, int ranks);

/* Waits, napping 1 ms between looks, until every rank has called it: the other ranks
 * wait here for rank 0 while it does work of its own (a bench's other rows), for as long
 * as that takes (a rank that dies ends the job through mpirun). */
void cli_cluster_rendezvous(cli_cluster_t *cc);

/* The per-rank table of the latest search: nodes, rate, time in communication, entries
 * sent, received, stored, passed on and dropped, bytes on the wire, hits on shared
 * entries. */
void cli_cluster_print_ranks(const cli_cluster_t *cc, FILE *out);

/* The same as a JSON array of objects, one per rank, for a writer in the middle of an
 * object (key, then the array). */
struct json_writer;
void cli_cluster_json_ranks(const cli_cluster_t *cc, struct json_writer *w, const char *key);

/* Ends the cluster and MPI (MPI_Finalize), or on a failure ends every rank
 * (MPI_Abort with `status`). Nothing for NULL. */
void cli_cluster_end(cli_cluster_t *cc);
void cli_cluster_abort(cli_cluster_t *cc, int status);

/* The command channel of UCI under mpirun: rank 0 sends each line it reads to the other
 * ranks (cli_cluster_send_line), which wait for them (cli_cluster_recv_line: false when
 * rank 0 has ended the channel with cli_cluster_send_line(cc, NULL)). Over a
 * communicator of its own; the waiting rank naps between tests, leaving the CPU. */
void cli_cluster_send_line(cli_cluster_t *cc, const char *line);
bool cli_cluster_recv_line(cli_cluster_t *cc, char *buf, size_t size);

#endif /* CUTOFF_KIT_RANKS_H */
