/* SPDX-License-Identifier: MIT */
/*
 * uci_client.c — a UCI engine as a child process; the contract and the invariants are in
 * uci_client.h.
 *
 * Why posix_spawn and not fork and exec: it does everything the engine's start needs (the
 * pipes on stdin and stdout, stderr elsewhere, a process group of its own, SIGPIPE back at
 * its default, an empty signal mask), reports a program that cannot run as its return
 * value (no pipe of our own for exec's errno), and glibc runs the child on a fresh stack
 * with every caught signal reset to its default before it unblocks them, so that none of
 * the caller's handlers can run in the child between the two.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kit/args.h"
#include "uci/client.h"

extern char **environ;

enum {
	NS_PER_MS = 1000000,
	MAX_POLL_MS = 86400000 /* a day: poll()'s argument is an int */
};

int uci_client_init(uci_client_t *c, const uci_client_hooks_t *hooks)
{
	memset(c, 0, sizeof(*c));
	if (hooks)
		c->hooks = *hooks;
	c->to = c->from = -1;
	c->rbuf = malloc(UCI_CLIENT_BUF_SIZE);
	return c->rbuf ? 0 : -1;
}

void uci_client_free(uci_client_t *c)
{
	uci_client_stop(c, true, 500);
	free(c->rbuf);
	c->rbuf = NULL;
}

static void note_line(const uci_client_t *c, const char *dir, const char *text, size_t n)
{
	if (c->hooks.line)
		c->hooks.line(c->hooks.user, dir, text, n);
}

/* The process started as uci_client.h says, or an errno value. */
static int spawn(pid_t *pid, char *const argv[], const int in[2], const int out[2], int stderr_fd)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int rc = posix_spawn_file_actions_init(&fa);
	if (rc != 0)
		return rc;
	rc = posix_spawnattr_init(&at);
	if (rc != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return rc;
	}
	sigset_t none, pipe_default;
	sigemptyset(&none);
	sigemptyset(&pipe_default);
	sigaddset(&pipe_default, SIGPIPE);
	/* dup2 clears close-on-exec on the copies: the engine keeps exactly 0, 1 and 2. */
	if (!(rc = posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO)) &&
	    !(rc = posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO)))
		rc = stderr_fd >= 0
		             ? posix_spawn_file_actions_adddup2(&fa, stderr_fd, STDERR_FILENO)
		             : posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null",
		                                                O_WRONLY, 0);
	if (!rc)
		rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
		                                           POSIX_SPAWN_SETSIGMASK);
	if (!rc && !(rc = posix_spawnattr_setpgroup(&at, 0)) &&
	    !(rc = posix_spawnattr_setsigdefault(&at, &pipe_default)) &&
	    !(rc = posix_spawnattr_setsigmask(&at, &none)))
		rc = posix_spawnp(pid, argv[0], &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

static void close_pair(int p[2])
{
	for (int i = 0; i < 2; i++)
		if (p[i] >= 0)
			close(p[i]);
}

uci_start_t uci_client_start(uci_client_t *c, char *const argv[], int stderr_fd, char *why,
                             size_t why_size)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 };
	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) {
		snprintf(why, why_size, "cannot make pipes: %s", strerror(errno));
		close_pair(in);
		close_pair(out);
		return UCI_START_SYSTEM;
	}
	fflush(NULL); /* nothing of ours buffered twice */
	if (c->hooks.enter)
		c->hooks.enter(c->hooks.user);
	pid_t pid = 0;
	int rc = spawn(&pid, argv, in, out, stderr_fd);
	if (c->hooks.leave)
		c->hooks.leave(c->hooks.user, rc == 0 ? pid : 0);
	close(in[0]);
	close(out[1]);
	if (rc != 0) {
		close(in[1]);
		close(out[0]);
		bool system = rc == EAGAIN || rc == ENOMEM || rc == EMFILE || rc == ENFILE;
		if (system)
			snprintf(why, why_size, "cannot start a process: %s", strerror(rc));
		else
			snprintf(why, why_size, "%s", strerror(rc));
		return system ? UCI_START_SYSTEM : UCI_START_CANNOT_RUN;
	}
	c->pid = pid;
	c->to = in[1];
	c->from = out[0];
	fcntl(c->to, F_SETFL, fcntl(c->to, F_GETFL) | O_NONBLOCK);
	fcntl(c->from, F_SETFL, fcntl(c->from, F_GETFL) | O_NONBLOCK);
	c->rlen = c->rpos = 0;
	c->skipping = false;
	return UCI_START_OK;
}

/* Hands out the next whole line held (without its newline or a trailing \r), or false. */
static bool take_line(uci_client_t *c, char **line)
{
	for (;;) {
		char *start = c->rbuf + c->rpos;
		char *nl = memchr(start, '\n', c->rlen - c->rpos);
		if (!nl)
			return false;
		size_t n = (size_t)(nl - start);
		c->rpos += n + 1;
		if (c->skipping) {
			c->skipping = false;
			continue;
		}
		if (n > 0 && start[n - 1] == '\r')
			n--;
		start[n] = '\0';
		note_line(c, "<", start, n);
		*line = start;
		return true;
	}
}

/* One poll() of up to `ms` and one read(): 1 when data came (c->rtime set), 0 when none,
 * -1 at the end of the engine's output. */
