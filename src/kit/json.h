/* SPDX-License-Identifier: MIT */
/*
 * json.h — a tiny streaming JSON writer for the `--json` output of the subcommands.
 *
 * Values are written as they come, with the commas and the escaping done here; nothing is
 * buffered beyond the FILE. Inside an object every value takes a key; inside an array the
 * key must be NULL. Misuse (a missing or unexpected key, an end without a begin, nesting
 * deeper than JSON_MAX_DEPTH) writes nothing more and makes jw_finish() fail, so a
 * broken document is reported instead of printed as if whole.
 *
 * Strings (keys and values) may hold any bytes: the document is always valid UTF-8 and
 * valid JSON. Well-formed UTF-8 is written as it is, each broken sequence (a byte such as
 * 0xff, a truncated or overlong sequence, a surrogate) as one U+FFFD, and control bytes
 * (DEL too) as escapes. An engine's name in `cutoff match --json` is whatever bytes the
 * engine sent.
 *
 * The functions are jw_* ("JSON writer"), not json_*: the names jansson exports
 * (json_string, json_integer, ...) stay free for a program that links both.
 *
 * Usage:
 *     json_writer_t w;
 *     jw_init(&w, stdout);
 *     jw_begin_object(&w, NULL);
 *     jw_string(&w, "game", "ttt");
 *     jw_begin_array(&w, "pv"); jw_uint(&w, NULL, 4); jw_end(&w);
 *     jw_end(&w);
 *     if (jw_finish(&w) < 0) ...
 */
#ifndef CUTOFF_KIT_JSON_H
#define CUTOFF_KIT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum {
	JSON_MAX_DEPTH = 16
};

typedef struct json_writer {
	FILE *out;
	int depth;                   /* open objects and arrays */
	char closer[JSON_MAX_DEPTH]; /* '}' or ']' for each open level */
	bool empty[JSON_MAX_DEPTH];  /* nothing written yet at that level: no comma due */
	bool broken;                 /* misused: see above */
	bool done;                   /* a top-level value is complete */
} json_writer_t;

void jw_init(json_writer_t *w, FILE *out);

void jw_begin_object(json_writer_t *w, const char *key);
void jw_begin_array(json_writer_t *w, const char *key);
/* Closes the innermost open object or array. */
void jw_end(json_writer_t *w);

/* A NULL string is written as null; any other is made valid (above). */
void jw_string(json_writer_t *w, const char *key, const char *value);
void jw_int(json_writer_t *w, const char *key, int64_t value);
void jw_uint(json_writer_t *w, const char *key, uint64_t value);
/* Up to 10 significant digits; NaN and infinities (which JSON lacks) are written as null. */
void jw_double(json_writer_t *w, const char *key, double value);
void jw_bool(json_writer_t *w, const char *key, bool value);
void jw_null(json_writer_t *w, const char *key);

/* The character at s (s[0] not the terminator) in well-formed UTF-8 (RFC 3629: no
 * overlong form, no surrogate, nothing above U+10FFFF): its length, 1 to 4; or minus the
 * length of the broken sequence there (the longest start of a well-formed one, at least
 * one byte), which a writer replaces with one U+FFFD, as Unicode recommends. For any
 * writer of text that must be UTF-8 (the PGN of `cutoff match` too). */
int json_utf8_char(const char *s);

/* Ends the document with a newline. Returns 0, or -1 when the writer was misused, the
 * document is incomplete, or the stream reports an error. */
int jw_finish(json_writer_t *w);

#endif /* CUTOFF_KIT_JSON_H */
