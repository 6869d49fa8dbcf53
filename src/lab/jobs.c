/* SPDX-License-Identifier: MIT */
/*
 * jobs.c — the runs of `cutoff sim` measured, in this process or on --jobs processes, with
 * a progress line that says the time left.
 *
 * Why runs may go to other processes. A simulation is one OS thread (its virtual threads
 * are coroutines on it), so one process uses one CPU. A run (one setting: workload,
 * driver, thread count and repeat, over every position of the workload) makes its engine
 * afresh, and a simulated engine starts afresh too (sim/sched.c's cutoff_pool_new: its
 * random generators from the seed, the table's last writers cleared); the seed and the
 * model are set for the run (virtual.c's before hook), and virtual time enters a run only as
 * differences of whole nanoseconds. So a run's record is the same whichever runs came
 * before it, in whichever process: docs/simulation.md, "Determinism".
 *
 * How. bench.c makes every run's record in b->res.runs, in the sweep's order (repeat,
 * workload, driver, thread count), before any is measured. With one process they are
 * measured here in that order, as they always were. With N, N children are forked once
 * the workloads are loaded (each has its copy of the positions, the settings and the
 * simulator), and each is handed run indices over a pipe of its own, one at a time; it
 * measures the run into its copy of the record and writes the record back over a second
 * pipe: a header (a magic word, the index), the struct, then its arrays, whose sizes the
 * parent knows already (run_arrays). The parent checks the header and the setting, copies
 * the values into b->res.runs at the run's index (keeping its own arrays), and hands that
 * child the next run. So b->res.runs ends as a one-process sweep leaves it, whatever order the
 * runs were measured in, and the rows, the report, the files and the plots are made from
 * it as before: the virtual figures are the same bytes. Only real time differs: each
 * run's sim_real_s (the rows' simulated nodes per real second) and the sweep's wall time.
 *
 * The order runs are handed out in, with several processes: the baselines first (cheap,
 * and they give each workload's scale to the estimate below), then the most virtual
 * threads first (threads times ranks), ties in the sweep's order. A run's real time grows
 * with its threads (more switches a node; more nodes for the drivers whose overhead grows
 * with them), and the longest runs first is the classic rule for the shortest makespan
 * on a few machines (Graham's LPT): the last runs to end are short ones.
 *
 * Ending. A child asks the kernel for SIGKILL when the thread that forked it ends (and
 * checks that the parent was still there when it asked), so none outlives the parent
 * however the parent ends. The parent blocks SIGINT, SIGTERM and SIGHUP while children
 * run and reads them from a signalfd beside the pipes (no handler, no global): on one, it
 * kills and reaps every child, hands its line to the command's printer (an end that never
 * returns to the command: types.h, bench_error_t), then ends by that signal's default
 * action, so the status a shell sees is 128 + its number. A signal that was ignored stays
 * ignored (an ignored signal is never queued). A child whose run fails prints its error
 * the same way (bench_error_flush) and exits 1; one that crashes or is killed closes its
 * pipe: either way the parent sees the end of the result
 * pipe, reaps the child, names the run it was measuring and how it ended, kills and reaps
 * the others, and fails. Every child is reaped on every way out.
 *
 * The time left. A run's real seconds are expected from the runs done (expected()): the
 * mean of those of the same workload, engine and thread count (another repeat); else the
 * nearest thread count of that workload and engine, scaled by (threads / its threads) to
 * the power the two nearest measured counts show (1/2 with one); else the same from the
 * workload's other engines, with the power 1/2; unknown before a run of the workload is
 * done. The runs not started are then dealt, in the order they will be handed out, to
 * the process that is free first, each running one expected to end when expected (one
 * past that, when its remaining half is taken to be as long as it has run so far); the
 * time left is when the last would end. An estimate: the runs' real times vary with the
 * machine's load, and a driver's overhead can grow faster than the powers say.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kit/args.h"
#include "lab/common.h"
#include "lab/jobs.h"
#include "lab/work.h"

/* ---- one run ------------------------------------------------------------------------- */

/* One run with the simulator's hooks around it (types.h, bench_sim_t): a simulator made
 * afresh with the workload's model and the repeat's seed before; its figures read after.
 * A cluster's run by the hook that runs its ranks. */
