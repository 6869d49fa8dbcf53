/* SPDX-License-Identifier: MIT */
/*
 * reaper.c — the engines of `cutoff match` when the referee is told to end: SIGTERM, SIGINT
 * or SIGHUP is forwarded to every engine's process group (SIGTERM, a grace of
 * REAPER_GRACE_MS, then SIGKILL), the engines are reaped, and the referee ends by the
 * same signal (its status is then 128 + the signal's number, as a shell reports it).
 * Without this a signal killed the referee alone, and an engine that no longer read its
 * input ran on under init with whatever it had started.
 *
 * How. player.c starts each engine as the leader of a process group of its own (so a
 * signal to the group reaches whatever the engine started too) and registers it here
 * between fork and the next reaper call, under r->lock; it forgets it once it has killed
 * what was left of the group and reaped the engine. The signal handler does one
 * async-signal-safe thing: it writes the signal's number into a pipe. A thread of the
 * reaper's own (the watcher) reads that pipe and does the rest in ordinary code: it takes
 * the match's lock for good (so that no game is recorded or handed out from then on, and
 * no engine killed now is counted as a crash), marks the reaper dying under r->lock (so
 * that no engine is started from then on: a thread that wants to start one waits for the
 * end), signals the groups, waits, kills, reaps, and raises the signal with its default
 * action. The slot threads need not notice anything: the process ends under them.
 *
 * The one global. A handler takes no argument, so the write end of the pipe is a
 * file-scope variable: set before the handlers are installed and cleared after they are
 * removed; only one match runs in a process.
 *
 * A signal that was ignored when the referee started (nohup's SIGHUP; SIGINT for a
 * background job of a script) stays ignored, as the user who ignored it asked. After
 * match_reaper_end (the engines stopped on the match's own way out) the handlers are
 * the old ones again.
 *
 * Shared state: groups, ngroups and dying under r->lock (player.c's threads and the
 * watcher); r->hold is the match's lock, whose holders (slots.c) never take r->lock
 * meanwhile, so the order hold, then r->lock, cannot deadlock.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "match/referee.h"

static const int reaper_signals[REAPER_NSIGNALS] = { SIGTERM, SIGINT, SIGHUP };

static int reaper_fd = -1; /* the pipe's write end for the handler (see above) */

static void on_signal(int sig)
{
	int saved = errno;
	unsigned char b = (unsigned char)sig;
	ssize_t w = write(reaper_fd, &b, 1); /* non-blocking: a full pipe holds one already */
	(void)w;
	errno = saved;
}

/* Sends `sig` to every engine's process group. Under r->lock. */
static void signal_groups(match_reaper_t *r, int sig)
{
	for (int i = 0; i < r->ngroups; i++)
		kill(-r->groups[i], sig);
}

/* True when every engine registered has ended (reaped or not: a zombie's pid stays its
 * own, so its group cannot be another's). Under r->lock. */
static bool all_ended(const match_reaper_t *r)
{
	for (int i = 0; i < r->ngroups; i++) {
		siginfo_t info;
		memset(&info, 0, sizeof(info));
		if (waitid(P_PID, (id_t)r->groups[i], &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    info.si_pid == 0)
			return false;
	}
	return true;
}

/* The engines and what they started, signalled, given the grace, killed and reaped;
 * then the referee ends by `sig`. Never returns. */
static void die(match_reaper_t *r, int sig)
{
	if (r->hold)
		pthread_mutex_lock(r->hold); /* kept: nothing is recorded from now on */
	pthread_mutex_lock(&r->lock);
	r->dying = true;
	match_log_note(r->log, "signal %d (%s): stopping the engines", sig, strsignal(sig));
	signal_groups(r, SIGTERM);
	for (int waited = 0; waited < REAPER_GRACE_MS && !all_ended(r); waited += 10) {
		pthread_mutex_unlock(&r->lock);
		struct timespec ts = { 0, 10 * 1000000 };
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&r->lock);
	}
	signal_groups(r, SIGKILL); /* what ignored SIGTERM, and what the engines started */
	for (int i = 0; i < r->ngroups; i++)
		while (waitpid(r->groups[i], NULL, 0) < 0 && errno == EINTR)
			;
	/* The default action of `sig` is to end the process: it is unblocked and raised in
	 * this thread. */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);
}

