/* SPDX-License-Identifier: MIT */
/*
 * ceiling.c — the machine's ceilings as `cutoff bench` reports them: every figure of
 * the probes (probe.c) as one list of series, described once and walked by the text
 * header, results.json and ceilings.csv; and the rule that gives each workload the
 * ceiling that applies to it, against which each speed-up is also given.
 *
 * A series is one probe at one table size, thread count or CPU, measured before every
 * repeat; each writer gives its median and min..max over the repeats (NAN left out: a
 * thread that could not be made, a CPU that could not be bound), and JSON and CSV also
 * each repeat's value.
 *
 * The applicable ceiling. A node of the serial search spends part of its time on the
 * table's reads and writes and the rest computing; at n threads each part runs as fast as
 * its probe let it, so the node rate can scale at most by the mix
 *
 *     ceiling(n) = 1 / (m_c / C(n) + m_r / R(n) + m_w / W(n)),   m_c = 1 - m_r - m_w
 *
 * with C, R, W the compute, read and write scalings at n threads (medians over the repeats,
 * at the workload's table size) and the shares, per workload, from its serial run at one
 * thread (the baseline row's run of median time):
 *
 *     m_r = tt_probes per node * one thread's time per random load / time per node
 *     m_w = tt_stores per node * one thread's time per random read-modify-write / same
 *
 * Why these costs: one thread's time per access of the read and write probes is the
 * least an access to an array of the table's size can cost here (the probe's accesses are
 * independent, so the processor overlaps their misses; a search's usually waits for its
 * entry, and the per-CPU latency above says how long that can be). The least cost gives the
 * least memory share, and so, where memory scales worse than computing (W < C, the case
 * that matters), the highest mix: the ceiling stays an upper bound, a scaling above it is
 * not the search's doing. (Shares summing above 1 are scaled to 1.) The ceiling is named by
 * the part that loses the most against n: the largest m_i * (1 / S_i - 1 / n) of the three
 * ("compute" on a host that lends less than n CPUs, "writes" when the shared writes are
 * what holds the mix below n). Each speed-up is also given over the ceiling at its thread
 * count; n/a at one thread (nothing to share), for Stockfish (its table's probes and stores
 * are not counted) and where a probe failed.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kit/args.h"
#include "kit/json.h"
#include "lab/ceiling.h"
#include "lab/common.h"
#include "lab/probe.h"

/* The kinds of series, in the order every writer gives them. */
typedef enum probe_kind {
	PROBE_COMPUTE,
	PROBE_READS,
	PROBE_WRITES,
	PROBE_READ_NS,
	PROBE_WRITE_NS,
	PROBE_LATENCY,
	PROBE_TIME,
	PROBE_NKINDS
} probe_kind_t;

typedef struct probe_desc {
	const char *key;   /* JSON "probe" and the CSV column */
	const char *unit;  /* "scaling", "ns", "s" */
	const char *label; /* the text header's label; %.0f: the threads or the CPU */
	const char *fmt;   /* a value in the text header */
	const char *help;  /* the text header's words after the values */
} probe_desc_t;

static const probe_desc_t PROBES[PROBE_NKINDS] = {
	[PROBE_COMPUTE] = { "compute", "scaling", "ceiling at %.0f threads", "%.2f",
	                    "the speed-up of a multiply loop here, before each repeat" },
	[PROBE_READS] = { "reads", "scaling", "reads at %.0f threads", "%.2f",
	                  "random 8-byte loads from one array shared by the threads" },
	[PROBE_WRITES] = { "writes", "scaling", "writes at %.0f threads", "%.2f",
	                   "random 8-byte read-modify-writes into one shared array" },
	[PROBE_READ_NS] = { "read_ns", "ns", "read, 1 thread", "%.1f ns",
	                    "one thread's time per random load" },
	[PROBE_WRITE_NS] = { "write_ns", "ns", "write, 1 thread", "%.1f ns",
	                     "one thread's time per random read-modify-write" },
	[PROBE_LATENCY] = { "latency_ns", "ns", "latency on CPU %.0f", "%.1f ns",
	                    "a dependent random load, pinned there" },
	[PROBE_TIME] = { "probe_s", "s", "probes", "%.2f s",
	                 "the time all the probes took before each repeat" },
};

typedef struct probe_series {
	probe_kind_t kind;
	size_t table_mb, probe_mb; /* 0: not a memory probe */
	int threads;               /* 0: not per thread count */
	int cpu;                   /* -1: not per CPU */
	const double *v;           /* v[r * stride] for repeat r (from 0) */
	int stride;
} probe_series_t;

