/* SPDX-License-Identifier: MIT */
/*
 * check.h — the test helper: CHECK() counts a pass or prints the failure with its place,
 * check_report() prints "N passed, N failed" and gives the exit status.
 *
 * A test that ran no check fails: "0 passed, 0 failed" says nothing was tested, and a
 * test that returns early by mistake must not pass. A test whose whole subject is missing
 * (a data set outside the repository, say) says so with check_skip(), which CTest counts
 * as skipped (SKIP_RETURN_CODE, tests/CMakeLists.txt), not as passed.
 */
#ifndef CUTOFF_CHECK_H
#define CUTOFF_CHECK_H

#include <stdio.h>

static int check_passed, check_failed;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (cond) {                                                                        \
			check_passed++;                                                            \
		} else {                                                                           \
			check_failed++;                                                            \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);                                \
			printf(__VA_ARGS__);                                                       \
			printf("\n");                                                              \
		}                                                                                  \
	} while (0)

/* The exit status of a test that was skipped (CTest's SKIP_RETURN_CODE; Automake's too). */
#define CHECK_SKIPPED 77

/* "N passed, N failed"; 0 when every check passed, 1 when one failed or none ran. */
static inline int check_report(void)
{
	printf("%d passed, %d failed\n", check_passed, check_failed);
	if (check_passed + check_failed == 0)
		printf("FAIL: no check ran (a test that has nothing to check calls check_skip)\n");
	fflush(stdout);
	return check_failed || check_passed == 0 ? 1 : 0;
}

/* "skipped: WHY" and the status that CTest counts as skipped, unless a check has failed
 * already (then the failure stands). For a test whose subject is missing altogether;
 * `return check_skip("data not found (...)");` from main. */
static inline int check_skip(const char *why)
{
	if (check_failed)
		return check_report();
	printf("skipped: %s (%d checks passed before)\n", why, check_passed);
	fflush(stdout);
	return CHECK_SKIPPED;
}

#endif
