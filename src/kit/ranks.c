/* SPDX-License-Identifier: MIT */
/*
 * cluster.c — `--algo cluster`, UCI and the bench under mpirun: the command line's side
 * of the cluster layer (contract in cluster.h). Three builds:
 *   CUTOFF_CLI_MPI  the real command with MPI: every function below;
 *   CUTOFF_SIM      `cutoff sim`: a rank's cluster on the simulated network, wrapped by
 *                   cli_cluster_over (cli/cmd_sim.c makes it), and no MPI;
 *   neither         the same functions say that MPI is missing.
 *
 * MPI's state belongs to the process, so it lives here for the whole command: one
 * MPI_Init_thread in cli_cluster_start, one MPI_Finalize (or MPI_Abort) at the end. The
 * cluster's own communicator carries the searches; a second one carries UCI's command
 * lines, so that rank 0's reader thread may send while its search thread searches.
 */
#include "kit/ranks.h"

#include <stdlib.h>
#include <string.h>

#include "kit/args.h"
#include "kit/json.h"

const char *const cli_cluster_driver_names[] = { "lazysmp", "abdada", NULL };
const char *const cli_cluster_exchange_names[] = { "ring", "all", "none", NULL };

bool cli_cluster_wanted(const char *algo_text)
{
	return algo_text && strcmp(algo_text, "cluster") == 0;
}

cutoff_driver_t cli_cluster_driver(const cli_cluster_opts_t *o)
{
	return o->driver == 1 ? CUTOFF_DRIVER_ABDADA : CUTOFF_DRIVER_LAZYSMP;
}

bool cli_cluster_parse_algo(const char *cmd, const char *algo_text, cutoff_algo_t lone,
                            const cli_cluster_opts_t *o, cutoff_driver_t *driver,
                            cutoff_algo_t *algo)
{
	if (!cli_cluster_wanted(algo_text))
		return cli_parse_algo(cmd, algo_text, lone, driver, algo);
	*driver = cli_cluster_driver(o);
	*algo = CUTOFF_ALGO_PVS;
	return true;
}

bool cli_cluster_check_options(const char *cmd, bool cluster, const cli_opt_t *opts, int nopts)
{
	if (!cluster &&
	    (cli_given(opts, nopts, "cluster-driver") || cli_given(opts, nopts, "exchange") ||
	     cli_given(opts, nopts, "share-depth"))) {
		cli_error(cmd, "--cluster-driver, --exchange and --share-depth are options of "
		               "--algo cluster only");
		return false;
	}
	return true;
}

#if defined(CUTOFF_CLI_MPI) || defined(CUTOFF_SIM)
/* ---- what both have: a cluster (cutoff_cluster.h) to search with ------------------------ */

#ifndef CUTOFF_SIM
#include <mpi.h>
/* (the simulator's build defines CUTOFF_CLUSTER_NO_MPI: src/cluster/transport_sim.c carries
 * it) */
#endif
#include <time.h>

#include "cutoff_cluster.h"

#ifdef CUTOFF_CLI_MPI

enum {
	LINE_MAX_BYTES = (1 << 20) + 1,
	TAG_LINE = 1,
	TAG_END = 2
}; /* UCI's longest line */
enum {
	BENCH_RANKS_MAX = 32
}; /* the most first-R clusters (bench/types.h's BENCH_MAX_RANKS) */

/* A command line on its way to the other ranks (rank 0 keeps it until its sends complete). */
typedef struct pending {
	struct pending *next;
	MPI_Request *reqs; /* one per other rank */
	int n;
	char *text;
} pending_t;

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

#endif

