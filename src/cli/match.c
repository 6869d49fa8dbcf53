/*
 * match.c — `cutoff match`: a small UCI referee. Two engines, each a child process spoken
 * to through pipes, play games under a clock; the referee checks every move with the
 * chess adapter, keeps the clocks and adjudicates the end of each game.
 *
 * Timing. A move's time runs on the referee's CLOCK_MONOTONIC from the moment just before
 * `go` is written to the moment the read() that brought the `bestmove` line returned. The
 * engine's clock loses that time, then gains the increment. A move that takes longer than
 * the clock held (plus --margin) loses on time, whether or not a bestmove came later: the
 * referee stops waiting at that instant.
 *
 * Faults. An illegal or malformed bestmove, a loss on time, an engine that exits or closes
 * its output, and an engine that gives no answer where no clock runs (readyok; a bestmove
 * under --depth or --nodes) within --timeout each lose the game for that engine. The
 * engine is then killed and started again before the next game, so that nothing it was
 * still doing leaks into the next game.
 *
 * The rest of the rules come from the library: checkmate, stalemate, the fifty-move rule
 * and insufficient material from the game's terminal callback; threefold repetition from
 * the Zobrist keys of the game's positions, which the referee keeps (a state does not
 * hold the game that led to it). The fifty-move rule and repetition are applied at once,
 * as referees do, not left to a claim.
 *
 * Single-threaded: one engine thinks at a time, and the referee waits for it with poll().
 */
#define _GNU_SOURCE /* pipe2 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "cutoff.h"
#include "cutoff_games.h"
#include "json.h"

/* clang-format off */
static const char match_usage[] =
	"usage: cutoff match --engine CMD --engine CMD [options]\n"
	"\n"
	"Plays games between two UCI engines and referees them: every move is checked,\n"
	"the clocks are kept by the referee, and the games end by the rules of chess or\n"
	"by a fault (an illegal move, a loss on time, a crash). Engine 1 is the first\n"
	"--engine; results are counted from its side.\n"
	"\n"
	"engines\n"
	"  --engine CMD         an engine: a program and its arguments, split at blanks\n"
	"                       ('...' and \"...\" quote, \\ escapes; no shell); exactly twice\n"
	"  --option NAME=VALUE  a UCI option (setoption) for both engines; NAME alone for a\n"
	"                       button; repeatable; the engine must declare the option\n"
	"  --option1 NAME=VALUE, --option2 NAME=VALUE\n"
	"                       the same for engine 1 or engine 2 only (sent after --option)\n"
	"games\n"
	"  --games N            games to play, 1..1000000; default 2. Engine 1 has white in\n"
	"                       odd games (1, 3, ...) and black in even ones\n"
	"  --openings FILE      start positions, one FEN or EPD line each (the first four\n"
	"                       fields, and the two counters when they follow; blank lines\n"
	"                       and lines starting with # are skipped); each is played\n"
	"                       twice, colours reversed, and the file is cycled; default\n"
	"                       the start position\n"
	"  --max-moves N        adjudicate a draw once each side has made N moves; default 0\n"
	"                       (no limit)\n"
	"time control (at most one; default --tc 10+0.1)\n"
	"  --tc BASE[+INC]      seconds on each clock, and seconds added after each move:\n"
	"                       60, 10+0.1, 1+0.01\n"
	"  --movetime MS        a fixed time per move (go movetime), 1..86400000\n"
	"  --depth D            a fixed depth per move (go depth), 1..255\n"
	"  --nodes N            a fixed node count per move (go nodes), 1..2^64-1\n"
	"  --margin MS          how far a move may overrun the clock (or --movetime) before\n"
	"                       it loses on time, 0..3600000; default 0 with --tc, 50 with\n"
	"                       --movetime (an engine told to think N ms uses all N, and\n"
	"                       the pipes add their latency)\n"
	"  --timeout S          the longest wait, in seconds, for uciok, readyok and (with\n"
	"                       --depth or --nodes) a bestmove, 1..86400; default 60\n"
	"output\n"
	"  --pgn FILE           write the games to FILE as PGN, moves in SAN\n"
	"  --log FILE           write every line exchanged with the engines, timed, and\n"
	"                       the engines' stderr (otherwise discarded) to FILE\n"
	"  --json               one JSON object at the end instead of the text report\n"
	"  --help               print this help\n"
	"\n"
	"Exit status: 0 when every game ended by the rules (or --max-moves); 1 when an\n"
	"engine lost a game by a fault (illegal or malformed move, loss on time, crash or\n"
	"closed pipe, no answer), failed its UCI handshake, or the system failed; 2 for a\n"
	"bad command line, an openings file that cannot be read, an engine that cannot be\n"
	"run, or an option that an engine does not declare.\n";
/* clang-format on */

#define CMD "match"

enum {
	READ_BUF_SIZE = 1 << 16, /* the longest line kept from an engine; longer ones are dropped */
	REASON_SIZE = 256,
	MAX_DECLARED = 512 /* the engine options remembered for checking --option */
};

static const int64_t NS_PER_MS = 1000000;
static const int64_t NS_PER_S = 1000000000;

static double secs(int64_t ns) { return (double)ns / (double)NS_PER_S; }

/* A growing string; `oom` sticks once an allocation failed (the text is then cut). */
typedef struct sbuf {
	char *p;
	size_t len, cap;
	bool oom;
} sbuf_t;

