/* SPDX-License-Identifier: MIT */
/*
 * player.c — one engine of `cutoff match`: its command split into words, its process (a
 * uci_client_t: started, spoken to with deadlines, ended with its process group; the
 * client's invariants are in uci_client.h), the UCI handshake (uci, uciok, the --option
 * values checked against what the engine declared, isready, readyok, and the engine's
 * rejections of its options in between), and its end (quit, a short wait, SIGKILL).
 *
 * Owns, per engine_t: the client, the names of the options the engine declared and its
 * lines rejecting them. The client's hooks tie it to the match: every line to the log
 * (logfile.c), and the process group to the match's reaper (reaper.c) from its start until
 * it is reaped, the start inside the reaper's lock, so that a signal to the match either
 * finds the new engine registered or stops it from being started.
 *
 * Threads. With --concurrency each slot's engines are used by that slot's thread alone
 * (slots.c); nothing here is shared but the log (logfile.c locks it) and the reaper (locked).
 * The referee's SIGPIPE is ignored by the command, so a dead engine shows up here as a
 * failed write, never as the referee's death.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "match/referee.h"

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

/* The client's hooks: the referee's log and reaper (engine_t's own). */
static void hook_line(void *user, const char *dir, const char *text, size_t n)
{
	const engine_t *e = user;
	match_log_line(e->log, e->slot, e->id, dir, text, n);
}
static void hook_enter(void *user) { match_reaper_enter(((engine_t *)user)->reaper); }
static void hook_leave(void *user, pid_t pid)
{
	match_reaper_leave(((engine_t *)user)->reaper, pid);
}
static void hook_forget(void *user, pid_t pid)
{
	match_reaper_forget(((engine_t *)user)->reaper, pid);
}

/*
 * The next line from the engine, waiting until `deadline` at most; a line that arrived
 * after the deadline counts as none. *line points into the engine's buffer until the next
 * call; e->proc.rtime is when the read that completed it returned.
 */
uci_read_t match_engine_read(engine_t *e, int64_t deadline, char **line)
{
	return uci_client_read(&e->proc, deadline, line);
}

/* Reads and drops whatever the engine has said and not been asked for, so that a stray
 * bestmove cannot be taken for the answer to the next go. */
void match_engine_drain(engine_t *e) { uci_client_drain(&e->proc); }

/* Writes `text` and a newline to the engine, within --timeout. 0, or -1 when the pipe is
 * broken or the engine does not read. */
int match_engine_send(engine_t *e, const char *text)
{
	return uci_client_send(&e->proc, text, (int64_t)cli_now_ns() + e->timeout);
}

/* A note in the log about the engine: "engine 1 WHAT", or "engine 1 of slot 2 WHAT". */
static void engine_note(const engine_t *e, const char *what)
{
	if (e->slot > 0)
		match_log_note(e->log, "engine %d of slot %d %s", e->id, e->slot, what);
	else
		match_log_note(e->log, "engine %d %s", e->id, what);
}

/* Ends the engine: quit, a short wait, then SIGKILL to its process group (whatever it
 * started goes with it). */
void match_engine_stop(engine_t *e, bool ask)
{
	if (e->proc.pid <= 0)
		return;
	uci_client_stop(&e->proc, ask, 500);
	engine_note(e, "stopped");
}

/* After the engine's output closed: how it ended, for a message ("exited with status 1"). */
void match_engine_describe_end(engine_t *e, char *buf, size_t size)
{
	uci_client_describe_end(&e->proc, buf, size);
}

/*
 * Starts the engine's process. 0, or -1 after printing why (the program cannot be run:
 * a usage error), or -2 (a system failure, printed).
 */
static int engine_spawn(engine_t *e)
{
	char why[REASON_SIZE], q[CLI_QUOTE_SIZE];
	switch (uci_client_start(&e->proc, e->argv, e->log->fd, why, sizeof(why))) {
	case UCI_START_OK:
		break;
	case UCI_START_CANNOT_RUN:
		cli_error(MATCH_CMD, "--engine %s: cannot run %s: %s", e->q,
		          cli_quote(q, sizeof(q), e->argv[0]), why);
		return -1;
	default:
		cli_error(MATCH_CMD, "%s", why);
		return -2;
	}
	if (e->log->f) {
		match_sb_t what = { 0 };
		match_sb_printf(&what, "started: pid %d: ", (int)e->proc.pid);
		match_sb_str(&what, e->command);
		engine_note(e, match_sb_text(&what));
		free(what.p);
	}
	return 0;
}