struct cli_cluster {
	cutoff_cluster_t *cl; /* the cluster the calls use (cli_cluster_use): the world's, or
	                         that of the first R ranks; NULL: not a member */
	cli_cluster_opts_t opts;
	int rank, size; /* MPI: in the world; simulated: in cl */
	bool warned;    /* the binding warning was given */
#ifdef CUTOFF_CLI_MPI
	cutoff_cluster_t *world;                      /* every rank's */
	cutoff_cluster_t *first[BENCH_RANKS_MAX + 1]; /* [R]: the first R ranks' (prepared;
	                                                 NULL on the others) */
	MPI_Comm lines;
	pending_t *pending;
	char line[LINE_MAX_BYTES]; /* a line received (cli_cluster_recv_line) */
#endif
};

const char *cli_cluster_text(const cli_cluster_t *cc, char *buf, size_t size)
{
	snprintf(buf, size, "%d ranks, exchange %s, each rank %s", cutoff_cluster_size(cc->cl),
	         cli_cluster_exchange_names[cc->opts.exchange],
	         cli_cluster_driver_names[cc->opts.driver]);
	return buf;
}

void cli_cluster_configure(cli_cluster_t *cc, cutoff_config_t *cfg)
{
	cutoff_cluster_configure(cc->cl, cfg);
#ifdef CUTOFF_CLI_MPI
	/* mpirun binds each rank to one core by default (with 2 ranks or fewer): a rank's
	 * threads would then share it. Said once, by rank 0. */
	cutoff_topology_info_t topo;
	if (cc->rank == 0 && !cc->warned && cutoff_topology_describe(NULL, &topo) == 0 &&
	    cfg->threads > topo.pus) {
		cc->warned = true;
		fprintf(stderr,
		        "cutoff: warning: rank 0 may run on %d processing unit%s (mpirun binds "
		        "ranks "
		        "by default), fewer than its %d threads: start it with mpirun --bind-to "
		        "none\n",
		        topo.pus, topo.pus == 1 ? "" : "s", cfg->threads);
	}
#endif
}

int cli_cluster_search(cli_cluster_t *cc, cutoff_engine_t *e, const void *root,
                       const cutoff_limits_t *lim, cutoff_result_t *r, cutoff_info_fn info,
                       void *info_user)
{
	return cutoff_cluster_search(cc->cl, e, root, lim, r, info, info_user);
}

int cli_cluster_search_by(void *user, cutoff_engine_t *e, const void *root,
                          const cutoff_limits_t *lim, cutoff_result_t *r)
{
	cli_cluster_t *cc = user;
	int rc = cli_cluster_search(cc, e, root, lim, r, NULL, NULL);
	if (rc == CUTOFF_EPEER) { /* the others cannot be waited for: end every rank */
		cli_error(NULL, "the cluster search failed: %s", cli_cluster_error(cc));
		cli_cluster_abort(cc, 1);
	}
	return rc;
}

void cli_cluster_stop(cli_cluster_t *cc)
{
	if (cc)
		cutoff_cluster_stop(cc->cl);
}

void cli_cluster_cancel_stop(cli_cluster_t *cc)
{
	if (cc)
		cutoff_cluster_cancel_stop(cc->cl);
}

const char *cli_cluster_error(const cli_cluster_t *cc)
{
	return cc ? cutoff_cluster_error(cc->cl) : "";
}

static double ratio(double a, double b) { return b > 0 ? a / b : 0; }

bool cli_cluster_stats(const cli_cluster_t *cc, int rank, cli_rank_stats_t *out)
{
	cutoff_cluster_stats_t s;
	if (!cc || cutoff_cluster_stats(cc->cl, rank, &s) < 0)
		return false;
	*out = (cli_rank_stats_t){ s.nodes,        s.time_s,           s.comm_s,
		                   s.sent_entries, s.received_entries, s.stored_entries,
		                   s.sent_bytes,   s.tt_hits_shared };
	return true;
}

