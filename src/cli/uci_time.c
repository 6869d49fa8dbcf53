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
	b->target_ms = 0;
	if (c->movetime_ms >= 0) {
		int64_t m = c->movetime_ms;
		b->hard_ms = at_least(at_least(m - c->overhead_ms, m / 2), 1);
		b->target_ms = b->hard_ms;
		return;
	}
	if (c->time_ms < 0)
		return;
	int64_t usable = at_least(c->time_ms - c->overhead_ms, 1);
	int64_t togo = c->movestogo > 0 ? at_most(c->movestogo, 50) : 30;
	int64_t reserve = 3 * c->overhead_ms;
	/* Half the increment, not all of it: the time spent is always a little more than
	 * planned (an iteration started before the soft limit runs on, the pipes and the
	 * stop take time), and the rest of the increment pays for that. Below the reserve
	 * less of it, in proportion, so that a low clock grows back. */
	int64_t inc = c->inc_ms / 2;
	if (reserve > 0 && c->time_ms < reserve)
		inc = inc * c->time_ms / reserve;
	int64_t target = at_least(at_least(c->time_ms - reserve, 0) / togo + inc - c->excess_ms, 0);
	b->target_ms = target;
	/* One move may take a large share of what is left only when it is the last before
	 * the time control. */
	int64_t ceiling = togo == 1 ? usable * 3 / 4 : usable / 3;
	b->hard_ms = at_least(at_most(target * 3, ceiling), 1);
	b->soft_ms = at_least(at_most(target / 2, b->hard_ms), 1);
}

void uci_excess_update(double *excess, int64_t cost_ms, int64_t target_ms, int64_t cap_ms)
{
	int64_t over = at_most(cost_ms - target_ms, cap_ms);
	*excess += ((double)over - *excess) / 8.0;
	/* A move that cost less than planned (a mate found, a lucky early stop) lends nothing
	 * to the next one: the excess only ever shortens a target. */
	if (*excess < 0.0)
		*excess = 0.0;
}

bool uci_time_continue(const uci_budget_t *b, double elapsed_ms, double last_ms, double before_ms)
{
	if (b->soft_ms > 0 && elapsed_ms >= (double)b->soft_ms)
		return false;
	if (b->hard_ms <= 0)
		return true;
	double growth = 2.5;
	if (before_ms >= 1.0) {
		growth = last_ms / before_ms;
		growth = growth < 1.5 ? 1.5 : growth > 4.0 ? 4.0 : growth;
	}
	return elapsed_ms + last_ms * growth <= (double)b->hard_ms;
}
