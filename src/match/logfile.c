/* SPDX-License-Identifier: MIT */
/*
 * logfile.c — the bottom of `cutoff match`: the growing strings the other files build their
 * lines in (the position command, a setoption, a game's moves), and the --log file.
 *
 * A growing string never fails loudly: when memory runs out, `oom` sticks, the text stays
 * what it was, and the caller that needs the whole text checks the flag.
 *
 * The log holds every line exchanged with the engines and the referee's notes, each timed
 * in seconds from the match's t0 and flushed at once, so that the log of a referee that
 * was killed is whole up to that moment. Lines are written as they happen, so with
 * --concurrency the slots' lines interleave: each engine line names its slot ("2:1>"),
 * and each game's first note its slot. One fprintf is one line (stdio locks the stream
 * per call); a note of several calls holds the stream's lock across them.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "match/referee.h"

void match_sb_add(match_sb_t *b, const char *s, size_t n)
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

void match_sb_str(match_sb_t *b, const char *s) { match_sb_add(b, s, strlen(s)); }

void match_sb_printf(match_sb_t *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		match_sb_add(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

const char *match_sb_text(const match_sb_t *b) { return b->p ? b->p : ""; }

void match_log_line(const match_log_t *log, int slot, int id, const char *dir, const char *text,
                    size_t n)
{
	if (!log->f)
		return;
	double t = secs((int64_t)cli_now_ns() - log->t0);
	if (slot > 0)
		fprintf(log->f, "%10.3f %d:%d%s %.*s\n", t, slot, id, dir, (int)n, text);
	else
		fprintf(log->f, "%10.3f %d%s %.*s\n", t, id, dir, (int)n, text);
	fflush(log->f);
}

void match_log_note(const match_log_t *log, const char *fmt, ...)
{
	if (!log->f)
		return;
	va_list ap;
	flockfile(log->f); /* one line, whichever slots write at once */
	fprintf(log->f, "%10.3f -- ", secs((int64_t)cli_now_ns() - log->t0));
	va_start(ap, fmt);
	vfprintf(log->f, fmt, ap);
	va_end(ap);
	fputc('\n', log->f);
	fflush(log->f);
	funlockfile(log->f);
}
