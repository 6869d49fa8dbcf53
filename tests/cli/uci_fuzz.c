/* SPDX-License-Identifier: MIT */
/*
 * uci_fuzz.c — a seeded fuzzer of `cutoff uci`: random sessions of valid and invalid
 * commands, each in a fresh `cutoff uci` process over pipes, and everything the engine
 * answered held against the rules of docs/chess.md ("UCI") and the library's own chess
 * rules (cutoff_chess.h).
 *
 *   usage: cli_uci_fuzz CUTOFF [--seed N] [--sessions N] [--only K] [--max-seconds S]
 *                       [--quit-seconds S]
 *
 * CUTOFF_UCI_FUZZ_SESSIONS in the environment overrides --sessions. tests/CMakeLists.txt
 * passes fewer sessions to a sanitizer build, which runs the engine several times slower.
 * --max-seconds (default 150) stops starting new sessions after that long, so a machine
 * loaded far beyond its CPUs runs fewer of them rather than meet CTest's time-out; the
 * summary says how many ran. --only K runs session K of the seed alone.
 *
 * A session: `uci` (usually), setoption Threads 1..8 and an Algorithm (any driver of the
 * library's registry), `isready` or not (without it the engine is built at the first
 * `go`), then 8 to 40 commands drawn at random: position startpos or fen (a pool of
 * positions, some mutated into bad FENs) with random legal moves and now and then an
 * illegal one; go with every kind of limit, alone and mixed, and with malformed values;
 * stop; ponderhit; isready; ucinewgame; setoption, valid and not (Threads, Hash,
 * Algorithm, Placement, Pruning, Move Overhead, Clear Hash, unknown names); d; uci;
 * debug; garbage lines (random words and bytes, a NUL byte, a line over 1 MiB; none of
 * them holding a command word); then `quit`, `quit` at once after a `go`, or the end of
 * input. Between commands a random pause of 0 to 40 ms, so that commands land at every
 * stage of a search.
 *
 * The oracles, per session:
 *   - every `go` gets exactly one `bestmove`, in order: the k-th bestmove answers the
 *     k-th go (a malformed go too), and no other bestmove comes;
 *   - each bestmove is a legal move of the position of its go, 0000 exactly when that
 *     position has none, and its ponder move is legal after it. The positions are the
 *     fuzzer's own, read from the `position` lines it sent by the grammar of
 *     docs/chess.md with the library's FEN and move readers (a refused line changes
 *     nothing);
 *   - one `readyok` per isready, and only once every go before it that was stopped
 *     (stop, ponderhit, a later go) or malformed has its bestmove: a GUI that sends
 *     isready after stop never reads the old search's bestmove after readyok;
 *   - one `uciok` per uci; each `d` prints the fuzzer's own position as its FEN;
 *   - every line is one a UCI engine sends (id, option, uciok, readyok, bestmove, info);
 *   - nothing on stderr (where a sanitizer reports), exit status 0, and the exit within
 *     --quit-seconds (default 5) of sending quit or closing the input (the commands still
 *     queued before it included, since the engine runs them in order): killed and
 *     failed otherwise.
 * A failing session is named with its seed, and its input is written to a file that
 * replays it (`cutoff uci < FILE`, the pauses aside). Prints the counts it checked and
 * "N passed, M failed" (sessions); exits 1 on any failure.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cutoff.h"
#include "cutoff_chess.h"
#include "random.h"

enum {
	MAX_COMMANDS = 64, /* per session, the fixed ones included */
	MAX_LINE = 4096,   /* an output line longer than this is cut for the checks */
	SEND_SECONDS = 10, /* an engine that reads nothing for this long has failed */
	LONG_LINE = (1 << 20) + 100
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
	}
}

/* ---------------------------------------------------------------------------------------
 * Bytes and random numbers
 * ------------------------------------------------------------------------------------- */

typedef struct bytes {
	char *data;
	size_t len, cap;
} bytes_t;

