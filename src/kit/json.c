/* SPDX-License-Identifier: MIT */
/*
 * json.c — the streaming JSON writer (contract in json.h).
 */
#include "kit/json.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void jw_init(json_writer_t *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

int json_utf8_char(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	/* The second byte's range is narrower after E0 (no overlong form), ED (no surrogate),
	 * F0 (no overlong form) and F4 (nothing above U+10FFFF); the others take 80..BF. */
	unsigned lo = 0x80, hi = 0xbf;
	int n;
	if (p[0] < 0x80)
		return 1;
	if (p[0] < 0xc2)
		return -1; /* a continuation byte, or the start of an overlong form */
	if (p[0] < 0xe0) {
		n = 2;
	} else if (p[0] < 0xf0) {
		n = 3;
		lo = p[0] == 0xe0 ? 0xa0 : lo;
		hi = p[0] == 0xed ? 0x9f : hi;
	} else if (p[0] < 0xf5) {
		n = 4;
		lo = p[0] == 0xf0 ? 0x90 : lo;
		hi = p[0] == 0xf4 ? 0x8f : hi;
	} else {
		return -1;
	}
	/* The terminator is outside every range: a sequence cut by the end stops there. */
	for (int i = 1; i < n; i++, lo = 0x80, hi = 0xbf) {
		if (p[i] < lo || p[i] > hi)
			return -i;
	}
	return n;
}

/* The escape of an ASCII byte inside a JSON string, or NULL when it stands for itself. */
static const char *ascii_escape(unsigned char c, char buf[8])
{
	switch (c) {
	case '"':
		return "\\\"";
	case '\\':
		return "\\\\";
	case '\b':
		return "\\b";
	case '\f':
		return "\\f";
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\t':
		return "\\t";
	default:
		if (c >= 0x20 && c != 0x7f)
			return NULL;
		snprintf(buf, 8, "\\u%04x", c);
		return buf;
	}
}

/* Writes `s` as a JSON string. The strings come from the user, from files and from the
 * engines of `cutoff match` (an engine's name is whatever bytes it sent), so they are
 * made valid here: well-formed UTF-8 passes through, each broken sequence becomes one
 * U+FFFD (json_utf8_char), and control bytes (DEL too) are escaped. */
static void put_string(FILE *out, const char *s)
{
	char buf[8];
	fputc('"', out);
	for (const char *p = s; *p;) {
		int n = json_utf8_char(p);
		const char *esc = n == 1 ? ascii_escape((unsigned char)*p, buf) : NULL;
		if (esc)
			fputs(esc, out);
		else if (n > 0)
			fwrite(p, 1, (size_t)n, out);
		else
			fputs("\xef\xbf\xbd", out); /* U+FFFD */
		p += n > 0 ? n : -n;
	}
	fputc('"', out);
}

/* Writes the comma and the key that go before a value; false (and broken) when a value is
 * not allowed here. */
static bool value_prefix(json_writer_t *w, const char *key)
{
	if (w->broken)
		return false;
	bool in_object = w->depth > 0 && w->closer[w->depth - 1] == '}';
	if (w->depth == 0 ? (w->done || key != NULL) : in_object != (key != NULL)) {
		w->broken = true;
		return false;
	}
	if (w->depth > 0) {
		if (!w->empty[w->depth - 1])
			fputc(',', w->out);
		w->empty[w->depth - 1] = false;
	}
	if (key) {
		put_string(w->out, key);
		fputc(':', w->out);
	}
	if (w->depth == 0)
		w->done = true;
	return true;
}

static void begin(json_writer_t *w, const char *key, char open, char close)
{
	if (w->depth >= JSON_MAX_DEPTH) {
		w->broken = true;
		return;
	}
	if (!value_prefix(w, key))
		return;
	fputc(open, w->out);
	w->closer[w->depth] = close;
	w->empty[w->depth] = true;
	w->depth++;
}

void jw_begin_object(json_writer_t *w, const char *key) { begin(w, key, '{', '}'); }

void jw_begin_array(json_writer_t *w, const char *key) { begin(w, key, '[', ']'); }

void jw_end(json_writer_t *w)
{
	if (w->broken)
		return;
	if (w->depth == 0) {
		w->broken = true;
		return;
	}
	w->depth--;
	fputc(w->closer[w->depth], w->out);
}

void jw_string(json_writer_t *w, const char *key, const char *value)
{
	if (!value_prefix(w, key))
		return;
	if (value)
		put_string(w->out, value);
	else
		fputs("null", w->out);
}

void jw_int(json_writer_t *w, const char *key, int64_t value)
{
	if (value_prefix(w, key))
		fprintf(w->out, "%" PRId64, value);
}

void jw_uint(json_writer_t *w, const char *key, uint64_t value)
{
	if (value_prefix(w, key))
		fprintf(w->out, "%" PRIu64, value);
}

void jw_double(json_writer_t *w, const char *key, double value)
{
	if (!value_prefix(w, key))
		return;
	if (isfinite(value))
		fprintf(w->out, "%.10g", value);
	else
		fputs("null", w->out);
}

void jw_bool(json_writer_t *w, const char *key, bool value)
{
	if (value_prefix(w, key))
		fputs(value ? "true" : "false", w->out);
}

void jw_null(json_writer_t *w, const char *key)
{
	if (value_prefix(w, key))
		fputs("null", w->out);
}

int jw_finish(json_writer_t *w)
{
	if (w->broken || w->depth != 0 || !w->done)
		return -1;
	fputc('\n', w->out);
	return ferror(w->out) ? -1 : 0;
}
