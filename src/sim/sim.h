/* SPDX-License-Identifier: MIT */
/*
 * sim.h — the simulator of many threads on one: what `cutoff sim` drives (internal).
 *
 * A simulator (cutoff_sim_t) belongs to one OS thread, on which it is installed; while it
 * is, every engine that thread creates runs its pool's threads as virtual threads
 * (sim/sched.c), in virtual time, under the cost model and schedule given here. Only the
 * objects compiled with CUTOFF_SIM have it (the `cutoff sim` program); docs/simulation.md.
 *
 * No sim.c: sched.c defines the simulator's object (new, install, stats, time) beside the
 * scheduler whose state it is, and model.c the cost model's functions.
 */
#ifndef CUTOFF_SIM_SIM_H
#define CUTOFF_SIM_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The cost model: virtual time, in picoseconds, of each thing a virtual thread does.
 * Work (node, tt_probe, tt_store, tt_store_other, lock, lock_handoff, split, join, and a
 * cache line's transfer and atomic) is charged to the thread that does it; waiting (spin,
 * wake, start, and a line's turn behind the transfers before it) moves its clock only.
 */
typedef struct cutoff_sim_model {
	uint64_t node; /* one node of the search (the workload's own, below, when set) */
	uint64_t node_chess, node_connect4, node_rtree; /* one node of each workload, 0: `node` */
	uint64_t node_jitter; /* NOT time: each node's cost varies by up to this percent (x1000) */
	uint64_t tt_probe;    /* one table probe, beyond the node's own cost */
	uint64_t tt_store;    /* one table store that writes, beyond the node's */
	uint64_t tt_store_other; /* more, when another thread wrote that bucket last (the old
	                            model's flat coherence cost; 0 once line_transfer is set) */
	uint64_t tt_visible;     /* a table write is seen by the others this much later */
	uint64_t lock;           /* taking a free lock */
	uint64_t lock_handoff;   /* more, when another thread released it last (the old
	                            model's; 0 once line_transfer charges the lock's line) */
	uint64_t spin;           /* one look of a spin-wait while it pauses */
	uint64_t yield;          /* a look after the pauses: a yield (a system call) */
	uint64_t split;          /* making a split point and booking its helpers */
	uint64_t join;           /* a helper taking a split point's state */
	uint64_t wake;           /* from a wake-up to the sleeper running */
	uint64_t start;          /* from the pool's hand-over to a worker running, and back */
	uint64_t quantum;        /* a thread may run this far ahead of the earliest other */
	/* The cache lines (sched.c, "lines"): 0 turns each part off. */
	uint64_t line_transfer; /* a line moved from another core's cache, one at a time */
	uint64_t atomic;        /* a read-modify-write's own cost (a locked instruction) */
	uint64_t sockets;       /* NOT time: the sockets the threads are spread over (x1000) */
	uint64_t numa_transfer; /* more, when the line comes from the other socket */
	uint64_t net_latency;   /* a simulated cluster's message, from send to deliverable */
	uint64_t
		net_epoch; /* its ranks meet every this much virtual time (cluster/transport_sim.h) */
	uint64_t fiber;    /* a driver's fiber switch (DTS), beyond the work around it */
} cutoff_sim_model_t;

/* The model's fields by name, for the files and the reports (sim/model.c). */
typedef enum cutoff_sim_unit {
	CUTOFF_SIM_NS,      /* nanoseconds (kept in picoseconds) */
	CUTOFF_SIM_PERCENT, /* 0 .. 100 (kept in thousandths) */
	CUTOFF_SIM_COUNT    /* a whole number 1 .. 64 (kept in thousandths) */
} cutoff_sim_unit_t;

typedef struct cutoff_sim_field {
	const char *name;
	size_t offset;
	cutoff_sim_unit_t unit;
	const char *what;
	/* The least value a file may give (picoseconds; 0: none), and why: below it the
	 * simulation degenerates (it does far more work per virtual second than a search). */
	uint64_t least;
	const char *why_least;
} cutoff_sim_field_t;
extern const cutoff_sim_field_t cutoff_sim_fields[];
extern const int cutoff_sim_nfields;

/* The defaults: see sim/model.c for where each comes from. */
void cutoff_sim_model_default(cutoff_sim_model_t *m);

/* The model for a workload ("chess", "connect4", "rtree"): `node` set to its own. */
cutoff_sim_model_t cutoff_sim_model_for(const cutoff_sim_model_t *m, const char *workload);

/* Reads a cost model file ('name value-in-ns' lines of any length, the value a decimal
 * number, '#' comments; the fields not named keep their values in *m). Returns false with
 * a message in err (naming the file, the line and what is wrong: for a value below its
 * field's least, the field, the least and why) when the file cannot be read or a line is
 * wrong. */
bool cutoff_sim_model_read(const char *path, cutoff_sim_model_t *m, char *err, size_t errlen);

/* Writes the model as a file that cutoff_sim_model_read reads back exactly. */
void cutoff_sim_model_write(FILE *f, const cutoff_sim_model_t *m, const char *comment);

typedef enum cutoff_sim_schedule {
	CUTOFF_SIM_CLOCK,  /* the thread with the smallest clock runs (ties: the lower index) */
	CUTOFF_SIM_RANDOM, /* a seeded random choice among the runnable at every point */
} cutoff_sim_schedule_t;

typedef struct cutoff_sim cutoff_sim_t;

/* Figures of the simulator since it was made or last reset (times in picoseconds). */
typedef struct cutoff_sim_stats {
	uint64_t jobs;       /* the pools' jobs run (one per search, and the table clears) */
	uint64_t points;     /* points where the scheduler decided (a thread past its limit;
	                        every point under the random schedule) */
	uint64_t switches;   /* switches between virtual threads */
	uint64_t spin_looks; /* spin-wait looks and yields */
	uint64_t sleeps, wakes;
	uint64_t work;      /* work charged, all threads */
	uint64_t span;      /* the longest chain of dependent work in a job, summed over jobs */
	uint64_t elapsed;   /* virtual time in the jobs, summed over jobs */
	bool span_partial;  /* the span's map of synchronisation addresses overflowed */
	uint64_t transfers; /* cache lines moved between virtual threads (sched.c, "lines") */
	uint64_t line_work; /* their cost, and the atomics', charged as work */
	uint64_t line_wait; /* time spent waiting behind the transfers before one's own */
} cutoff_sim_stats_t;

/* A new simulator, or NULL when out of memory. `seed` drives the random schedule. */
cutoff_sim_t *cutoff_sim_new(const cutoff_sim_model_t *m, cutoff_sim_schedule_t schedule,
                             uint64_t seed);
void cutoff_sim_free(cutoff_sim_t *sim);

/* Installs sim on the calling OS thread (NULL: none). Not while a job runs. */
void cutoff_sim_install(cutoff_sim_t *sim);

/* The seed for the engines made from now on (their random schedule and node jitter). */
void cutoff_sim_set_seed(cutoff_sim_t *sim, uint64_t seed);

/* The model for the next jobs (e.g. another workload's node cost). Not while a job runs. */
void cutoff_sim_set_model(cutoff_sim_t *sim, const cutoff_sim_model_t *m);
const cutoff_sim_model_t *cutoff_sim_model(const cutoff_sim_t *sim);

void cutoff_sim_stats(const cutoff_sim_t *sim, cutoff_sim_stats_t *out);
void cutoff_sim_reset_stats(cutoff_sim_t *sim);

/* The virtual time now (ns): what the engine's clock reads between searches. */
uint64_t cutoff_sim_time_ns(const cutoff_sim_t *sim);

/* Virtual time passes by `ns` for the calling OS thread's simulator (installed): its `now`
 * between jobs, or the running virtual thread's clock (a wait that is no work). The
 * simulated network's naps (cluster/transport_sim.c); nothing when none is installed. */
void cutoff_sim_wait_ns(uint64_t ns);

/* The simulator's `now` moves forward to `ns` (no earlier): the ranks of a simulated
 * cluster start from one time. Not while a job runs. */
void cutoff_sim_advance_to(cutoff_sim_t *sim, uint64_t ns);

/* What to do when every virtual thread sleeps (a deadlock in the code simulated): called
 * with a description; it must not return (the default prints it and aborts). */
void cutoff_sim_on_deadlock(cutoff_sim_t *sim, void (*fn)(const char *what, void *arg), void *arg);

#endif /* CUTOFF_SIM_SIM_H */
