/* SPDX-License-Identifier: MIT */
/*
 * uci_client.h — a UCI engine as a child process (uci_client.c): the command's one client,
 * for `cutoff match`'s referee (match/player.c) and `cutoff bench`'s Stockfish peer
 * (bench/stockfish.c). It starts the program, writes lines and reads them with deadlines,
 * and ends it; what to say (uci, setoption, go) is the caller's.
 *
 * Owns, per uci_client_t: the process (pid), the two pipe ends (`to`, its stdin; `from`,
 * its stdout), both non-blocking and close-on-exec, and the read buffer. Invariants: pid
 * is 0 exactly when no process is held, and the process is reaped before pid is cleared
 * (no zombie outlives a stop); the engine leads a process group of its own, and that
 * group is killed before the engine is reaped (while its pid cannot be reused), so that
 * nothing it started outlives it; `to` and `from` are -1 when closed; rbuf[rpos..rlen) is
 * what was read and not yet handed out, and a line longer than the buffer is dropped
 * whole (`skipping` until its newline).
 *
 * Blocking. A read or write never waits past its deadline: every wait is a poll() bounded
 * by it. A write to an engine that closed its input fails (EPIPE) rather than killing the
 * caller, provided the caller ignores SIGPIPE (both commands do while they run engines).
 *
 * Threads. A client is used by one thread at a time. Clients on different threads may
 * start engines side by side: the pipes are close-on-exec from their creation (pipe2) and
 * the process is started by posix_spawn, so no engine inherits another's pipe.
 */
#ifndef CUTOFF_UCI_CLIENT_H
#define CUTOFF_UCI_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum {
	UCI_CLIENT_BUF_SIZE = 1 << 16 /* the longest line kept from an engine; longer: dropped */
};

typedef enum uci_read {
	UCI_LINE_OK,
	UCI_LINE_TIMEOUT,
	UCI_LINE_EOF
} uci_read_t;

/* What a caller wants to hear of, all optional (NULL). `line`: every line sent (">") and
 * read ("<"), for a log. `enter` and `leave`: around the start of the process, leave with
 * its pid (0 when none was started), and `forget` after it was reaped: the referee keeps
 * its engines' process groups there (match/reaper.c). */
typedef struct uci_client_hooks {
	void *user;
	void (*line)(void *user, const char *dir, const char *text, size_t n);
	void (*enter)(void *user);
	void (*leave)(void *user, pid_t pid);
	void (*forget)(void *user, pid_t pid);
} uci_client_hooks_t;

typedef struct uci_client {
	uci_client_hooks_t hooks;
	pid_t pid;         /* 0 when not running */
	int to, from;      /* the engine's stdin (we write) and stdout (we read), non-blocking */
	char *rbuf;        /* UCI_CLIENT_BUF_SIZE bytes */
	size_t rlen, rpos; /* bytes held, bytes already handed out */
	bool skipping;     /* dropping the rest of an over-long line */
	int64_t rtime;     /* when the last read() returned data (cli_now_ns) */
} uci_client_t;

/* A client with no process, its buffer allocated: 0, or -1 when memory runs out. `hooks`
 * may be NULL. */
int uci_client_init(uci_client_t *c, const uci_client_hooks_t *hooks);
/* Stops the engine (asking it to quit first) and frees the buffer. */
void uci_client_free(uci_client_t *c);

typedef enum uci_start {
	UCI_START_OK,
	UCI_START_CANNOT_RUN, /* the program cannot be run (not found, not executable) */
	UCI_START_SYSTEM      /* no pipe or no process: the system's failure */
} uci_start_t;

/* Starts argv[0] (searched on the PATH when it has no '/') with argv, its stdin and stdout
 * on the client's pipes, its stderr on `stderr_fd` (or /dev/null when -1), SIGPIPE at its
 * default, in a process group of its own. On failure, why[] says what failed: the
 * system's reason the program cannot run ("No such file or directory"), or for the
 * system's own failure the step and the reason ("cannot make pipes: ..."). */
uci_start_t uci_client_start(uci_client_t *c, char *const argv[], int stderr_fd, char *why,
                             size_t why_size);

/* The next line from the engine (without its newline or a trailing \r), waiting until
 * `deadline` (cli_now_ns) at most; a line that arrived after the deadline counts as none.
 * *line points into the buffer until the next call. */
uci_read_t uci_client_read(uci_client_t *c, int64_t deadline, char **line);
/* Reads and drops whatever the engine has said and not been asked for. */
void uci_client_drain(uci_client_t *c);
/* Writes `text` and a newline, waiting until `deadline` at most: 0, or -1 when the pipe is
 * broken or the engine does not read. */
int uci_client_send(uci_client_t *c, const char *text, int64_t deadline);

/* Ends the engine: "quit" when `ask`, its input closed, up to `grace_ms` for it to exit,
 * then SIGKILL to its process group, and reaped. Nothing when none runs. */
void uci_client_stop(uci_client_t *c, bool ask, int grace_ms);
/* After the engine's output closed: how it ended ("exited with status 1", "was killed by
 * signal 9 (Killed)", "closed its pipe"), and the engine stopped. */
void uci_client_describe_end(uci_client_t *c, char *buf, size_t size);

/* The program `name` as posix_spawnp would find it on the PATH, else in /usr/games (where
 * Debian installs its engines, a folder not on every PATH): its path in buf, or NULL. */
const char *uci_client_find(const char *name, char *buf, size_t size);

#endif /* CUTOFF_UCI_CLIENT_H */