void cli_cluster_print_ranks(const cli_cluster_t *cc, FILE *out)
{
	const int size = cutoff_cluster_size(cc->cl);
	fprintf(out, "\nper rank (%d ranks):\n", size);
	fprintf(out, "%5s %12s %9s %8s %6s %10s %10s %10s %10s %9s %9s %8s %6s\n", "rank", "nodes",
	        "knps", "time s", "comm%", "sent", "received", "stored", "passed on", "dropped",
	        "MB sent", "shared", "depth");
	for (int i = 0; i < size; i++) {
		cutoff_cluster_stats_t s;
		cutoff_cluster_stats(cc->cl, i, &s);
		fprintf(out,
		        "%5d %12llu %9.0f %8.3f %6.1f %10llu %10llu %10llu %10llu %9llu %9.2f "
		        "%8llu %6d\n",
		        i, (unsigned long long)s.nodes, ratio((double)s.nodes, s.time_s) / 1e3,
		        s.time_s, 100 * ratio(s.comm_s, s.time_s),
		        (unsigned long long)s.sent_entries, (unsigned long long)s.received_entries,
		        (unsigned long long)s.stored_entries,
		        (unsigned long long)s.forwarded_entries,
		        (unsigned long long)s.dropped_entries, (double)s.sent_bytes / 1e6,
		        (unsigned long long)s.tt_hits_shared, s.shared_depth);
	}
	fprintf(out,
	        "(sent, received, stored, passed on, dropped: table entries of 16 bytes; "
	        "shared: hits on entries from\nanother rank, counted with --profile-tt-writers "
	        "only; depth: the adaptive least depth shared)\n");
}

void cli_cluster_json_ranks(const cli_cluster_t *cc, json_writer_t *w, const char *key)
{
	jw_begin_array(w, key);
	for (int i = 0; i < cutoff_cluster_size(cc->cl); i++) {
		cutoff_cluster_stats_t s;
		cutoff_cluster_stats(cc->cl, i, &s);
		jw_begin_object(w, NULL);
		jw_int(w, "rank", i);
		jw_uint(w, "nodes", s.nodes);
		jw_double(w, "time_s", s.time_s);
		jw_double(w, "comm_s", s.comm_s);
		jw_uint(w, "rounds", s.rounds);
		jw_uint(w, "sent_entries", s.sent_entries);
		jw_uint(w, "sent_messages", s.sent_messages);
		jw_uint(w, "sent_bytes", s.sent_bytes);
		jw_uint(w, "received_entries", s.received_entries);
		jw_uint(w, "received_messages", s.received_messages);
		jw_uint(w, "received_bytes", s.received_bytes);
		jw_uint(w, "stored_entries", s.stored_entries);
		jw_uint(w, "forwarded_entries", s.forwarded_entries);
		jw_uint(w, "dropped_entries", s.dropped_entries);
		jw_uint(w, "tt_hits_shared", s.tt_hits_shared);
		jw_int(w, "shared_depth", s.shared_depth);
		jw_end(w);
	}
	jw_end(w);
}

int cli_cluster_rank(const cli_cluster_t *cc) { return cc ? cc->rank : 0; }

#endif /* a cluster */

#ifdef CUTOFF_CLI_MPI
/* ---- MPI: the processes of mpirun ------------------------------------------------ */

