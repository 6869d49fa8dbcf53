/* SPDX-License-Identifier: MIT */
/*
 * stockfish.c — Stockfish beside cutoff in `cutoff bench`: the same chess positions, the
 * same thread counts and table size, in the same run, spoken to over UCI through pipes.
 *
 * Stockfish's depth is not ours (its search prunes and reduces far more), so each position
 * gets a depth of its own: the first depth at which Stockfish, at one thread, took at
 * least as long as our serial search of that position (measured once, by one `go depth`
 * whose iterations are read as they complete). Its figures are then its own ratios, n
 * threads against one thread of itself: time to depth, node rate, nodes. Times are the
 * `time` field of its last `info depth D` line (milliseconds), nodes its `nodes` field.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/args.h"
#include "lab/common.h"
#include "lab/stockfish.h"
#include "uci/client.h"

enum {
	NS_PER_S = 1000000000,
	QUIT_GRACE_MS = 500 /* from quit to SIGKILL */
};

const char *bench_sf_find(const char *opt, char *buf, size_t size)
{
	if (opt && strcmp(opt, "off") == 0)
		return NULL;
	if (opt && strcmp(opt, "auto") != 0) {
		snprintf(buf, size, "%s", opt);
		return cli_executable(buf) ? buf : NULL;
	}
	const char *env = getenv("STOCKFISH");
	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return cli_executable(buf) ? buf : NULL;
	}
	return uci_client_find("stockfish", buf, size);
}

/* Stockfish's process, and SIGPIPE as it was before it started (ignored meanwhile, so
 * that a Stockfish that dies shows up as a failed write, not as the bench's death). */
typedef struct sf {
	bench_t *b;
	uci_client_t c;
	struct sigaction old_pipe;
} sf_t;

/* The deadline of the next answer: --stockfish-timeout from now. */
static int64_t sf_deadline(const sf_t *s)
{
	return (int64_t)cli_now_ns() + s->b->set.stockfish_timeout_s * NS_PER_S;
}

static bool sf_send(sf_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool sf_send(sf_t *s, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < sizeof(line) &&
	       uci_client_send(&s->c, line, sf_deadline(s)) == 0;
}

/* The next line, within --stockfish-timeout; false after one line of error (bench_fail) that says
 * what went wrong (silent too long, or ended, and how). */
static bool sf_read(sf_t *s, const char *waiting_for, char **line)
{
	switch (uci_client_read(&s->c, sf_deadline(s), line)) {
	case UCI_LINE_OK:
		return true;
	case UCI_LINE_TIMEOUT:
		bench_fail(s->b->err,
		           "stockfish (%s) said nothing for %" PRId64 " s, waiting for %s "
		           "(--stockfish-timeout)",
		           s->b->set.stockfish, s->b->set.stockfish_timeout_s, waiting_for);
		return false;
	default: {
		char how[128];
		uci_client_describe_end(&s->c, how, sizeof(how));
		bench_fail(s->b->err, "stockfish (%s) %s, waiting for %s", s->b->set.stockfish, how,
		           waiting_for);
		return false;
	}
	}
}

/* Reads lines until one starts with `word`; false after one line of error (bench_fail). */
static bool sf_wait(sf_t *s, const char *word)
{
	size_t n = strlen(word);
	char *line;
	while (sf_read(s, word, &line))
		if (strncmp(line, word, n) == 0)
			return true;
	return false;
}

static void sf_close(sf_t *s)
{
	uci_client_free(&s->c);
	sigaction(SIGPIPE, &s->old_pipe, NULL);
}

static bool sf_open(bench_t *b, sf_t *s, int threads, size_t hash_mb)
{
	memset(s, 0, sizeof(*s));
	s->b = b;
	struct sigaction ign = { .sa_handler = SIG_IGN };
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &s->old_pipe);
	if (uci_client_init(&s->c, NULL) != 0) {
		bench_fail(b->err, "stockfish: out of memory");
		sf_close(s);
		return false;
	}
	char why[256], *argv[] = { (char *)b->set.stockfish, NULL }, *line;
	uci_start_t st = uci_client_start(&s->c, argv, -1, why, sizeof(why));
	if (st != UCI_START_OK) {
		bench_fail(b->err, "stockfish (%s): %s%s", b->set.stockfish,
		           st == UCI_START_CANNOT_RUN ? "cannot run it: " : "", why);
		sf_close(s);
		return false;
	}
	bool ok = sf_send(s, "uci");
	while (ok && (ok = sf_read(s, "uciok", &line)) && strncmp(line, "uciok", 5) != 0)
		if (strncmp(line, "id name ", 8) == 0)
			snprintf(b->mach.stockfish_name, sizeof(b->mach.stockfish_name), "%.90s",
			         line + 8);
	if (ok &&
	    !(sf_send(s, "setoption name Threads value %d", threads) &&
	      sf_send(s, "setoption name Hash value %zu", hash_mb) && sf_send(s, "isready"))) {
		bench_fail(b->err, "stockfish (%s) does not read its input", b->set.stockfish);
		ok = false;
	}
	if (!ok || !sf_wait(s, "readyok")) {
		sf_close(s);
		return false;
	}
	return true;
}

