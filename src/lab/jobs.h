/* SPDX-License-Identifier: MIT */
/*
 * jobs.h — the runs of `cutoff sim` measured (jobs.c): in this process, or on --jobs
 * processes whose records are merged back in the sweep's order, with the progress line and
 * the time left.
 */
#ifndef CUTOFF_LAB_JOBS_H
#define CUTOFF_LAB_JOBS_H

#include "lab/types.h"

/* Measures the runs b->res.runs[first .. first + count), made (bench_run_new) and not yet
 * measured, each with the simulator's hooks around it (b->sim, which must be set), on
 * b->sim->jobs processes at most (this one alone when 1, or when there is one run) and
 * sets b->res.jobs to the processes used. Each record ends as a one-process sweep leaves it,
 * but for the real seconds (sim_real_s). True when every run was measured; false after a
 * line that names the run that failed (and every process started reaped). A SIGINT,
 * SIGTERM or SIGHUP while processes run stops and reaps them, then ends this process by
 * that signal. */
bool bench_jobs_run(bench_t *b, int first, int count);

#endif /* CUTOFF_LAB_JOBS_H */
