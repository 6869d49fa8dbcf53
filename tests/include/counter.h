/* SPDX-License-Identifier: MIT */
/*
 * counter.h — COUNTER(c, "name"): a counter of a cutoff_counters_t read by its name through
 * the library's list (cutoff_counter_find), as a front end reads it. For the drivers'
 * counters, which are not fields of the struct; 0 for a name the list does not have (the
 * test that reads it then fails on its value; test_counters checks the names).
 */
#ifndef CUTOFF_TEST_COUNTER_H
#define CUTOFF_TEST_COUNTER_H

#include "cutoff.h"

static inline uint64_t counter_named(const cutoff_counters_t *c, const char *name)
{
	return cutoff_counter_value(c, cutoff_counter_find(name));
}
#define COUNTER(c, name) counter_named((c), (name))

#endif