static void sb_add(sbuf_t *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void sb_str(sbuf_t *b, const char *s) { sb_add(b, s, strlen(s)); }

static void sb_printf(sbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf_t *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		sb_add(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

static const char *sb_text(const sbuf_t *b) { return b->p ? b->p : ""; }

/* ---- the engines ---------------------------------------------------------------------- */

typedef enum fault {
	FAULT_NONE,
	FAULT_ILLEGAL, /* an illegal, null or malformed bestmove */
	FAULT_TIME,    /* the clock (or --movetime) ran out */
	FAULT_CRASH,   /* the engine exited or closed its output, or its input broke */
	FAULT_HANG,    /* no readyok, or no bestmove without a clock, within --timeout */
	NFAULTS
} fault_t;

static const char *const fault_names[NFAULTS] = { "none", "illegal_move", "time", "crash",
	                                          "no_answer" };

typedef struct engine {
	int id; /* 1 or 2 */
	const char *command;
	char **argv;            /* the command split into words, NULL-terminated */
	char *words;            /* their storage */
	char q[CLI_QUOTE_SIZE]; /* the command, quoted, for messages */
	const char **setopts;   /* NAME=VALUE (or NAME), in the order sent */
	int nsetopts;
	int nshared;   /* the first nshared of them came from --option, the rest from --optionN */
	char name[80]; /* from "id name", else the program's name */

	pid_t pid;    /* 0 when not running */
	int to, from; /* the engine's stdin (we write) and stdout (we read), non-blocking */
	char *rbuf;
	size_t rlen, rpos; /* bytes held, bytes already handed out */
	bool skipping;     /* dropping the rest of an over-long line */
	int64_t rtime;     /* when the last read() returned data */
	bool broken;       /* faulted: started again before the next game */

	char *declared[MAX_DECLARED]; /* option names from "option name ... type" */
	int ndeclared;

	/* Totals over the match. */
	int faults[NFAULTS];
	int64_t used;      /* thinking time, ns */
	int64_t min_clock; /* the least clock left after a move (ns); INT64_MAX when none */
	int moves;
} engine_t;

typedef enum tc_mode {
	TC_CLOCK,
	TC_MOVETIME,
	TC_DEPTH,
	TC_NODES
} tc_mode_t;

typedef struct opening {
	cutoff_chess_state_t pos;
	char fen[CUTOFF_CHESS_FEN_SIZE];
} opening_t;

typedef struct game_rec {
	int white;   /* engine index (0 or 1) with white */
	int opening; /* index into openings, or -1 for the start position */
	char fen[CUTOFF_CHESS_FEN_SIZE];
	sbuf_t moves; /* UCI moves separated by blanks */
	int plies;
	int winner; /* engine index, or -1 for a draw */
	const char *result;
	const char *termination; /* for PGN */
	char reason[REASON_SIZE];
	fault_t fault;
	int fault_engine;
	int64_t used[2];      /* by colour, ns */
	int64_t min_clock[2]; /* by colour, ns; INT64_MAX when no move was timed */
} game_rec_t;

typedef struct match {
	const cutoff_chess_t *chess;
	const cutoff_game_t *game;
	engine_t eng[2];
	tc_mode_t mode;
	const char *tc_text;
	int64_t base, inc, movetime, margin, timeout; /* ns */
	int64_t depth;
	uint64_t nodes;
	int64_t max_moves;
	int64_t ngames;
	opening_t *openings;
	int nopenings;
	FILE *pgn, *log;
	int logfd;
	int64_t t0;
	game_rec_t *games;
	int played;
	uint64_t *keys; /* the positions of the current game, for repetition */
	size_t nkeys, capkeys;
} match_t;

static void log_line(match_t *m, const engine_t *e, const char *dir, const char *text, size_t n)
{
	if (!m->log)
		return;
	fprintf(m->log, "%10.3f %d%s %.*s\n", secs((int64_t)cli_now_ns() - m->t0), e->id, dir,
	        (int)n, text);
	fflush(m->log);
}

static void log_note(match_t *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void log_note(match_t *m, const char *fmt, ...)
{
	if (!m->log)
		return;
	va_list ap;
	fprintf(m->log, "%10.3f -- ", secs((int64_t)cli_now_ns() - m->t0));
	va_start(ap, fmt);
	vfprintf(m->log, fmt, ap);
	va_end(ap);
	fputc('\n', m->log);
	fflush(m->log);
}

/*
 * Splits `cmd` into words: blanks separate them, '...' quotes literally, "..." quotes
 * with \" and \\ escaped, and \ outside quotes escapes the next character. Returns the
 * number of words with e->argv and e->words set, 0 for an empty command, -1 for an
 * unterminated quote or a trailing backslash, -2 when memory runs out.
 */
static int split_command(engine_t *e, const char *cmd)
{
	size_t n = strlen(cmd);
	char *out = malloc(n + 1);
	char **argv = malloc((n / 2 + 2) * sizeof(*argv));
	if (!out || !argv) {
		free(out);
		free(argv);
		return -2;
	}
	int nw = 0;
	char *w = out;
	const char *p = cmd;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		argv[nw++] = w;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
			if (*p == '\'') {
				const char *end = strchr(p + 1, '\'');
				if (!end)
					goto bad;
				memcpy(w, p + 1, (size_t)(end - p - 1));
				w += end - p - 1;
				p = end + 1;
			} else if (*p == '"') {
				for (p++; *p != '"'; p++) {
					if (!*p)
						goto bad;
					if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
						p++;
					*w++ = *p;
				}
				p++;
			} else if (*p == '\\') {
				if (!p[1])
					goto bad;
				*w++ = p[1];
				p += 2;
			} else {
				*w++ = *p++;
			}
		}
		*w++ = '\0';
	}
	argv[nw] = NULL;
	e->argv = argv;
	e->words = out;
	return nw;
bad:
	free(out);
	free(argv);
	return -1;
}

typedef enum read_status {
	LINE_OK,
	LINE_TIMEOUT,
	LINE_EOF
} read_status_t;

/* Hands out the next whole line held (without its newline or a trailing \r), or false. */
static bool take_line(match_t *m, engine_t *e, char **line)
{
	for (;;) {
		char *start = e->rbuf + e->rpos;
		char *nl = memchr(start, '\n', e->rlen - e->rpos);
		if (!nl)
			return false;
		size_t n = (size_t)(nl - start);
		e->rpos += n + 1;
		if (e->skipping) {
			e->skipping = false;
			continue;
		}
		if (n > 0 && start[n - 1] == '\r')
			n--;
		start[n] = '\0';
		log_line(m, e, "<", start, n);
		*line = start;
		return true;
	}
}

/* One poll() of up to `ms` and one read(): 1 when data came (e->rtime set), 0 when none,
 * -1 at the end of the engine's output. */
static int fill(engine_t *e, int ms)
{
	/* Keep the partial line at the front, or drop it when it fills the buffer. */
	memmove(e->rbuf, e->rbuf + e->rpos, e->rlen - e->rpos);
	e->rlen -= e->rpos;
	e->rpos = 0;
	if (e->rlen >= READ_BUF_SIZE - 1) {
		e->rlen = 0;
		e->skipping = true;
	}
	struct pollfd pfd = { .fd = e->from, .events = POLLIN };
	int rc = poll(&pfd, 1, ms);
	if (rc < 0)
		return errno == EINTR ? 0 : -1;
	if (rc == 0)
		return 0;
	ssize_t got = read(e->from, e->rbuf + e->rlen, READ_BUF_SIZE - 1 - e->rlen);
	if (got == 0)
		return -1;
	if (got < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
	e->rtime = (int64_t)cli_now_ns();
	e->rlen += (size_t)got;
	return 1;
}

/*
 * The next line from the engine, waiting until `deadline` at most; a line that arrived
 * after the deadline counts as none. *line points into the engine's buffer until the next
 * call; e->rtime is when the read that completed it returned.
 */
static read_status_t engine_read(match_t *m, engine_t *e, int64_t deadline, char **line)
{
	for (;;) {
		if (take_line(m, e, line))
			return e->rtime > deadline ? LINE_TIMEOUT : LINE_OK;
		int64_t left = deadline - (int64_t)cli_now_ns();
		if (left <= 0)
			return LINE_TIMEOUT;
		int64_t ms = (left + NS_PER_MS - 1) / NS_PER_MS;
		if (fill(e, ms > 86400000 ? 86400000 : (int)ms) < 0)
			return LINE_EOF;
	}
}

/* Reads and drops whatever the engine has said and not been asked for, so that a stray
 * bestmove cannot be taken for the answer to the next go. */
static void engine_drain(match_t *m, engine_t *e)
{
	char *line;
	do {
		while (take_line(m, e, &line))
			;
	} while (fill(e, 0) > 0);
}

/* Writes `text` and a newline to the engine, within --timeout. 0, or -1 when the pipe is
 * broken or the engine does not read. */
static int engine_send(match_t *m, engine_t *e, const char *text)
{
	size_t n = strlen(text);
	log_line(m, e, ">", text, n);
	char *msg = malloc(n + 1);
	if (!msg)
		return -1;
	memcpy(msg, text, n);
	msg[n++] = '\n';
	size_t done = 0;
	int64_t deadline = (int64_t)cli_now_ns() + m->timeout;
	int status = 0;
	while (done < n) {
		ssize_t w = write(e->to, msg + done, n - done);
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
		struct pollfd pfd = { .fd = e->to, .events = POLLOUT };
		(void)poll(&pfd, 1, (int)((left + NS_PER_MS - 1) / NS_PER_MS));
	}
	free(msg);
	return status;
}

/* Waits up to `ms` for the engine's process to end; true with *status set when it has. */
static bool engine_reap(engine_t *e, int ms, int *status)
{
	for (int waited = 0;; waited += 2) {
		pid_t r = waitpid(e->pid, status, WNOHANG);
		if (r == e->pid || (r < 0 && errno == ECHILD))
			return r == e->pid;
		if (waited >= ms)
			return false;
		struct timespec ts = { 0, 2 * 1000000 };
		nanosleep(&ts, NULL);
	}
}

static void engine_close_fds(engine_t *e)
{
	if (e->to >= 0)
		close(e->to);
	if (e->from >= 0)
		close(e->from);
	e->to = e->from = -1;
}

/* Ends the engine: quit, a short wait, then SIGKILL. */
static void engine_stop(match_t *m, engine_t *e, bool ask)
{
	if (e->pid <= 0)
		return;
	if (ask && e->to >= 0)
		(void)engine_send(m, e, "quit");
	if (e->to >= 0)
		close(e->to);
	e->to = -1;
	int status;
	if (!engine_reap(e, ask ? 500 : 0, &status)) {
		kill(e->pid, SIGKILL);
		waitpid(e->pid, &status, 0);
	}
	log_note(m, "engine %d stopped", e->id);
	engine_close_fds(e);
	e->pid = 0;
}

/* After the engine's output closed: how it ended, for a message ("exited with status 1"). */
static void engine_describe_end(match_t *m, engine_t *e, char *buf, size_t size)
{
	int status;
	if (e->pid > 0 && engine_reap(e, 300, &status)) {
		e->pid = 0;
		engine_close_fds(e);
		if (WIFEXITED(status))
			snprintf(buf, size, "exited with status %d", WEXITSTATUS(status));
		else if (WIFSIGNALED(status))
			snprintf(buf, size, "was killed by signal %d (%s)", WTERMSIG(status),
			         strsignal(WTERMSIG(status)));
		else
			snprintf(buf, size, "ended");
	} else {
		snprintf(buf, size, "closed its pipe");
		engine_stop(m, e, false);
	}
}

/*
 * Starts the engine's process. 0, or -1 after printing why (the program cannot be run:
 * a usage error), or -2 (a system failure, printed).
 */
static int engine_spawn(match_t *m, engine_t *e)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, ex[2] = { -1, -1 };
	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(ex, O_CLOEXEC) != 0) {
		cli_error(CMD, "cannot make pipes: %s", strerror(errno));
		goto fail;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		cli_error(CMD, "cannot fork: %s", strerror(errno));
		goto fail;
	}
	if (pid == 0) {
		/* The child: only async-signal-safe calls until exec. */
		int err_fd = m->logfd >= 0 ? m->logfd : open("/dev/null", O_WRONLY);
		if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 ||
		    (err_fd >= 0 && dup2(err_fd, 2) < 0))
			_exit(127);
		signal(SIGPIPE, SIG_DFL);
		execvp(e->argv[0], e->argv);
		int err = errno;
		ssize_t w = write(ex[1], &err, sizeof(err));
		(void)w;
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(ex[1]);
	int err = 0;
	ssize_t got;
	do
		got = read(ex[0], &err, sizeof(err));
	while (got < 0 && errno == EINTR);
	close(ex[0]);
	if (got == (ssize_t)sizeof(err)) {
		waitpid(pid, NULL, 0);
		close(in[1]);
		close(out[0]);
		char q[CLI_QUOTE_SIZE];
		cli_error(CMD, "--engine %s: cannot run %s: %s", e->q,
		          cli_quote(q, sizeof(q), e->argv[0]), strerror(err));
		return -1;
	}
	e->pid = pid;
	e->to = in[1];
	e->from = out[0];
	fcntl(e->to, F_SETFL, fcntl(e->to, F_GETFL) | O_NONBLOCK);
	fcntl(e->from, F_SETFL, fcntl(e->from, F_GETFL) | O_NONBLOCK);
	e->rlen = e->rpos = 0;
	e->skipping = false;
	log_note(m, "engine %d started: pid %d: %s", e->id, (int)pid, e->command);
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
		if (ex[i] >= 0)
			close(ex[i]);
	}
	return -2;
}

