/* SPDX-License-Identifier: MIT */
/*
 * uci/parse.c — the words of a UCI line: tokens, and what `position`, `go` and
 * `setoption` say.
 *
 * Each reader takes the rest of the line (a cursor that uci_next_token advances, cutting
 * the line in place) and either fills its result or says one `info string error` naming
 * the first word it cannot use and returns false. It changes nothing of the session but
 * s->scratch (uci_read_position's keys, which the caller commits). What a value means
 * beyond its syntax and range (which option a name is, what a clock buys) is for
 * options.c and time_plan.c. Main thread only.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "uci/uci.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

char *uci_next_token(char **cursor)
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

bool uci_white_to_move(const uci_session_t *s, const cutoff_chess_state_t *st, long *fullmove)
{
	char fen[CUTOFF_CHESS_FEN_SIZE];
	cutoff_chess_fen(s->chess, st, fen, sizeof(fen));
	const char *side = strchr(fen, ' ');
	if (fullmove) {
		const char *last = strrchr(fen, ' ');
		*fullmove = last ? strtol(last + 1, NULL, 10) : 0;
	}
	return side && side[1] == 'w';
}

/* ---------------------------------------------------------------------------------------
 * position
 * ------------------------------------------------------------------------------------- */

/* The FEN after `position fen` (up to `moves` or the end, which *next is) into *st. */
static bool read_fen(uci_session_t *s, char **cur, cutoff_chess_state_t *st, char **next)
{
	char q[UCI_QUOTE_SIZE], msg[200], fen[UCI_FEN_MAX];
	size_t n = 0;
	int fields = 0;
	char *t;
	while ((t = uci_next_token(cur)) && strcmp(t, "moves") != 0) {
		size_t len = strlen(t);
		if (fields == 6) {
			uci_say_error(s,
			              "position fen: unexpected %s after the 6 fields of the FEN",
			              cli_quote_ascii(q, sizeof(q), t));
			return false;
		}
		if (n + len + 2 > sizeof(fen)) {
			uci_say_error(s, "position fen: the FEN is longer than %d bytes at %s",
			              UCI_FEN_MAX - 1, cli_quote_ascii(q, sizeof(q), t));
			return false;
		}
		if (n)
			fen[n++] = ' ';
		memcpy(fen + n, t, len + 1);
		n += len;
		fields++;
	}
	if (fields == 0) {
		uci_say_error(s, "position fen: the FEN is missing");
		return false;
	}
	if (cutoff_chess_parse_fen(s->chess, fen, st, msg, sizeof(msg)) != 0) {
		uci_say_error(s, "position fen %s: %s", cli_quote_ascii(q, sizeof(q), fen), msg);
		return false;
	}
	*next = t;
	return true;
}

/* `startpos` or `fen F` into *st; *next is the word after it (or NULL). */
static bool read_root(uci_session_t *s, char **cur, cutoff_chess_state_t *st, char **next)
{
	char q[UCI_QUOTE_SIZE];
	char *t = uci_next_token(cur);
	if (!t) {
		uci_say_error(s, "position: expected 'startpos' or 'fen'");
		return false;
	}
	if (strcmp(t, "startpos") == 0) {
		cutoff_chess_start(s->chess, st);
		*next = uci_next_token(cur);
		return true;
	}
	if (strcmp(t, "fen") == 0)
		return read_fen(s, cur, st, next);
	uci_say_error(s, "position: expected 'startpos' or 'fen', got %s",
	              cli_quote_ascii(q, sizeof(q), t));
	return false;
}

/* Plays the moves after `moves` from *st; the keys since the last irreversible move into
 * s->scratch[0 .. *nkeys). */
