/* SPDX-License-Identifier: MIT */
/*
 * uci/loop.c — the UCI engine's session, and its loop over the command lines.
 *
 * uci_run (session.h) makes the session (the chess tables, the options, the locks, its
 * output stream), then reads its input one line at a time and runs each to its end
 * (run_line, which hands each command to handlers.c) before it reads the next; end of
 * input acts as quit. Under mpirun rank 0 reads the lines and passes each on to the
 * other ranks before running it, and the other ranks run what they are passed
 * (follow_lines), so every rank keeps the same position and options and enters each
 * search together.
 *
 * Owns the session's life and the line buffer; main thread only. A line is at most
 * UCI_LINE_MAX bytes: a longer one, or one with a NUL byte, is read to its end and
 * refused with an `info string error`.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "uci/session.h"
#include "uci/uci.h"

/* ---------------------------------------------------------------------------------------
 * Lines
 * ------------------------------------------------------------------------------------- */

typedef struct line_reader {
	char *buf;
	size_t cap;
} line_reader_t;

typedef enum line_status {
	LINE_OK,
	LINE_TOO_LONG, /* read to its end and dropped */
	LINE_EOF
} line_status_t;

/* Reads one line without its '\n' into r->buf (NUL-terminated, *len bytes, which may
 * include NUL bytes). LINE_EOF only when nothing at all was read. */
static line_status_t read_line(FILE *in, line_reader_t *r, size_t *len)
{
	size_t n = 0;
	bool too_long = false, any = false;
	int c;
	while ((c = getc(in)) != EOF) {
		any = true;
		if (c == '\n')
			break;
		if (too_long)
			continue;
		if (n + 1 >= r->cap) {
			size_t cap = r->cap ? 2 * r->cap : 4096;
			char *p = cap <= UCI_LINE_MAX + 1 ? realloc(r->buf, cap) : NULL;
			if (!p) {
				too_long = true;
				continue;
			}
			r->buf = p;
			r->cap = cap;
		}
		r->buf[n++] = (char)c;
	}
	if (!any)
		return LINE_EOF;
	if (r->buf)
		r->buf[n] = '\0';
	*len = n;
	return too_long ? LINE_TOO_LONG : LINE_OK;
}

typedef enum uci_next {
	UCI_CONTINUE,
	UCI_QUIT
} uci_next_t;

/* Runs one line. Unknown words before a command are reported and skipped, as the UCI
 * specification asks ("joho debug on" switches debug mode on). */
static uci_next_t run_line(uci_session_t *s, char *line)
{
	char q[UCI_QUOTE_SIZE];
	char *cur = line, *t;
	while ((t = uci_next_token(&cur))) {
		if (strcmp(t, "uci") == 0) {
			uci_cmd_uci(s);
		} else if (strcmp(t, "isready") == 0) {
			uci_cmd_isready(s);
		} else if (strcmp(t, "ucinewgame") == 0) {
			uci_cmd_ucinewgame(s);
		} else if (strcmp(t, "position") == 0) {
			uci_cmd_position(s, &cur);
		} else if (strcmp(t, "go") == 0) {
			uci_cmd_go(s, &cur);
		} else if (strcmp(t, "stop") == 0 || strcmp(t, "ponderhit") == 0) {
			uci_request_stop(s);
		} else if (strcmp(t, "setoption") == 0) {
			uci_cmd_setoption(s, &cur);
		} else if (strcmp(t, "debug") == 0) {
			uci_cmd_debug(s, &cur);
		} else if (strcmp(t, "register") == 0) {
			/* Nothing to register. */
		} else if (strcmp(t, "d") == 0) {
			uci_cmd_d(s);
		} else if (strcmp(t, "quit") == 0) {
			return UCI_QUIT;
		} else {
			uci_say_error(s, "unknown command %s", cli_quote_ascii(q, sizeof(q), t));
			continue;
		}
		break;
	}
	return UCI_CONTINUE;
}

/* ---------------------------------------------------------------------------------------
 * The session
 * ------------------------------------------------------------------------------------- */

/* out_lock recursive, lock plain, wake on the monotonic clock (for the watchdog). */
static void session_locks_init(uci_session_t *s)
{
	pthread_mutexattr_t recursive;
	pthread_mutexattr_init(&recursive);
	pthread_mutexattr_settype(&recursive, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&s->out_lock, &recursive);
	pthread_mutexattr_destroy(&recursive);
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_t monotonic;
	pthread_condattr_init(&monotonic);
	pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &monotonic);
	pthread_condattr_destroy(&monotonic);
}