/* Every series of the run, into s[] (room for nseries_max()); returns how many. */
static int probe_series(const bench_t *b, probe_series_t *s)
{
	int n = 0, R = b->set.repeat;
	for (int kind = 0; kind < PROBE_NKINDS; kind++) {
		if (kind == PROBE_COMPUTE)
			for (int c = 0; c < b->set.ncounts; c++)
				if (b->set.counts[c] > 1)
					s[n++] = (probe_series_t){
						PROBE_COMPUTE,           0, 0, b->set.counts[c], -1,
						b->mach.ceiling + c * R, 1
					};
		if (kind == PROBE_TIME)
			s[n++] = (probe_series_t){ PROBE_TIME, 0, 0, 0, -1, b->mach.probe_s, 1 };
		if (kind == PROBE_COMPUTE || kind == PROBE_TIME)
			continue;
		/* Memory: grouped by thread count or CPU, then by size, as the header's lines. */
		int keys = kind == PROBE_LATENCY  ? b->mach.ncpus
		           : kind <= PROBE_WRITES ? b->set.ncounts
		                                  : 1;
		for (int k = 0; k < keys; k++) {
			if (kind <= PROBE_WRITES && b->set.counts[k] < 2)
				continue;
			for (int i = 0; i < b->mach.nmem; i++) {
				const bench_mem_t *m = &b->mach.mem[i];
				probe_series_t x = {
					(probe_kind_t)kind, m->table_mb, m->probe_mb, 0, -1, NULL, 1
				};
				if (kind == PROBE_READS || kind == PROBE_WRITES) {
					x.threads = b->set.counts[k];
					x.v = (kind == PROBE_READS ? m->read : m->write) + k * R;
				} else if (kind == PROBE_LATENCY) {
					x.cpu = b->mach.cpus[k];
					x.v = m->latency + k * R;
				} else {
					x.threads = 1;
					x.v = kind == PROBE_READ_NS ? m->read_ns : m->write_ns;
				}
				s[n++] = x;
			}
		}
	}
	return n;
}

static int nseries_max(const bench_t *b)
{
	return b->set.ncounts * (1 + 2 * b->mach.nmem) + b->mach.nmem * (2 + b->mach.ncpus) + 1;
}

/* The series of the run, allocated (the caller frees), or NULL. */
static probe_series_t *series_of(const bench_t *b, int *n)
{
	probe_series_t *s = malloc((size_t)nseries_max(b) * sizeof(*s));
	*n = s && b->mach.ceiling ? probe_series(b, s) : 0;
	return s;
}

static bool same_line(const probe_series_t *a, const probe_series_t *b)
{
	return a->kind == b->kind && a->threads == b->threads && a->cpu == b->cpu;
}

/* Appends one series' "2.04 (1.98..2.05) at 4 MiB" to text (the unit given once:
 * "16.2 ns (15.1..17.0 ns)"); "n/a" when it has no value. */
static size_t append_series(const bench_t *b, const probe_series_t *s, char *text, size_t size,
                            size_t used)
{
	const probe_desc_t *d = &PROBES[s->kind];
	double med, lo, hi;
	char v[3][32];
	if (used >= size)
		return used;
	if (!bench_spread(s->v, b->set.repeat, s->stride, &med, &lo, &hi)) {
		used += (size_t)snprintf(text + used, size - used, "%sn/a", used ? ", " : "");
	} else {
		bench_format_double(v[0], sizeof(v[0]), d->fmt, med);
		bench_format_double(v[1], sizeof(v[1]), d->fmt, lo);
		bench_format_double(v[2], sizeof(v[2]), d->fmt, hi);
		v[1][strcspn(v[1], " ")] = '\0';
		used += (size_t)snprintf(text + used, size - used, "%s%s (%s..%s)",
		                         used ? ", " : "", v[0], v[1], v[2]);
	}
	if (s->table_mb && used < size)
		used += (size_t)snprintf(
			text + used, size - used, " at %zu MiB%s", s->table_mb,
			s->probe_mb != s->table_mb ? " (probed at its first 1024 MiB)" : "");
	return used;
}

void bench_ceiling_print(const bench_t *b, FILE *out)
{
	int n;
	probe_series_t *s = series_of(b, &n);
	if (!s)
		return;
	for (int i = 0, j; i < n; i = j) {
		const probe_desc_t *d = &PROBES[s[i].kind];
		char label[40], text[1024] = "";
		size_t used = 0;
		if (strchr(d->label, '%'))
			bench_format_double(label, sizeof(label), d->label,
			                    s[i].cpu >= 0 ? s[i].cpu : s[i].threads);
		else
			snprintf(label, sizeof(label), "%s", d->label);
		for (j = i; j < n && same_line(&s[i], &s[j]); j++)
			used = append_series(b, &s[j], text, sizeof(text), used);
		cli_field(out, label, "%s%s %s", text, s[i].kind == PROBE_COMPUTE ? ":" : ";",
		          d->help);
	}
	free(s);
}

