/* SPDX-License-Identifier: MIT */
/*
 * types.h — what the files of the lab (src/lab/) share: the workloads, the runs, the
 * rows, the whole sweep's state (bench_t, in parts by lifetime), how the lab's errors
 * come back to the command as values (bench_error_t), and the limits they are sized by.
 * Types and constants only, with no .c file of its own: every file of the module includes
 * it, and it includes none of them but suite.h (the suite's entries, which the results
 * hold; suite.h includes no other file of the lab), so that the module's files can call
 * one another in one direction only (bench.h says which way).
 *
 * A *run* is one setting (workload, engine, thread count, repeat) over every position of
 * the workload, each searched on a fresh table; its time is the sum of the searches' own
 * times (result.time_s), its counters the sum of theirs. The engine is one of the
 * library's drivers, every one of its registry by default (cutoff_driver_count), or
 * Stockfish, a row of its own kind beside them (`stockfish` true; its `driver` is not
 * read). A *row* is one setting over its repeats: medians, with the spread of the time,
 * and the figures derived against the baseline, the library's default driver (the serial
 * search) at one thread on the same positions.
 *
 * The library's profiler (cutoff_profile_t, the node-type and split counters of
 * cutoff_counters_t) is read in bench_take() too: each thread's time split into searching,
 * idle, split-wait and lock-spin, and its depths. When the library was built without it
 * (cutoff_profile_available() false) those figures are NAN here and read "n/a" in every
 * output, never 0.
 */
#ifndef CUTOFF_LAB_TYPES_H
#define CUTOFF_LAB_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "cutoff.h"
#include "cutoff_games.h"
#include "lab/suite.h"

enum {
	BENCH_CHESS = 0,
	BENCH_CONNECT4 = 1,
	BENCH_RTREE = 2,
	BENCH_NWORKLOADS = 3
};

/* The most thread counts in one sweep, positions in one workload, drivers in the
 * library's registry (checked against cutoff_driver_count() when the bench starts). */
enum {
	BENCH_MAX_COUNTS = 64,
	BENCH_MAX_ITEMS = 1000,
	BENCH_MAX_DRIVERS = 16
};

/* The memory probes: at most this many CPUs for the latency (the first of those the run
 * uses), arrays of at most this many MiB (a larger table is probed at this size). */
enum {
	BENCH_MAX_CPUS = 64,
	BENCH_PROBE_MAX_MB = 1024,
	BENCH_PROBE_THREADS = 64 /* threads of one probe at most: a larger count runs this
	                            many, and its scaling is out of this many */
};

/* The cluster's rows, under `mpirun -np W cutoff bench` (W >= 2): for each rank count R
 * of --ranks (1 .. W), ranks 0 .. R-1 each run lazy SMP on the row's threads over their
 * own table, sharing their deep entries (src/kit/ranks.c, docs/cluster.md). Rank 0
 * measures every row; the other ranks only take part in the cluster's rows they belong
 * to (waiting, napping, while rank 0 runs the others). b->set.drivers[BENCH_CLUSTER] says
 * that the cluster was asked for; a cluster row's or run's `driver` is
 * BENCH_CLUSTER_ROW + R, so that rows of different rank counts are different engines. */
#define BENCH_CLUSTER (BENCH_MAX_DRIVERS - 1)
enum {
	BENCH_CLUSTER_ROW = 1000,
	BENCH_MAX_RANKS = 32 /* the largest R of --ranks */
};
static inline bool bench_is_cluster(int driver) { return driver > BENCH_CLUSTER_ROW; }

/* `cutoff sim --jobs`: the most processes that measure the runs (jobs.c). */
enum {
	BENCH_MAX_JOBS = 256
};

/* The report folder's files (folder.c): at most this many, each name shorter than this. */
enum {
	BENCH_MAX_FILES = 40,
	BENCH_FILE_NAME = 32
};

/* One rank's share of a cluster run, summed over the positions (cutoff_cluster_stats). */
typedef struct bench_rank {
	double nodes, time_s, comm_s;
	double sent_entries, received_entries, stored_entries, sent_bytes, tt_hits_shared;
} bench_rank_t;

/*
 * The figures of the drivers that produce them, from cutoff_counters_t: YBW's split
 * points and ABDADA's deferred moves. Described once, with the three writers walking the
 * description (results.c); a row's figure is NAN ("n/a") unless at least one of its
 * runs counted what the figure is about, so that each driver's figures show on its own
 * rows only, whatever the driver is called.
 */
