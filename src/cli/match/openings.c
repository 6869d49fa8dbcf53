/*
 * openings.c — the start positions of `cutoff match --openings FILE`: one FEN or EPD line
 * each (the first four fields, and the two counters when they follow), blank lines and
 * lines starting with # skipped. Each position is parsed by the chess adapter and kept
 * with its FEN as the adapter writes it back, which is what the engines are sent.
 *
 * Owns nothing after it returns: the positions go to the match (m->openings), which frees
 * them. Any error is reported with the file and line, and the match does not start.
 */
#define _GNU_SOURCE /* getline, strtok_r */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "referee.h"

/* The FEN of a line's first fields: the four of the position, and the two counters when
 * both follow. */
static void line_fen(char *const tok[6], int nt, char *fen, size_t size)
{
	bool counters = nt >= 6 && strspn(tok[4], "0123456789") == strlen(tok[4]) &&
	                strspn(tok[5], "0123456789") == strlen(tok[5]);
	if (counters)
		snprintf(fen, size, "%.90s %.8s %.8s %.8s %.8s %.8s", tok[0], tok[1], tok[2],
		         tok[3], tok[4], tok[5]);
	else
		snprintf(fen, size, "%.90s %.8s %.8s %.8s", tok[0], tok[1], tok[2], tok[3]);
}

/* Room for one more opening. CLI_EXIT_OK, or CLI_EXIT_FAIL after the error. */
static int grow(match_t *m, int *cap)
{
	if (m->nopenings < *cap)
		return CLI_EXIT_OK;
	*cap = *cap ? 2 * *cap : 64;
	opening_t *o = realloc(m->openings, (size_t)*cap * sizeof(*o));
	if (!o) {
		cli_error(MATCH_CMD, "--openings: out of memory");
		return CLI_EXIT_FAIL;
	}
	m->openings = o;
	return CLI_EXIT_OK;
}

int match_openings_read(match_t *m, const char *path)
{
	char q[CLI_QUOTE_SIZE], msg[200];
	FILE *f = cli_open_input(MATCH_CMD, "openings", path);
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
			cli_error(MATCH_CMD, "--openings %s: line %d: expected a FEN or EPD line",
			          cli_quote(q, sizeof(q), path), lineno);
			status = CLI_EXIT_USAGE;
			break;
		}
		char fen[256];
		line_fen(tok, nt, fen, sizeof(fen));
		if ((status = grow(m, &capo)) != CLI_EXIT_OK)
			break;
		opening_t *o = &m->openings[m->nopenings];
		if (cutoff_chess_parse_fen(m->chess, fen, &o->pos, msg, sizeof(msg)) != 0) {
			cli_error(MATCH_CMD, "--openings %s: line %d: %s",
			          cli_quote(q, sizeof(q), path), lineno, msg);
			status = CLI_EXIT_USAGE;
			break;
		}
		cutoff_chess_fen(m->chess, &o->pos, o->fen, sizeof(o->fen));
		m->nopenings++;
	}
	if (!cli_close_input(MATCH_CMD, "openings", path, f) && status == CLI_EXIT_OK)
		status = CLI_EXIT_USAGE;
	if (status == CLI_EXIT_OK && m->nopenings == 0) {
		cli_error(MATCH_CMD, "--openings %s: no positions in it",
		          cli_quote(q, sizeof(q), path));
		status = CLI_EXIT_USAGE;
	}
	free(line);
	return status;
}