void bench_ceiling_json(const bench_t *b, json_writer_t *j)
{
	int n;
	probe_series_t *s = series_of(b, &n);
	jw_begin_array(j, "probes");
	for (int i = 0; s && i < n; i++) {
		double med = NAN, lo = NAN, hi = NAN;
		bench_spread(s[i].v, b->set.repeat, s[i].stride, &med, &lo, &hi);
		jw_begin_object(j, NULL);
		jw_string(j, "probe", PROBES[s[i].kind].key);
		jw_string(j, "unit", PROBES[s[i].kind].unit);
		if (s[i].table_mb) {
			jw_uint(j, "table_mb", s[i].table_mb);
			jw_uint(j, "probe_mb", s[i].probe_mb);
		}
		if (s[i].threads)
			jw_int(j, "threads", s[i].threads);
		if (s[i].cpu >= 0)
			jw_int(j, "cpu", s[i].cpu);
		jw_double(j, "median", med);
		jw_double(j, "min", lo);
		jw_double(j, "max", hi);
		jw_begin_array(j, "per_repeat");
		for (int r = 0; r < b->set.repeat; r++)
			jw_double(j, NULL, s[i].v[r * s[i].stride]);
		jw_end(j);
		jw_end(j);
	}
	jw_end(j);
	free(s);
}

static void csv_value(FILE *f, const char *sep, double v)
{
	if (isnan(v))
		fprintf(f, "%sn/a", sep);
	else
		fprintf(f, "%s%.6g", sep, v);
}

bool bench_ceiling_csv(const bench_t *b, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	int n;
	probe_series_t *s = series_of(b, &n);
	fputs("probe,unit,table_mb,probe_mb,threads,cpu,median,min,max,per_repeat,hog\n", f);
	for (int i = 0; s && i < n; i++) {
		double med = NAN, lo = NAN, hi = NAN;
		bench_spread(s[i].v, b->set.repeat, s[i].stride, &med, &lo, &hi);
		fprintf(f, "%s,%s", PROBES[s[i].kind].key, PROBES[s[i].kind].unit);
		if (s[i].table_mb)
			fprintf(f, ",%zu,%zu", s[i].table_mb, s[i].probe_mb);
		else
			fputs(",n/a,n/a", f);
		if (s[i].threads)
			fprintf(f, ",%d", s[i].threads);
		else
			fputs(",n/a", f);
		if (s[i].cpu >= 0)
			fprintf(f, ",%d", s[i].cpu);
		else
			fputs(",n/a", f);
		csv_value(f, ",", med);
		csv_value(f, ",", lo);
		csv_value(f, ",", hi);
		for (int r = 0; r < b->set.repeat; r++)
			csv_value(f, r ? ";" : ",", s[i].v[r * s[i].stride]);
		fprintf(f, ",%d\n", b->set.hog);
	}
	free(s);
	return fclose(f) == 0 && s;
}

static const char *const bound_names[] = { "compute", "reads", "writes" };

const char *bench_bound_name(int bound)
{
	return bound >= 0 && bound < 3 ? bound_names[bound] : NULL;
}

/* The median of a per-repeat series; NAN when none. */
static double med_of(const double *v, int repeat)
{
	double med, lo, hi;
	return bench_spread(v, repeat, 1, &med, &lo, &hi) ? med : NAN;
}

/* The shares of a serial node's time of workload wk (see the top), from its baseline row. */
static void derive_shares(bench_t *b, int wk)
{
	bench_workload_t *w = &b->res.work[wk];
	const bench_mem_t *m = bench_mem_of(b, wk);
	w->share_reads = w->share_writes = NAN;
	w->probes_per_node = w->stores_per_node = w->node_ns = NAN;
	for (int i = 0; i < b->res.nrows; i++) {
		const bench_row_t *r = &b->res.rows[i];
		if (r->workload != wk || r->stockfish || r->driver != b->set.base ||
		    r->threads != 1)
			continue;
		const bench_run_t *run = &b->res.runs[r->median_run];
		double nodes = (double)run->counters.nodes;
		if (nodes <= 0 || run->time_s <= 0)
			return;
		w->probes_per_node = (double)run->counters.tt_probes / nodes;
		w->stores_per_node = (double)run->counters.tt_stores / nodes;
		w->node_ns = run->time_s * 1e9 / nodes;
	}
	if (isnan(w->node_ns))
		return;
	if (!m) { /* no table: nothing to share */
		w->share_reads = w->share_writes = 0;
		return;
	}
	double mr = w->probes_per_node * med_of(m->read_ns, b->set.repeat) / w->node_ns;
	double mw = w->stores_per_node * med_of(m->write_ns, b->set.repeat) / w->node_ns;
	double sum = mr + mw;
	w->share_reads = sum > 1 ? mr / sum : mr;
	w->share_writes = sum > 1 ? mw / sum : mw;
}