enum {
	BENCH_FIG_SPLITS,        /* split points (summed over positions) */
	BENCH_FIG_HELPERS,       /* helpers per split point */
	BENCH_FIG_SPLIT_CUT,     /* the share of split points that cut off */
	BENCH_FIG_LOST,          /* nodes thrown away (split_nodes_lost) / nodes */
	BENCH_FIG_AFTER_CUT,     /* nodes done after a split point's cut (..._after_cut) / nodes */
	BENCH_FIG_DEFERRED,      /* moves deferred (summed over positions) */
	BENCH_FIG_DEFERRED_TT,   /* of those, the share the table answered when revisited */
	BENCH_FIG_DEFERRED_BUSY, /* of those, the share still busy when revisited */
	BENCH_FIG_SECOND_PASSES, /* nodes that came back to deferred moves */
	BENCH_FIG_BUSY_COLLISIONS, /* busy marks that met another position's */
	BENCH_FIG_LAZYSMP_IDLE,    /* lazy SMP's helpers that did not search (summed) */
	BENCH_NFIGS
};

/* One position of a workload. */
typedef struct bench_item {
	char label[48];    /* where it comes from: "sf_bench 1", "Test_L1_R2:3", "seed 1" */
	char text[128];    /* FEN, Connect Four move string, or the tree's seed */
	int depth;         /* plies searched (Connect Four: to the end of the game) */
	int score;         /* Connect Four: the test set's score (for the check) */
	double branching;  /* mean moves per position over the first two plies (measured) */
	char ref_move[16]; /* chess: the move of a deeper serial search, "" when unknown */
	int ref_depth;
	int sf_depth;                    /* chess: Stockfish's depth, 0 until chosen */
	_Alignas(16) uint64_t state[16]; /* the root (every adapter's state fits in 128 bytes) */
} bench_item_t;

typedef struct bench_workload {
	int kind; /* BENCH_CHESS .. */
	const cutoff_game_t *game;
	cutoff_chess_t *chess;
	cutoff_rtree_t *rtree;
	cutoff_rtree_params_t rparams;
	uint64_t seed;
	int nitems;
	bench_item_t *items;
	cutoff_config_t cfg; /* every engine setting but threads and driver */
	char source[320];    /* where the positions come from, in words */
	char settings[320];  /* the search settings, in words */
	/* From the serial run at one thread (bench_ceiling_derive; NAN until then): the table's
	 * probes and stores per node, the time per node, and the shares of that time spent on
	 * table reads and writes by the rule of ceiling.c. */
	double probes_per_node, stores_per_node, node_ns, share_reads, share_writes;
} bench_workload_t;

/* One thread's part of a run, from the profiler: its cutoff_profile_t summed over the
 * positions searched (times in seconds; the depths summed too, so that depth / the run's
 * `profiled` is the mean per position). */
typedef struct bench_thread {
	double time_s, search_s, idle_s, split_wait_s, lock_s;
	double depth_reached, depth_completed;
} bench_thread_t;

/* One measured run (one setting, one repeat, every position of the workload). */
typedef struct bench_run {
	int workload, driver, threads, repeat; /* repeat from 1 */
	bool stockfish;                        /* Stockfish's run: `driver` is not read */
	double time_s;                         /* summed over positions */
	cutoff_counters_t counters;            /* summed (seldepth: the maximum) */
	uint64_t *thread_nodes;                /* [threads], summed over positions */
	/* Per iteration depth, summed over positions: nodes, leaves, and how many positions
	 * completed that depth (only depths every position completed are used). Under YBW an
	 * iteration's counters are thread 0's without its helpers (cutoff.h). */
	uint64_t it_nodes[CUTOFF_MAX_PLY], it_leaves[CUTOFF_MAX_PLY];
	int it_items[CUTOFF_MAX_PLY];
	uint64_t *item_nodes;  /* [nitems] */
	double *item_time;     /* [nitems] */
	char (*item_move)[16]; /* [nitems]: the best move as text */
	int *item_depth;       /* [nitems]: the depth completed */
	int32_t *item_value;   /* [nitems]: the value (connect4: the weak score -1, 0, 1) */
	int mismatches;        /* Connect Four: values that differ from the test set's */
	/* The leaves of each position's last iteration, and the minimal trees of its depth
	 * and measured branching factor, summed (NAN where it does not apply). */
	double last_leaves, minimal;
	bool incomplete_threads;     /* per-thread figures miss some searches (see bench_take) */
	bench_thread_t *thread_prof; /* [threads]: the profiler's, summed over positions */
	int profiled;                /* searches whose per-thread profiles were read */
	/* The time split of the run: each part summed over threads and positions, over the
	 * threads' time summed likewise (thread-seconds of the searches' spans); NAN without
	 * the profiler or with incomplete per-thread figures (bench_run_shares). */
	double share_search, share_idle, share_split_wait, share_lock_spin;
	/* `cutoff sim` only (NAN otherwise): the simulator's figures of the run (bench_sim_t):
	 * the work charged and the work/span span summed over the run's jobs (virtual s),
	 * switches between virtual threads, and the real seconds the simulation took. */
	double sim_work_s, sim_span_s, sim_switches, sim_real_s;
	/* The cluster's runs only (else NULL, 0): each of its nranks ranks' share. */
	bench_rank_t *rank_prof;
	int nranks;
	/* (An array added here is added to jobs.c's run_arrays too: a record from another
	 * process carries the arrays that list names.) */
} bench_run_t;

