/* SPDX-License-Identifier: MIT */
/*
 * common.c — the few things every file of `cutoff bench` uses: the workloads' and
 * engines' names as every output writes them, the progress line on stderr, the record of
 * the lab's errors (bench_fail: values, printed by the command), the build in words and
 * a ratio that is NAN when it cannot be had. It calls no other file of the
 * module (common.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/args.h"
#include "kit/ranks.h"
#include "lab/common.h"

const char *const bench_workload_names[] = { "chess", "connect4", "rtree", NULL };

const char *bench_workload_words(char *buf, size_t size)
{
	return cli_join_words(bench_workload_names, " and ", buf, size);
}

const char *bench_engine_name(bool stockfish, int driver)
{
	static const char *const cluster[BENCH_MAX_RANKS + 1] = {
		"cluster/0",  "cluster/1",  "cluster/2",  "cluster/3",  "cluster/4",  "cluster/5",
		"cluster/6",  "cluster/7",  "cluster/8",  "cluster/9",  "cluster/10", "cluster/11",
		"cluster/12", "cluster/13", "cluster/14", "cluster/15", "cluster/16", "cluster/17",
		"cluster/18", "cluster/19", "cluster/20", "cluster/21", "cluster/22", "cluster/23",
		"cluster/24", "cluster/25", "cluster/26", "cluster/27", "cluster/28", "cluster/29",
		"cluster/30", "cluster/31", "cluster/32"
	};
	if (!stockfish && bench_is_cluster(driver))
		return driver - BENCH_CLUSTER_ROW <= BENCH_MAX_RANKS
		               ? cluster[driver - BENCH_CLUSTER_ROW]
		               : "cluster";
	return stockfish ? "stockfish" : cli_driver_name((cutoff_driver_t)driver);
}

void bench_progress(bench_t *b, const char *fmt, ...)
{
	if (!b->set.progress)
		return;
	va_list ap;
	fprintf(stderr, "%scutoff %s: ", b->set.progress_tty ? "\r\033[K" : "", b->cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (!b->set.progress_tty)
		fputc('\n', stderr);
	fflush(stderr);
}

void bench_fail(bench_error_t *e, const char *fmt, ...)
{
	if (e->len >= sizeof(e->text))
		return;
	char *at = e->text + e->len;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(at, sizeof(e->text) - e->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		*at = '\0';
	e->len += strlen(at) + 1;
}

void bench_fail_code(bench_error_t *e, const char *what, int code, const cli_log_t *log)
{
	if (log && log->last[0])
		bench_fail(e, "%s: %s (%s)", what, cutoff_strerror(code), log->last);
	else
		bench_fail(e, "%s: %s", what, cutoff_strerror(code));
}

const char *bench_error_next(const bench_error_t *e, const char *prev)
{
	const char *next = prev ? prev + strlen(prev) + 1 : e->text;
	return next < e->text + e->len ? next : NULL;
}

void bench_error_flush(bench_error_t *e, const char *cmd)
{
	for (const char *m = NULL; e->print && (m = bench_error_next(e, m));)
		e->print(cmd, m);
	e->len = 0;
}

void bench_error_append(bench_error_t *e, const bench_error_t *from)
{
	for (const char *m = NULL; (m = bench_error_next(from, m));)
		bench_fail(e, "%s", m);
}

void bench_abort_cluster(bench_t *b, int status)
{
	bench_error_flush(b->err, b->cmd);
	cli_cluster_abort(b->mpi.cluster, status);
}

double bench_ratio(double a, double b) { return b > 0 && !isnan(a) && !isnan(b) ? a / b : NAN; }

void bench_build_text(char *buf, size_t size)
{
	snprintf(buf, size, "cutoff %s, %s, %s%s%s", cutoff_version(),
#ifdef __VERSION__
	         "cc " __VERSION__,
#else
	         "cc (unknown)",
#endif
#ifdef __OPTIMIZE__
	         "optimised",
#else
	         "not optimised",
#endif
#ifdef NDEBUG
	         ", asserts off",
#else
	         ", asserts on",
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	         ", SANITIZED (times mean nothing)"
#else
	         ""
#endif
	);
}

/* True when fmt holds exactly one conversion and it takes a double. */
static bool one_double_conversion(const char *fmt)
{
	int conversions = 0;
	for (const char *p = fmt; *p; p++) {
		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		p++;
		p += strspn(p, "-+ #0");
		p += strspn(p, "0123456789");
		if (*p == '.') {
			p++;
			p += strspn(p, "0123456789");
		}
		if (!*p || !strchr("fFeEgG", *p))
			return false;
		conversions++;
	}
	return conversions == 1;
}

const char *bench_format_double(char *buf, size_t size, const char *fmt, double v)
{
	if (!one_double_conversion(fmt)) {
		snprintf(buf, size, "?");
		return buf;
	}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(buf, size, fmt, v); /* checked above: one conversion, of a double */
#pragma GCC diagnostic pop
	return buf;
}

bool bench_quality_sum(const bench_results_t *res, int driver, int threads,
                       bench_quality_sum_t *out)
{
	memset(out, 0, sizeof(*out));
	double sq = 0;
	for (int i = 0; i < res->nquality; i++) {
		const bench_quality_t *q = &res->quality[i];
		if (q->driver != driver || q->threads != threads)
			continue;
		out->n++;
		out->agree += q->agree;
		out->refs +=
			res->suite.n ? 1 : res->work[BENCH_CHESS].items[q->item].ref_move[0] != 0;
		out->bounds += q->loss_bound;
		out->loss += q->loss;
		sq += (double)q->loss * q->loss;
		out->depth += q->depth;
		out->nodes += (double)q->nodes;
	}
	if (out->n == 0)
		return false;
	int n = out->n;
	if (out->refs > 0)
		bench_wilson95(out->agree, out->refs, &out->agree_lo, &out->agree_hi);
	out->loss /= n;
	out->loss_half =
		n > 1 ? 1.959964 * sqrt(fmax(0, sq - n * out->loss * out->loss) / (n - 1) / n)
		      : NAN;
	out->depth /= n;
	out->nodes /= n;
	return true;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
	int m = 0;
	for (int i = 0; i < n; i++) {
		if (!isnan(v[i]))
			v[m++] = v[i];
	}
	if (m == 0)
		return NAN;
	qsort(v, (size_t)m, sizeof(*v), cmp_double);
	return m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
}