cli_cluster_t *cli_cluster_start(const char *cmd, const cli_cluster_opts_t *o)
{
	int provided = MPI_THREAD_SINGLE, initialized = 0;
	MPI_Initialized(&initialized);
	if (!initialized &&
	    MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
		cli_error(cmd, "--algo cluster: MPI could not be started");
		return NULL;
	}
	MPI_Query_thread(&provided);
	if (provided < MPI_THREAD_MULTIPLE) {
		cli_error(cmd,
		          "--algo cluster: this MPI grants thread level %d, below "
		          "MPI_THREAD_MULTIPLE (%d), which the cluster needs: use an MPI "
		          "built with thread support (Debian's Open MPI has it)",
		          provided, MPI_THREAD_MULTIPLE);
		MPI_Finalize();
		return NULL;
	}
	cutoff_cluster_config_t cfg;
	cutoff_cluster_config_default(&cfg);
	cfg.exchange = o->exchange == 1   ? CUTOFF_CLUSTER_ALL
	               : o->exchange == 2 ? CUTOFF_CLUSTER_NONE
	                                  : CUTOFF_CLUSTER_RING;
	if (o->share_depth >= 0)
		cfg.min_depth = (int)o->share_depth;
	int err;
	cli_cluster_t *cc = calloc(1, sizeof(*cc));
	if (!cc || !(cc->cl = cutoff_cluster_new(MPI_COMM_WORLD, &cfg, &err))) {
		cli_error(cmd, "--algo cluster: the cluster could not be made: %s",
		          cc ? cutoff_strerror(err) : "out of memory");
		free(cc);
		MPI_Abort(MPI_COMM_WORLD, 1);
		return NULL;
	}
	MPI_Comm_dup(MPI_COMM_WORLD, &cc->lines);
	cc->opts = *o;
	cc->world = cc->cl;
	cc->rank = cutoff_cluster_rank(cc->cl);
	cc->size = cutoff_cluster_size(cc->cl);
	if (cc->rank != 0 && !freopen("/dev/null", "w", stdout))
		cli_error(cmd, "rank %d: cannot silence standard output", cc->rank);
	return cc;
}

bool cli_cluster_prepare(cli_cluster_t *cc, const int *ranks, int n)
{
	cutoff_cluster_config_t cfg;
	cutoff_cluster_config_default(&cfg);
	cfg.exchange = cc->opts.exchange == 1   ? CUTOFF_CLUSTER_ALL
	               : cc->opts.exchange == 2 ? CUTOFF_CLUSTER_NONE
	                                        : CUTOFF_CLUSTER_RING;
	if (cc->opts.share_depth >= 0)
		cfg.min_depth = (int)cc->opts.share_depth;
	bool ok = true;
	for (int k = 0; k < n; k++) {
		int r = ranks[k];
		if (r < 1 || r > cc->size || r > BENCH_RANKS_MAX || cc->first[r] || r == cc->size)
			continue;
		/* Collective over the world: the first r ranks get a communicator, the others
		 * none. The cluster duplicates it. */
		MPI_Comm sub;
		MPI_Comm_split(MPI_COMM_WORLD, cc->rank < r ? 0 : MPI_UNDEFINED, cc->rank, &sub);
		if (sub != MPI_COMM_NULL) {
			int err;
			cc->first[r] = cutoff_cluster_new(sub, &cfg, &err);
			ok &= cc->first[r] != NULL;
			MPI_Comm_free(&sub);
		}
	}
	return ok;
}

bool cli_cluster_use(cli_cluster_t *cc, int ranks)
{
	cc->cl = ranks == cc->size                        ? cc->world
	         : ranks >= 1 && ranks <= BENCH_RANKS_MAX ? cc->first[ranks]
	                                                  : NULL;
	return cc->cl != NULL;
}

int cli_cluster_size(const cli_cluster_t *cc) { return cc ? cc->size : 1; }

void cli_cluster_rendezvous(cli_cluster_t *cc)
{
	MPI_Request req;
	MPI_Ibarrier(cc->lines, &req);
	for (;;) {
		int done = 0;
		MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		nap_ms(1);
	}
}

/* Frees the lines whose sends completed (all of them, waiting, when `all`). */
static void reap(cli_cluster_t *cc, bool all)
{
	for (pending_t **p = &cc->pending; *p;) {
		pending_t *q = *p;
		int done = 0;
		if (all)
			MPI_Waitall(q->n, q->reqs, MPI_STATUSES_IGNORE);
		else
			MPI_Testall(q->n, q->reqs, &done, MPI_STATUSES_IGNORE);
		if (all || done) {
			*p = q->next;
			free(q->reqs);
			free(q->text);
			free(q);
		} else {
			p = &q->next;
		}
	}
}