static int fill(uci_client_t *c, int ms)
{
	if (c->from < 0)
		return -1;
	/* Keep the partial line at the front, or drop it when it fills the buffer. */
	memmove(c->rbuf, c->rbuf + c->rpos, c->rlen - c->rpos);
	c->rlen -= c->rpos;
	c->rpos = 0;
	if (c->rlen >= UCI_CLIENT_BUF_SIZE - 1) {
		c->rlen = 0;
		c->skipping = true;
	}
	struct pollfd pfd = { .fd = c->from, .events = POLLIN };
	int rc = poll(&pfd, 1, ms);
	if (rc < 0)
		return errno == EINTR ? 0 : -1;
	if (rc == 0)
		return 0;
	ssize_t got = read(c->from, c->rbuf + c->rlen, UCI_CLIENT_BUF_SIZE - 1 - c->rlen);
	if (got == 0)
		return -1;
	if (got < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
	c->rtime = (int64_t)cli_now_ns();
	c->rlen += (size_t)got;
	return 1;
}

uci_read_t uci_client_read(uci_client_t *c, int64_t deadline, char **line)
{
	for (;;) {
		if (take_line(c, line))
			return c->rtime > deadline ? UCI_LINE_TIMEOUT : UCI_LINE_OK;
		int64_t left = deadline - (int64_t)cli_now_ns();
		if (left <= 0)
			return UCI_LINE_TIMEOUT;
		int64_t ms = (left + NS_PER_MS - 1) / NS_PER_MS;
		if (fill(c, ms > MAX_POLL_MS ? MAX_POLL_MS : (int)ms) < 0)
			return UCI_LINE_EOF;
	}
}

void uci_client_drain(uci_client_t *c)
{
	char *line;
	do {
		while (take_line(c, &line))
			;
	} while (fill(c, 0) > 0);
}

int uci_client_send(uci_client_t *c, const char *text, int64_t deadline)
{
	size_t n = strlen(text);
	note_line(c, ">", text, n);
	if (c->to < 0)
		return -1;
	/* The line and its newline in one write where they fit, so that an engine reading
	 * with a short timeout never sees half a line. */
	char small[512], *msg = n + 1 <= sizeof(small) ? small : malloc(n + 1);
	if (!msg)
		return -1;
	memcpy(msg, text, n);
	msg[n++] = '\n';
	size_t done = 0;
	int status = 0;
	while (done < n) {
		ssize_t w = write(c->to, msg + done, n - done);
		if (w > 0) {
			done += (size_t)w;
			continue;
		}
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
			status = -1;
			break;
		}
		int64_t left = deadline - (int64_t)cli_now_ns();
		if (left <= 0) {
			status = -1;
			break;
		}
		int64_t ms = (left + NS_PER_MS - 1) / NS_PER_MS;
		struct pollfd pfd = { .fd = c->to, .events = POLLOUT };
		(void)poll(&pfd, 1, ms > MAX_POLL_MS ? MAX_POLL_MS : (int)ms);
	}
	if (msg != small)
		free(msg);
	return status;
}

/* Waits up to `ms` for the engine's process to end, without reaping it: while it is a
 * zombie its pid, which names its process group, cannot be given to another process, so
 * the group can still be signalled safely. True when it has ended (or was reaped by
 * someone else, as a dying referee's reaper does). */
static bool ended(const uci_client_t *c, int ms)
{
	for (int waited = 0;; waited += 2) {
		siginfo_t info;
		memset(&info, 0, sizeof(info));
		int r = waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOHANG | WNOWAIT);
		if ((r == 0 && info.si_pid == c->pid) || (r < 0 && errno == ECHILD))
			return true;
		if (waited >= ms)
			return false;
		struct timespec ts = { 0, 2 * 1000000 };
		nanosleep(&ts, NULL);
	}
}

/* Kills what is left of the engine's process group (the engine, if it still runs, and
 * anything it started) and reaps the engine: pid is 0 after. True with *status set when
 * this call reaped it. */
static bool collect(uci_client_t *c, int *status)
{
	kill(-c->pid, SIGKILL);
	kill(c->pid, SIGKILL); /* in case it leads no group */
	pid_t r;
	while ((r = waitpid(c->pid, status, 0)) < 0 && errno == EINTR)
		;
	if (c->hooks.forget)
		c->hooks.forget(c->hooks.user, c->pid);
	c->pid = 0;
	return r > 0;
}

static void close_fds(uci_client_t *c)
{
	if (c->to >= 0)
		close(c->to);
	if (c->from >= 0)
		close(c->from);
	c->to = c->from = -1;
}

void uci_client_stop(uci_client_t *c, bool ask, int grace_ms)
{
	if (c->pid <= 0) {
		close_fds(c);
		return;
	}
	if (ask && c->to >= 0)
		(void)uci_client_send(c, "quit",
		                      (int64_t)cli_now_ns() + (int64_t)grace_ms * NS_PER_MS);
	if (c->to >= 0)
		close(c->to);
	c->to = -1;
	int status;
	(void)ended(c, ask ? grace_ms : 0);
	(void)collect(c, &status);
	close_fds(c);
}

void uci_client_describe_end(uci_client_t *c, char *buf, size_t size)
{
	int status;
	if (c->pid > 0 && ended(c, 300)) {
		bool reaped = collect(c, &status);
		close_fds(c);
		if (reaped && WIFEXITED(status))
			snprintf(buf, size, "exited with status %d", WEXITSTATUS(status));
		else if (reaped && WIFSIGNALED(status))
			snprintf(buf, size, "was killed by signal %d (%s)", WTERMSIG(status),
			         strsignal(WTERMSIG(status)));
		else
			snprintf(buf, size, "ended");
	} else {
		snprintf(buf, size, "closed its pipe");
		uci_client_stop(c, false, 0);
	}
}

const char *uci_client_find(const char *name, char *buf, size_t size)
{
	if (cli_find_program(name, buf, size))
		return buf;
	if (strchr(name, '/') || strlen(name) + sizeof("/usr/games/") > size)
		return NULL;
	snprintf(buf, size, "/usr/games/%s", name);
	return cli_executable(buf) ? buf : NULL;
}