/* One setting over its repeats, with the figures derived from it. NAN: not applicable. */
typedef struct bench_row {
	int workload, driver, threads;
	bool stockfish; /* Stockfish's row: `driver` is not read */
	int nruns;
	bool oversubscribed; /* more threads than cores */
	double time_med, time_min, time_max;
	double nodes_med, nps_med, nps_min, nps_max;
	double speedup;                               /* T(serial, 1) / T(this): the headline */
	double speedup_self;                          /* T(this driver, 1) / T(this) */
	double efficiency;                            /* speedup / threads */
	double nps_scaling;                           /* nps(this) / nps(serial, 1) */
	double overhead;                              /* nodes(this) / nodes(serial, 1) */
	double thr_nps_min, thr_nps_med, thr_nps_max; /* per-thread node rates */
	double fmc_rate;                              /* first-move cut-offs / cut-offs */
	/* The profiler's figures (NAN without it, for Stockfish, or where they do not apply).
	 * Time: shares of the threads' summed time; sync = split wait + lock spin. */
	double search_share, idle_share, split_wait_share, lock_share, sync_share;
	double cut_first_rate;      /* cut_node_first_cutoffs / cut_node_cutoffs */
	double cut_wrong;           /* cut_nodes_wrong / nodes_cut */
	double all_wrong;           /* all_nodes_wrong / nodes_all */
	double tt_other;            /* tt_hits_other / tt_hits: only with --profile-tt-writers */
	double fig[BENCH_NFIGS];    /* the drivers' own figures (BENCH_FIG_*), NAN where none */
	double minimal_ratio;       /* last-iteration leaves / minimal tree */
	int ebf_from, ebf_to;       /* depths with an effective branching factor */
	double ebf[CUTOFF_MAX_PLY]; /* nodes(d) / nodes(d - 1) */
	int mismatches;
	int median_run; /* index in bench_t.res.runs of the run of median time */
	/* The ceiling that applies (ceiling.c), the part it is bound by (0 compute, 1
	 * reads, 2 writes; -1 none), and the speed-up over it; NAN: not applicable. */
	double ceiling;
	int ceiling_bound;
	double of_ceiling;
	/* `cutoff sim` only (NAN otherwise), of the run of median time: work / span, the
	 * speed-up the run's dependencies would allow any number of threads; simulated nodes
	 * per real second; switches between virtual threads per node. */
	double parallelism, sim_nps, sim_switches_per_node;
} bench_row_t;

/*
 * The memory probes of one table size (probe.c says how each is measured). Per
 * repeat r (from 0) and thread count counts[c]: read[c * repeat + r] and write[...] are
 * the scalings of random loads from, and read-modify-writes into, one array shared by
 * counts[c] threads (NAN at one thread); read_ns[r] and write_ns[r] one thread's time per
 * access; latency[k * repeat + r] the nanoseconds of a dependent load on cpus[k].
 */
typedef struct bench_mem {
	size_t table_mb; /* the workloads' table size */
	size_t probe_mb; /* the array probed: table_mb, at most BENCH_PROBE_MAX_MB */
	uint64_t *words;
	uint64_t lines;                 /* 64-byte lines of the array */
	uint64_t read_work, write_work; /* accesses per thread, set on first use */
	double *read, *write, *read_ns, *write_ns, *latency;
} bench_mem_t;

/* Quality at equal time: one position at a fixed time, one setting. */
typedef struct bench_quality {
	int driver, threads, item; /* item: of the chess workload, or of the suite */
	int depth;
	char move[16];
	bool agree; /* with the item's reference move (the suite's best) */
	uint64_t nodes;
	int loss;        /* --quality-suite: the move's centipawn loss (suite.h) */
	bool loss_bound; /* the move is not in the reference's list: loss is its least */
} bench_quality_t;