void cli_cluster_send_line(cli_cluster_t *cc, const char *line)
{
	if (!cc || cc->rank != 0 || cc->size < 2)
		return;
	reap(cc, false);
	pending_t *q = calloc(1, sizeof(*q));
	size_t len = line ? strlen(line) : 0;
	if (len >= LINE_MAX_BYTES)
		len = LINE_MAX_BYTES - 1;
	if (q) {
		q->reqs = calloc((size_t)cc->size, sizeof(MPI_Request));
		q->text = malloc(len + 1);
	}
	if (!q || !q->reqs || !q->text) {
		cli_error("uci", "out of memory: the other ranks cannot be told a command; ending");
		MPI_Abort(MPI_COMM_WORLD, 1);
		return;
	}
	memcpy(q->text, line ? line : "", len);
	q->text[len] = '\0';
	for (int r = 1; r < cc->size; r++)
		MPI_Isend(q->text, (int)len + 1, MPI_CHAR, r, line ? TAG_LINE : TAG_END, cc->lines,
		          &q->reqs[q->n++]);
	q->next = cc->pending;
	cc->pending = q;
}

bool cli_cluster_recv_line(cli_cluster_t *cc, char *buf, size_t size)
{
	char *line = cc->line;
	MPI_Request req;
	MPI_Status st;
	MPI_Irecv(line, LINE_MAX_BYTES, MPI_CHAR, 0, MPI_ANY_TAG, cc->lines, &req);
	for (;;) {
		int done = 0;
		MPI_Test(&req, &done, &st);
		if (done)
			break;
		nap_ms(1); /* idle: leave the CPU to whatever else runs (the GUI's other engine) */
	}
	if (st.MPI_TAG == TAG_END)
		return false;
	snprintf(buf, size, "%s", line);
	return true;
}

void cli_cluster_end(cli_cluster_t *cc)
{
	if (!cc)
		return;
	reap(cc, true);
	MPI_Comm_free(&cc->lines);
	for (int r = 0; r <= BENCH_RANKS_MAX; r++)
		cutoff_cluster_free(cc->first[r]);
	cutoff_cluster_free(cc->world);
	free(cc);
	MPI_Finalize();
}

void cli_cluster_abort(cli_cluster_t *cc, int status)
{
	(void)cc;
	fflush(stdout);
	MPI_Abort(MPI_COMM_WORLD, status ? status : 1);
}

cli_cluster_t *cli_cluster_over(void *cluster, const cli_cluster_opts_t *o)
{
	(void)cluster;
	(void)o;
	return NULL; /* the simulator's only */
}

#elif defined(CUTOFF_SIM)
/* ---- the simulator: a rank's cluster on the simulated network (src/cli/cmd_sim.c) ---- */

cli_cluster_t *cli_cluster_over(void *cluster, const cli_cluster_opts_t *o)
{
	cli_cluster_t *cc = calloc(1, sizeof(*cc));
	if (!cc)
		return NULL;
	cc->cl = cluster;
	cc->opts = *o;
	cc->rank = cutoff_cluster_rank(cc->cl);
	cc->size = cutoff_cluster_size(cc->cl);
	return cc;
}

cli_cluster_t *cli_cluster_start(const char *cmd, const cli_cluster_opts_t *o)
{
	(void)o;
	cli_error(cmd, "--algo cluster runs under mpirun with the real cutoff; the simulator's "
	               "cluster is `cutoff sim --drivers cluster --ranks LIST`");
	return NULL;
}

