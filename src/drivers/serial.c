/* SPDX-License-Identifier: MIT */
/*
 * serial.c — the serial driver: thread 0 searches alone.
 *
 * Thread 0 runs iterative deepening (iterate.c) on its own searcher; the engine's other
 * threads, if any, return at once (they only ever help clear the table). The search is
 * deterministic: the same game, configuration, limits and table give the same nodes,
 * value and move, which tests/core/test_pinned.c pins.
 */
#include "drivers/driver.h"

static void job(const cutoff_job_t *job, int index)
{
	if (index == 0)
		cutoff_iterate(job, 0, NULL, false);
}

const cutoff_driver_ops_t cutoff_driver_serial_ops = {
	.name = "serial",
	.description = "one thread searches",
	.alone = true,
	.job = job,
};
