/* SPDX-License-Identifier: MIT */
/*
 * openings.c — the start positions of `cutoff match --openings SOURCE`, from one of three
 * sources:
 *
 *   - a file of FEN or EPD lines: one position a line (the first four fields, and the two
 *     counters when they follow), blank lines and lines starting with # skipped;
 *   - a file of PGN games: tags in [..], movetext with move numbers, comments {..} and
 *     ;.., variations (..) skipped, NAGs $n, results 1-0 0-1 1/2-1/2 *; each game gives
 *     the position after its first --plies plies (default MATCH_PGN_PLIES), or after all
 *     of them when it is shorter, from the start position or its [FEN] tag; the moves are
 *     SAN (cutoff_chess_parse_san), and those past the plies kept are not checked;
 *   - "builtin": book.c's lines, read as PGN movetext and played whole, at every use.
 *
 * A file is PGN when its name ends in .pgn (any case), or when its first line that is not
 * blank or a # comment starts with '[', '{', ';', '%' or a move number ("1."); otherwise
 * it is FEN/EPD. Each position is kept with its FEN as the adapter writes it back, which
 * is what the engines are sent (position fen ...): a PGN game's plies become that FEN's
 * halfmove clock and move number, and the game's repetition history starts there, for
 * the referee and the engines alike.
 *
 * Owns nothing after it returns: the positions go to the match (m->openings), which frees
 * them. Any error is one line naming the file and line (for a bad move, the move and what
 * is wrong with it), and the match does not start: exit 2 for a file, 1 for a built-in
 * line (a bug of ours, which the tests catch).
 */
#define _GNU_SOURCE /* getline */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "match/referee.h"

#define BUILTIN "builtin"

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

/* Keeps `pos` as the next opening. CLI_EXIT_OK, or CLI_EXIT_FAIL after the error. */
static int keep(match_t *m, int *cap, const cutoff_chess_state_t *pos)
{
	int status = grow(m, cap);
	if (status != CLI_EXIT_OK)
		return status;
	opening_t *o = &m->openings[m->nopenings++];
	o->pos = *pos;
	cutoff_chess_fen(m->chess, &o->pos, o->fen, sizeof(o->fen));
	return CLI_EXIT_OK;
}

/* ---- FEN and EPD lines ---------------------------------------------------------------- */

/* One line of a FEN/EPD file (`q` its quoted name), cut in place: read by the one EPD
 * reader, cutoff_chess_parse_epd (a FEN is an EPD line without operations; the
 * operations, if any, are not used). CLI_EXIT_OK, or an exit status after the error. */
static int fen_line(match_t *m, int *cap, const char *q, char *line, int lineno)
{
	char msg[200];
	size_t lead = strspn(line, " \t\r\n");
	if (line[lead] == '\0' || line[lead] == '#')
		return CLI_EXIT_OK;
	cutoff_chess_epd_t epd;
	if (cutoff_chess_parse_epd(m->chess, line, &epd, msg, sizeof(msg)) != 0) {
		cli_error(MATCH_CMD, "--openings %s: line %d: %s", q, lineno, msg);
		return CLI_EXIT_USAGE;
	}
	return keep(m, cap, &epd.state);
}

/* ---- PGN ------------------------------------------------------------------------------ */

/* Reading PGN, a line at a time: the game being read, and what spans lines. */
typedef struct pgn {
	match_t *m;
	int *cap;                 /* m->openings' room */
	const char *src;          /* the source in messages: the quoted path, or "builtin" */
	const char *label;        /* the built-in line's name, or NULL for a file */
	int plies;                /* the plies kept of each game */
	int games;                /* the games kept so far */
	bool in_game;             /* something of the current game was read */
	bool movetext;            /* its moves have begun: a tag now starts the next game */
	cutoff_chess_state_t pos; /* its position after the plies played */
	int played;               /* those plies */
	int comment;              /* the line where a '{' still open was, or 0 */
	int depth, depth_line;    /* the variations open, and the line of the outermost */
} pgn_t;

static void pgn_new_game(pgn_t *p)
{
	cutoff_chess_start(p->m->chess, &p->pos);
	p->played = 0;
	p->in_game = p->movetext = false;
}

static void pgn_init(pgn_t *p, match_t *m, int *cap, const char *src, int plies)
{
	*p = (pgn_t){ .m = m, .cap = cap, .src = src, .plies = plies };
	pgn_new_game(p);
}