static void *watch(void *arg)
{
	match_reaper_t *r = arg;
	for (;;) {
		unsigned char b;
		ssize_t got = read(r->pipe[0], &b, 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0 || b == 0)
			return NULL; /* match_reaper_end: the match ends its own way */
		die(r, b);
	}
}

int match_reaper_start(match_reaper_t *r, pthread_mutex_t *hold, const match_log_t *log)
{
	memset(r, 0, sizeof(*r));
	r->hold = hold;
	r->log = log;
	r->pipe[0] = r->pipe[1] = -1;
	int rc = pthread_mutex_init(&r->lock, NULL);
	if (rc == 0 && (rc = pthread_cond_init(&r->end, NULL)) != 0)
		pthread_mutex_destroy(&r->lock);
	if (rc != 0) {
		cli_error(MATCH_CMD, "cannot make a lock: %s", strerror(rc));
		return CLI_EXIT_FAIL;
	}
	r->made = true;
	if (pipe2(r->pipe, O_CLOEXEC) != 0) {
		cli_error(MATCH_CMD, "cannot make a pipe for the signals: %s", strerror(errno));
		return CLI_EXIT_FAIL;
	}
	fcntl(r->pipe[1], F_SETFL, fcntl(r->pipe[1], F_GETFL) | O_NONBLOCK);
	if ((rc = pthread_create(&r->thread, NULL, watch, r)) != 0) {
		cli_error(MATCH_CMD, "cannot make a thread for the signals: %s", strerror(rc));
		return CLI_EXIT_FAIL;
	}
	r->watching = true;
	reaper_fd = r->pipe[1];
	for (int i = 0; i < REAPER_NSIGNALS; i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESTART;
		if (sigaction(reaper_signals[i], NULL, &r->old[i]) != 0 ||
		    r->old[i].sa_handler == SIG_IGN)
			continue;
		r->caught[i] = sigaction(reaper_signals[i], &sa, NULL) == 0;
	}
	return CLI_EXIT_OK;
}

void match_reaper_end(match_reaper_t *r)
{
	for (int i = 0; i < REAPER_NSIGNALS; i++) {
		if (r->caught[i])
			sigaction(reaper_signals[i], &r->old[i], NULL);
		r->caught[i] = false;
	}
	if (r->watching) {
		/* After a signal's byte, if one came: the watcher then ends the process. */
		unsigned char zero = 0;
		ssize_t w = write(r->pipe[1], &zero, 1);
		(void)w;
		pthread_join(r->thread, NULL);
		r->watching = false;
	}
	reaper_fd = -1;
	for (int i = 0; i < 2; i++) {
		if (r->pipe[i] >= 0)
			close(r->pipe[i]);
		r->pipe[i] = -1;
	}
	if (r->made) {
		pthread_cond_destroy(&r->end);
		pthread_mutex_destroy(&r->lock);
		r->made = false;
	}
}

void match_reaper_child(const match_reaper_t *r)
{
	if (!r)
		return;
	for (int i = 0; i < REAPER_NSIGNALS; i++)
		if (r->caught[i])
			sigaction(reaper_signals[i], &r->old[i], NULL);
}

void match_reaper_enter(match_reaper_t *r)
{
	if (!r)
		return;
	pthread_mutex_lock(&r->lock);
	/* The process is ending: starting an engine now would leave it behind. */
	while (r->dying)
		pthread_cond_wait(&r->end, &r->lock);
}

void match_reaper_check(match_reaper_t *r)
{
	match_reaper_enter(r);
	match_reaper_leave(r, 0);
}

void match_reaper_leave(match_reaper_t *r, pid_t pid)
{
	if (!r)
		return;
	/* At most two engines a slot run at once: there is room (referee.h). */
	if (pid > 0 && r->ngroups < REAPER_MAX_GROUPS)
		r->groups[r->ngroups++] = pid;
	pthread_mutex_unlock(&r->lock);
}

void match_reaper_forget(match_reaper_t *r, pid_t pid)
{
	if (!r)
		return;
	pthread_mutex_lock(&r->lock);
	for (int i = 0; i < r->ngroups; i++) {
		if (r->groups[i] == pid) {
			r->groups[i] = r->groups[--r->ngroups];
			break;
		}
	}
	pthread_mutex_unlock(&r->lock);
}
