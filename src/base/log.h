/* SPDX-License-Identifier: MIT */
/*
 * log.h — the library's one door for messages (internal): cutoff_say.
 *
 * Every message the library gives goes through here. A voice says where it goes: to the
 * log callback of `cfg` (when it has one), and, for a message that tells why a call failed,
 * into `keep` too (the engine's error buffer, cutoff_engine_error; or cutoff_config_check's
 * caller's), cut to `size` and NUL-terminated. A note that fails nothing (a placement
 * refused) has no `keep`. A message is at most CUTOFF_ERROR_SIZE - 1 bytes.
 *
 * Below the driver registry and the engine alike (it needs nothing but the public header),
 * so that neither calls back up into the other to speak. The library never prints: the
 * caller's callback decides what becomes of a message.
 */
#ifndef CUTOFF_LOG_H
#define CUTOFF_LOG_H

#include <stddef.h>

#include "cutoff.h"

typedef struct cutoff_voice {
	const cutoff_config_t *cfg; /* whose log hears it, or NULL: no log */
	char *keep;                 /* where a failure's message is kept, or NULL */
	size_t size;                /* of keep */
} cutoff_voice_t;

void cutoff_say(const cutoff_voice_t *v, cutoff_log_level_t level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* CUTOFF_LOG_H */