static bool measure(bench_t *b, bench_run_t *run)
{
	const bench_sim_t *sim = b->sim;
	if (!sim->before(sim->ctx, b, run))
		return false;
	bool ok = bench_is_cluster(run->driver) ? sim->cluster_run(sim->ctx, b, run)
	                                        : bench_run(b, run);
	if (ok)
		sim->after(sim->ctx, b, run);
	return ok;
}

/* "chess, abdada, 256 threads, repeat 1 of 3": a run in every message. Returns buf. */
static const char *run_name(const bench_t *b, const bench_run_t *r, char *buf, size_t size)
{
	snprintf(buf, size, "%s, %s, %d thread%s, repeat %d of %d",
	         bench_workload_names[r->workload], bench_engine_name(false, r->driver), r->threads,
	         r->threads > 1 ? "s" : "", r->repeat, b->set.repeat);
	return buf;
}

/* ---- the runs' state and the time left ----------------------------------------------- */

/* The engines of expected()'s tables: the registry's drivers, then the cluster at 0 .. 32
 * ranks. */
enum {
	NENGINES = BENCH_MAX_DRIVERS + BENCH_MAX_RANKS + 1
};

/* A process measuring runs: a child (pid > 0), or this one (pid 0) with one process. */
typedef struct proc {
	pid_t pid;    /* 0 once reaped (or this process) */
	int task;     /* the write end of the indices' pipe; -1 once closed */
	int result;   /* the read end of the records' pipe; -1 once closed */
	int run;      /* the index in b->res.runs being measured, -1 none */
	double since; /* cli_now_s() when it was handed */
} proc_t;

typedef struct runs {
	bench_t *b;
	int count;
	int *order; /* [count]: indices in b->res.runs, in the order they are handed out */
	int next;   /* order[next ..] are not started */
	int done;
	int latest; /* the index started last (the progress line names it) */
	double t0;
	/* The real seconds of the runs done, summed, and how many, by workload, engine and
	 * thread count (b->set.counts' index); the same by workload and thread count over every
	 * engine. */
	double sum[BENCH_NWORKLOADS][NENGINES][BENCH_MAX_COUNTS];
	int num[BENCH_NWORKLOADS][NENGINES][BENCH_MAX_COUNTS];
	double wsum[BENCH_NWORKLOADS][BENCH_MAX_COUNTS];
	int wnum[BENCH_NWORKLOADS][BENCH_MAX_COUNTS];
	double *free_at;      /* [processes]: time_left()'s */
	double left, left_at; /* the last estimate, and cli_now_s() when it was made */
} runs_t;

static int engine_index(int driver)
{
	return bench_is_cluster(driver) ? BENCH_MAX_DRIVERS + (driver - BENCH_CLUSTER_ROW) : driver;
}

static int count_index(const bench_settings_t *set, int threads)
{
	for (int c = 0; c < set->ncounts; c++)
		if (set->counts[c] == threads)
			return c;
	return -1;
}

/* From mean real seconds at the thread counts measured (num[k] > 0), the value at
 * counts[c]: its own when measured; else the nearest measured count's (in log2, ties to
 * the larger), scaled by (threads / its threads)^p, p the slope between the two nearest
 * in log-log (0 .. 2) when `fit` and there are two, else 1/2. NAN when none is measured. */
static double extrapolate(const bench_t *b, const double *sum, const int *num, int c, bool fit)
{
	if (num[c] > 0)
		return sum[c] / num[c];
	int n1 = -1, n2 = -1;
	double d1 = INFINITY, d2 = INFINITY;
	for (int k = b->set.ncounts - 1; k >= 0; k--) {
		if (num[k] == 0)
			continue;
		double d = fabs(log2((double)b->set.counts[k] / b->set.counts[c]));
		if (d < d1) {
			n2 = n1, d2 = d1;
			n1 = k, d1 = d;
		} else if (d < d2) {
			n2 = k, d2 = d;
		}
	}
	if (n1 < 0)
		return NAN;
	const double m1 = sum[n1] / num[n1];
	double p = 0.5;
	if (fit && n2 >= 0) {
		p = log(m1 / (sum[n2] / num[n2])) /
		    log((double)b->set.counts[n1] / b->set.counts[n2]);
		p = !isfinite(p) ? 0.5 : p < 0 ? 0 : p > 2 ? 2 : p;
	}
	return m1 * pow((double)b->set.counts[c] / b->set.counts[n1], p);
}