static bool word_is(const char **p, const char *word)
{
	size_t n = strlen(word);
	if (strncmp(*p, word, n) != 0 || ((*p)[n] != '\0' && (*p)[n] != ' ' && (*p)[n] != '\t'))
		return false;
	*p += n;
	while (**p == ' ' || **p == '\t')
		(*p)++;
	return true;
}

/* "option name NAME type ...": remembers NAME (which may hold blanks). */
static void note_option(engine_t *e, const char *rest)
{
	if (!word_is(&rest, "name") || e->ndeclared >= MAX_DECLARED)
		return;
	const char *end = rest;
	const char *type = NULL;
	for (const char *p = rest; *p; p++) {
		if ((p == rest || p[-1] == ' ' || p[-1] == '\t') && strncmp(p, "type", 4) == 0 &&
		    (p[4] == ' ' || p[4] == '\t' || p[4] == '\0')) {
			type = p;
			break;
		}
	}
	end = type ? type : rest + strlen(rest);
	while (end > rest && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (end == rest)
		return;
	char *name = strndup(rest, (size_t)(end - rest));
	if (name)
		e->declared[e->ndeclared++] = name;
}

/* Waits for a line that is exactly `want`, ignoring others (recording id name and the
 * options while waiting for uciok). 0, or a fault with `why` written. */
static fault_t engine_expect(match_t *m, engine_t *e, const char *want, char *why, size_t size)
{
	int64_t deadline = (int64_t)cli_now_ns() + m->timeout;
	for (;;) {
		char *line;
		read_status_t rs = engine_read(m, e, deadline, &line);
		if (rs == LINE_TIMEOUT) {
			snprintf(why, size, "no '%s' within %" PRId64 " s", want,
			         m->timeout / NS_PER_S);
			return FAULT_HANG;
		}
		if (rs == LINE_EOF) {
			char how[100];
			engine_describe_end(m, e, how, sizeof(how));
			snprintf(why, size, "%s before '%s'", how, want);
			return FAULT_CRASH;
		}
		const char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (word_is(&p, want) && *p == '\0')
			return FAULT_NONE;
		if (word_is(&p, "id") && word_is(&p, "name") && *p)
			snprintf(e->name, sizeof(e->name), "%s", p);
		else if (word_is(&p, "option"))
			note_option(e, p);
	}
}

/*
 * Starts the engine and has it ready: uci, uciok, the options, isready, readyok.
 * CLI_EXIT_OK, or an exit status after printing the one-line error.
 */
static int engine_start(match_t *m, engine_t *e)
{
	char why[REASON_SIZE], q[CLI_QUOTE_SIZE];
	int rc = engine_spawn(m, e);
	if (rc < 0)
		return rc == -1 ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
	for (int i = 0; i < e->ndeclared; i++)
		free(e->declared[i]);
	e->ndeclared = 0;
	fault_t f = FAULT_NONE;
	if (engine_send(m, e, "uci") != 0) {
		f = FAULT_CRASH;
		engine_describe_end(m, e, why, sizeof(why));
	} else {
		f = engine_expect(m, e, "uciok", why, sizeof(why));
	}
	for (int i = 0; f == FAULT_NONE && i < e->nsetopts; i++) {
		const char *o = e->setopts[i];
		const char *eq = strchr(o, '=');
		size_t nlen = eq ? (size_t)(eq - o) : strlen(o);
		bool known = false;
		for (int k = 0; k < e->ndeclared && !known; k++)
			known = strlen(e->declared[k]) == nlen &&
			        strncasecmp(e->declared[k], o, nlen) == 0;
		if (!known) {
			char opt[16] = "--option";
			if (i >= e->nshared)
				snprintf(opt, sizeof(opt), "--option%d", e->id);
			cli_error(CMD, "%s %s: engine %d (%s) declares no option '%.*s'", opt,
			          cli_quote(q, sizeof(q), o), e->id, e->name, (int)nlen, o);
			engine_stop(m, e, true);
			return CLI_EXIT_USAGE;
		}
		sbuf_t cmd = { 0 };
		sb_printf(&cmd, "setoption name %.*s", (int)nlen, o);
		if (eq) {
			sb_str(&cmd, " value ");
			sb_str(&cmd, eq + 1);
		}
		if (cmd.oom || engine_send(m, e, sb_text(&cmd)) != 0) {
			f = FAULT_CRASH;
			snprintf(why, sizeof(why), "cannot send its options");
		}
		free(cmd.p);
	}
	if (f == FAULT_NONE) {
		if (engine_send(m, e, "isready") != 0) {
			f = FAULT_CRASH;
			snprintf(why, sizeof(why), "closed its input");
		} else {
			f = engine_expect(m, e, "readyok", why, sizeof(why));
		}
	}
	if (f != FAULT_NONE) {
		cli_error(CMD, "engine %d (%s): %s", e->id, e->q, why);
		engine_stop(m, e, false);
		return CLI_EXIT_FAIL;
	}
	e->broken = false;
	return CLI_EXIT_OK;
}

/* ---- the rules ------------------------------------------------------------------------ */

static int64_t fen_field_int(const char *fen, int field)
{
	const char *p = fen;
	for (int i = 0; i < field && p; i++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	return p ? strtoll(p, NULL, 10) : 0;
}

static int fen_side(const char *fen)
{
	const char *p = strchr(fen, ' ');
	return p && p[1] == 'b' ? 1 : 0;
}

static bool push_key(match_t *m, uint64_t key)
{
	if (m->nkeys == m->capkeys) {
		size_t cap = m->capkeys ? 2 * m->capkeys : 256;
		uint64_t *k = realloc(m->keys, cap * sizeof(*k));
		if (!k)
			return false;
		m->keys = k;
		m->capkeys = cap;
	}
	m->keys[m->nkeys++] = key;
	return true;
}

/* The position after the last move stands for the third time (its key, which covers the
 * side to move, castling rights and a capturable en-passant square, seen twice before). */
static bool threefold(const match_t *m)
{
	uint64_t k = m->keys[m->nkeys - 1];
	int seen = 0;
	for (size_t i = 0; i + 1 < m->nkeys; i++)
		seen += m->keys[i] == k;
	return seen >= 2;
}

/* Writes the game as PGN: the Seven Tag Roster (Site, Date and Event as a referee knows
 * them), SetUp and FEN for an opening, TimeControl for --tc, Termination, and a closing
 * comment with the reason. */
static void write_pgn(match_t *m, const game_rec_t *g, int round)
{
	const char *names[2] = { m->eng[g->white].name, m->eng[1 - g->white].name };
	time_t t = time(NULL);
	struct tm tm;
	char date[16] = "????.??.??";
	if (localtime_r(&t, &tm))
		strftime(date, sizeof(date), "%Y.%m.%d", &tm);
	FILE *f = m->pgn;
	fprintf(f, "[Event \"cutoff match\"]\n[Site \"?\"]\n[Date \"%s\"]\n[Round \"%d\"]\n", date,
	        round);
	for (int c = 0; c < 2; c++) {
		fprintf(f, "[%s \"", c == 0 ? "White" : "Black");
		for (const char *p = names[c]; *p; p++) {
			if (*p == '"' || *p == '\\')
				fputc('\\', f);
			fputc(*p, f);
		}
		fputs("\"]\n", f);
	}
	fprintf(f, "[Result \"%s\"]\n", g->result);
	if (g->opening >= 0)
		fprintf(f, "[SetUp \"1\"]\n[FEN \"%s\"]\n", g->fen);
	if (m->mode == TC_CLOCK)
		fprintf(f, "[TimeControl \"%s\"]\n", m->tc_text);
	fprintf(f, "[PlyCount \"%d\"]\n[Termination \"%s\"]\n\n", g->plies, g->termination);

	cutoff_chess_state_t pos;
	if (cutoff_chess_parse_fen(m->chess, g->fen, &pos, NULL, 0) != 0)
		return;
	int side = fen_side(g->fen);
	int64_t number = fen_field_int(g->fen, 5);
	size_t col = 0;
	const char *p = sb_text(&g->moves);
	char tok[CUTOFF_CHESS_MOVE_SIZE + 2], word[32], san[CUTOFF_CHESS_SAN_SIZE];
	for (int ply = 0; ply < g->plies; ply++) {
		size_t n = strcspn(p, " ");
		snprintf(tok, sizeof(tok), "%.*s", (int)(n < 7 ? n : 7), p);
		p += n + (p[n] == ' ');
		cutoff_move_t mv;
		if (cutoff_chess_parse_move(m->chess, &pos, tok, &mv, NULL, 0) != 0)
			break;
		if (cutoff_chess_san(m->chess, &pos, mv, san, sizeof(san)) < 0)
			break;
		if (side == 0)
			snprintf(word, sizeof(word), "%" PRId64 ". %s", number, san);
		else if (ply == 0)
			snprintf(word, sizeof(word), "%" PRId64 "... %s", number, san);
		else
			snprintf(word, sizeof(word), "%s", san);
		size_t wl = strlen(word);
		if (col > 0 && col + 1 + wl > 79) {
			fputc('\n', f);
			col = 0;
		} else if (col > 0) {
			fputc(' ', f);
			col++;
		}
		fputs(word, f);
		col += wl;
		(void)cutoff_chess_play(m->chess, &pos, mv, &pos);
		if (side == 1)
			number++;
		side = 1 - side;
	}
	if (col > 0)
		fputc('\n', f);
	fputc('{', f);
	for (const char *r = g->reason; *r; r++)
		fputc(*r == '}' ? ')' : *r, f);
	fprintf(f, "} %s\n\n", g->result);
	fflush(f);
}

/* ---- one game ------------------------------------------------------------------------- */

static void end_game(game_rec_t *g, int winner_colour, int white, const char *termination,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void end_game(game_rec_t *g, int winner_colour, int white, const char *termination,
                     const char *fmt, ...)
{
	g->winner = winner_colour < 0 ? -1 : winner_colour == 0 ? white : 1 - white;
	g->result = winner_colour < 0 ? "1/2-1/2" : winner_colour == 0 ? "1-0" : "0-1";
	g->termination = termination;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(g->reason, sizeof(g->reason), fmt, ap);
	va_end(ap);
}

/* The engine playing `colour` (0 white) lost by a fault. */
static void forfeit(match_t *m, game_rec_t *g, int colour, fault_t f, const char *why)
{
	int ei = colour == 0 ? g->white : 1 - g->white;
	engine_t *e = &m->eng[ei];
	e->faults[f]++;
	e->broken = true;
	g->fault = f;
	g->fault_engine = ei;
	static const char *const term[NFAULTS] = { "normal", "rules infraction", "time forfeit",
		                                   "abandoned", "abandoned" };
	end_game(g, 1 - colour, g->white, term[f], "engine %d (%s) %s", e->id,
	         colour == 0 ? "white" : "black", why);
	log_note(m, "game %d: %s", m->played + 1, g->reason);
}

static bool parse_bestmove(char *line, char **mv)
{
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!word_is(&p, "bestmove"))
		return false;
	char *s = (char *)p;
	size_t n = strcspn(s, " \t");
	s[n] = '\0';
	*mv = s;
	return true;
}

/* Asks the engine for its move. FAULT_NONE with *move played into *pos, or a fault with
 * the game ended. */
static fault_t ask_move(match_t *m, game_rec_t *g, int colour, cutoff_chess_state_t *pos,
                        int64_t clock[2])
{
	engine_t *e = &m->eng[colour == 0 ? g->white : 1 - g->white];
	char why[REASON_SIZE], q[CLI_QUOTE_SIZE];
	sbuf_t cmd = { 0 };
	if (g->opening < 0)
		sb_str(&cmd, "position startpos");
	else
		sb_printf(&cmd, "position fen %s", g->fen);
	if (g->plies > 0) {
		sb_str(&cmd, " moves ");
		sb_str(&cmd, sb_text(&g->moves));
	}
	if (cmd.oom) {
		free(cmd.p);
		forfeit(m, g, colour, FAULT_CRASH, "could not be sent the position: out of memory");
		return FAULT_CRASH;
	}
	char go[160];
	int64_t limit;
	switch (m->mode) {
	case TC_CLOCK: {
		int64_t w = clock[0] / NS_PER_MS, b = clock[1] / NS_PER_MS;
		snprintf(go, sizeof(go),
		         "go wtime %" PRId64 " btime %" PRId64 " winc %" PRId64 " binc %" PRId64,
		         w > 0 ? w : 1, b > 0 ? b : 1, m->inc / NS_PER_MS, m->inc / NS_PER_MS);
		limit = clock[colour] + m->margin;
		break;
	}
	case TC_MOVETIME:
		snprintf(go, sizeof(go), "go movetime %" PRId64, m->movetime / NS_PER_MS);
		limit = m->movetime + m->margin;
		break;
	case TC_DEPTH:
		snprintf(go, sizeof(go), "go depth %" PRId64, m->depth);
		limit = m->timeout;
		break;
	default:
		snprintf(go, sizeof(go), "go nodes %" PRIu64, m->nodes);
		limit = m->timeout;
		break;
	}
	engine_drain(m, e);
	int rc = engine_send(m, e, sb_text(&cmd));
	free(cmd.p);
	int64_t t0 = (int64_t)cli_now_ns();
	if (rc == 0)
		rc = engine_send(m, e, go);
	if (rc != 0) {
		engine_describe_end(m, e, why, sizeof(why));
		char msg[REASON_SIZE];
		snprintf(msg, sizeof(msg), "could not be sent its move: it %.200s", why);
		forfeit(m, g, colour, FAULT_CRASH, msg);
		return FAULT_CRASH;
	}
	char *line = NULL, *text = NULL;
	for (;;) {
		read_status_t rs = engine_read(m, e, t0 + limit, &line);
		if (rs == LINE_EOF) {
			char how[100];
			engine_describe_end(m, e, how, sizeof(how));
			snprintf(why, sizeof(why), "%s while thinking", how);
			forfeit(m, g, colour, FAULT_CRASH, why);
			return FAULT_CRASH;
		}
		if (rs == LINE_TIMEOUT) {
			int64_t waited = (int64_t)cli_now_ns() - t0;
			g->used[colour] += waited;
			e->used += waited;
			if (m->mode == TC_CLOCK || m->mode == TC_MOVETIME) {
				int64_t left = (m->mode == TC_CLOCK ? clock[colour] : m->movetime) -
				               waited;
				if (left < g->min_clock[colour])
					g->min_clock[colour] = left;
				if (left < e->min_clock)
					e->min_clock = left;
				snprintf(why, sizeof(why),
				         "lost on time: no bestmove within the %.3f s it had%s",
				         secs(limit), m->margin ? " (margin included)" : "");
				forfeit(m, g, colour, FAULT_TIME, why);
				return FAULT_TIME;
			}
			snprintf(why, sizeof(why), "sent no bestmove within %" PRId64 " s",
			         m->timeout / NS_PER_S);
			forfeit(m, g, colour, FAULT_HANG, why);
			return FAULT_HANG;
		}
		if (parse_bestmove(line, &text))
			break;
	}
	int64_t took = e->rtime - t0;
	g->used[colour] += took;
	e->used += took;
	e->moves++;
	if (m->mode == TC_CLOCK || m->mode == TC_MOVETIME) {
		int64_t left = (m->mode == TC_CLOCK ? clock[colour] : m->movetime) - took;
		if (m->mode == TC_CLOCK)
			clock[colour] = left;
		if (left < g->min_clock[colour])
			g->min_clock[colour] = left;
		if (left < e->min_clock)
			e->min_clock = left;
		if (took > limit) {
			snprintf(why, sizeof(why),
			         "lost on time: its move took %.3f s with %.3f s to spend%s",
			         secs(took), secs(limit), m->margin ? " (margin included)" : "");
			forfeit(m, g, colour, FAULT_TIME, why);
			return FAULT_TIME;
		}
		if (m->mode == TC_CLOCK)
			clock[colour] += m->inc;
	}
	cutoff_move_t mv;
	char err[160];
	if (*text == '\0') {
		forfeit(m, g, colour, FAULT_ILLEGAL, "sent a bestmove without a move");
		return FAULT_ILLEGAL;
	}
	if (cutoff_chess_parse_move(m->chess, pos, text, &mv, err, sizeof(err)) != 0) {
		snprintf(why, sizeof(why), "played an illegal move %s: %s",
		         cli_quote(q, sizeof(q), text), err);
		forfeit(m, g, colour, FAULT_ILLEGAL, why);
		return FAULT_ILLEGAL;
	}
	char canon[CUTOFF_CHESS_MOVE_SIZE];
	cutoff_chess_move_str(mv, canon, sizeof(canon));
	if (g->plies > 0)
		sb_str(&g->moves, " ");
	sb_str(&g->moves, canon);
	g->plies++;
	(void)cutoff_chess_play(m->chess, pos, mv, pos);
	return FAULT_NONE;
}

/* ucinewgame and isready for a new game. FAULT_NONE, or the game forfeited. */
static fault_t new_game(match_t *m, game_rec_t *g, int colour)
{
	engine_t *e = &m->eng[colour == 0 ? g->white : 1 - g->white];
	char why[REASON_SIZE], msg[REASON_SIZE];
	fault_t f;
	if (engine_send(m, e, "ucinewgame") != 0 || engine_send(m, e, "isready") != 0) {
		engine_describe_end(m, e, why, sizeof(why));
		f = FAULT_CRASH;
	} else {
		f = engine_expect(m, e, "readyok", why, sizeof(why));
	}
	if (f != FAULT_NONE) {
		snprintf(msg, sizeof(msg), "failed at the start of the game: %.200s", why);
		forfeit(m, g, colour, f, msg);
	}
	return f;
}

/* Plays game number `index` (0-based). CLI_EXIT_OK, or CLI_EXIT_FAIL (printed) when the
 * referee itself fails. */
static int play_game(match_t *m, int index, game_rec_t *g)
{
	g->white = index % 2;
	g->winner = -1;
	g->fault = FAULT_NONE;
	g->fault_engine = -1;
	cutoff_chess_state_t pos;
	if (m->nopenings > 0) {
		g->opening = (index / 2) % m->nopenings;
		pos = m->openings[g->opening].pos;
		snprintf(g->fen, sizeof(g->fen), "%s", m->openings[g->opening].fen);
	} else {
		g->opening = -1;
		cutoff_chess_start(m->chess, &pos);
		snprintf(g->fen, sizeof(g->fen), "%s", CUTOFF_CHESS_START_FEN);
	}
	int64_t clock[2] = { m->base, m->base };
	for (int c = 0; c < 2; c++) {
		g->min_clock[c] = INT64_MAX;
		g->used[c] = 0;
	}
	log_note(m, "game %d: engine %d white, engine %d black, from %s", index + 1, g->white + 1,
	         2 - g->white, g->fen);
	for (int c = 0; c < 2; c++) {
		if (new_game(m, g, c) != FAULT_NONE)
			return CLI_EXIT_OK;
	}
	int colour = fen_side(g->fen);
	m->nkeys = 0;
	for (;;) {
		if (!push_key(m, m->game->key(m->game->ctx, &pos))) {
			cli_error(CMD, "out of memory");
			return CLI_EXIT_FAIL;
		}
		int32_t value;
		if (m->game->terminal(m->game->ctx, &pos, &value)) {
			char fen[CUTOFF_CHESS_FEN_SIZE];
			cutoff_move_t list[CUTOFF_MAX_MOVES];
			cutoff_chess_fen(m->chess, &pos, fen, sizeof(fen));
			if (value < 0)
				end_game(g, 1 - colour, g->white, "normal", "checkmate");
			else if (cutoff_chess_moves(m->chess, &pos, list) == 0)
				end_game(g, -1, g->white, "normal", "stalemate");
			else if (fen_field_int(fen, 4) >= 100)
				end_game(g, -1, g->white, "normal", "fifty-move rule");
			else
				end_game(g, -1, g->white, "normal", "insufficient material");
			return CLI_EXIT_OK;
		}
		if (threefold(m)) {
			end_game(g, -1, g->white, "normal", "threefold repetition");
			return CLI_EXIT_OK;
		}
		if (m->max_moves > 0 && g->plies >= 2 * m->max_moves) {
			end_game(g, -1, g->white, "adjudication",
			         "move limit (%" PRId64 " moves each)", m->max_moves);
			return CLI_EXIT_OK;
		}
		if (ask_move(m, g, colour, &pos, clock) != FAULT_NONE)
			return CLI_EXIT_OK;
		if (g->moves.oom) {
			cli_error(CMD, "out of memory");
			return CLI_EXIT_FAIL;
		}
		colour = 1 - colour;
	}
}

/* ---- the command line ----------------------------------------------------------------- */

/* "10", "1.5", "0.01": seconds into ns, at most 1e6 s and 9 decimals; no sign. */
static bool parse_seconds(const char *s, size_t n, int64_t *ns)
{
	size_t i = 0;
	int64_t whole = 0, frac = 0, scale = NS_PER_S;
	if (n == 0 || !isdigit((unsigned char)s[0]))
		return false;
	for (; i < n && isdigit((unsigned char)s[i]); i++) {
		whole = whole * 10 + (s[i] - '0');
		if (whole > 1000000)
			return false;
	}
	if (i < n && s[i] == '.') {
		i++;
		if (i == n || !isdigit((unsigned char)s[i]))
			return false;
		for (; i < n && isdigit((unsigned char)s[i]); i++) {
			if (scale == 1)
				return false;
			scale /= 10;
			frac += (s[i] - '0') * scale;
		}
	}
	if (i != n)
		return false;
	*ns = whole * NS_PER_S + frac;
	return true;
}

static bool parse_tc(const char *text, int64_t *base, int64_t *inc)
{
	const char *plus = strchr(text, '+');
	size_t bl = plus ? (size_t)(plus - text) : strlen(text);
	if (!parse_seconds(text, bl, base) || *base <= 0)
		return false;
	*inc = 0;
	return !plus || parse_seconds(plus + 1, strlen(plus + 1), inc);
}

/* Reads --openings. CLI_EXIT_OK, or an exit status after the one-line error. */
static int read_openings(match_t *m, const char *path)
{
	char q[CLI_QUOTE_SIZE], msg[200];
	FILE *f = cli_open_input(CMD, "openings", path);
	if (!f)
		return CLI_EXIT_USAGE;
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, status = CLI_EXIT_OK, capo = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		char *tok[6];
		int nt = 0;
		for (char *save = NULL, *t = strtok_r(line, " \t\r\n", &save); t && nt < 6;
		     t = strtok_r(NULL, " \t\r\n", &save))
			tok[nt++] = t;
		if (nt == 0 || tok[0][0] == '#')
			continue;
		if (nt < 4) {
			cli_error(CMD, "--openings %s: line %d: expected a FEN or EPD line",
			          cli_quote(q, sizeof(q), path), lineno);
			status = CLI_EXIT_USAGE;
			break;
		}
		char fen[256];
		bool counters = nt >= 6 && strspn(tok[4], "0123456789") == strlen(tok[4]) &&
		                strspn(tok[5], "0123456789") == strlen(tok[5]);
		if (counters)
			snprintf(fen, sizeof(fen), "%.90s %.8s %.8s %.8s %.8s %.8s", tok[0], tok[1],
			         tok[2], tok[3], tok[4], tok[5]);
		else
			snprintf(fen, sizeof(fen), "%.90s %.8s %.8s %.8s", tok[0], tok[1], tok[2],
			         tok[3]);
		if (m->nopenings == capo) {
			capo = capo ? 2 * capo : 64;
			opening_t *o = realloc(m->openings, (size_t)capo * sizeof(*o));
			if (!o) {
				cli_error(CMD, "--openings: out of memory");
				status = CLI_EXIT_FAIL;
				break;
			}
			m->openings = o;
		}
		opening_t *o = &m->openings[m->nopenings];
		if (cutoff_chess_parse_fen(m->chess, fen, &o->pos, msg, sizeof(msg)) != 0) {
			cli_error(CMD, "--openings %s: line %d: %s", cli_quote(q, sizeof(q), path),
			          lineno, msg);
			status = CLI_EXIT_USAGE;
			break;
		}
		cutoff_chess_fen(m->chess, &o->pos, o->fen, sizeof(o->fen));
		m->nopenings++;
	}
	if (!cli_close_input(CMD, "openings", path, f) && status == CLI_EXIT_OK)
		status = CLI_EXIT_USAGE;
	if (status == CLI_EXIT_OK && m->nopenings == 0) {
		cli_error(CMD, "--openings %s: no positions in it", cli_quote(q, sizeof(q), path));
		status = CLI_EXIT_USAGE;
	}
	free(line);
	return status;
}

/*
 * Takes the repeatable options (--engine, --option, --option1, --option2) out of argv,
 * which cli_parse() would keep only the last of, and leaves the rest in rest[]. True, or
 * false after a one-line error.
 */
typedef struct multi {
	const char *engines[2];
	int nengines;
	const char **opts[3]; /* --option, --option1, --option2 */
	int nopts[3];
} multi_t;

static bool take_multi(int argc, char **argv, multi_t *mu, char **rest, int *nrest)
{
	static const char *const names[] = { "engine", "option", "option1", "option2" };
	char q[CLI_QUOTE_SIZE];
	*nrest = 0;
	rest[(*nrest)++] = argv[0];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int which = -1;
		const char *value = NULL;
		for (int k = 0; k < 4 && which < 0; k++) {
			size_t n = strlen(names[k]);
			if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, names[k], n) != 0)
				continue;
			if (a[2 + n] == '=') {
				which = k;
				value = a + 3 + n;
			} else if (a[2 + n] == '\0') {
				which = k;
				if (i + 1 >= argc || strncmp(argv[i + 1], "--", 2) == 0) {
					cli_error(CMD, "--%s needs a value", names[k]);
					return false;
				}
				value = argv[++i];
			}
		}
		if (which < 0) {
			rest[(*nrest)++] = argv[i];
			continue;
		}
		if (which == 0) {
			if (mu->nengines == 2) {
				cli_error(CMD, "--engine: given more than twice (%s)",
				          cli_quote(q, sizeof(q), value));
				return false;
			}
			mu->engines[mu->nengines++] = value;
			continue;
		}
		if (value[0] == '\0' || value[0] == '=') {
			cli_error(CMD, "--%s: expected NAME=VALUE or NAME, got %s", names[which],
			          cli_quote(q, sizeof(q), value));
			return false;
		}
		mu->opts[which - 1][mu->nopts[which - 1]++] = value;
	}
	rest[*nrest] = NULL;
	return true;
}