/* What one completed iteration said: "info depth D ... nodes N ... time T ... pv ...". */
typedef struct sf_info {
	int depth;
	uint64_t nodes;
	uint64_t time_ms;
} sf_info_t;

static bool parse_info(const char *line, sf_info_t *info)
{
	if (strncmp(line, "info depth ", 11) != 0 || strstr(line, " bound ") ||
	    strstr(line, "lowerbound") || strstr(line, "upperbound") || !strstr(line, " pv "))
		return false;
	const char *n = strstr(line, " nodes "), *t = strstr(line, " time ");
	if (!n || !t)
		return false;
	info->depth = atoi(line + 11);
	info->nodes = strtoull(n + 7, NULL, 10);
	info->time_ms = strtoull(t + 6, NULL, 10);
	return true;
}

/* Searches `fen` to `depth` (or, when target_s > 0, until an iteration has taken at least
 * target_s: then *info is that iteration). False after one line of error (bench_fail). */
static bool sf_go(sf_t *s, const char *fen, int depth, double target_s, sf_info_t *info, char *best,
                  size_t best_size)
{
	char *line;
	memset(info, 0, sizeof(*info));
	if (!sf_send(s, "ucinewgame") || !sf_send(s, "isready") || !sf_wait(s, "readyok") ||
	    !sf_send(s, "position fen %s", fen) || !sf_send(s, "go depth %d", depth)) {
		bench_fail(s->b->err, "stockfish (%s) stopped answering", s->b->set.stockfish);
		return false;
	}
	bool stopped = false;
	while (sf_read(s, "bestmove", &line)) {
		sf_info_t i;
		if (parse_info(line, &i) && !stopped) {
			*info = i;
			if (target_s > 0 && (double)i.time_ms / 1000.0 >= target_s) {
				stopped = true;
				sf_send(s, "stop");
			}
		}
		if (strncmp(line, "bestmove ", 9) == 0) {
			if (best)
				snprintf(best, best_size, "%.*s", (int)strcspn(line + 9, " \r\n"),
				         line + 9);
			if (info->depth <= 0)
				bench_fail(s->b->err,
				           "stockfish (%s) answered with no completed iteration",
				           s->b->set.stockfish);
			return info->depth > 0;
		}
	}
	return false;
}

bool bench_sf_calibrate(bench_t *b, const double *target_s)
{
	bench_workload_t *w = &b->res.work[BENCH_CHESS];
	sf_t s;
	if (!sf_open(b, &s, 1, w->cfg.tt_mb ? w->cfg.tt_mb : 1))
		return false;
	bool ok = true;
	for (int i = 0; ok && i < w->nitems; i++) {
		bench_item_t *it = &w->items[i];
		if (it->sf_depth)
			continue;
		bench_progress(b,
		               "stockfish: choosing its depth for chess position %d of %d (%.2f s)",
		               i + 1, w->nitems, target_s[i]);
		sf_info_t info;
		ok = sf_go(&s, it->text, 60, target_s[i], &info, NULL, 0);
		if (ok)
			it->sf_depth = info.depth;
	}
	sf_close(&s);
	return ok;
}

bool bench_sf_run(bench_t *b, bench_run_t *run)
{
	const bench_workload_t *w = &b->res.work[BENCH_CHESS];
	sf_t s;
	if (!sf_open(b, &s, run->threads, w->cfg.tt_mb ? w->cfg.tt_mb : 1))
		return false;
	bool ok = true;
	for (int i = 0; ok && i < w->nitems; i++) {
		const bench_item_t *it = &w->items[i];
		sf_info_t info;
		char best[16] = "";
		ok = sf_go(&s, it->text, it->sf_depth, 0, &info, best, sizeof(best));
		if (!ok)
			break;
		double t = (double)info.time_ms / 1000.0;
		run->time_s += t;
		run->counters.nodes += info.nodes;
		run->item_nodes[i] = info.nodes;
		run->item_time[i] = t;
		run->item_depth[i] = info.depth;
		snprintf(run->item_move[i], sizeof(run->item_move[i]), "%.7s", best);
	}
	/* Stockfish does not say how its nodes were shared among its threads. */
	run->incomplete_threads = true;
	sf_close(&s);
	return ok;
}
