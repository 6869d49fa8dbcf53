/*
 * uci_time.c — the time budget of a `go` (see uci_time.h for the rule and its reasons).
 */
#include "uci_time.h"

static int64_t at_least(int64_t v, int64_t floor) { return v < floor ? floor : v; }
static int64_t at_most(int64_t v, int64_t ceiling) { return v > ceiling ? ceiling : v; }

void uci_budget(const uci_clock_t *c, uci_budget_t *b)
{
	b->soft_ms = 0;
	b->hard_ms = 0;
	if (c->movetime_ms >= 0) {
		b->hard_ms = at_least(c->movetime_ms - c->overhead_ms, 1);
		return;
	}
	if (c->time_ms < 0)
		return;
	int64_t usable = at_least(c->time_ms - c->overhead_ms, 1);
	int64_t togo = c->movestogo > 0 ? at_most(c->movestogo, 50) : 30;
	/* Half the increment, not all of it: the time spent is always a little more than
	 * planned (an iteration started before the soft limit runs on to the hard one, and
	 * the stop takes time), so planning less keeps the clock from draining, and what is
	 * saved is a reserve against a slow answer (a busy machine) later. */
	int64_t target = c->time_ms / togo + c->inc_ms / 2;
	/* One move may take a large share of what is left only when it is the last before
	 * the time control. */
	int64_t ceiling = togo == 1 ? usable * 3 / 4 : usable / 3;
	b->hard_ms = at_least(at_most(target * 3, ceiling), 1);
	b->soft_ms = at_least(at_most(target / 2, b->hard_ms), 1);
}