bool match_word_is(const char **p, const char *word)
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
	if (!match_word_is(&rest, "name") || e->ndeclared >= MAX_DECLARED)
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

/*
 * A line by which the engine rejects an option it was sent: cutoff uci's "info string
 * error: setoption: ..." (src/uci/options.c) and Stockfish's "No such option: NAME".
 * Only the lines between the setoptions and readyok are asked, so that an engine's other
 * errors are not taken for one.
 */
static bool is_rejection(const char *p)
{
	if (strncmp(p, "No such option:", 15) == 0)
		return true;
	return match_word_is(&p, "info") && match_word_is(&p, "string") &&
	       match_word_is(&p, "error:") && strncmp(p, "setoption", 9) == 0;
}

/* Keeps a rejection line of the engine's (the first MAX_REJECTED; NULL when memory ran
 * out) and counts it. */
static void note_rejection(engine_t *e, const char *line)
{
	if (e->nrejected < MAX_REJECTED)
		e->rejected[e->nrejected] = strdup(line);
	e->nrejected++;
}

/* Rejection i (< MAX_REJECTED) as text. */
static const char *rejection(const engine_t *e, int i)
{
	return e->rejected[i] ? e->rejected[i] : "(a line lost: out of memory)";
}

/* Waits for a line that is exactly `want`, ignoring others (recording id name and the
 * options while waiting for uciok, and with `options` the lines rejecting an option). 0,
 * or a fault with `why` written. */
static fault_t expect(engine_t *e, const char *want, bool options, char *why, size_t size)
{
	int64_t deadline = (int64_t)cli_now_ns() + e->timeout;
	for (;;) {
		char *line;
		uci_read_t rs = match_engine_read(e, deadline, &line);
		if (rs == UCI_LINE_TIMEOUT) {
			snprintf(why, size, "no '%s' within %" PRId64 " s", want,
			         e->timeout / NS_PER_S);
			return FAULT_HANG;
		}
		if (rs == UCI_LINE_EOF) {
			char how[100];
			match_engine_describe_end(e, how, sizeof(how));
			snprintf(why, size, "%s before '%s'", how, want);
			return FAULT_CRASH;
		}
		const char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (options && is_rejection(p))
			note_rejection(e, p);
		else if (match_word_is(&p, want) && *p == '\0')
			return FAULT_NONE;
		else if (match_word_is(&p, "id") && match_word_is(&p, "name") && *p)
			snprintf(e->name, sizeof(e->name), "%s", p);
		else if (match_word_is(&p, "option"))
			note_option(e, p);
	}
}

fault_t match_engine_expect(engine_t *e, const char *want, char *why, size_t size)
{
	return expect(e, want, false, why, size);
}

/* Drops the rejections of an earlier start. */
static void forget_rejections(engine_t *e)
{
	for (int i = 0; i < e->nrejected && i < MAX_REJECTED; i++)
		free(e->rejected[i]);
	e->nrejected = 0;
}

/*
 * After readyok: the engine's rejections of its options. Without --ignore-option-errors
 * the first is the one-line error (the match fails before any game: the engine would
 * play on its default, which is not the match that was asked for); with it, each is a
 * warning, printed once for the match (by slot 1's engine, on its first start), and the
 * report carries them. CLI_EXIT_OK or CLI_EXIT_USAGE.
 */
static int report_rejections(engine_t *e)
{
	char q[320];
	if (e->nrejected == 0)
		return CLI_EXIT_OK;
	if (!e->ignore_option_errors) {
		char more[48] = "";
		if (e->nrejected > 1)
			snprintf(more, sizeof(more), " (and %d more)", e->nrejected - 1);
		cli_error(MATCH_CMD,
		          "engine %d (%s) rejects an option: %s%s; no game played "
		          "(--ignore-option-errors plays on)",
		          e->id, e->q, cli_quote(q, sizeof(q), rejection(e, 0)), more);
		return CLI_EXIT_USAGE;
	}
	if (e->slot > 1 || e->warned)
		return CLI_EXIT_OK;
	e->warned = true;
	for (int i = 0; i < e->nrejected && i < MAX_REJECTED; i++)
		cli_error(MATCH_CMD,
		          "warning: engine %d (%s) rejects an option: %s; playing on "
		          "(--ignore-option-errors)",
		          e->id, e->q, cli_quote(q, sizeof(q), rejection(e, i)));
	return CLI_EXIT_OK;
}

/*
 * Starts the engine and has it ready: uci, uciok, the options, isready, readyok.
 * CLI_EXIT_OK, or an exit status after printing the one-line error.
 */