static bool play_moves(uci_session_t *s, char **cur, cutoff_chess_state_t *st, int *nkeys)
{
	char q[UCI_QUOTE_SIZE], msg[200];
	/* scratch keeps only the newest CUTOFF_MAX_PLAYED keys, moved down in blocks. */
	int n = 0, index = 0;
	char *t;
	while ((t = uci_next_token(cur))) {
		cutoff_move_t m;
		index++;
		if (cutoff_chess_parse_move(s->chess, st, t, &m, msg, sizeof(msg)) != 0) {
			uci_say_error(s, "position: move %d %s: %s", index,
			              cli_quote_ascii(q, sizeof(q), t), msg);
			return false;
		}
		if (n == 2 * CUTOFF_MAX_PLAYED) {
			memmove(s->scratch, s->scratch + CUTOFF_MAX_PLAYED,
			        CUTOFF_MAX_PLAYED * sizeof(uint64_t));
			n = CUTOFF_MAX_PLAYED;
		}
		s->scratch[n++] = s->game->key(s->game->ctx, st);
		(void)cutoff_chess_play(s->chess, st, m, st);
		if (s->game->reversible(s->game->ctx, st) == 0)
			n = 0;
	}
	*nkeys = n;
	return true;
}

bool uci_read_position(uci_session_t *s, char **cur, cutoff_chess_state_t *st, int *nkeys)
{
	char q[UCI_QUOTE_SIZE];
	char *t;
	*nkeys = 0;
	if (!read_root(s, cur, st, &t))
		return false;
	if (t && strcmp(t, "moves") != 0) {
		uci_say_error(s, "position: expected 'moves', got %s",
		              cli_quote_ascii(q, sizeof(q), t));
		return false;
	}
	return !t || play_moves(s, cur, st, nkeys);
}

/* ---------------------------------------------------------------------------------------
 * go
 * ------------------------------------------------------------------------------------- */

/* The numeric arguments of `go`: the field each fills and the values accepted. */
#define UCI_TIME_MAX (INT64_C(1) << 50) /* ms: any clock a GUI means */
static const struct go_number {
	const char *name;
	size_t offset; /* of its int64_t in uci_go_args_t */
	int64_t min, max;
} go_numbers[] = {
	{ "wtime", offsetof(uci_go_args_t, wtime), -UCI_TIME_MAX, UCI_TIME_MAX },
	{ "btime", offsetof(uci_go_args_t, btime), -UCI_TIME_MAX, UCI_TIME_MAX },
	{ "winc", offsetof(uci_go_args_t, winc), -UCI_TIME_MAX, UCI_TIME_MAX },
	{ "binc", offsetof(uci_go_args_t, binc), -UCI_TIME_MAX, UCI_TIME_MAX },
	{ "movestogo", offsetof(uci_go_args_t, movestogo), 0, 100000 },
	{ "depth", offsetof(uci_go_args_t, depth), 1, CUTOFF_MAX_PLY - 1 },
	{ "nodes", offsetof(uci_go_args_t, nodes), 1, INT64_MAX },
	{ "mate", offsetof(uci_go_args_t, mate), 1, CUTOFF_MAX_PLY / 2 },
	{ "movetime", offsetof(uci_go_args_t, movetime), 0, UCI_TIME_MAX },
};

static const struct go_number *go_number(const char *t)
{
	for (size_t i = 0; i < sizeof(go_numbers) / sizeof(go_numbers[0]); i++) {
		if (strcmp(t, go_numbers[i].name) == 0)
			return &go_numbers[i];
	}
	return NULL;
}

static bool is_go_keyword(const char *t)
{
	return go_number(t) || strcmp(t, "searchmoves") == 0 || strcmp(t, "ponder") == 0 ||
	       strcmp(t, "infinite") == 0;
}

/* The value of a go argument: true with *out set, or false after an error naming it. */
static bool go_value(uci_session_t *s, char **cur, const struct go_number *n, int64_t *out)
{
	char q[UCI_QUOTE_SIZE];
	char *t = uci_next_token(cur);
	if (!t) {
		uci_say_error(s, "go: %s needs a value", n->name);
		return false;
	}
	if (!cli_int_value(t, n->min, n->max, out)) {
		uci_say_error(s, "go: %s: expected an integer in %" PRId64 "..%" PRId64 ", got %s",
		              n->name, n->min, n->max, cli_quote_ascii(q, sizeof(q), t));
		return false;
	}
	return true;
}