/* The real seconds run r is expected to take (the file's opening comment); NAN while no
 * run of its workload is done. */
static double expected(const runs_t *rs, const bench_run_t *r)
{
	const int c = count_index(&rs->b->set, r->threads);
	if (c < 0)
		return NAN;
	const int wk = r->workload, e = engine_index(r->driver);
	double v = extrapolate(rs->b, rs->sum[wk][e], rs->num[wk][e], c, true);
	return isnan(v) ? extrapolate(rs->b, rs->wsum[wk], rs->wnum[wk], c, false) : v;
}

/* A run done: its real seconds into expected()'s tables. */
static void run_done(runs_t *rs, int index)
{
	const bench_run_t *r = &rs->b->res.runs[index];
	const int c = count_index(&rs->b->set, r->threads);
	rs->done++;
	if (c < 0 || isnan(r->sim_real_s))
		return;
	rs->sum[r->workload][engine_index(r->driver)][c] += r->sim_real_s;
	rs->num[r->workload][engine_index(r->driver)][c]++;
	rs->wsum[r->workload][c] += r->sim_real_s;
	rs->wnum[r->workload][c]++;
}

/* The real seconds until the last run ends (the file's opening comment), NAN when a run
 * is not expected yet. */
static double time_left(runs_t *rs, const proc_t *procs, int nprocs, double now)
{
	double last = 0;
	for (int k = 0; k < nprocs; k++) {
		rs->free_at[k] = 0;
		if (procs[k].run < 0)
			continue;
		const double e = expected(rs, &rs->b->res.runs[procs[k].run]);
		const double ran = now - procs[k].since;
		if (isnan(e))
			return NAN;
		rs->free_at[k] = e > ran ? e - ran : ran;
	}
	for (int x = rs->next; x < rs->count; x++) {
		const double e = expected(rs, &rs->b->res.runs[rs->order[x]]);
		if (isnan(e))
			return NAN;
		int k = 0;
		for (int j = 1; j < nprocs; j++)
			if (rs->free_at[j] < rs->free_at[k])
				k = j;
		rs->free_at[k] += e;
	}
	for (int k = 0; k < nprocs; k++)
		last = rs->free_at[k] > last ? rs->free_at[k] : last;
	return last;
}

/* "42 s", "5 min 07 s", "2 h 05 min". Returns buf. */
static const char *duration(char *buf, size_t size, double s)
{
	const long t = lround(s < 0 ? 0 : s);
	if (t < 60)
		snprintf(buf, size, "%ld s", t);
	else if (t < 3600)
		snprintf(buf, size, "%ld min %02ld s", t / 60, t % 60);
	else
		snprintf(buf, size, "%ld h %02ld min", t / 3600, t / 60 % 60);
	return buf;
}

/* The progress line (common.c's bench_progress): runs done, real time spent, the time
 * left (estimated at most once a second: between, the last estimate less the time since),
 * and the run started last. */
static void progress(runs_t *rs, const proc_t *procs, int nprocs)
{
	bench_t *b = rs->b;
	if (!b->set.progress)
		return;
	const double now = cli_now_s();
	if (isnan(rs->left) || now - rs->left_at >= 1.0) {
		rs->left = time_left(rs, procs, nprocs, now);
		rs->left_at = now;
	}
	int running = 0;
	for (int k = 0; k < nprocs; k++)
		running += procs[k].run >= 0;
	char spent[32], left[32], name[128], more[32] = "";
	if (isnan(rs->left))
		snprintf(left, sizeof(left), "not known yet");
	else
		duration(left, sizeof(left), rs->left - (now - rs->left_at));
	if (running > 1)
		snprintf(more, sizeof(more), ", and %d more", running - 1);
	bench_progress(b, "[%d/%d runs done, %s, time left %s%s] %s %s%s", rs->done, rs->count,
	               duration(spent, sizeof(spent), now - rs->t0),
	               isnan(rs->left) ? "" : "about ", left, running ? "running" : "last",
	               run_name(b, &b->res.runs[rs->latest], name, sizeof(name)), more);
}