static void print_game_line(const match_t *m, int index, const game_rec_t *g)
{
	char clk[2][16];
	for (int c = 0; c < 2; c++) {
		if (g->min_clock[c] == INT64_MAX || (m->mode != TC_CLOCK && m->mode != TC_MOVETIME))
			snprintf(clk[c], sizeof(clk[c]), "-");
		else
			snprintf(clk[c], sizeof(clk[c]), "%.3f", secs(g->min_clock[c]));
	}
	if (index == 0)
		printf("%5s %5s %5s  %-7s %5s %10s %10s %10s %10s  %s\n", "game", "white", "black",
		       "result", "plies", "white s", "black s", "white min", "black min", "reason");
	printf("%5d %5d %5d  %-7s %5d %10.3f %10.3f %10s %10s  %s\n", index + 1, g->white + 1,
	       2 - g->white, g->result, g->plies, secs(g->used[0]), secs(g->used[1]), clk[0],
	       clk[1], g->reason);
	fflush(stdout);
}

static void write_json(match_t *m, int wins, int draws, int losses, const char *stopped)
{
	json_writer_t w;
	json_init(&w, stdout);
	json_begin_object(&w, NULL);
	json_begin_array(&w, "engines");
	for (int i = 0; i < 2; i++) {
		engine_t *e = &m->eng[i];
		json_begin_object(&w, NULL);
		json_int(&w, "engine", e->id);
		json_string(&w, "command", e->command);
		json_string(&w, "name", e->name);
		json_int(&w, "moves", e->moves);
		json_double(&w, "time_s", secs(e->used));
		if (e->min_clock == INT64_MAX)
			json_null(&w, "min_clock_s");
		else
			json_double(&w, "min_clock_s", secs(e->min_clock));
		for (int f = 1; f < NFAULTS; f++)
			json_int(&w, fault_names[f], e->faults[f]);
		json_end(&w);
	}
	json_end(&w);
	json_begin_object(&w, "control");
	static const char *const modes[] = { "tc", "movetime", "depth", "nodes" };
	json_string(&w, "mode", modes[m->mode]);
	if (m->mode == TC_CLOCK) {
		json_string(&w, "tc", m->tc_text);
		json_double(&w, "base_s", secs(m->base));
		json_double(&w, "inc_s", secs(m->inc));
	} else if (m->mode == TC_MOVETIME) {
		json_int(&w, "movetime_ms", m->movetime / NS_PER_MS);
	} else if (m->mode == TC_DEPTH) {
		json_int(&w, "depth", m->depth);
	} else {
		json_uint(&w, "nodes", m->nodes);
	}
	json_int(&w, "margin_ms", m->margin / NS_PER_MS);
	json_end(&w);
	json_begin_array(&w, "games");
	for (int i = 0; i < m->played; i++) {
		game_rec_t *g = &m->games[i];
		json_begin_object(&w, NULL);
		json_int(&w, "game", i + 1);
		json_int(&w, "white", g->white + 1);
		json_int(&w, "black", 2 - g->white);
		json_string(&w, "fen", g->fen);
		json_string(&w, "result", g->result);
		if (g->winner < 0)
			json_null(&w, "winner");
		else
			json_int(&w, "winner", g->winner + 1);
		json_string(&w, "reason", g->reason);
		if (g->fault == FAULT_NONE) {
			json_null(&w, "fault");
		} else {
			json_string(&w, "fault", fault_names[g->fault]);
			json_int(&w, "fault_engine", g->fault_engine + 1);
		}
		json_int(&w, "plies", g->plies);
		json_string(&w, "moves", sb_text(&g->moves));
		json_double(&w, "white_time_s", secs(g->used[0]));
		json_double(&w, "black_time_s", secs(g->used[1]));
		for (int c = 0; c < 2; c++) {
			const char *key = c == 0 ? "white_min_clock_s" : "black_min_clock_s";
			if (g->min_clock[c] == INT64_MAX)
				json_null(&w, key);
			else
				json_double(&w, key, secs(g->min_clock[c]));
		}
		json_end(&w);
	}
	json_end(&w);
	json_begin_object(&w, "totals");
	json_int(&w, "games", m->played);
	json_int(&w, "wins", wins);
	json_int(&w, "draws", draws);
	json_int(&w, "losses", losses);
	json_double(&w, "score", m->played ? (wins + 0.5 * draws) / m->played : 0.0);
	for (int f = 1; f < NFAULTS; f++)
		json_int(&w,
		         f == FAULT_ILLEGAL ? "illegal_moves"
		         : f == FAULT_TIME  ? "time_losses"
		         : f == FAULT_CRASH ? "crashes"
		                            : "no_answers",
		         m->eng[0].faults[f] + m->eng[1].faults[f]);
	json_end(&w);
	if (stopped)
		json_string(&w, "stopped", stopped);
	else
		json_null(&w, "stopped");
	json_end(&w);
	if (json_finish(&w) < 0)
		cli_error(CMD, "cannot write the JSON output");
}

