/* SPDX-License-Identifier: MIT */
/*
 * uci/say.c — every line `cutoff uci` writes to its output (stdout), from any of its
 * threads.
 *
 * Owns nothing but the rule: a line is written whole and flushed under the session's
 * out_lock, so the lines of the main thread, the search thread and the watchdog never
 * interleave, and a GUI reads each as soon as it is decided. out_lock is recursive (see
 * uci.h), so a thread that holds it to decide what to print may still print.
 */
#include <stdarg.h>
#include <stdio.h>

#include "uci/uci.h"

void uci_say(uci_session_t *s, const char *fmt, ...)
{
	va_list ap;
	pthread_mutex_lock(&s->out_lock);
	va_start(ap, fmt);
	vfprintf(s->out, fmt, ap);
	va_end(ap);
	fputc('\n', s->out);
	fflush(s->out);
	pthread_mutex_unlock(&s->out_lock);
}

void uci_say_error(uci_session_t *s, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* The library's messages may show a bad byte of a FEN or a move as it came. */
	for (char *p = msg; *p; p++) {
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
	}
	uci_say(s, "info string error: %s", msg);
}