bool cli_cluster_prepare(cli_cluster_t *cc, const int *ranks, int n)
{
	(void)cc;
	(void)ranks;
	(void)n;
	return true;
}
bool cli_cluster_use(cli_cluster_t *cc, int ranks) { return cc && cc->size == ranks; }
int cli_cluster_size(const cli_cluster_t *cc) { return cc ? cc->size : 1; }
void cli_cluster_rendezvous(cli_cluster_t *cc) { (void)cc; }
void cli_cluster_end(cli_cluster_t *cc)
{
	if (!cc)
		return;
	cutoff_cluster_free(cc->cl);
	free(cc);
}
void cli_cluster_abort(cli_cluster_t *cc, int status)
{
	(void)cc;
	exit(status ? status : 1);
}
void cli_cluster_send_line(cli_cluster_t *cc, const char *line)
{
	(void)cc;
	(void)line;
}
bool cli_cluster_recv_line(cli_cluster_t *cc, char *buf, size_t size)
{
	(void)cc;
	(void)buf;
	(void)size;
	return false;
}

#else /* neither MPI nor the simulator: the command says how to get MPI */

cli_cluster_t *cli_cluster_over(void *cluster, const cli_cluster_opts_t *o)
{
	(void)cluster;
	(void)o;
	return NULL;
}

cli_cluster_t *cli_cluster_start(const char *cmd, const cli_cluster_opts_t *o)
{
	(void)o;
	cli_error(cmd, "--algo cluster: this cutoff was built without MPI (skipped: MPI not "
	               "found); on Debian: apt-get install libopenmpi-dev openmpi-bin, then "
	               "rebuild");
	return NULL;
}

int cli_cluster_rank(const cli_cluster_t *cc)
{
	(void)cc;
	return 0;
}
const char *cli_cluster_text(const cli_cluster_t *cc, char *buf, size_t size)
{
	(void)cc;
	snprintf(buf, size, "none");
	return buf;
}
void cli_cluster_configure(cli_cluster_t *cc, cutoff_config_t *cfg)
{
	(void)cc;
	(void)cfg;
}
int cli_cluster_search(cli_cluster_t *cc, cutoff_engine_t *e, const void *root,
                       const cutoff_limits_t *lim, cutoff_result_t *r, cutoff_info_fn info,
                       void *info_user)
{
	(void)cc;
	return cutoff_engine_search(e, root, lim, r, info, info_user);
}
int cli_cluster_search_by(void *user, cutoff_engine_t *e, const void *root,
                          const cutoff_limits_t *lim, cutoff_result_t *r)
{
	return cli_cluster_search(user, e, root, lim, r, NULL, NULL);
}
void cli_cluster_stop(cli_cluster_t *cc) { (void)cc; }
void cli_cluster_cancel_stop(cli_cluster_t *cc) { (void)cc; }
bool cli_cluster_stats(const cli_cluster_t *cc, int rank, cli_rank_stats_t *out)
{
	(void)cc;
	(void)rank;
	(void)out;
	return false;
}
int cli_cluster_size(const cli_cluster_t *cc)
{
	(void)cc;
	return 1;
}
void cli_cluster_rendezvous(cli_cluster_t *cc) { (void)cc; }
bool cli_cluster_prepare(cli_cluster_t *cc, const int *ranks, int n)
{
	(void)cc;
	(void)ranks;
	(void)n;
	return false;
}
bool cli_cluster_use(cli_cluster_t *cc, int ranks)
{
	(void)cc;
	(void)ranks;
	return false;
}
const char *cli_cluster_error(const cli_cluster_t *cc)
{
	(void)cc;
	return "";
}
void cli_cluster_print_ranks(const cli_cluster_t *cc, FILE *out)
{
	(void)cc;
	(void)out;
}
void cli_cluster_json_ranks(const cli_cluster_t *cc, json_writer_t *w, const char *key)
{
	(void)cc;
	(void)w;
	(void)key;
}
void cli_cluster_end(cli_cluster_t *cc) { (void)cc; }
void cli_cluster_abort(cli_cluster_t *cc, int status)
{
	(void)cc;
	exit(status);
}
void cli_cluster_send_line(cli_cluster_t *cc, const char *line)
{
	(void)cc;
	(void)line;
}
bool cli_cluster_recv_line(cli_cluster_t *cc, char *buf, size_t size)
{
	(void)cc;
	(void)buf;
	(void)size;
	return false;
}

#endif
