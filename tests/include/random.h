/* SPDX-License-Identifier: MIT */
/*
 * random.h — the tests' random numbers: splitmix64 (Steele, Lea and Flood, "Fast
 * splittable pseudorandom number generators", 2014), one state per caller, so that every
 * test draws the same sequence on every run and machine.
 */
#ifndef CUTOFF_TEST_RANDOM_H
#define CUTOFF_TEST_RANDOM_H

#include <stdint.h>

static inline uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

#endif /* CUTOFF_TEST_RANDOM_H */