/* The moves after `searchmoves`, each checked (the library cannot restrict the root
 * moves, so they are only read); *next is the word after them. False after an error. */
static bool read_searchmoves(uci_session_t *s, char **cur, char **next)
{
	char q[UCI_QUOTE_SIZE], msg[200];
	char *t;
	while ((t = uci_next_token(cur)) && !is_go_keyword(t)) {
		cutoff_move_t m;
		if (cutoff_chess_parse_move(s->chess, &s->pos, t, &m, msg, sizeof(msg)) != 0) {
			uci_say_error(s, "go: searchmoves %s: %s", cli_quote_ascii(q, sizeof(q), t),
			              msg);
			return false;
		}
	}
	*next = t;
	return true;
}

bool uci_parse_go(uci_session_t *s, char **cur, uci_go_args_t *a)
{
	char q[UCI_QUOTE_SIZE];
	*a = (uci_go_args_t){ .wtime = -1, .btime = -1, .movetime = -1 };
	char *t = uci_next_token(cur);
	while (t) {
		const struct go_number *n = go_number(t);
		if (n) {
			if (!go_value(s, cur, n, (int64_t *)(void *)((char *)a + n->offset)))
				return false;
			a->have_wtime |= strcmp(t, "wtime") == 0;
			a->have_btime |= strcmp(t, "btime") == 0;
		} else if (strcmp(t, "infinite") == 0) {
			a->infinite = true;
		} else if (strcmp(t, "ponder") == 0) {
			a->ponder = true;
		} else if (strcmp(t, "searchmoves") == 0) {
			a->searchmoves = true;
			if (!read_searchmoves(s, cur, &t))
				return false;
			continue;
		} else {
			uci_say_error(s, "go: unknown argument %s",
			              cli_quote_ascii(q, sizeof(q), t));
			return false;
		}
		t = uci_next_token(cur);
	}
	bool white = uci_white_to_move(s, &s->pos, NULL);
	if ((a->have_wtime || a->have_btime) && !(white ? a->have_wtime : a->have_btime)) {
		uci_say_error(s, "go: %s is missing (%s to move)", white ? "wtime" : "btime",
		              white ? "white" : "black");
		return false;
	}
	return true;
}

/* ---------------------------------------------------------------------------------------
 * setoption
 * ------------------------------------------------------------------------------------- */

/* Appends the words of *cur from `t` on, up to (not including) `stop`, separated by one
 * blank, into buf; returns the word at which it stopped (or NULL). */
static char *collect_words(char **cur, char *t, const char *stop, char *buf, size_t size,
                           bool *too_long)
{
	size_t n = 0;
	buf[0] = '\0';
	*too_long = false;
	for (; t && !(stop && strcasecmp(t, stop) == 0); t = uci_next_token(cur)) {
		size_t len = strlen(t);
		if (n + len + 2 > size) {
			*too_long = true;
			continue;
		}
		if (n)
			buf[n++] = ' ';
		memcpy(buf + n, t, len + 1);
		n += len;
	}
	return t;
}

bool uci_read_setoption(uci_session_t *s, char **cur, uci_setoption_t *so)
{
	char q[UCI_QUOTE_SIZE];
	char *t = uci_next_token(cur);
	if (!t || strcasecmp(t, "name") != 0) {
		uci_say_error(s, "setoption: expected 'name', got %s",
		              t ? cli_quote_ascii(q, sizeof(q), t) : "nothing");
		return false;
	}
	t = collect_words(cur, uci_next_token(cur), "value", so->name, sizeof(so->name),
	                  &so->long_name);
	so->has_value = t != NULL;
	so->long_value = false;
	if (so->has_value)
		collect_words(cur, uci_next_token(cur), NULL, so->value, sizeof(so->value),
		              &so->long_value);
	else
		so->value[0] = '\0';
	if (so->name[0] == '\0') {
		uci_say_error(s, "setoption: the option name is missing");
		return false;
	}
	return true;
}