/* ---- the children -------------------------------------------------------------------- */

enum {
	RECORD_MAGIC = 0x52554e31, /* a record's header begins with it */
	CHILD_FAILED = 1           /* a child's exit status after its run failed */
};

typedef struct record_head {
	uint32_t magic;
	int32_t index;
} record_head_t;

/* The arrays of a run record (types.h, bench_run_t; bench_run_alloc makes them): where
 * the pointer is, the size of an element, and what their number is. A new array of the
 * record goes here too, or a child's values of it are lost. */
enum {
	PER_THREAD,
	PER_POSITION,
	PER_RANK
};
#define RUN_ARRAY(f, per)                                                                          \
	{                                                                                          \
		offsetof(bench_run_t, f), sizeof(*((bench_run_t *)0)->f), per                      \
	}
static const struct run_array {
	size_t at, size;
	int per;
} run_arrays[] = {
	RUN_ARRAY(thread_nodes, PER_THREAD), RUN_ARRAY(item_nodes, PER_POSITION),
	RUN_ARRAY(item_time, PER_POSITION),  RUN_ARRAY(item_move, PER_POSITION),
	RUN_ARRAY(item_depth, PER_POSITION), RUN_ARRAY(item_value, PER_POSITION),
	RUN_ARRAY(thread_prof, PER_THREAD),  RUN_ARRAY(rank_prof, PER_RANK),
};
enum {
	NARRAYS = sizeof(run_arrays) / sizeof(run_arrays[0])
};

/* Array a of run r: its address (in *p) and its size in bytes. */
static size_t run_array(const bench_t *b, const bench_run_t *r, int a, void **p)
{
	const struct run_array *ra = &run_arrays[a];
	memcpy(p, (const char *)r + ra->at, sizeof(*p));
	const int n = ra->per == PER_THREAD     ? r->threads
	              : ra->per == PER_POSITION ? b->res.work[r->workload].nitems
	                                        : r->nranks;
	return *p ? (size_t)n * ra->size : 0;
}

/* write() and read() of all `size` bytes (through EINTR); the bytes moved (read: fewer
 * at the end of the pipe), or -1. */
