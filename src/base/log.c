/* SPDX-License-Identifier: MIT */
/*
 * log.c — cutoff_say (log.h): a message formatted once, kept for the caller when the voice
 * keeps it, told to the log when there is one. No state of its own.
 */
#include "base/log.h"

#include <stdarg.h>
#include <stdio.h>

void cutoff_say(const cutoff_voice_t *v, cutoff_log_level_t level, const char *fmt, ...)
{
	char buf[CUTOFF_ERROR_SIZE];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (v->keep && v->size > 0)
		snprintf(v->keep, v->size, "%s", buf);
	if (v->cfg && v->cfg->log)
		v->cfg->log(v->cfg->log_user, level, buf);
}