static void print_totals(match_t *m, int wins, int draws, int losses)
{
	printf("\n");
	for (int i = 0; i < 2; i++) {
		char label[16];
		snprintf(label, sizeof(label), "engine %d", i + 1);
		cli_field(stdout, label, "%s (%s)", m->eng[i].name, m->eng[i].command);
	}
	if (m->mode == TC_CLOCK)
		cli_field(stdout, "time control", "%s s, margin %" PRId64 " ms", m->tc_text,
		          m->margin / NS_PER_MS);
	else if (m->mode == TC_MOVETIME)
		cli_field(stdout, "time control", "%" PRId64 " ms a move, margin %" PRId64 " ms",
		          m->movetime / NS_PER_MS, m->margin / NS_PER_MS);
	else if (m->mode == TC_DEPTH)
		cli_field(stdout, "time control", "depth %" PRId64, m->depth);
	else
		cli_field(stdout, "time control", "%" PRIu64 " nodes", m->nodes);
	cli_field(stdout, "games", "%d", m->played);
	cli_field(stdout, "engine 1 score", "%d W, %d D, %d L (%.1f %%)", wins, draws, losses,
	          m->played ? 100.0 * (wins + 0.5 * draws) / m->played : 0.0);
	const engine_t *a = &m->eng[0], *b = &m->eng[1];
	cli_field(stdout, "illegal moves", "%d (engine 1 %d, engine 2 %d)",
	          a->faults[FAULT_ILLEGAL] + b->faults[FAULT_ILLEGAL], a->faults[FAULT_ILLEGAL],
	          b->faults[FAULT_ILLEGAL]);
	cli_field(stdout, "time losses", "%d (engine 1 %d, engine 2 %d)",
	          a->faults[FAULT_TIME] + b->faults[FAULT_TIME], a->faults[FAULT_TIME],
	          b->faults[FAULT_TIME]);
	cli_field(stdout, "crashes", "%d (engine 1 %d, engine 2 %d)",
	          a->faults[FAULT_CRASH] + b->faults[FAULT_CRASH], a->faults[FAULT_CRASH],
	          b->faults[FAULT_CRASH]);
	cli_field(stdout, "no answer", "%d (engine 1 %d, engine 2 %d)",
	          a->faults[FAULT_HANG] + b->faults[FAULT_HANG], a->faults[FAULT_HANG],
	          b->faults[FAULT_HANG]);
	for (int i = 0; i < 2; i++) {
		char label[32], clk[32] = "";
		const engine_t *e = &m->eng[i];
		snprintf(label, sizeof(label), "engine %d time", i + 1);
		if (e->min_clock != INT64_MAX)
			snprintf(clk, sizeof(clk), ", least left %.3f s", secs(e->min_clock));
		cli_field(stdout, label, "%.3f s for %d moves (%.1f ms a move)%s", secs(e->used),
		          e->moves, e->moves ? 1e3 * secs(e->used) / e->moves : 0.0, clk);
	}
}