static uci_session_t *session_new(FILE *out)
{
	uci_session_t *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	int err = 0;
	s->chess = cutoff_chess_new(&err);
	if (!s->chess) {
		cli_fail("uci", "cannot make the chess tables", err, NULL);
		free(s);
		return NULL;
	}
	s->game = cutoff_chess_game(s->chess);
	s->out = out;
	uci_options_default(&s->opt);
	cutoff_chess_start(s->chess, &s->pos);
	session_locks_init(s);
	s->want = s->opt;
	s->answered = true; /* no `go` pending */
	return s;
}

static void session_free(uci_session_t *s)
{
	uci_request_stop(s);
	uci_join_search(s);
	cli_cluster_end(s->cluster); /* every rank gets here: rank 0 ended the lines */
	cutoff_engine_free(s->engine);
	cutoff_chess_free(s->chess);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->out_lock);
	free(s);
}

/* Under mpirun (Open MPI says so in the environment): a cluster, Algorithm cluster by
 * default. False when the ranks cannot be joined (said). */
static bool join_cluster(uci_session_t *s)
{
	const char *ranks = getenv("OMPI_COMM_WORLD_SIZE");
	if (!ranks || atoi(ranks) <= 1)
		return true;
	cli_cluster_opts_t copts = { 0, 0, -1 };
	if (!(s->cluster = cli_cluster_start("uci", &copts)))
		return false;
	s->opt.driver = s->want.driver = DRIVER_CLUSTER;
	return true;
}

/* A rank other than 0 under mpirun: runs the lines rank 0 passes on, to their end.
 * Rank 0 ends the channel exactly once, after quit or at the end of its input: so the
 * channel is drained after a quit, and only then (waiting again after the end itself was
 * received would wait for ever). */
static void follow_lines(uci_session_t *s)
{
	char *line = malloc(UCI_LINE_MAX + 1);
	if (!line) { /* rank 0 would wait for ever for this rank to take its lines */
		cli_error("uci", "rank %d: out of memory for a command line; ending every rank",
		          cli_cluster_rank(s->cluster));
		cli_cluster_abort(s->cluster, CLI_EXIT_FAIL);
		return;
	}
	bool ended = false;
	while (!ended) {
		ended = !cli_cluster_recv_line(s->cluster, line, UCI_LINE_MAX + 1);
		if (!ended && run_line(s, line) == UCI_QUIT)
			break;
	}
	while (!ended)
		ended = !cli_cluster_recv_line(s->cluster, line, UCI_LINE_MAX + 1);
	free(line);
}

/* Runs the lines of `in` to quit or its end (passing each on to the other ranks). */
static void read_lines(uci_session_t *s, FILE *in)
{
	line_reader_t reader = { NULL, 0 };
	size_t len;
	line_status_t st;
	while ((st = read_line(in, &reader, &len)) != LINE_EOF) {
		if (st == LINE_TOO_LONG) {
			uci_say_error(s, "line longer than %d bytes: ignored", UCI_LINE_MAX);
			continue;
		}
		if (len == 0)
			continue;
		if (memchr(reader.buf, '\0', len)) {
			uci_say_error(s, "line with a NUL byte: ignored");
			continue;
		}
		cli_cluster_send_line(s->cluster, reader.buf);
		if (run_line(s, reader.buf) == UCI_QUIT)
			break;
	}
	cli_cluster_send_line(s->cluster, NULL); /* the end of the lines */
	free(reader.buf);
}

int uci_run(FILE *in, FILE *out)
{
	uci_session_t *s = session_new(out);
	if (!s)
		return CLI_EXIT_FAIL;
	/* A GUI that goes away must not kill us in the middle of a write: the write fails,
	 * and the end of input that follows ends the session. */
	signal(SIGPIPE, SIG_IGN);
	if (!join_cluster(s)) {
		session_free(s);
		return CLI_EXIT_FAIL;
	}
	if (s->cluster && cli_cluster_rank(s->cluster) != 0)
		follow_lines(s);
	else
		read_lines(s, in);
	session_free(s);
	return CLI_EXIT_OK;
}
