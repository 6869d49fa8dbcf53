/*
 * json.c — the streaming JSON writer (contract in json.h).
 */
#include "json.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void json_init(json_writer_t *w, FILE *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

static void put_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\b':
			fputs("\\b", out);
			break;
		case '\f':
			fputs("\\f", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			/* Bytes from 0x80 up pass through: the strings are ours or the user's
			 * UTF-8 text. */
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
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

void json_begin_object(json_writer_t *w, const char *key) { begin(w, key, '{', '}'); }

void json_begin_array(json_writer_t *w, const char *key) { begin(w, key, '[', ']'); }

void json_end(json_writer_t *w)
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

void json_string(json_writer_t *w, const char *key, const char *value)
{
	if (!value_prefix(w, key))
		return;
	if (value)
		put_string(w->out, value);
	else
		fputs("null", w->out);
}

void json_int(json_writer_t *w, const char *key, int64_t value)
{
	if (value_prefix(w, key))
		fprintf(w->out, "%" PRId64, value);
}

void json_uint(json_writer_t *w, const char *key, uint64_t value)
{
	if (value_prefix(w, key))
		fprintf(w->out, "%" PRIu64, value);
}

void json_double(json_writer_t *w, const char *key, double value)
{
	if (!value_prefix(w, key))
		return;
	if (isfinite(value))
		fprintf(w->out, "%.10g", value);
	else
		fputs("null", w->out);
}

void json_bool(json_writer_t *w, const char *key, bool value)
{
	if (value_prefix(w, key))
		fputs(value ? "true" : "false", w->out);
}

void json_null(json_writer_t *w, const char *key)
{
	if (value_prefix(w, key))
		fputs("null", w->out);
}

int json_finish(json_writer_t *w)
{
	if (w->broken || w->depth != 0 || !w->done)
		return -1;
	fputc('\n', w->out);
	return ferror(w->out) ? -1 : 0;
}
