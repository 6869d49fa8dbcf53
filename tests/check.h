/*
 * check.h — the test helper: CHECK() counts a pass or prints the failure with its place,
 * check_report() prints "N passed, N failed" and gives the exit status.
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

static inline int check_report(void)
{
	printf("%d passed, %d failed\n", check_passed, check_failed);
	fflush(stdout);
	return check_failed ? 1 : 0;
}

#endif
