/* SPDX-License-Identifier: MIT */
/*
 * share.c — the rings of deep table stores a thread exports (share.h has the owners and
 * the ordering argument).
 */
#include "core/share.h"

#include <stdlib.h>
#include <string.h>

int cutoff_share_init(cutoff_share_t *sh, unsigned size)
{
	memset(sh, 0, sizeof(*sh));
	sh->buffer = calloc(size, sizeof(*sh->buffer));
	if (!sh->buffer)
		return CUTOFF_ENOMEM;
	sh->size = size;
	ck_ring_init(&sh->ring, size);
	return CUTOFF_OK;
}

void cutoff_share_destroy(cutoff_share_t *sh)
{
	free(sh->buffer);
	sh->buffer = NULL;
}

void cutoff_share_reset(cutoff_share_t *sh)
{
	ck_ring_init(&sh->ring, sh->size);
	sh->dropped = 0;
}

int cutoff_share_take(cutoff_share_t *sh, cutoff_tt_entry_t *out, int max)
{
	int n = 0;
	while (n < max && ck_ring_dequeue_spsc_cutoff_share(&sh->ring, sh->buffer, &out[n]))
		n++;
	return n;
}
