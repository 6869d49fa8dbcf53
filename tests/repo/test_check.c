/* SPDX-License-Identifier: MIT */
/*
 * test_check.c — the test helper itself (check.h): a test that ran no check fails, one
 * whose subject is missing is skipped (77), and a failure is not hidden by a skip. The
 * shell scripts' report (tests/cli/lib.bash) is checked the same way by check_helpers.sh.
 */
#include <stdbool.h>
#include <stdio.h>

#include "check.h"

int main(void)
{
	/* Nothing checked yet: the report must fail. Read before the first CHECK counts. */
	int none = check_report();
	CHECK(none == 1, "check_report() with no check ran returned %d, not 1", none);
	CHECK(check_skip("a test's subject is missing") == CHECK_SKIPPED,
	      "check_skip() without a failure does not return CHECK_SKIPPED (77)");

	/* A failure stands even if the test then skips: counted by hand, so that this test
	 * does not fail itself; check_failed is restored before the real report. */
	int saved = check_failed;
	check_failed = 1;
	int after_failure = check_skip("skipped after a failure");
	int report_failed = check_report();
	check_failed = saved;
	CHECK(after_failure == 1, "check_skip() after a failure returned %d, not 1", after_failure);
	CHECK(report_failed == 1, "check_report() with a failure returned %d", report_failed);
	return check_report();
}