int match_engine_start(engine_t *e)
{
	char why[REASON_SIZE], q[CLI_QUOTE_SIZE];
	int rc = engine_spawn(e);
	if (rc < 0)
		return rc == -1 ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
	for (int i = 0; i < e->ndeclared; i++)
		free(e->declared[i]);
	e->ndeclared = 0;
	forget_rejections(e);
	fault_t f = FAULT_NONE;
	if (match_engine_send(e, "uci") != 0) {
		f = FAULT_CRASH;
		match_engine_describe_end(e, why, sizeof(why));
	} else {
		f = match_engine_expect(e, "uciok", why, sizeof(why));
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
			cli_error(MATCH_CMD, "%s %s: engine %d (%s) declares no option '%.*s'", opt,
			          cli_quote(q, sizeof(q), o), e->id, e->name, (int)nlen, o);
			match_engine_stop(e, true);
			return CLI_EXIT_USAGE;
		}
		match_sb_t cmd = { 0 };
		match_sb_printf(&cmd, "setoption name %.*s", (int)nlen, o);
		if (eq) {
			match_sb_str(&cmd, " value ");
			match_sb_str(&cmd, eq + 1);
		}
		if (cmd.oom || match_engine_send(e, match_sb_text(&cmd)) != 0) {
			f = FAULT_CRASH;
			snprintf(why, sizeof(why), "cannot send its options");
		}
		free(cmd.p);
	}
	if (f == FAULT_NONE) {
		if (match_engine_send(e, "isready") != 0) {
			f = FAULT_CRASH;
			snprintf(why, sizeof(why), "closed its input");
		} else {
			f = expect(e, "readyok", e->nsetopts > 0, why, sizeof(why));
		}
	}
	if (f != FAULT_NONE) {
		/* Not "killed by signal 15" when the reaper killed it: the match is ending. */
		match_reaper_check(e->reaper);
		cli_error(MATCH_CMD, "engine %d (%s): %s", e->id, e->q, why);
		match_engine_stop(e, false);
		return CLI_EXIT_FAIL;
	}
	if ((rc = report_rejections(e)) != CLI_EXIT_OK) {
		match_engine_stop(e, true);
		return rc;
	}
	e->broken = false;
	return CLI_EXIT_OK;
}

void match_engine_clear(engine_t *e, int id, const match_log_t *log)
{
	memset(e, 0, sizeof(*e));
	e->id = id;
	e->proc.to = e->proc.from = -1;
	e->min_clock = INT64_MAX;
	e->log = log;
}

int match_engine_init(engine_t *e, const char *command, int64_t timeout, const char **shared,
                      int nshared, const char **own, int nown)
{
	e->command = command;
	e->timeout = timeout;
	cli_quote(e->q, sizeof(e->q), e->command);
	int nw = split_command(e, e->command);
	if (nw == -2) {
		cli_error(MATCH_CMD, "out of memory");
		return CLI_EXIT_FAIL;
	}
	if (nw <= 0) {
		cli_error(MATCH_CMD, "--engine %s: %s", e->q,
		          nw == 0 ? "expected a program and its arguments"
		                  : "unterminated quote or trailing backslash");
		return CLI_EXIT_USAGE;
	}
	const char *base = strrchr(e->argv[0], '/');
	snprintf(e->name, sizeof(e->name), "%s", base ? base + 1 : e->argv[0]);
	e->setopts = calloc((size_t)(nshared + nown) + 1, sizeof(char *));
	uci_client_hooks_t hooks = { .user = e,
		                     .line = hook_line,
		                     .enter = hook_enter,
		                     .leave = hook_leave,
		                     .forget = hook_forget };
	if (!e->setopts || uci_client_init(&e->proc, &hooks) != 0) {
		cli_error(MATCH_CMD, "out of memory");
		return CLI_EXIT_FAIL;
	}
	for (int k = 0; k < nshared; k++)
		e->setopts[e->nsetopts++] = shared[k];
	e->nshared = e->nsetopts;
	for (int k = 0; k < nown; k++)
		e->setopts[e->nsetopts++] = own[k];
	return CLI_EXIT_OK;
}

void match_engine_free(engine_t *e)
{
	match_engine_stop(e, true);
	free(e->argv);
	free(e->words);
	free(e->setopts);
	uci_client_free(&e->proc);
	for (int k = 0; k < e->ndeclared; k++)
		free(e->declared[k]);
	forget_rejections(e);
}