static int pgn_error(const pgn_t *p, int lineno, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prints the error at line `lineno`; the exit status: usage for a file, a failure for a
 * built-in line. */
static int pgn_error(const pgn_t *p, int lineno, const char *fmt, ...)
{
	char what[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (p->label) {
		cli_error(MATCH_CMD, "--openings %s: line %d (%s): %s", p->src, lineno, p->label,
		          what);
		return CLI_EXIT_FAIL;
	}
	cli_error(MATCH_CMD, "--openings %s: line %d: %s", p->src, lineno, what);
	return CLI_EXIT_USAGE;
}

/* Keeps the game read as an opening, and starts the next. */
static int pgn_end_game(pgn_t *p)
{
	int status = keep(p->m, p->cap, &p->pos);
	p->games++;
	pgn_new_game(p);
	return status;
}

/* The tag `name` of the current game: [FEN] sets its start; [Variant] must be chess. */
static int pgn_tag_value(pgn_t *p, const char *name, const char *value, int lineno)
{
	char msg[200], q[CLI_QUOTE_SIZE];
	if (strcmp(name, "FEN") == 0 &&
	    cutoff_chess_parse_fen(p->m->chess, value, &p->pos, msg, sizeof(msg)) != 0)
		return pgn_error(p, lineno, "the FEN tag: %s", msg);
	if (strcmp(name, "Variant") == 0 && value[0] && strcasecmp(value, "standard") != 0)
		return pgn_error(p, lineno, "[Variant %s]: only standard chess is played",
		                 cli_quote_ascii(q, sizeof(q), value));
	return CLI_EXIT_OK;
}

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* The tag pair at *s, which is '[': [Name "value"], closed on its line; *s moves past
 * it. A tag after a game's moves starts the next game. */
static int pgn_tag(pgn_t *p, const char **s, int lineno)
{
	static const char form[] = "expected a tag [Name \"value\"] closed on its line";
	char name[32], value[256];
	size_t n = 0, v = 0;
	const char *c = *s + 1;
	while (is_blank(*c))
		c++;
	for (; (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
	       *c == '_';
	     c++)
		if (n + 1 < sizeof(name))
			name[n++] = *c;
	name[n] = '\0';
	while (is_blank(*c))
		c++;
	if (n == 0 || *c != '"')
		return pgn_error(p, lineno, "%s", form);
	for (c++; *c && *c != '"'; c++) {
		if (*c == '\\' && (c[1] == '"' || c[1] == '\\'))
			c++;
		if (v + 1 < sizeof(value))
			value[v++] = *c;
	}
	value[v] = '\0';
	if (*c == '"')
		for (c++; is_blank(*c);)
			c++;
	if (*c != ']')
		return pgn_error(p, lineno, "%s", form);
	*s = c + 1;
	int status = p->movetext ? pgn_end_game(p) : CLI_EXIT_OK;
	p->in_game = true;
	return status == CLI_EXIT_OK ? pgn_tag_value(p, name, value, lineno) : status;
}

/* The move `text` of the current game: played while it is within the plies kept. */
static int pgn_move(pgn_t *p, const char *text, int lineno)
{
	p->movetext = true;
	if (p->played >= p->plies)
		return CLI_EXIT_OK;
	char err[200], q[CLI_QUOTE_SIZE];
	cutoff_move_t mv;
	if (cutoff_chess_parse_san(p->m->chess, &p->pos, text, &mv, err, sizeof(err)) != 0) {
		/* The adapter's message repeats the move ("SAN 'Nf9': ..."), said here already. */
		const char *why = err;
		if (strncmp(err, "SAN '", 5) == 0 && strstr(err + 5, "': "))
			why = strstr(err + 5, "': ") + 3;
		return pgn_error(p, lineno, "%s is not a move here (game %d, ply %d): %s",
		                 cli_quote_ascii(q, sizeof(q), text), p->games + 1, p->played + 1,
		                 why);
	}
	(void)cutoff_chess_play(p->m->chess, &p->pos, mv, &p->pos);
	p->played++;
	return CLI_EXIT_OK;
}

/* The word of movetext at *s: a NAG, a move number (maybe glued to its move, "1.e4"), a
 * result, which ends the game, or a move; *s moves past it. */
static int pgn_word(pgn_t *p, const char **s, int lineno)
{
	char word[40];
	const char *c = *s;
	if (*c == '$') {
		*s = c + 1 + strspn(c + 1, "0123456789");
		return CLI_EXIT_OK;
	}
	size_t n = strcspn(c, " \t\r\n{}()[];$");
	if (n == 0)
		return pgn_error(p, lineno, "unexpected '%c'", *c);
	if (n >= sizeof(word))
		return pgn_error(p, lineno, "a word of %zu bytes is not a move", n);
	snprintf(word, sizeof(word), "%.*s", (int)n, c);
	*s = c + n;
	const char *w = word;
	size_t digits = strspn(w, "0123456789");
	if (digits > 0 && w[digits] == '.')
		w += digits;
	w += strspn(w, ".");
	if (*w == '\0')
		return CLI_EXIT_OK;
	p->in_game = true;
	if (strcmp(w, "1-0") == 0 || strcmp(w, "0-1") == 0 || strcmp(w, "1/2-1/2") == 0 ||
	    strcmp(w, "*") == 0)
		return pgn_end_game(p);
	return pgn_move(p, w, lineno);
}

/* One line of PGN. CLI_EXIT_OK, or an exit status after the error. */
static int pgn_line(pgn_t *p, const char *s, int lineno)
{
	if (!p->comment && !p->depth && s[0] == '%') /* an escape line */
		return CLI_EXIT_OK;
	int status = CLI_EXIT_OK;
	while (*s && status == CLI_EXIT_OK) {
		if (p->comment) {
			const char *end = strchr(s, '}');
			if (!end)
				break;
			p->comment = 0;
			s = end + 1;
		} else if (*s == ';') {
			break;
		} else if (is_blank(*s) || *s == '{' || *s == '(' || *s == ')') {
			if (*s == '{')
				p->comment = lineno;
			else if (*s == '(' && p->depth++ == 0)
				p->depth_line = lineno;
			else if (*s == ')' && p->depth-- == 0)
				return pgn_error(p, lineno, "a ')' closes no variation");
			s++;
		} else if (p->depth > 0) {
			s++; /* inside a variation: only comments and parentheses count */
		} else if (*s == '[') {
			status = pgn_tag(p, &s, lineno);
		} else {
			status = pgn_word(p, &s, lineno);
		}
	}
	return status;
}

/* The end of the text: what is still open is an error; a game begun is kept. */
static int pgn_finish(pgn_t *p)
{
	if (p->comment)
		return pgn_error(p, p->comment, "a comment '{' is never closed");
	if (p->depth)
		return pgn_error(p, p->depth_line, "a variation '(' is never closed");
	return p->in_game ? pgn_end_game(p) : CLI_EXIT_OK;
}

/* ---- the sources ---------------------------------------------------------------------- */

/* book.c's lines, each one game played whole. */
static int read_builtin(match_t *m, int plies)
{
	if (plies) {
		cli_error(MATCH_CMD, "--plies: the " BUILTIN " openings are played whole; --plies "
		                     "counts the plies of the games of a PGN file");
		return CLI_EXIT_USAGE;
	}
	int capo = 0, status = CLI_EXIT_OK;
	pgn_t p;
	pgn_init(&p, m, &capo, BUILTIN, INT_MAX);
	for (int i = 0; i < match_book_count && status == CLI_EXIT_OK; i++) {
		p.label = match_book[i].name;
		status = pgn_line(&p, match_book[i].moves, i + 1);
		if (status == CLI_EXIT_OK)
			status = pgn_finish(&p);
	}
	return status;
}

static bool is_pgn_name(const char *path)
{
	size_t n = strlen(path);
	return n >= 4 && strcasecmp(path + n - 4, ".pgn") == 0;
}

/* Whether the file's first line that says anything starts PGN or FEN/EPD; unknown while
 * the lines are blank or # comments. */
typedef enum format {
	FORMAT_UNKNOWN,
	FORMAT_FEN,
	FORMAT_PGN
} format_t;

static format_t sniff(const char *line)
{
	while (is_blank(*line))
		line++;
	if (*line == '\0' || *line == '#')
		return FORMAT_UNKNOWN;
	size_t digits = strspn(line, "0123456789");
	if (strchr("[{;%", *line) || (digits > 0 && line[digits] == '.'))
		return FORMAT_PGN;
	return FORMAT_FEN;
}

/* The lines of an open file (`q` its quoted name) as PGN or FEN/EPD. */
static int read_lines(match_t *m, FILE *f, const char *q, bool pgn_name, int plies)
{
	int capo = 0, lineno = 0, status = CLI_EXIT_OK;
	pgn_t p;
	pgn_init(&p, m, &capo, q, plies ? plies : MATCH_PGN_PLIES);
	format_t format = pgn_name ? FORMAT_PGN : FORMAT_UNKNOWN;
	char *line = NULL;
	size_t cap = 0;
	while (status == CLI_EXIT_OK && getline(&line, &cap, f) >= 0) {
		char *text = line;
		if (++lineno == 1 && strncmp(text, "\xef\xbb\xbf", 3) == 0)
			text += 3; /* a UTF-8 byte-order mark */
		if (format == FORMAT_UNKNOWN && (format = sniff(text)) == FORMAT_FEN && plies) {
			cli_error(
				MATCH_CMD,
				"--plies: %s holds FEN/EPD lines (line %d), not PGN games; --plies "
				"counts the plies of the games of a PGN file",
				q, lineno);
			status = CLI_EXIT_USAGE;
		} else if (format == FORMAT_PGN) {
			status = pgn_line(&p, text, lineno);
		} else if (format == FORMAT_FEN) {
			status = fen_line(m, &capo, q, text, lineno);
		}
	}
	if (status == CLI_EXIT_OK && format == FORMAT_PGN)
		status = pgn_finish(&p);
	free(line);
	return status;
}

int match_openings_read(match_t *m, const char *source, int plies)
{
	if (strcmp(source, BUILTIN) == 0)
		return read_builtin(m, plies);
	char q[CLI_QUOTE_SIZE];
	cli_quote(q, sizeof(q), source);
	FILE *f = cli_open_input(MATCH_CMD, "openings", source);
	if (!f)
		return CLI_EXIT_USAGE;
	int status = read_lines(m, f, q, is_pgn_name(source), plies);
	if (!cli_close_input(MATCH_CMD, "openings", source, f) && status == CLI_EXIT_OK)
		status = CLI_EXIT_USAGE;
	if (status == CLI_EXIT_OK && m->nopenings == 0) {
		cli_error(MATCH_CMD, "--openings %s: no positions in it", q);
		status = CLI_EXIT_USAGE;
	}
	return status;
}
