/* SPDX-License-Identifier: MIT */
/*
 * epd.c — one line of an EPD file (or a FEN followed by operations): the position, read by
 * the FEN reader, and the operations split into opcode and operands, none of them
 * interpreted. `cutoff epd` (bm, am, id), the bench's quality suite (refs, id, acd), its
 * chess positions (depth, ref, sf, id) and the perft file of the tests (D1 .. Dn) each
 * pick the opcodes they read.
 *
 * The grammar (PGN standard, section 16.2, as test suites write it): four blank-separated
 * fields (placement, side, castling, en passant), two more when both are plain decimal
 * numbers (the move counters, as in a FEN), then operations "opcode operands;" where the
 * operands run to the next ';' outside a double-quoted string. A field or an opcode ends
 * at a blank or a ';'. The line is cut in place, as strtok cuts it: no copy, so no length
 * limit, and no state kept.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cutoff_chess.h"

/* The most bytes of a bad opcode shown back in a message. */
#define EPD_SHOWN 24

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static char *skip_blanks(char *s)
{
	while (is_blank(*s))
		s++;
	return s;
}

/* Past a word: up to a blank, a ';' or the end. */
static char *skip_word(char *s)
{
	while (*s && !is_blank(*s) && *s != ';')
		s++;
	return s;
}

static bool all_digits(const char *s, const char *end)
{
	if (s == end)
		return false;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return false;
	}
	return true;
}

static int epd_fail(cutoff_chess_epd_t *out, cutoff_chess_epd_error_t why, char *err, size_t errlen,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int epd_fail(cutoff_chess_epd_t *out, cutoff_chess_epd_error_t why, char *err, size_t errlen,
                    const char *fmt, ...)
{
	if (out)
		out->error = why;
	if (err && errlen > 0) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return CUTOFF_EINVAL;
}

/* Up to EPD_SHOWN bytes of text in single quotes, as the command line quotes what it shows
 * back: a quote or a backslash escaped with a backslash, control bytes as \xNN. */
static void quote(char *buf, size_t size, const char *text, size_t len)
{
	size_t o = 0;
	buf[o++] = '\'';
	for (size_t i = 0; i < len && i < EPD_SHOWN && o + 6 < size; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == '\\' || c == '\'') {
			buf[o++] = '\\';
			buf[o++] = (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
		} else {
			buf[o++] = (char)c;
		}
	}
	buf[o++] = '\'';
	buf[o] = '\0';
}

/* An opcode is a letter, then letters, digits or '_'. */
static bool opcode_ok(const char *s, size_t len)
{
	bool ok = len > 0 && ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z'));
	for (size_t i = 1; i < len && ok; i++) {
		char c = s[i];
		ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		     c == '_';
	}
	return ok;
}

/* The position at the start of *sp, cut off and read into out; *sp moves past it. */
static int read_position(const cutoff_chess_t *chess, char **sp, cutoff_chess_epd_t *out, char *err,
                         size_t errlen)
{
	char *first = skip_blanks(*sp), *end = first, *s = first;
	int nf = 0;
	while (nf < 6) {
		char *f = skip_blanks(s), *e = skip_word(f);
		if (e == f)
			break; /* the end, or a ';' where a field should be */
		if (nf == 4) {
			/* The counters: both plain numbers, else neither is a field. */
			char *f2 = skip_blanks(e), *e2 = skip_word(f2);
			if (all_digits(f, e) && all_digits(f2, e2)) {
				nf = 6;
				end = e2;
			}
			break;
		}
		nf++;
		end = s = e;
	}
	if (nf < 4)
		return epd_fail(out, CUTOFF_CHESS_EPD_FIELDS, err, errlen,
		                "expected a position of 4 fields (placement, side, castling, en "
		                "passant), found %d",
		                nf);
	*sp = *end ? end + 1 : end; /* a blank or a ';' (an empty operation) is lost */
	*end = '\0';
	out->position = first;
	out->fields = nf;
	int rc = cutoff_chess_parse_fen(chess, first, &out->state, err, errlen);
	if (rc != 0)
		out->error = CUTOFF_CHESS_EPD_FEN;
	return rc;
}

/* Operands (NUL-terminated) without the blanks around them, and without the quotes of
 * one quoted string. */
static char *trim_operands(char *s, bool *quoted)
{
	s = skip_blanks(s);
	size_t n = strlen(s);
	while (n > 0 && is_blank(s[n - 1]))
		s[--n] = '\0';
	*quoted = n >= 2 && s[0] == '"' && s[n - 1] == '"' && !memchr(s + 1, '"', n - 2);
	if (*quoted) {
		s[n - 1] = '\0';
		s++;
	}
	return s;
}

/* The operations from s to the end of the line into out->op[]. */
static int read_operations(char *s, cutoff_chess_epd_t *out, char *err, size_t errlen)
{
	out->nops = 0;
	for (;;) {
		s = skip_blanks(s);
		if (*s == ';') {
			s++;
			continue;
		}
		if (!*s)
			return 0;
		char *opcode = s, *oend = skip_word(s);
		size_t oplen = (size_t)(oend - opcode);
		if (!opcode_ok(opcode, oplen)) {
			char q[4 * EPD_SHOWN + 8];
			quote(q, sizeof(q), opcode, oplen);
			return epd_fail(out, CUTOFF_CHESS_EPD_OPCODE, err, errlen,
			                "bad opcode %s (an opcode is a letter then letters, digits "
			                "or '_')",
			                q);
		}
		/* The operands: up to the ';' outside quotes. */
		char *p = oend;
		bool in_string = false;
		for (; *p && (in_string || *p != ';'); p++) {
			if (*p == '"')
				in_string = !in_string;
		}
		int shown = (int)(oplen < EPD_SHOWN ? oplen : EPD_SHOWN);
		if (in_string)
			return epd_fail(out, CUTOFF_CHESS_EPD_QUOTE, err, errlen,
			                "%.*s: a string without its closing '\"'", shown, opcode);
		if (out->nops == CUTOFF_CHESS_EPD_MAX_OPS)
			return epd_fail(out, CUTOFF_CHESS_EPD_TOO_MANY, err, errlen,
			                "more than %d operations", CUTOFF_CHESS_EPD_MAX_OPS);
		bool more = *p == ';';
		*p = '\0';
		cutoff_chess_epd_op_t *op = &out->op[out->nops++];
		op->operands = trim_operands(oend, &op->quoted);
		*oend = '\0'; /* a blank before the operands, or the end just written */
		op->opcode = opcode;
		if (!more)
			return 0;
		s = p + 1;
	}
}

int cutoff_chess_parse_epd(const cutoff_chess_t *chess, char *line, cutoff_chess_epd_t *out,
                           char *err, size_t errlen)
{
	if (err && errlen > 0)
		err[0] = '\0';
	if (!chess || !line || !out)
		return epd_fail(out, CUTOFF_CHESS_EPD_NULL, err, errlen, "EPD: a NULL argument");
	memset(out, 0, sizeof(*out));
	char *s = line;
	int rc = read_position(chess, &s, out, err, errlen);
	if (rc == 0)
		rc = read_operations(s, out, err, errlen);
	return rc;
}