struct bench;

/* `cutoff sim`: the same sweep on virtual threads, the lab's runner (virtual.c). A
 * simulator is installed on the sweep's thread before the sweep; these hooks run around
 * each run, the first to put a simulator made afresh for the run in its place, with the
 * workload's cost model and the repeat's seed (false after one line of error when it cannot), the
 * second to read its figures into the run (its sim_* fields). The machine's probes,
 * Stockfish and --hog do not apply, since the times are virtual; the equal-time quality
 * runs do, on the virtual clock. */
typedef struct bench_sim {
	void *ctx;
	char model[768]; /* the cost model and schedule, in words, for the report's header */
	bool (*before)(void *ctx, const struct bench *b, bench_run_t *run);
	void (*after)(void *ctx, const struct bench *b, bench_run_t *run);
	/* A cluster row's run (driver BENCH_CLUSTER_ROW + R): R simulated ranks on a
	 * simulated network, rank 0 on this thread measuring into `run` (bench_run with
	 * b->mpi.cluster its cluster), the others on threads of their own. */
	bool (*cluster_run)(void *ctx, struct bench *b, bench_run_t *run);
	/* --jobs: the processes that measure the runs, at most (1: this one alone; jobs.c). */
	int jobs;
} bench_sim_t;

/*
 * The sweep's state (bench_t), split by lifetime: each part says who writes it and when.
 * A function that needs one part only takes that part (the writers of the report read
 * the settings and the results).
 */

/* What the command line set: written by bench.c while it parses and applies the options
 * (apply_options, setup_cluster), read-only from the sweep's first run on. Two late
 * exceptions, both before the sweep: out_dir, which name_report points at the folder's
 * new name when --out was not given, and the followers of a cluster, whose progress,
 * stockfish, quality_ms and hog setup_cluster turns off (and a --jobs child its own
 * progress, jobs.c). */
typedef struct bench_settings {
	int counts[BENCH_MAX_COUNTS], ncounts;
	bool drivers[BENCH_MAX_DRIVERS]; /* indexed by cutoff_driver_t */
	int base;                        /* the baseline driver: cli_driver_default() */
	bool workloads[BENCH_NWORKLOADS];
	int repeat;
	int64_t quality_ms;
	const char *quality_suite;   /* --quality-suite: the file, or NULL */
	bool tt_writers;             /* --profile-tt-writers: config.profile_tt_writers on */
	cutoff_config_t cfg;         /* the engine template as given (cutoff_config_default, then
	                        --placement and the drivers' options); each run sets its own
	                        threads, driver, algorithm and table */
	const char *stockfish;       /* the binary, or NULL */
	int64_t stockfish_timeout_s; /* the longest Stockfish may stay silent (seconds) */
	const char *out_dir;
	bool replace; /* --replace: an earlier report in out_dir is removed (folder.c) */
	int plot;     /* 0 none, 1 svg, 2 png */
	const char *note;
	int hog;           /* --hog: processes spinning beside the sweep */
	bool progress;     /* the progress line on stderr (not --no-progress; rank 0) */
	bool progress_tty; /* stderr is a terminal: the line is redrawn in place */
} bench_settings_t;

/* What was found out about the machine and the programs on it: the topology and the
 * profiler's presence when the options are applied, the date and the CPU's name when the
 * report is named, Stockfish's name when it first answers, the probes (probe.c) before
 * each repeat, the load before and after the sweep. Read by the rows and the report. */
typedef struct bench_machine {
	int cores, pus, packages, numa;
	bool profiled; /* cutoff_profile_available() */
	char date[40];
	char cpu_model[128];
	char stockfish_name[96];
	double load_before, load_after;
	/* The machine's ceiling: ceiling[c * repeat + r - 1] is how many times as fast a
	 * CPU-bound loop ran on counts[c] threads as on one, measured before repeat r (NAN for
	 * one thread). What the hardware (and the other tenants of a shared host) let the
	 * search have: a node-rate scaling above it is not the search's doing. */
	double *ceiling;
	uint64_t spin_work; /* the compute loop's rounds, set on first use */
	/* The memory probes, one per distinct table size of the run's workloads (none for a
	 * table of 0 MiB); the CPUs of the latency probe; the PU of each probe thread (-1:
	 * unbound), as the run's placement puts the engine's; the probes' time per repeat. */
	bench_mem_t mem[BENCH_NWORKLOADS];
	int nmem;
	int cpus[BENCH_MAX_CPUS], ncpus;
	int probe_pu[BENCH_PROBE_THREADS];
	double *probe_s;
} bench_machine_t;

