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
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "args.h"
#include "bench/common.h"
#include "bench/stockfish.h"

static bool executable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

const char *bench_sf_find(const char *opt, char *buf, size_t size)
{
	if (opt && strcmp(opt, "off") == 0)
		return NULL;
	if (opt && strcmp(opt, "auto") != 0) {
		snprintf(buf, size, "%s", opt);
		return executable(buf) ? buf : NULL;
	}
	const char *env = getenv("STOCKFISH");
	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return executable(buf) ? buf : NULL;
	}
	const char *path = getenv("PATH");
	while (path && *path) {
		size_t n = strcspn(path, ":");
		if (n > 0 && (int)n < (int)size - 12) {
			snprintf(buf, size, "%.*s/stockfish", (int)n, path);
			if (executable(buf))
				return buf;
		}
		path += n + (path[n] == ':');
	}
	snprintf(buf, size, "/usr/games/stockfish");
	return executable(buf) ? buf : NULL;
}

typedef struct sf {
	pid_t pid;
	FILE *to, *from;
} sf_t;

static bool sf_send(sf_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool sf_send(sf_t *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(s->to, fmt, ap);
	va_end(ap);
	fputc('\n', s->to);
	return fflush(s->to) == 0;
}

/* Reads lines until one starts with `word`; false at the end of the stream. */
static bool sf_wait(sf_t *s, const char *word, char *line, size_t size)
{
	size_t n = strlen(word);
	while (fgets(line, (int)size, s->from)) {
		if (strncmp(line, word, n) == 0)
			return true;
	}
	return false;
}

static void sf_close(sf_t *s)
{
	if (s->to) {
		sf_send(s, "quit");
		fclose(s->to);
	}
	if (s->from)
		fclose(s->from);
	if (s->pid > 0)
		waitpid(s->pid, NULL, 0);
	memset(s, 0, sizeof(*s));
}

static bool sf_open(bench_t *b, sf_t *s, int threads, size_t hash_mb)
{
	int in[2], out[2];
	char line[512];
	memset(s, 0, sizeof(*s));
	if (pipe(in) < 0 || pipe(out) < 0) {
		cli_error(b->cmd, "stockfish: cannot make a pipe: %s", strerror(errno));
		return false;
	}
	s->pid = fork();
	if (s->pid < 0) {
		cli_error(b->cmd, "stockfish: cannot fork: %s", strerror(errno));
		return false;
	}
	if (s->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, 2);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execl(b->stockfish, b->stockfish, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	s->to = fdopen(in[1], "w");
	s->from = fdopen(out[0], "r");
	if (!s->to || !s->from) {
		sf_close(s);
		return false;
	}
	if (!sf_send(s, "uci")) {
		sf_close(s);
		return false;
	}
	while (fgets(line, sizeof(line), s->from)) {
		if (strncmp(line, "id name ", 8) == 0) {
			line[strcspn(line, "\r\n")] = '\0';
			snprintf(b->stockfish_name, sizeof(b->stockfish_name), "%.90s", line + 8);
		}
		if (strncmp(line, "uciok", 5) == 0)
			break;
	}
	if (!sf_send(s, "setoption name Threads value %d", threads) ||
	    !sf_send(s, "setoption name Hash value %zu", hash_mb) || !sf_send(s, "isready") ||
	    !sf_wait(s, "readyok", line, sizeof(line))) {
		cli_error(b->cmd, "stockfish (%s) does not answer as a UCI engine", b->stockfish);
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
 * target_s: then *info is that iteration). */
static bool sf_go(sf_t *s, const char *fen, int depth, double target_s, sf_info_t *info, char *best,
                  size_t best_size)
{
	char line[4096];
	memset(info, 0, sizeof(*info));
	if (!sf_send(s, "ucinewgame") || !sf_send(s, "isready") ||
	    !sf_wait(s, "readyok", line, sizeof(line)) || !sf_send(s, "position fen %s", fen) ||
	    !sf_send(s, "go depth %d", depth))
		return false;
	bool stopped = false;
	while (fgets(line, sizeof(line), s->from)) {
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
			return info->depth > 0;
		}
	}
	return false;
}

bool bench_sf_calibrate(bench_t *b, const double *target_s)
{
	bench_workload_t *w = &b->work[BENCH_CHESS];
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
		if (!ok)
			cli_error(b->cmd, "stockfish (%s) stopped answering", b->stockfish);
		else
			it->sf_depth = info.depth;
	}
	sf_close(&s);
	return ok;
}

bool bench_sf_run(bench_t *b, bench_run_t *run)
{
	const bench_workload_t *w = &b->work[BENCH_CHESS];
	sf_t s;
	if (!sf_open(b, &s, run->threads, w->cfg.tt_mb ? w->cfg.tt_mb : 1))
		return false;
	bool ok = true;
	for (int i = 0; ok && i < w->nitems; i++) {
		const bench_item_t *it = &w->items[i];
		sf_info_t info;
		char best[16] = "";
		ok = sf_go(&s, it->text, it->sf_depth, 0, &info, best, sizeof(best));
		if (!ok) {
			cli_error(b->cmd, "stockfish (%s) stopped answering", b->stockfish);
			break;
		}
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