/* The ceiling of workload wk at counts[c], and its bound, into *ceiling and *bound. */
static void ceiling_at(const bench_t *b, int wk, int c, double *ceiling, int *bound)
{
	const bench_workload_t *w = &b->res.work[wk];
	const bench_mem_t *m = bench_mem_of(b, wk);
	int n = b->set.counts[c], R = b->set.repeat;
	double share[3] = { 1 - w->share_reads - w->share_writes, w->share_reads, w->share_writes };
	double s[3] = { med_of(b->mach.ceiling + c * R, R), m ? med_of(m->read + c * R, R) : 1,
		        m ? med_of(m->write + c * R, R) : 1 };
	/* A memory part scales at most as the compute part does: its accesses run on the
	 * CPUs the host lends. A probe above that (reads read 3 to 5 at 2 threads in some
	 * runs: the one-thread time lands on either vCPU, whose memory latencies can differ)
	 * would lift the mix above the compute ceiling, which no search reaches. */
	for (int k = 1; k < 3; k++)
		if (s[k] > s[0])
			s[k] = s[0];
	double t = 0, worst = -1;
	*ceiling = NAN;
	*bound = -1;
	for (int k = 0; k < 3; k++) {
		if (share[k] == 0)
			continue;
		if (isnan(share[k]) || isnan(s[k]) || s[k] <= 0)
			return;
		t += share[k] / s[k];
		double loss = share[k] * (1 / s[k] - 1.0 / n);
		if (loss > worst) {
			worst = loss;
			*bound = k;
		}
	}
	*ceiling = t > 0 ? 1 / t : NAN;
}

void bench_ceiling_derive(bench_t *b)
{
	for (int wk = 0; wk < BENCH_NWORKLOADS; wk++)
		if (b->set.workloads[wk])
			derive_shares(b, wk);
	for (int i = 0; i < b->res.nrows; i++) {
		bench_row_t *r = &b->res.rows[i];
		r->ceiling = r->of_ceiling = NAN;
		r->ceiling_bound = -1;
		int c = 0;
		while (c < b->set.ncounts && b->set.counts[c] != r->threads)
			c++;
		/* Not for the cluster's rows: the ceiling is one process's, of one table. */
		if (r->stockfish || bench_is_cluster(r->driver) || r->threads < 2 ||
		    c == b->set.ncounts)
			continue;
		ceiling_at(b, r->workload, c, &r->ceiling, &r->ceiling_bound);
		r->of_ceiling = r->ceiling > 0 ? r->speedup / r->ceiling : NAN;
	}
}

/* Under a workload's table: its shares, and the ceiling at each thread count. */
void bench_ceiling_print_workload(const bench_t *b, int wk, FILE *out)
{
	const bench_workload_t *w = &b->res.work[wk];
	const bench_mem_t *m = bench_mem_of(b, wk);
	if (isnan(w->node_ns) || isnan(w->share_reads))
		return;
	fprintf(out,
	        "\n   ceiling that applies ('of ceil' is the speed-up over it): a serial node "
	        "here takes %.0f ns,\n   with %.2f table probes and %.2f stores",
	        w->node_ns, w->probes_per_node, w->stores_per_node);
	if (m)
		fprintf(out, " at %.1f ns a read and %.1f ns a write (%zu MiB, 1 thread)",
		        med_of(m->read_ns, b->set.repeat), med_of(m->write_ns, b->set.repeat),
		        m->table_mb);
	else
		fputs(" (no table)", out);
	fprintf(out, ":\n   %.1f %% of its time computes, %.1f %% reads, %.1f %% writes; mixed so:",
	        100 * (1 - w->share_reads - w->share_writes), 100 * w->share_reads,
	        100 * w->share_writes);
	for (int c = 0, first = 1; c < b->set.ncounts; c++) {
		double ceiling;
		int bound;
		if (b->set.counts[c] < 2)
			continue;
		ceiling_at(b, wk, c, &ceiling, &bound);
		fprintf(out, "%s %d threads ", first ? "" : ",", b->set.counts[c]);
		if (isnan(ceiling))
			fputs("n/a", out);
		else
			fprintf(out, "%.2f (bound by %s)", ceiling, bound_names[bound]);
		first = 0;
	}
	fputc('\n', out);
}