/* The sweep's inputs and outputs: the workloads' and the suite's positions, loaded before
 * the sweep (work.c, suite.c; the serial runs' table figures written into work[] by
 * ceiling.c after it); the runs, made by bench.c and measured by work.c (or jobs.c's
 * processes, which also set jobs); the quality runs (work.c, stockfish.c); the rows
 * (rows.c) and the wall time once the sweep is done; plot_note when the plots are drawn. */
typedef struct bench_results {
	bench_workload_t work[BENCH_NWORKLOADS];
	bench_suite_t suite; /* --quality-suite's positions (suite.n 0 without it) */
	bench_run_t *runs;
	int nruns, cap_runs;
	bench_quality_t *quality;
	int nquality, cap_quality;
	bench_row_t *rows;
	int nrows;
	int jobs; /* the processes that measured the runs (cutoff sim --jobs); 1 */
	double wall_s;
	char plot_note[256]; /* what happened to the plots, in words */
} bench_results_t;

/* The report folder's state, written by folder.c only: made and claimed before the sweep,
 * its files recorded as they are written, the claim given back when the bench ends. */
typedef struct bench_folder {
	/* Without --out: out_dir is out_name, STEM-YYYYMMDD-HHMMSS, made new by folder.c (with
	 * -2, -3, ... when another run has that name), stem_len its length without suffix. */
	bool out_fresh;
	char out_name[64];
	size_t stem_len;
	/* The claim on out_dir: the descriptor of its locked claim file, -1 while none is
	 * held, and the process that took it (the only one that gives it back). */
	int claim_fd;
	pid_t claim_pid;
	/* The files of the report written so far, by name in out_dir (bench_folder_file):
	 * report-files.txt lists them. */
	char files[BENCH_MAX_FILES][BENCH_FILE_NAME];
	int nfiles;
} bench_folder_t;

/* The cluster's ranks, set up by bench.c's setup_cluster before the workloads are loaded
 * (under mpirun, or simulated under `cutoff sim`); `cluster` is also set and cleared around
 * each simulated cluster run by virtual.c. */
typedef struct bench_mpi {
	struct cli_cluster *cluster; /* under mpirun with the cluster's rows; else NULL */
	int ranks;                   /* the processes under mpirun (1 without it) */
	int rank_counts[BENCH_MAX_RANKS], nrank_counts; /* --ranks: the cluster's rows */
	bool follower; /* a rank other than 0: takes part in the cluster's runs only,
	                  measures and writes nothing */
} bench_mpi_t;

/*
 * The lab's errors are values. A function of the lab that fails records its message with
 * bench_fail (common.h): the text that cli_error would have printed after "cutoff CMD: ",
 * one message each, in the order they come (a failure may say first what failed beneath
 * it, then what that ended); then it returns false, -1 or an exit status upward. No file
 * of the lab prints an error: the command that called the lab gives it an empty
 * bench_error_t and, once the lab has returned, prints each message (bench_error_next)
 * with cli_error, so that each reads "cutoff CMD: MESSAGE" as before. Three ways out of
 * the lab never return to the command: a --jobs child's exit and the stopping signal
 * that ends the parent (jobs.c), and a rank's abort of the whole cluster
 * (bench_abort_cluster); there the lab hands what it recorded to `print`, the command's
 * printer, first (bench_error_flush). Threads of their own (virtual.c's simulated ranks)
 * record into a bench_error_t of their own, with the same printer, appended to the
 * sweep's once they are joined.
 */
typedef struct bench_error {
	char text[4096]; /* the messages recorded, one after another, each ended by its '\0' */
	size_t len;      /* the bytes of text used: 0 while none */
	void (*print)(const char *cmd, const char *message); /* the command's: cli_error_text */
} bench_error_t;

/* Everything the sweep asked and measured. */
typedef struct bench {
	const char *cmd;        /* "bench" or "sim": the command, in every message */
	const bench_sim_t *sim; /* `cutoff sim`; NULL for `cutoff bench` */
	bench_error_t *err;     /* the command's, where every failure is recorded */
	bench_settings_t set;
	bench_mpi_t mpi;
	bench_machine_t mach;
	bench_folder_t folder;
	bench_results_t res;
} bench_t;

#endif /* CUTOFF_LAB_TYPES_H */