static void bytes_add(bytes_t *b, const void *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *q = realloc(b->data, cap);
		if (!q) {
			fprintf(stderr, "uci_fuzz: out of memory\n");
			exit(2);
		}
		b->data = q;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static void bytes_str(bytes_t *b, const char *s) { bytes_add(b, s, strlen(s)); }

__attribute__((format(printf, 2, 3))) static void bytes_printf(bytes_t *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	bytes_add(b, tmp, n < 0 ? 0 : (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

static void bytes_free(bytes_t *b)
{
	free(b->data);
	*b = (bytes_t){ 0 };
}

typedef struct rng {
	uint64_t state;
} rng_t;

static uint64_t below(rng_t *r, uint64_t n) { return n ? splitmix64(&r->state) % n : 0; }
static int64_t between(rng_t *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)below(r, (uint64_t)(hi - lo + 1));
}
static bool percent(rng_t *r, int p) { return below(r, 100) < (uint64_t)p; }
#define PICK(r, list) ((list)[below((r), sizeof(list) / sizeof((list)[0]))])

/* ---------------------------------------------------------------------------------------
 * The engine's process: its stdin, stdout and stderr over non-blocking pipes, pumped with
 * poll() so that neither side can block the other (the engine writes while we write).
 * ------------------------------------------------------------------------------------- */

typedef struct engine {
	pid_t pid;
	int to, from, errfd; /* -1 once closed */
	bytes_t pending;     /* input not written yet, from `written` on */
	size_t written;
	bytes_t sent; /* every line sent, for the replay file */
	bytes_t out, err;
} engine_t;

static bool engine_start(engine_t *e, const char *cutoff)
{
	int in[2], out[2], err[2];
	*e = (engine_t){ .to = -1, .from = -1, .errfd = -1 };
	if (pipe2(in, O_CLOEXEC) != 0)
		return false;
	if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0)
		return false; /* the test ends at once: no descriptors to save */
	pid_t pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		execl(cutoff, cutoff, "uci", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	close(err[1]);
	e->pid = pid;
	e->to = in[1];
	e->from = out[0];
	e->errfd = err[0];
	fcntl(e->to, F_SETFL, O_NONBLOCK);
	fcntl(e->from, F_SETFL, O_NONBLOCK);
	fcntl(e->errfd, F_SETFL, O_NONBLOCK);
	return true;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void write_some(engine_t *e)
{
	ssize_t n = write(e->to, e->pending.data + e->written, e->pending.len - e->written);
	if (n > 0)
		e->written += (size_t)n;
	else if (n < 0 && errno != EAGAIN && errno != EINTR)
		close_fd(&e->to); /* EPIPE: the engine is gone; its exit status will say why */
	if (e->to < 0 || e->written == e->pending.len) {
		e->pending.len = 0;
		e->written = 0;
	}
}

static void read_some(int *fd, bytes_t *into)
{
	char buf[65536];
	ssize_t n = read(*fd, buf, sizeof(buf));
	if (n > 0)
		bytes_add(into, buf, (size_t)n);
	else if (n == 0 || (errno != EAGAIN && errno != EINTR))
		close_fd(fd);
}

/* Moves bytes both ways for `ms` milliseconds (one pass when 0). */
static void engine_pump(engine_t *e, int ms)
{
	double end = now_s() + ms / 1000.0;
	for (;;) {
		struct pollfd p[3];
		int n = 0, ito = -1, ifrom = -1, ierr = -1;
		if (e->to >= 0 && e->written < e->pending.len) {
			p[n] = (struct pollfd){ .fd = e->to, .events = POLLOUT };
			ito = n++;
		}
		if (e->from >= 0) {
			p[n] = (struct pollfd){ .fd = e->from, .events = POLLIN };
			ifrom = n++;
		}
		if (e->errfd >= 0) {
			p[n] = (struct pollfd){ .fd = e->errfd, .events = POLLIN };
			ierr = n++;
		}
		int left = (int)((end - now_s()) * 1000.0 + 0.5);
		if (left < 0)
			left = 0;
		if (n == 0) {
			sleep_ms(left);
			return;
		}
		if (poll(p, (nfds_t)n, left) > 0) {
			if (ito >= 0 && p[ito].revents)
				write_some(e);
			if (ifrom >= 0 && p[ifrom].revents)
				read_some(&e->from, &e->out);
			if (ierr >= 0 && p[ierr].revents)
				read_some(&e->errfd, &e->err);
		}
		if (now_s() >= end)
			return;
	}
}

/* Sends one line (len bytes, '\n' added); false when the engine has not taken it within
 * SEND_SECONDS. */
static bool engine_send(engine_t *e, const char *line, size_t len)
{
	bytes_add(&e->pending, line, len);
	bytes_add(&e->pending, "\n", 1);
	bytes_add(&e->sent, line, len);
	bytes_add(&e->sent, "\n", 1);
	double deadline = now_s() + SEND_SECONDS;
	engine_pump(e, 0);
	while (e->to >= 0 && e->pending.len > 0 && now_s() < deadline)
		engine_pump(e, 5);
	return e->to < 0 || e->pending.len == 0;
}

/* Closes the engine's input and waits for it to end its output and exit, at most
 * `bound_s`: then 1 with *status, or 0 after killing it. *took_s: from the call to the
 * exit. */
static int engine_finish(engine_t *e, double bound_s, int *status, double *took_s)
{
	double t0 = now_s(), deadline = t0 + bound_s;
	while (e->to >= 0 && e->pending.len > 0 && now_s() < deadline)
		engine_pump(e, 5);
	close_fd(&e->to);
	while ((e->from >= 0 || e->errfd >= 0) && now_s() < deadline)
		engine_pump(e, 10);
	pid_t r;
	while ((r = waitpid(e->pid, status, WNOHANG)) == 0 && now_s() < deadline)
		sleep_ms(2);
	*took_s = now_s() - t0;
	close_fd(&e->from);
	close_fd(&e->errfd);
	if (r == e->pid)
		return 1;
	kill(e->pid, SIGKILL);
	waitpid(e->pid, status, 0);
	return 0;
}

static void engine_free(engine_t *e)
{
	bytes_free(&e->pending);
	bytes_free(&e->sent);
	bytes_free(&e->out);
	bytes_free(&e->err);
}

/* ---------------------------------------------------------------------------------------
 * The model: what the engine must have answered, from what was sent.
 * ------------------------------------------------------------------------------------- */

typedef struct model {
	const cutoff_chess_t *chess;
	cutoff_chess_state_t pos; /* the position of the last good `position` line */
	int gos;                  /* go commands sent */
	int closed;               /* gos[0 .. closed) stopped, superseded or malformed */
	int malformed;
	cutoff_chess_state_t root[MAX_COMMANDS]; /* the position of each go */
	int readies;
	struct {
		int min, max; /* bestmoves the engine must have sent before this readyok */
	} ready[MAX_COMMANDS];
	int ucis;
	int ds;
	char fen[MAX_COMMANDS][CUTOFF_CHESS_FEN_SIZE]; /* the position at each `d` */
} model_t;

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* The engine's tokens: blank-separated words (uci/parse.c's uci_next_token). */
static char *next_token(char **cursor)
{
	char *p = *cursor;
	while (*p && is_blank(*p))
		p++;
	if (!*p) {
		*cursor = p;
		return NULL;
	}
	char *start = p;
	while (*p && !is_blank(*p))
		p++;
	if (*p)
		*p++ = '\0';
	*cursor = p;
	return start;
}

/* The FEN words of `position fen ...` up to `moves`: false when there are none or more
 * than 6 (the engine refuses the line), else the FEN joined by single blanks. */
static bool read_fen_words(char **cur, char **t, char *fen, size_t size)
{
	size_t n = 0;
	int fields = 0;
	while ((*t = next_token(cur)) && strcmp(*t, "moves") != 0) {
		size_t len = strlen(*t);
		if (fields == 6 || n + len + 2 > size)
			return false;
		if (n)
			fen[n++] = ' ';
		memcpy(fen + n, *t, len + 1);
		n += len;
		fields++;
	}
	return fields > 0;
}

/* The position a `position` line sets, by the grammar of docs/chess.md: `position
 * startpos|fen FEN [moves M...]`, refused whole (the model unchanged) at the first bad
 * word, bad FEN or illegal move. */
static void model_position(model_t *m, const char *line)
{
	char *copy = strdup(line), *cur = copy, msg[200], fen[256];
	cutoff_chess_state_t st;
	next_token(&cur); /* "position" */
	char *t = next_token(&cur);
	bool ok = t != NULL;
	if (ok && strcmp(t, "startpos") == 0) {
		cutoff_chess_start(m->chess, &st);
		t = next_token(&cur);
	} else if (ok && strcmp(t, "fen") == 0) {
		ok = read_fen_words(&cur, &t, fen, sizeof(fen)) &&
		     cutoff_chess_parse_fen(m->chess, fen, &st, msg, sizeof(msg)) == 0;
	} else {
		ok = false;
	}
	if (ok && t && strcmp(t, "moves") != 0)
		ok = false;
	while (ok && t && (t = next_token(&cur))) {
		cutoff_move_t mv;
		ok = cutoff_chess_parse_move(m->chess, &st, t, &mv, msg, sizeof(msg)) == 0 &&
		     cutoff_chess_play(m->chess, &st, mv, &st) == 0;
	}
	if (ok)
		m->pos = st;
	free(copy);
}

static bool white_to_move(const model_t *m)
{
	char fen[CUTOFF_CHESS_FEN_SIZE];
	cutoff_chess_fen(m->chess, &m->pos, fen, sizeof(fen));
	const char *side = strchr(fen, ' ');
	return side && side[1] == 'w';
}

/* ---------------------------------------------------------------------------------------
 * Commands, drawn at random
 * ------------------------------------------------------------------------------------- */

static const char *const command_words[] = { "uci",  "isready", "ucinewgame", "position",
	                                     "go",   "stop",    "ponderhit",  "setoption",
	                                     "quit", "debug",   "register",   "d" };

/* Whether a line would hold a command for the engine (garbage must not). */
static bool holds_command(const char *line, size_t len)
{
	if (memchr(line, '\0', len))
		return false; /* refused whole */
	char *copy = strdup(line), *cur = copy, *t;
	bool found = false;
	while (!found && (t = next_token(&cur))) {
		for (size_t i = 0; i < sizeof(command_words) / sizeof(command_words[0]); i++)
			found = found || strcmp(t, command_words[i]) == 0;
	}
	free(copy);
	return found;
}

static const char *const fens[] = {
	CUTOFF_CHESS_START_FEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",            /* mate in 2 */
	"k7/8/8/8/8/8/1r6/K7 w - - 0 1",                                 /* one legal move */
	"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", /* checkmated */
	"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",                                /* stalemated */
	"6k1/8/8/8/8/8/5PPP/3Q2K1 b - - 0 1",
	"4k3/8/8/8/8/8/8/4K3 w - - 0 1",                                 /* bare kings */
	"8/8/8/4k3/8/8/4K3/4R3 w - - 99 80",                             /* the fifty-move rule */
	"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", /* en passant */
	"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3",       /* four fields */
	"8/P6k/8/8/8/8/6Kp/8 w - - 0 1",                                 /* promotions */
};

/* A FEN with one mistake, or none: a changed, dropped or added character or field. */
static void mutate_fen(rng_t *r, const char *fen, char *out, size_t size)
{
	static const char chars[] = "pnbrqkPNBRQK123456789/wb-KQkqx ";
	size_t len = strlen(fen);
	snprintf(out, size, "%s", fen);
	size_t at = (size_t)below(r, len);
	switch (below(r, 4)) {
	case 0:
		out[at] = chars[below(r, sizeof(chars) - 1)];
		break;
	case 1:
		memmove(out + at, out + at + 1, len - at);
		break;
	case 2: {
		char *last = strrchr(out, ' ');
		if (last)
			*last = '\0';
		break;
	}
	default:
		snprintf(out + len, size - len, " %d", (int)below(r, 10));
		break;
	}
}

/* Random legal moves from st (stopping at a position without any). */
static void add_playout(rng_t *r, const model_t *m, cutoff_chess_state_t st, int plies,
                        bytes_t *line)
{
	for (int i = 0; i < plies; i++) {
		cutoff_move_t moves[CUTOFF_MAX_MOVES];
		int n = cutoff_chess_moves(m->chess, &st, moves);
		if (n <= 0)
			break;
		cutoff_move_t mv = moves[below(r, (uint64_t)n)];
		char text[CUTOFF_CHESS_MOVE_SIZE];
		cutoff_chess_move_str(mv, text, sizeof(text));
		bytes_printf(line, " %s", text);
		cutoff_chess_play(m->chess, &st, mv, &st);
	}
}

static void gen_position(rng_t *r, model_t *m, bytes_t *line)
{
	static const char *const broken[] = {
		"position",     "position bogus",          "position startpos e2e4",
		"position fen", "position fen moves e2e4", "position startpos moves e2e4 e7e5 e2e5"
	};
	static const char *const bad_moves[] = { "e2e5",  "a1a1", "e7e8q", "zz",
		                                 "e2e4e", "0000", "E2E4",  "h7h8n" };
	if (percent(r, 6)) {
		bytes_str(line, PICK(r, broken));
	} else {
		char fen[256], msg[200];
		cutoff_chess_state_t st;
		cutoff_chess_start(m->chess, &st);
		if (percent(r, 45)) {
			bytes_str(line, "position startpos");
		} else {
			const char *base = PICK(r, fens);
			if (percent(r, 25))
				mutate_fen(r, base, fen, sizeof(fen));
			else
				snprintf(fen, sizeof(fen), "%s", base);
			bytes_printf(line, "position fen %s", fen);
			if (cutoff_chess_parse_fen(m->chess, fen, &st, msg, sizeof(msg)) != 0)
				cutoff_chess_start(m->chess, &st); /* (the moves are then wrong) */
		}
		if (percent(r, 70)) {
			bytes_str(line, " moves");
			add_playout(r, m, st, (int)below(r, 15), line);
			if (percent(r, 10))
				bytes_printf(line, " %s", PICK(r, bad_moves));
		}
	}
	model_position(m, line->data);
}

/* A `go` that is well formed: one or more limits, or none. */
static void gen_go_limits(rng_t *r, const model_t *m, bytes_t *line)
{
	int kind = (int)below(r, 100);
	if (kind < 18) {
		bytes_printf(line, " depth %d", (int)between(r, 1, 5));
	} else if (kind < 30) {
		bytes_printf(line, " nodes %d", (int)between(r, 1, 30000));
	} else if (kind < 44) {
		bytes_printf(line, " movetime %d", (int)between(r, 0, 120));
	} else if (kind < 66) {
		bool white = white_to_move(m), both = percent(r, 85);
		if (white || both)
			bytes_printf(line, " wtime %d", (int)between(r, -50, 3000));
		if (!white || both)
			bytes_printf(line, " btime %d", (int)between(r, -50, 3000));
		if (percent(r, 50))
			bytes_printf(line, " winc %d binc %d", (int)between(r, 0, 100),
			             (int)between(r, 0, 100));
		if (percent(r, 25))
			bytes_printf(line, " movestogo %d", (int)between(r, 1, 40));
	} else if (kind < 72) {
		bytes_printf(line, " mate %d", (int)between(r, 1, 3));
	} else if (kind < 81) {
		bytes_str(line, " infinite");
		if (percent(r, 30))
			bytes_printf(line, " depth %d", (int)between(r, 1, 3));
	} else if (kind < 87) {
		bytes_printf(line, " ponder wtime %d btime %d", (int)between(r, 100, 3000),
		             (int)between(r, 100, 3000));
	} else if (kind < 90) {
		/* bare `go`: searches until stopped */
	} else if (kind < 93) {
		bytes_str(line, percent(r, 50) ? " depth 60" : " nodes 100000000");
	} else {
		cutoff_move_t moves[CUTOFF_MAX_MOVES];
		int n = cutoff_chess_moves(m->chess, &m->pos, moves);
		bytes_str(line, " searchmoves");
		for (int i = 0, k = (int)below(r, 4); i < k && n > 0; i++) {
			char text[CUTOFF_CHESS_MOVE_SIZE];
			cutoff_chess_move_str(moves[below(r, (uint64_t)n)], text, sizeof(text));
			bytes_printf(line, " %s", text);
		}
		bytes_printf(line, " depth %d", (int)between(r, 1, 4));
	}
	if (percent(r, 12))
		bytes_printf(line, " depth %d", (int)between(r, 1, 4));
}

/* A `go` with something the engine cannot use (docs/chess.md: answered at once). */
static void gen_go_malformed(rng_t *r, const model_t *m, bytes_t *line)
{
	static const char *const bad[] = {
		" depth -1",
		" depth 0",
		" depth x",
		" movetime -5",
		" nodes 0",
		" mate 0",
		" movestogo -1",
		" depth 999",
		" nodes -3",
		" sideways",
		" searchmoves a1a1 depth 2",
		" searchmoves zz",
		" wtime 99999999999999999999 btime 1000",
	};
	if (percent(r, 40)) {
		static const char *const fine[] = { " depth 3", " nodes 2000", " movetime 30",
			                            " infinite" };
		bytes_str(line, PICK(r, fine));
	}
	int kind = (int)below(r, 10);
	if (kind < 7)
		bytes_str(line, PICK(r, bad));
	else if (kind < 9)
		bytes_str(line, percent(r, 50) ? " depth" : " movetime"); /* no value */
	else
		bytes_str(line, white_to_move(m) ? " btime 1000" : " wtime 1000");
}

static void gen_go(rng_t *r, model_t *m, bytes_t *line, bool malformed)
{
	if (percent(r, 4))
		bytes_str(line, "joho "); /* an unknown word before the command is skipped */
	bytes_str(line, "go");
	if (malformed)
		gen_go_malformed(r, m, line);
	else
		gen_go_limits(r, m, line);
	/* A go while a search runs ends that search first (docs/chess.md). */
	m->closed = m->gos;
	m->root[m->gos++] = m->pos;
	if (malformed) {
		m->malformed++;
		m->closed = m->gos;
	}
}

static void gen_setoption(rng_t *r, bytes_t *line)
{
	static const char *const bad[] = {
		"setoption name Threads value 0",
		"setoption name Threads value 1025",
		"setoption name Threads value two",
		"setoption name Hash value -1",
		"setoption name Hash value 99999999",
		"setoption name Algorithm value ybw2",
		"setoption name Foo value 1",
		"setoption name",
		"setoption Threads 2",
		"setoption name Clear Hash value 1",
		"setoption name Threads",
		"setoption name Pruning value some",
		"setoption name Move Overhead value -3",
	};
	static const char *const placements[] = { "none", "compact", "scatter" };
	static const char *const prunings[] = { "all", "nullmove", "lmr", "none" };
	switch (below(r, 9)) {
	case 0:
	case 1:
		bytes_printf(line, "setoption name Threads value %d", (int)between(r, 1, 8));
		break;
	case 2:
		bytes_printf(line, "setoption name Hash value %d", (int)between(r, 0, 32));
		break;
	case 3: {
		/* Every driver of the registry, and one more: a name in capitals. */
		int d = (int)below(r, (uint64_t)cutoff_driver_count() + 1);
		bytes_printf(line, "setoption name Algorithm value %s",
		             d < cutoff_driver_count() ? cutoff_driver_name((cutoff_driver_t)d)
		                                       : "YBW");
		break;
	}
	case 4:
		bytes_printf(line, "setoption name Placement value %s", PICK(r, placements));
		break;
	case 5:
		bytes_printf(line, "setoption name Pruning value %s", PICK(r, prunings));
		break;
	case 6:
		if (percent(r, 50))
			bytes_str(line, "setoption name Clear Hash");
		else
			bytes_printf(line, "setoption name Move Overhead value %d",
			             (int)between(r, 0, 200));
		break;
	default:
		bytes_str(line, PICK(r, bad));
		break;
	}
}

/* A line that holds no command: random words, random bytes, a NUL byte, a long line. */
static void gen_garbage(rng_t *r, bytes_t *line)
{
	static const char word_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					 "0123456789-+._=";
	do {
		line->len = 0;
		int kind = (int)below(r, 100);
		if (kind < 45) {
			for (int w = 0, nw = (int)between(r, 1, 5); w < nw; w++) {
				if (w)
					bytes_str(line, " ");
				for (int i = 0, n = (int)between(r, 1, 10); i < n; i++)
					bytes_add(line,
					          &word_chars[below(r, sizeof(word_chars) - 1)], 1);
			}
		} else if (kind < 85) {
			for (int i = 0, n = (int)between(r, 1, 80); i < n; i++) {
				char c = (char)between(r, 1, 255);
				bytes_add(line, c == '\n' ? " " : &c, 1);
			}
		} else if (kind < 95) {
			bytes_add(line, "go\0depth 1", 10); /* refused whole for its NUL */
		} else if (kind < 99) {
			for (int i = 0; i < 6000; i++)
				bytes_add(line, &word_chars[below(r, 26)], 1);
		} else {
			/* Over the 1 MiB limit: refused whole, its `go` never read. */
			bytes_str(line, "go depth 1 ");
			while (line->len < LONG_LINE)
				bytes_str(line, "xxxxxxxxxxxxxxxx");
			break;
		}
	} while (holds_command(line->data, line->len));
}

/* One random command into `line`, the model updated as the engine must see it. */
static void gen_command(rng_t *r, model_t *m, bytes_t *line)
{
	int kind = (int)below(r, 100);
	if (kind < 22) {
		gen_position(r, m, line);
	} else if (kind < 46) {
		gen_go(r, m, line, percent(r, 18));
	} else if (kind < 58) {
		bytes_str(line, "stop");
		m->closed = m->gos;
	} else if (kind < 61) {
		bytes_str(line, "ponderhit");
		m->closed = m->gos;
	} else if (kind < 71) {
		bytes_str(line, percent(r, 10) ? "joho isready" : "isready");
		m->ready[m->readies].min = m->closed;
		m->ready[m->readies++].max = m->gos;
	} else if (kind < 80) {
		gen_setoption(r, line);
	} else if (kind < 83) {
		bytes_str(line, "ucinewgame");
	} else if (kind < 87) {
		bytes_str(line, "d");
		cutoff_chess_fen(m->chess, &m->pos, m->fen[m->ds++], CUTOFF_CHESS_FEN_SIZE);
	} else if (kind < 89) {
		bytes_str(line, "uci");
		m->ucis++;
	} else if (kind < 91) {
		bytes_str(line, percent(r, 50)   ? "debug on"
		                : percent(r, 50) ? "debug off"
		                                 : "register later");
	} else {
		gen_garbage(r, line);
	}
}

/* ---------------------------------------------------------------------------------------
 * The checks
 * ------------------------------------------------------------------------------------- */

typedef struct totals {
	long sessions, passed, failed, commands, gos, malformed, bestmoves, ponders, illegal;
	long readies, errors, quits, eofs;
	double slowest_exit;
} totals_t;

typedef struct verdict {
	char why[600]; /* the first failure, "" when none */
	int bestmoves, ponders, illegal, errors;
} verdict_t;

__attribute__((format(printf, 2, 3))) static void fail_at(verdict_t *v, const char *fmt, ...)
{
	if (v->why[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->why, sizeof(v->why), fmt, ap);
	va_end(ap);
}

/* "bestmove X [ponder Y]", the answer to go k: legal there, or 0000 when nothing is. */
static void check_bestmove(const model_t *m, int k, char *text, verdict_t *v)
{
	char *cur = text, msg[200];
	next_token(&cur);
	char *best = next_token(&cur), *word = next_token(&cur), *ponder = next_token(&cur);
	if (!best || (word && (strcmp(word, "ponder") != 0 || !ponder)) || next_token(&cur)) {
		fail_at(v, "bestmove %d: malformed line", k + 1);
		return;
	}
	const cutoff_chess_state_t *root = &m->root[k];
	cutoff_move_t moves[CUTOFF_MAX_MOVES], mv;
	int n = cutoff_chess_moves(m->chess, root, moves);
	cutoff_chess_state_t child;
	if (strcmp(best, "0000") == 0) {
		if (n > 0 || ponder) {
			v->illegal++;
			fail_at(v, "bestmove %d: 0000 where %d moves are legal", k + 1, n);
		}
		return;
	}
	if (cutoff_chess_parse_move(m->chess, root, best, &mv, msg, sizeof(msg)) != 0) {
		v->illegal++;
		fail_at(v, "bestmove %d: %s: %s", k + 1, best, msg);
		return;
	}
	if (!ponder)
		return;
	v->ponders++;
	cutoff_chess_play(m->chess, root, mv, &child);
	if (cutoff_chess_parse_move(m->chess, &child, ponder, &mv, msg, sizeof(msg)) != 0) {
		v->illegal++;
		fail_at(v, "bestmove %d: ponder %s after %s: %s", k + 1, ponder, best, msg);
	}
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* One line of the engine's output, in order; the counts so far in *n. */
static void check_line(const model_t *m, char *line, int n[4], verdict_t *v)
{
	enum {
		BEST,
		READY,
		UCIOK,
		FEN
	};
	if (starts(line, "bestmove ")) {
		if (n[BEST] >= m->gos)
			fail_at(v, "bestmove %d, but only %d go sent", n[BEST] + 1, m->gos);
		else
			check_bestmove(m, n[BEST], line, v);
		n[BEST]++;
	} else if (strcmp(line, "readyok") == 0) {
		if (n[READY] >= m->readies)
			fail_at(v, "readyok %d, but only %d isready sent", n[READY] + 1,
			        m->readies);
		else if (n[BEST] < m->ready[n[READY]].min || n[BEST] > m->ready[n[READY]].max)
			fail_at(v, "readyok %d after %d bestmoves: expected %d to %d", n[READY] + 1,
			        n[BEST], m->ready[n[READY]].min, m->ready[n[READY]].max);
		n[READY]++;
	} else if (strcmp(line, "uciok") == 0) {
		n[UCIOK]++;
	} else if (starts(line, "info string fen ")) {
		if (n[FEN] >= m->ds || strcmp(line + 16, m->fen[n[FEN]]) != 0)
			fail_at(v, "d %d: the engine's position is %s, expected %s", n[FEN] + 1,
			        line + 16, n[FEN] < m->ds ? m->fen[n[FEN]] : "no d");
		n[FEN]++;
	} else if (starts(line, "info ")) {
		v->errors += starts(line, "info string error: ");
	} else if (!starts(line, "id ") && !starts(line, "option name ")) {
		fail_at(v, "a line a UCI engine does not send: '%.80s'", line);
	}
}

static void check_output(const model_t *m, const bytes_t *out, verdict_t *v)
{
	int n[4] = { 0 };
	const char *p = out->data ? out->data : "", *end = p + out->len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			fail_at(v, "the output does not end with a newline");
			break;
		}
		char line[MAX_LINE];
		size_t len = (size_t)(nl - p) < sizeof(line) ? (size_t)(nl - p) : sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		check_line(m, line, n, v);
		p = nl + 1;
	}
	v->bestmoves = n[0];
	if (n[0] != m->gos)
		fail_at(v, "%d go sent, %d bestmove received", m->gos, n[0]);
	if (n[1] != m->readies)
		fail_at(v, "%d isready sent, %d readyok received", m->readies, n[1]);
	if (n[2] != m->ucis)
		fail_at(v, "%d uci sent, %d uciok received", m->ucis, n[2]);
	if (n[3] != m->ds)
		fail_at(v, "%d d sent, %d fen lines received", m->ds, n[3]);
}

/* ---------------------------------------------------------------------------------------
 * Sessions
 * ------------------------------------------------------------------------------------- */

typedef struct fuzz {
	const char *cutoff;
	const cutoff_chess_t *chess;
	uint64_t seed;
	double quit_seconds;
	int failures_shown;
} fuzz_t;

/* Prints the tail of `b` (at most `lines` lines, bytes outside ASCII escaped). */
static void print_tail(const char *title, const bytes_t *b, int lines)
{
	size_t at = b->len;
	for (int k = 0; at > 0 && k <= lines; k++) {
		at--;
		while (at > 0 && b->data[at - 1] != '\n')
			at--;
	}
	printf("  %s (the last %d lines):\n    ", title, lines);
	for (size_t i = at; i < b->len && i < at + 8000; i++) {
		unsigned char c = (unsigned char)b->data[i];
		if (c == '\n')
			printf("\n    ");
		else if (c < 0x20 || c > 0x7e)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	printf("\n");
}

static void report_failure(fuzz_t *f, long index, uint64_t seed, const engine_t *e, const char *why)
{
	char path[256];
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(path, sizeof(path), "%s/uci_fuzz-%" PRIu64 "-%ld.in", dir, f->seed, index);
	FILE *file = fopen(path, "wb");
	bool written = file && fwrite(e->sent.data, 1, e->sent.len, file) == e->sent.len;
	if (file && fclose(file) != 0)
		written = false;
	printf("FAIL session %ld (--seed %" PRIu64 " --only %ld, session seed %016" PRIx64
	       "): %s\n  its input: %s\n",
	       index, f->seed, index, seed, why, written ? path : "(not written)");
	if (f->failures_shown++ < 3) {
		print_tail("sent", &e->sent, 30);
		print_tail("received", &e->out, 30);
		if (e->err.len)
			print_tail("stderr", &e->err, 30);
	}
}

static bool send_line(engine_t *e, const bytes_t *line, verdict_t *v)
{
	if (!engine_send(e, line->data, line->len)) {
		fail_at(v, "the engine took no input for %d s", SEND_SECONDS);
		return false;
	}
	return true;
}

/* The opening of a session: uci, the threads and driver, isready or not. */
static int open_session(rng_t *r, model_t *m, engine_t *e, verdict_t *v)
{
	bytes_t line = { 0 };
	int sent = 0;
	for (int step = 0; step < 4 && !v->why[0]; step++) {
		line.len = 0;
		if (step == 0 && percent(r, 75)) {
			bytes_str(&line, "uci");
			m->ucis++;
		} else if (step == 1) {
			int threads = percent(r, 25)   ? 1
			              : percent(r, 40) ? 2
			                               : (int)between(r, 3, 8);
			bytes_printf(&line, "setoption name Threads value %d", threads);
		} else if (step == 2) {
			bytes_printf(&line, "setoption name Algorithm value %s",
			             cutoff_driver_name((cutoff_driver_t)below(
					     r, (uint64_t)cutoff_driver_count())));
		} else if (step == 3 && percent(r, 60)) {
			bytes_str(&line, "isready");
			m->ready[m->readies].min = m->closed;
			m->ready[m->readies++].max = m->gos;
		} else {
			continue;
		}
		sent += send_line(e, &line, v);
	}
	bytes_free(&line);
	return sent;
}

/* The random middle of a session; returns the commands sent. */
static int run_commands(rng_t *r, model_t *m, engine_t *e, verdict_t *v)
{
	bytes_t line = { 0 };
	int count = (int)between(r, 8, 40), sent = 0;
	for (int i = 0; i < count && !v->why[0]; i++) {
		line.len = 0;
		int gos = m->gos;
		gen_command(r, m, &line);
		if (!send_line(e, &line, v))
			break;
		sent++;
		int pause = 0;
		if (m->gos > gos && percent(r, 40))
			pause = (int)between(r, 1, 40);
		else if (percent(r, 25))
			pause = (int)between(r, 1, 5);
		else if (percent(r, 8))
			pause = (int)between(r, 5, 40);
		engine_pump(e, pause);
	}
	bytes_free(&line);
	return sent;
}

/* The end of a session: quit, a go then quit at once, the end of input, or a go then the
 * end of input. */
static void end_session(rng_t *r, fuzz_t *f, model_t *m, engine_t *e, verdict_t *v, totals_t *t)
{
	bytes_t line = { 0 };
	int kind = (int)below(r, 100);
	bool quit = kind < 82;
	if ((kind >= 70 && kind < 82) || kind >= 92) {
		bytes_str(&line, "");
		gen_go(r, m, &line, false);
		send_line(e, &line, v);
		t->commands++;
	}
	if (quit) {
		line.len = 0;
		bytes_str(&line, "quit");
		send_line(e, &line, v);
		t->commands++;
		t->quits++;
	} else {
		t->eofs++;
	}
	bytes_free(&line);
	int status = 0;
	double took = 0.0;
	if (!engine_finish(e, f->quit_seconds, &status, &took))
		fail_at(v, "no exit within %.0f s of the end of the session: killed",
		        f->quit_seconds);
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail_at(v, "exit status %d (signal %d)",
		        WIFEXITED(status) ? WEXITSTATUS(status) : -1,
		        WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	if (took > t->slowest_exit)
		t->slowest_exit = took;
}

static void run_session(fuzz_t *f, long index, totals_t *t)
{
	uint64_t seed = f->seed ^ (UINT64_C(0x9e3779b97f4a7c15) * (uint64_t)(index + 1));
	rng_t r = { seed };
	model_t *m = calloc(1, sizeof(*m));
	engine_t e;
	verdict_t v = { .why = "" };
	if (!m || !engine_start(&e, f->cutoff)) {
		printf("FAIL session %ld: cannot start %s: %s\n", index, f->cutoff,
		       strerror(errno));
		t->failed++;
		free(m);
		return;
	}
	m->chess = f->chess;
	cutoff_chess_start(m->chess, &m->pos);
	t->commands += open_session(&r, m, &e, &v);
	t->commands += run_commands(&r, m, &e, &v);
	end_session(&r, f, m, &e, &v, t);
	check_output(m, &e.out, &v);
	if (e.err.len)
		fail_at(&v, "%zu bytes on stderr", e.err.len);
	t->sessions++;
	t->gos += m->gos;
	t->malformed += m->malformed;
	t->readies += m->readies;
	t->bestmoves += v.bestmoves;
	t->ponders += v.ponders;
	t->illegal += v.illegal;
	t->errors += v.errors;
	if (v.why[0]) {
		t->failed++;
		report_failure(f, index, seed, &e, v.why);
	} else {
		t->passed++;
	}
	engine_free(&e);
	free(m);
}

/* ---------------------------------------------------------------------------------------
 * main
 * ------------------------------------------------------------------------------------- */

static bool number_arg(const char *text, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

typedef struct options {
	const char *cutoff;
	long seed, sessions, only, max_seconds, quit_seconds;
} options_t;

static bool parse_args(int argc, char **argv, options_t *o)
{
	*o = (options_t){
		.seed = 1, .sessions = 100, .only = -1, .max_seconds = 150, .quit_seconds = 5
	};
	if (argc < 2)
		return false;
	o->cutoff = argv[1];
	for (int i = 2; i < argc; i += 2) {
		long *slot = strcmp(argv[i], "--seed") == 0           ? &o->seed
		             : strcmp(argv[i], "--sessions") == 0     ? &o->sessions
		             : strcmp(argv[i], "--only") == 0         ? &o->only
		             : strcmp(argv[i], "--max-seconds") == 0  ? &o->max_seconds
		             : strcmp(argv[i], "--quit-seconds") == 0 ? &o->quit_seconds
		                                                      : NULL;
		if (!slot || i + 1 >= argc || !number_arg(argv[i + 1], 0, 1000000000L, slot)) {
			fprintf(stderr, "uci_fuzz: bad argument '%s'\n", argv[i]);
			return false;
		}
	}
	const char *env = getenv("CUTOFF_UCI_FUZZ_SESSIONS");
	if (env && !number_arg(env, 0, 1000000000L, &o->sessions)) {
		fprintf(stderr, "uci_fuzz: CUTOFF_UCI_FUZZ_SESSIONS: expected a number\n");
		return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	options_t o;
	if (!parse_args(argc, argv, &o)) {
		fprintf(stderr,
		        "usage: %s CUTOFF [--seed N] [--sessions N] [--only K] "
		        "[--max-seconds S] [--quit-seconds S]\n",
		        argv[0]);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	int err = 0;
	cutoff_chess_t *chess = cutoff_chess_new(&err);
	if (!chess) {
		fprintf(stderr, "uci_fuzz: cutoff_chess_new: %s\n", cutoff_strerror(err));
		return 2;
	}
	fuzz_t f = { .cutoff = o.cutoff,
		     .chess = chess,
		     .seed = (uint64_t)o.seed,
		     .quit_seconds = (double)o.quit_seconds };
	totals_t t = { 0 };
	double t0 = now_s();
	long first = o.only >= 0 ? o.only : 0, last = o.only >= 0 ? o.only + 1 : o.sessions;
	long index = first;
	for (; index < last && now_s() - t0 < (double)o.max_seconds; index++)
		run_session(&f, index, &t);
	if (index < last)
		printf("time bound: %ld of %ld sessions run in %ld s\n", index - first,
		       last - first, o.max_seconds);
	printf("seed %ld: %ld sessions (%ld ended by quit, %ld by end of input), %ld commands, "
	       "%ld go (%ld malformed), %ld bestmove, %ld ponder moves, %ld illegal moves, "
	       "%ld isready, %ld errors reported by the engine; slowest exit %.3f s; %.1f s\n",
	       o.seed, t.sessions, t.quits, t.eofs, t.commands, t.gos, t.malformed, t.bestmoves,
	       t.ponders, t.illegal, t.readies, t.errors, t.slowest_exit, now_s() - t0);
	printf("%ld passed, %ld failed\n", t.passed, t.failed);
	cutoff_chess_free(chess);
	return t.failed || t.sessions == 0 ? 1 : 0;
}