int cli_match(int argc, char **argv)
{
	char q[CLI_QUOTE_SIZE];
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(match_usage, stdout);
			return CLI_EXIT_OK;
		}
	}
	multi_t mu = { 0 };
	char **rest = calloc((size_t)argc + 1, sizeof(*rest));
	for (int k = 0; k < 3; k++)
		mu.opts[k] = calloc((size_t)argc + 1, sizeof(*mu.opts[k]));
	match_t *m = calloc(1, sizeof(*m));
	int status = CLI_EXIT_USAGE, nrest = 0;
	cutoff_chess_t *chess = NULL;
	void (*old_pipe)(int) = SIG_ERR;
	if (!rest || !mu.opts[0] || !mu.opts[1] || !mu.opts[2] || !m) {
		cli_error(CMD, "out of memory");
		status = CLI_EXIT_FAIL;
		goto out;
	}
	for (int i = 0; i < 2; i++) {
		m->eng[i].to = m->eng[i].from = -1;
		m->eng[i].id = i + 1;
		m->eng[i].min_clock = INT64_MAX;
	}
	m->logfd = -1;
	if (!take_multi(argc, argv, &mu, rest, &nrest))
		goto out;

	const char *tc = NULL, *openings = NULL, *pgn = NULL, *logpath = NULL;
	int64_t games = 2, movetime = 0, depth = 0, margin = -1, timeout = 60, max_moves = 0;
	uint64_t nodes = 0;
	bool json = false;
	cli_opt_t opts[] = {
		{ .name = "games", .kind = CLI_INT, .dest.i = &games, .min = 1, .max = 1000000 },
		{ .name = "tc", .kind = CLI_STRING, .dest.s = &tc },
		{ .name = "movetime",
		  .kind = CLI_INT,
		  .dest.i = &movetime,
		  .min = 1,
		  .max = 86400000 },
		{ .name = "depth", .kind = CLI_INT, .dest.i = &depth, .min = 1, .max = 255 },
		{ .name = "nodes", .kind = CLI_UINT64, .dest.u = &nodes },
		{ .name = "margin", .kind = CLI_INT, .dest.i = &margin, .min = 0, .max = 3600000 },
		{ .name = "timeout", .kind = CLI_INT, .dest.i = &timeout, .min = 1, .max = 86400 },
		{ .name = "max-moves",
		  .kind = CLI_INT,
		  .dest.i = &max_moves,
		  .min = 0,
		  .max = 1000000 },
		{ .name = "openings", .kind = CLI_STRING, .dest.s = &openings },
		{ .name = "pgn", .kind = CLI_STRING, .dest.s = &pgn },
		{ .name = "log", .kind = CLI_STRING, .dest.s = &logpath },
		{ .name = "json", .kind = CLI_FLAG, .dest.flag = &json },
	};
	const int nopts = (int)(sizeof(opts) / sizeof(opts[0]));
	switch (cli_parse(CMD, match_usage, opts, nopts, nrest, rest)) {
	case CLI_HELP:
		status = CLI_EXIT_OK;
		goto out;
	case CLI_BAD:
		goto out;
	case CLI_PARSED:
		break;
	}
	if (mu.nengines != 2) {
		cli_error(CMD, "--engine is required twice (got %d)", mu.nengines);
		goto out;
	}
	int ncontrols = cli_given(opts, nopts, "tc") + cli_given(opts, nopts, "movetime") +
	                cli_given(opts, nopts, "depth") + cli_given(opts, nopts, "nodes");
	if (ncontrols > 1) {
		cli_error(CMD, "give at most one of --tc, --movetime, --depth and --nodes");
		goto out;
	}
	m->mode = cli_given(opts, nopts, "movetime") ? TC_MOVETIME
	          : cli_given(opts, nopts, "depth")  ? TC_DEPTH
	          : cli_given(opts, nopts, "nodes")  ? TC_NODES
	                                             : TC_CLOCK;
	m->tc_text = tc ? tc : "10+0.1";
	if (m->mode == TC_CLOCK && !parse_tc(m->tc_text, &m->base, &m->inc)) {
		cli_error(CMD,
		          "--tc: expected BASE or BASE+INC in seconds (10+0.1, 1+0.01, 60), BASE "
		          "above 0, got %s",
		          cli_quote(q, sizeof(q), m->tc_text));
		goto out;
	}
	if (m->mode == TC_NODES && nodes == 0) {
		cli_error(CMD, "--nodes: expected a count of at least 1, got '0'");
		goto out;
	}
	m->movetime = movetime * NS_PER_MS;
	m->depth = depth;
	m->nodes = nodes;
	if (margin < 0)
		margin = m->mode == TC_MOVETIME ? 50 : 0;
	m->margin = margin * NS_PER_MS;
	m->timeout = timeout * NS_PER_S;
	m->max_moves = max_moves;
	m->ngames = games;
	for (int i = 0; i < 2; i++) {
		engine_t *e = &m->eng[i];
		e->command = mu.engines[i];
		cli_quote(e->q, sizeof(e->q), e->command);
		int nw = split_command(e, e->command);
		if (nw == -2) {
			cli_error(CMD, "out of memory");
			status = CLI_EXIT_FAIL;
			goto out;
		}
		if (nw <= 0) {
			cli_error(CMD, "--engine %s: %s", e->q,
			          nw == 0 ? "expected a program and its arguments"
			                  : "unterminated quote or trailing backslash");
			goto out;
		}
		const char *base = strrchr(e->argv[0], '/');
		snprintf(e->name, sizeof(e->name), "%s", base ? base + 1 : e->argv[0]);
		e->setopts = calloc((size_t)(mu.nopts[0] + mu.nopts[1 + i]) + 1, sizeof(char *));
		e->rbuf = malloc(READ_BUF_SIZE);
		if (!e->setopts || !e->rbuf) {
			cli_error(CMD, "out of memory");
			status = CLI_EXIT_FAIL;
			goto out;
		}
		for (int k = 0; k < mu.nopts[0]; k++)
			e->setopts[e->nsetopts++] = mu.opts[0][k];
		e->nshared = e->nsetopts;
		for (int k = 0; k < mu.nopts[1 + i]; k++)
			e->setopts[e->nsetopts++] = mu.opts[1 + i][k];
	}

	int err;
	chess = cutoff_chess_new(&err);
	if (!chess) {
		cli_fail(CMD, "cannot make the chess tables", err, NULL);
		status = CLI_EXIT_FAIL;
		goto out;
	}
	m->chess = chess;
	m->game = cutoff_chess_game(chess);
	if (openings && (status = read_openings(m, openings)) != CLI_EXIT_OK)
		goto out;
	status = CLI_EXIT_USAGE;
	if (pgn && !(m->pgn = fopen(pgn, "a"))) {
		cli_error(CMD, "--pgn %s: cannot open it: %s", cli_quote(q, sizeof(q), pgn),
		          strerror(errno));
		goto out;
	}
	if (logpath) {
		m->logfd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
		if (m->logfd < 0 || !(m->log = fdopen(dup(m->logfd), "w"))) {
			cli_error(CMD, "--log %s: cannot open it: %s",
			          cli_quote(q, sizeof(q), logpath), strerror(errno));
			goto out;
		}
		/* The stream's own descriptor must not leak into the engines either. */
		fcntl(fileno(m->log), F_SETFD, FD_CLOEXEC);
	}
	m->games = calloc((size_t)games, sizeof(*m->games));
	if (!m->games) {
		cli_error(CMD, "--games %" PRId64 ": out of memory", games);
		status = CLI_EXIT_FAIL;
		goto out;
	}

	/* A dead engine must show up as a failed write, not kill the referee. */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	m->t0 = (int64_t)cli_now_ns();
	for (int i = 0; i < 2; i++) {
		if ((status = engine_start(m, &m->eng[i])) != CLI_EXIT_OK)
			goto out;
	}

	int wins = 0, draws = 0, losses = 0;
	const char *stopped = NULL;
	status = CLI_EXIT_OK;
	for (int i = 0; i < games; i++) {
		game_rec_t *g = &m->games[i];
		int rc = play_game(m, i, g);
		if (rc != CLI_EXIT_OK) {
			status = rc;
			stopped = "the referee failed";
			sb_str(&g->moves, "");
			break;
		}
		m->played++;
		if (g->winner < 0)
			draws++;
		else if (g->winner == 0)
			wins++;
		else
			losses++;
		if (g->fault != FAULT_NONE)
			status = CLI_EXIT_FAIL;
		log_note(m, "game %d: %s %s", i + 1, g->result, g->reason);
		if (!json)
			print_game_line(m, i, g);
		if (m->pgn)
			write_pgn(m, g, i + 1);
		/* Restart whoever faulted, so that the next game starts clean. */
		for (int k = 0; k < 2 && i + 1 < games; k++) {
			engine_t *e = &m->eng[k];
			if (!e->broken && e->pid > 0)
				continue;
			engine_stop(m, e, false);
			int rs = engine_start(m, e);
			if (rs != CLI_EXIT_OK) {
				status = CLI_EXIT_FAIL;
				stopped = "an engine could not be started again after a fault";
				break;
			}
		}
		if (stopped)
			break;
	}
	if (json)
		write_json(m, wins, draws, losses, stopped);
	else
		print_totals(m, wins, draws, losses);
	if (m->pgn && (fflush(m->pgn) != 0 || ferror(m->pgn))) {
		cli_error(CMD, "--pgn %s: cannot write it", cli_quote(q, sizeof(q), pgn));
		status = CLI_EXIT_FAIL;
	}

out:
	if (m) {
		for (int i = 0; i < 2; i++) {
			engine_t *e = &m->eng[i];
			engine_stop(m, e, true);
			free(e->argv);
			free(e->words);
			free(e->setopts);
			free(e->rbuf);
			for (int k = 0; k < e->ndeclared; k++)
				free(e->declared[k]);
		}
		if (m->games)
			for (int64_t i = 0; i < m->ngames; i++)
				free(m->games[i].moves.p);
		free(m->games);
		free(m->openings);
		free(m->keys);
		if (m->pgn)
			fclose(m->pgn);
		if (m->log)
			fclose(m->log);
		if (m->logfd >= 0)
			close(m->logfd);
		free(m);
	}
	if (old_pipe != SIG_ERR)
		signal(SIGPIPE, old_pipe);
	cutoff_chess_free(chess);
	free(rest);
	for (int k = 0; k < 3; k++)
		free(mu.opts[k]);
	return status;
}