static ssize_t write_full(int fd, const void *buf, size_t size)
{
	size_t done = 0;
	while (done < size) {
		ssize_t n = write(fd, (const char *)buf + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static ssize_t read_full(int fd, void *buf, size_t size)
{
	size_t done = 0;
	while (done < size) {
		ssize_t n = read(fd, (char *)buf + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* A child's record of run `index`: the header, the struct, the arrays. */
static bool send_record(int fd, const bench_t *b, int index)
{
	const bench_run_t *r = &b->res.runs[index];
	const record_head_t h = { RECORD_MAGIC, index };
	if (write_full(fd, &h, sizeof(h)) < 0 || write_full(fd, r, sizeof(*r)) < 0)
		return false;
	for (int a = 0; a < NARRAYS; a++) {
		void *p;
		size_t size = run_array(b, r, a, &p);
		if (size && write_full(fd, p, size) < 0)
			return false;
	}
	return true;
}

/* A child: measures the runs it is handed until its task pipe ends; never returns. It
 * dies with the thread that forked it (PR_SET_PDEATHSIG), and gets the signal mask the
 * parent had before it blocked the stopping signals. */
static _Noreturn void child_main(bench_t *b, int task, int result, pid_t parent,
                                 const sigset_t *mask)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
		_exit(CHILD_FAILED);
	sigprocmask(SIG_SETMASK, mask, NULL);
	b->set.progress = false;
	for (;;) {
		int32_t index;
		ssize_t n = read_full(task, &index, sizeof(index));
		if (n == 0)
			_exit(0);
		if (n != (ssize_t)sizeof(index) || index < 0 || index >= b->res.nruns ||
		    !measure(b, &b->res.runs[index]) || !send_record(result, b, index)) {
			/* its exit never returns to the command */
			bench_error_flush(b->err, b->cmd);
			_exit(CHILD_FAILED);
		}
	}
}

/* Forks child k with its two pipes; the child closes what is the parent's (the other
 * children's ends, the signalfd). False after one line of error. */
static bool start_child(bench_t *b, proc_t *procs, int k, int sigfd, const sigset_t *mask)
{
	int task[2], result[2];
	if (pipe2(task, O_CLOEXEC) != 0) {
		bench_fail(b->err, "--jobs: cannot make a pipe: %s", strerror(errno));
		return false;
	}
	if (pipe2(result, O_CLOEXEC) != 0) {
		bench_fail(b->err, "--jobs: cannot make a pipe: %s", strerror(errno));
		close(task[0]);
		close(task[1]);
		return false;
	}
	const pid_t parent = getpid();
	const pid_t pid = fork();
	if (pid == 0) {
		close(task[1]);
		close(result[0]);
		close(sigfd);
		for (int i = 0; i < k; i++) {
			close(procs[i].task);
			close(procs[i].result);
		}
		child_main(b, task[0], result[1], parent, mask);
	}
	close(task[0]);
	close(result[1]);
	if (pid < 0) {
		bench_fail(b->err, "--jobs: cannot start process %d: %s", k + 1, strerror(errno));
		close(task[1]);
		close(result[0]);
		return false;
	}
	procs[k] = (proc_t){ .pid = pid, .task = task[1], .result = result[0], .run = -1 };
	return true;
}

/* ---- the parent ---------------------------------------------------------------------- */

/* Hands process p the next run, or closes its task pipe when there is none. A write that
 * fails means the child has ended: its result pipe says how (take()). */
static void hand(runs_t *rs, proc_t *p, const proc_t *procs, int nprocs)
{
	if (rs->next == rs->count) {
		close(p->task);
		p->task = -1;
		p->run = -1;
		return;
	}
	p->run = rs->latest = rs->order[rs->next++];
	p->since = cli_now_s();
	const int32_t index = p->run;
	(void)write_full(p->task, &index, sizeof(index));
	progress(rs, procs, nprocs);
}

/* Reaps child p (closing its pipes) and returns its wait status. */
static int reap(proc_t *p)
{
	int status = 0;
	if (p->task >= 0)
		close(p->task);
	if (p->result >= 0)
		close(p->result);
	p->task = p->result = -1;
	while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
		;
	p->pid = 0;
	return status;
}

/* The line for child p, which ended (wait status `status`) or sent what is not the record
 * of its run (`garbled`), while measuring p->run (or after its last run). */
static void say_end(const bench_t *b, const proc_t *p, pid_t pid, int status, bool garbled)
{
	char how[96], name[128];
	if (garbled)
		snprintf(how, sizeof(how), "sent a record that is not its run's (killed)");
	else if (WIFSIGNALED(status))
		snprintf(how, sizeof(how), "was killed by signal %d (%s)", WTERMSIG(status),
		         strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		snprintf(how, sizeof(how), "exited with status %d", WEXITSTATUS(status));
	else
		snprintf(how, sizeof(how), "ended without its record");
	if (p->run >= 0)
		bench_fail(b->err,
		           "the run %s failed: its process (pid %d) %s; the sweep's other "
		           "processes were stopped, no report written",
		           run_name(b, &b->res.runs[p->run], name, sizeof(name)), (int)pid, how);
	else
		bench_fail(b->err,
		           "a process of the sweep (pid %d) %s after its last run; the "
		           "others were stopped, no report written",
		           (int)pid, how);
}

/* What came on a result pipe. */
typedef enum got {
	GOT_RECORD, /* the whole record of the run */
	GOT_END,    /* the pipe's end, before or inside a record: the child has ended */
	GOT_WRONG   /* bytes that are not the record of the run the child was handed */
} got_t;

/* The rest of p's record, after its header, into b->res.runs at its run's index (its values,
 * the parent's arrays kept). */
static got_t take_record(runs_t *rs, proc_t *p)
{
	bench_t *b = rs->b;
	bench_run_t *dst = &b->res.runs[p->run], got;
	ssize_t n = read_full(p->result, &got, sizeof(got));
	if (n != (ssize_t)sizeof(got))
		return n < 0 ? GOT_WRONG : GOT_END;
	if (got.workload != dst->workload || got.driver != dst->driver ||
	    got.threads != dst->threads || got.repeat != dst->repeat || got.nranks != dst->nranks ||
	    got.stockfish != dst->stockfish)
		return GOT_WRONG;
	const bench_run_t keep = *dst;
	*dst = got;
	for (int a = 0; a < NARRAYS; a++)
		memcpy((char *)dst + run_arrays[a].at, (const char *)&keep + run_arrays[a].at,
		       sizeof(void *));
	for (int a = 0; a < NARRAYS; a++) {
		void *q;
		size_t size = run_array(b, dst, a, &q);
		n = size ? read_full(p->result, q, size) : 0;
		if (n != (ssize_t)size)
			return n < 0 ? GOT_WRONG : GOT_END;
	}
	return GOT_RECORD;
}

/* What came on p's result pipe: a record (taken, and p handed the next run), or its end
 * (p reaped: fine after its last run with status 0). False after the line (say_end). */
static bool take(runs_t *rs, proc_t *p, const proc_t *procs, int nprocs)
{
	record_head_t h;
	const ssize_t n = read_full(p->result, &h, sizeof(h));
	const pid_t pid = p->pid;
	got_t got = n == (ssize_t)sizeof(h) ? GOT_RECORD : n >= 0 ? GOT_END : GOT_WRONG;
	if (got == GOT_RECORD)
		got = h.magic != RECORD_MAGIC || h.index != p->run ? GOT_WRONG : take_record(rs, p);
	if (got == GOT_RECORD) {
		run_done(rs, p->run);
		p->run = -1;
		hand(rs, p, procs, nprocs);
		return true;
	}
	if (got == GOT_WRONG)
		kill(pid, SIGKILL); /* alive and lost */
	const int status = reap(p);
	if (got == GOT_END && n == 0 && p->run < 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return true; /* the end after its last run */
	say_end(rs->b, p, pid, status, got == GOT_WRONG);
	return false;
}

/* The stopping signal read from sigfd: every child killed and reaped (by the caller), the
 * line said; its number. */
static int take_signal(const bench_t *b, int sigfd)
{
	struct signalfd_siginfo si;
	if (read_full(sigfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
		return SIGTERM;
	bench_fail(b->err, "%s: the sweep's processes are stopped, no report written",
	           strsignal((int)si.ssi_signo));
	return (int)si.ssi_signo;
}

/* The children's runs until every child has ended: records taken, runs handed out, the
 * progress line redrawn each second on a terminal. False on a failure or a stopping
 * signal (*sig its number). */
static bool serve(runs_t *rs, proc_t *procs, int nprocs, int sigfd, int *sig)
{
	struct pollfd *pf = calloc((size_t)nprocs + 1, sizeof(*pf));
	if (!pf) {
		bench_fail(rs->b->err, "out of memory");
		return false;
	}
	for (int k = 0; k < nprocs; k++)
		hand(rs, &procs[k], procs, nprocs);
	bool ok = true;
	for (int alive = nprocs; ok && alive > 0;) {
		pf[0] = (struct pollfd){ .fd = sigfd, .events = POLLIN };
		for (int k = 0; k < nprocs; k++)
			pf[k + 1] = (struct pollfd){ .fd = procs[k].result, .events = POLLIN };
		int n = poll(pf, (nfds_t)nprocs + 1, rs->b->set.progress_tty ? 1000 : -1);
		if (n < 0 && errno != EINTR) {
			bench_fail(rs->b->err, "--jobs: poll: %s", strerror(errno));
			ok = false;
		} else if (n > 0 && pf[0].revents) {
			*sig = take_signal(rs->b, sigfd);
			ok = false;
		}
		for (int k = 0; ok && n > 0 && k < nprocs; k++)
			if (pf[k + 1].revents && procs[k].result >= 0) {
				ok = take(rs, &procs[k], procs, nprocs);
				alive -= procs[k].pid == 0;
			}
		if (ok && n == 0)
			progress(rs, procs, nprocs);
	}
	free(pf);
	return ok;
}

/* The runs on nprocs children. */
static bool run_children(runs_t *rs, proc_t *procs, int nprocs)
{
	bench_t *b = rs->b;
	sigset_t stop, mask;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &stop, &mask) != 0) {
		bench_fail(b->err, "--jobs: cannot block the signals: %s", strerror(errno));
		return false;
	}
	const int sigfd = signalfd(-1, &stop, SFD_CLOEXEC);
	bool ok = sigfd >= 0;
	if (!ok)
		bench_fail(b->err, "--jobs: cannot read the signals: %s", strerror(errno));
	/* A write into the pipe of a child that has ended fails (EPIPE) instead of ending this
	 * process; the child's end is then read from its result pipe (hand, take). */
	struct sigaction ignore = { .sa_handler = SIG_IGN }, pipe_was;
	sigemptyset(&ignore.sa_mask);
	sigaction(SIGPIPE, &ignore, &pipe_was);
	fflush(NULL); /* nothing buffered is written twice */
	int started = 0, sig = 0;
	while (ok && started < nprocs && (ok = start_child(b, procs, started, sigfd, &mask)))
		started++;
	ok = ok && serve(rs, procs, started, sigfd, &sig);
	for (int k = 0; k < started; k++)
		if (procs[k].pid > 0) {
			kill(procs[k].pid, SIGKILL);
			reap(&procs[k]);
		}
	if (sigfd >= 0)
		close(sigfd);
	sigaction(SIGPIPE, &pipe_was, NULL);
	sigprocmask(SIG_SETMASK, &mask, NULL);
	if (sig) {
		bench_error_flush(b->err, b->cmd); /* the signal's end never returns */
		signal(sig, SIG_DFL);
		raise(sig); /* ends here, unless the signal was blocked when the sweep began */
	}
	return ok;
}

/* The runs here, in the sweep's order. */
static bool run_here(runs_t *rs, proc_t *self)
{
	while (rs->next < rs->count) {
		self->run = rs->latest = rs->order[rs->next++];
		self->since = cli_now_s();
		progress(rs, self, 1);
		if (!measure(rs->b, &rs->b->res.runs[self->run]))
			return false;
		run_done(rs, self->run);
	}
	self->run = -1;
	return true;
}

/* The order the runs are handed out in (the file's opening comment). */
typedef struct order_key {
	int index;
	long weight; /* the larger first */
} order_key_t;

static int cmp_key(const void *x, const void *y)
{
	const order_key_t *a = x, *b = y;
	return a->weight != b->weight ? (a->weight < b->weight) - (a->weight > b->weight)
	                              : (a->index > b->index) - (a->index < b->index);
}

static bool make_order(runs_t *rs, int first, int nprocs)
{
	const bench_t *b = rs->b;
	order_key_t *key = calloc((size_t)rs->count, sizeof(*key));
	if (!key)
		return false;
	for (int i = 0; i < rs->count; i++) {
		const bench_run_t *r = &b->res.runs[first + i];
		const bool base = r->driver == b->set.base && r->threads == 1;
		key[i] = (order_key_t){
			first + i, nprocs == 1 ? 0
				   : base      ? LONG_MAX
					       : (long)r->threads * (r->nranks > 0 ? r->nranks : 1)
		};
	}
	qsort(key, (size_t)rs->count, sizeof(*key), cmp_key);
	for (int i = 0; i < rs->count; i++)
		rs->order[i] = key[i].index;
	free(key);
	return true;
}

bool bench_jobs_run(bench_t *b, int first, int count)
{
	int nprocs = b->sim->jobs < count ? b->sim->jobs : count;
	nprocs = nprocs < 1 ? 1 : nprocs;
	runs_t *rs = calloc(1, sizeof(*rs));
	proc_t *procs = calloc((size_t)nprocs, sizeof(*procs));
	bool ok = rs && procs;
	if (ok) {
		rs->b = b;
		rs->count = count;
		rs->latest = first;
		rs->left = NAN;
		rs->order = calloc((size_t)(count > 0 ? count : 1), sizeof(*rs->order));
		rs->free_at = calloc((size_t)nprocs, sizeof(*rs->free_at));
		ok = rs->order && rs->free_at && make_order(rs, first, nprocs);
	}
	if (!ok) {
		bench_fail(b->err, "out of memory");
	} else {
		for (int k = 0; k < nprocs; k++)
			procs[k] = (proc_t){ .task = -1, .result = -1, .run = -1 };
		b->res.jobs = nprocs;
		rs->t0 = cli_now_s();
		ok = nprocs == 1 ? run_here(rs, &procs[0]) : run_children(rs, procs, nprocs);
	}
	if (rs) {
		free(rs->order);
		free(rs->free_at);
	}
	free(rs);
	free(procs);
	return ok;
}
