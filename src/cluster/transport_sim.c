/* SPDX-License-Identifier: MIT */
/*
 * transport_sim.c — the simulated network (contract, time rule and ownership in
 * transport_sim.h).
 *
 * Requests. word[0] is the kind (a send, a receive, a collective), word[1] what it needs:
 * a send is complete at once (its message was copied into the outbox: buffered sending);
 * a receive points at its post (buffer, capacity, tag), matched when tested against the
 * inbox in order of delivery time, then sender, then the sender's order; a collective is
 * its index k among the rank's collective calls, the same k on every rank (they call them
 * in the same order), completed once all ranks' k-th contributions are in and the rank's
 * clock has reached the time the rule gives, its result computed then from the
 * contributions in rank order.
 */
#include "cluster/transport_sim.h"

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/platform.h"
#include "sim/sim.h"

enum {
	NET_MAX_RANKS = 64
};
enum {
	REQ_SEND = 1,
	REQ_RECV = 2,
	REQ_COLL = 3
};
enum {
	C_ALLREDUCE,
	C_REDSCAT,
	C_ALLGATHER,
	C_BCAST
};

typedef struct msg {
	int src, dest, tag, bytes;
	uint64_t at, seq; /* at: the send's time until the barrier, then its delivery time */
	unsigned char *data;
} msg_t;

typedef struct post {
	void *buf;
	int cap, tag;
} post_t;

/* One rank's part in a collective call. */
typedef struct part {
	int kind;
	cutoff_dtype_t type;
	cutoff_op_t op;
	int n, bytes, root;
	uint64_t start;
	unsigned char *in; /* a copy (NULL for a bcast's other ranks) */
	void *out;         /* the caller's, written on completion */
} part_t;

typedef struct coll {
	part_t *part; /* [ranks], freed once every rank has completed the call */
	int have, completed;
	bool done;
	uint64_t done_at;
} coll_t;

struct cutoff_net;

typedef struct rank_state {
	struct cutoff_net *net;
	int rank;
	uint64_t next_barrier;
	/* the rank's own between barriers */
	msg_t *out;
	int nout, capout;
	uint64_t seq;
	int *started; /* collective indices started this epoch */
	int nstarted, capstarted;
	int ncoll; /* collective calls made so far */
	/* written at barriers only */
	msg_t *in;
	int nin, capin;
	bool left;
} rank_state_t;

struct cutoff_net {
	int ranks;
	uint64_t latency, epoch;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int arrived, present;
	int fewest_left; /* the fewest collective calls a rank that left had made (INT_MAX):
	                    written under mu, read without it (t_deserted) */
	uint64_t gen, barrier_at;
	coll_t *colls; /* grown at barriers and by the callers (see start_coll) */
	int ncolls, capcolls;
	pthread_mutex_t colls_mu; /* guards colls' growth against the callers' writes */
	rank_state_t r[NET_MAX_RANKS];
};

/* ---- growing arrays (the simulator's own memory: outside the library's rules) ------- */

static bool grow(void **p, int *cap, int need, size_t size)
{
	if (need <= *cap)
		return true;
	int c = *cap ? *cap : 16;
	while (c < need)
		c *= 2;
	void *q = realloc(*p, (size_t)c * size);
	if (!q)
		return false;
	*p = q;
	*cap = c;
	return true;
}

static void oom(void) { abort(); /* the simulator cannot go on without its network */ }

/* ---- the barrier and the exchange ---------------------------------------------------- */

static int by_delivery(const void *a, const void *b)
{
	const msg_t *x = a, *y = b;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	if (x->src != y->src)
		return x->src - y->src;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The hand-over at the barrier at virtual time `at`: every rank's outbox into the
 * inboxes, every collective part in, the completed collectives' times set. Under mu,
 * every other rank on the network waiting. */
static void exchange(cutoff_net_t *n, uint64_t at)
{
	for (int s = 0; s < n->ranks; s++) {
		rank_state_t *rs = &n->r[s];
		for (int i = 0; i < rs->nout; i++) {
			msg_t m = rs->out[i];
			rank_state_t *d = &n->r[m.dest];
			uint64_t due = m.at + n->latency;
			m.at = due > at ? due : at;
			if (!grow((void **)&d->in, &d->capin, d->nin + 1, sizeof(msg_t)))
				oom();
			d->in[d->nin++] = m;
		}
		rs->nout = 0;
	}
	for (int d = 0; d < n->ranks; d++)
		if (n->r[d].nin > 1)
			qsort(n->r[d].in, (size_t)n->r[d].nin, sizeof(msg_t), by_delivery);
	for (int s = 0; s < n->ranks; s++) {
		rank_state_t *rs = &n->r[s];
		for (int i = 0; i < rs->nstarted; i++) {
			coll_t *c = &n->colls[rs->started[i]];
			if (++c->have < n->ranks)
				continue;
			uint64_t latest = 0;
			for (int q = 0; q < n->ranks; q++)
				if (c->part[q].start > latest)
					latest = c->part[q].start;
			latest += n->latency;
			c->done_at = latest > at ? latest : at;
			c->done = true;
		}
		rs->nstarted = 0;
	}
}

static void barrier(rank_state_t *rs)
{
	cutoff_net_t *n = rs->net;
	pthread_mutex_lock(&n->mu);
	uint64_t gen = n->gen;
	n->barrier_at = rs->next_barrier;
	if (++n->arrived == n->present) {
		exchange(n, rs->next_barrier);
		n->arrived = 0;
		n->gen++;
		pthread_cond_broadcast(&n->cv);
	} else {
		while (n->gen == gen)
			pthread_cond_wait(&n->cv, &n->mu);
	}
	pthread_mutex_unlock(&n->mu);
}

/* Every barrier the rank's clock has passed. */
static void sync_rank(rank_state_t *rs)
{
	uint64_t now = cutoff_now_ns();
	while (now >= rs->next_barrier) {
		barrier(rs);
		rs->next_barrier += rs->net->epoch;
	}
}

void cutoff_net_leave(cutoff_net_t *n, int rank)
{
	pthread_mutex_lock(&n->mu);
	n->r[rank].left = true;
	n->present--;
	if (n->r[rank].ncoll < n->fewest_left)
		__atomic_store_n(&n->fewest_left, n->r[rank].ncoll, __ATOMIC_RELAXED);
	if (n->arrived > 0 && n->arrived == n->present) {
		exchange(n, n->barrier_at);
		n->arrived = 0;
		n->gen++;
		pthread_cond_broadcast(&n->cv);
	}
	pthread_mutex_unlock(&n->mu);
}

/* ---- the transport ---------------------------------------------------------------------- */

static void t_isend(void *ctx, const void *buf, int bytes, int dest, int tag, cutoff_req_t *req)
{
	rank_state_t *rs = ctx;
	sync_rank(rs);
	if (!grow((void **)&rs->out, &rs->capout, rs->nout + 1, sizeof(msg_t)))
		oom();
	msg_t m = {
		rs->rank, dest, tag, bytes, cutoff_now_ns(), rs->seq++, malloc((size_t)bytes + 1)
	};
	if (!m.data)
		oom();
	memcpy(m.data, buf, (size_t)bytes);
	rs->out[rs->nout++] = m;
	req->word[0] = REQ_SEND;
	req->word[1] = 0;
}

static void t_irecv(void *ctx, void *buf, int bytes, int tag, cutoff_req_t *req)
{
	rank_state_t *rs = ctx;
	sync_rank(rs);
	post_t *p = malloc(sizeof(*p));
	if (!p)
		oom();
	*p = (post_t){ buf, bytes, tag };
	req->word[0] = REQ_RECV;
	req->word[1] = (uint64_t)(uintptr_t)p;
}

/* Element i of an allreduce of type T: every rank's, combined in rank order. */
#define REDUCE_ELEMENT(T, n, c, i, op, dst)                                                        \
	do {                                                                                       \
		T acc_ = 0;                                                                        \
		for (int q_ = 0; q_ < (n)->ranks; q_++) {                                          \
			T v_;                                                                      \
			memcpy(&v_, (c)->part[q_].in + (size_t)(i)*8, 8);                          \
			acc_ = q_ == 0                 ? v_                                        \
			       : (op) == CUTOFF_OP_SUM ? acc_ + v_                                 \
			       : (op) == CUTOFF_OP_MIN ? (v_ < acc_ ? v_ : acc_)                   \
			                               : (v_ > acc_ ? v_ : acc_);                  \
		}                                                                                  \
		memcpy((dst), &acc_, 8);                                                           \
	} while (0)

static void copy_result(const cutoff_net_t *n, int rank, const coll_t *c)
{
	const part_t *me = &c->part[rank];
	switch (me->kind) {
	case C_ALLREDUCE:
		for (int i = 0; i < me->n; i++) {
			unsigned char *dst = (unsigned char *)me->out + (size_t)i * 8;
			if (me->type == CUTOFF_DT_F64)
				REDUCE_ELEMENT(double, n, c, i, me->op, dst);
			else if (me->type == CUTOFF_DT_I64)
				REDUCE_ELEMENT(int64_t, n, c, i, me->op, dst);
			else
				REDUCE_ELEMENT(uint64_t, n, c, i, me->op, dst);
		}
		break;
	case C_REDSCAT: {
		uint64_t acc = 0;
		for (int q = 0; q < n->ranks; q++) {
			uint64_t v;
			memcpy(&v, c->part[q].in + (size_t)rank * 8, 8);
			acc += v;
		}
		memcpy(me->out, &acc, 8);
		break;
	}
	case C_ALLGATHER:
		for (int q = 0; q < n->ranks; q++)
			memcpy((unsigned char *)me->out + (size_t)q * (size_t)me->bytes,
			       c->part[q].in, (size_t)me->bytes);
		break;
	case C_BCAST:
		if (rank != me->root)
			memcpy(me->out, c->part[me->root].in, (size_t)me->bytes);
		break;
	}
}

static bool t_test(void *ctx, cutoff_req_t *req, int *bytes)
{
	rank_state_t *rs = ctx;
	cutoff_net_t *n = rs->net;
	sync_rank(rs);
	uint64_t now = cutoff_now_ns();
	if (req->word[0] == REQ_SEND || req->word[0] == 0) /* a send, or already complete */
		return true;
	if (req->word[0] == REQ_RECV) {
		post_t *p = (post_t *)(uintptr_t)req->word[1];
		for (int i = 0; i < rs->nin && rs->in[i].at <= now; i++) {
			msg_t *m = &rs->in[i];
			if (m->tag != p->tag)
				continue;
			int take = m->bytes < p->cap ? m->bytes : p->cap;
			memcpy(p->buf, m->data, (size_t)take);
			if (bytes)
				*bytes = take;
			free(m->data);
			memmove(m, m + 1, (size_t)(rs->nin - i - 1) * sizeof(*m));
			rs->nin--;
			free(p);
			req->word[0] = 0;
			return true;
		}
		return false;
	}
	pthread_mutex_lock(&n->colls_mu);
	coll_t *c = &n->colls[req->word[1]];
	bool done = c->done && now >= c->done_at;
	if (done) {
		copy_result(n, rs->rank, c);
		if (++c->completed == n->ranks) { /* nobody reads it again */
			for (int q = 0; q < n->ranks; q++)
				free(c->part[q].in);
			free(c->part);
			c->part = NULL;
		}
		req->word[0] = 0;
	}
	pthread_mutex_unlock(&n->colls_mu);
	return done;
}

static void t_cancel(void *ctx, cutoff_req_t *req)
{
	(void)ctx;
	if (req->word[0] == REQ_RECV)
		free((post_t *)(uintptr_t)req->word[1]);
	req->word[0] = 0;
}

/* Starts this rank's next collective call: its part in the k-th collective. */
static void start_coll(rank_state_t *rs, part_t part, const void *in, size_t in_bytes,
                       cutoff_req_t *req)
{
	cutoff_net_t *n = rs->net;
	sync_rank(rs);
	part.start = cutoff_now_ns();
	part.in = in ? malloc(in_bytes) : NULL;
	if (in && !part.in)
		oom();
	if (in)
		memcpy(part.in, in, in_bytes);
	int k = rs->ncoll++;
	pthread_mutex_lock(&n->colls_mu);
	if (!grow((void **)&n->colls, &n->capcolls, k + 1, sizeof(coll_t)))
		oom();
	while (n->ncolls <= k) {
		coll_t *c = &n->colls[n->ncolls++];
		memset(c, 0, sizeof(*c));
		if (!(c->part = calloc((size_t)n->ranks, sizeof(part_t))))
			oom();
	}
	n->colls[k].part[rs->rank] = part;
	pthread_mutex_unlock(&n->colls_mu);
	if (!grow((void **)&rs->started, &rs->capstarted, rs->nstarted + 1, sizeof(int)))
		oom();
	rs->started[rs->nstarted++] = k;
	req->word[0] = REQ_COLL;
	req->word[1] = (uint64_t)k;
}

static void t_iallreduce(void *ctx, const void *in, void *out, int count, cutoff_dtype_t type,
                         cutoff_op_t op, cutoff_req_t *req)
{
	part_t p = { .kind = C_ALLREDUCE, .type = type, .op = op, .n = count, .out = out };
	start_coll(ctx, p, in, (size_t)count * 8, req);
}

static void t_ireduce_scatter_u64(void *ctx, const uint64_t *in, uint64_t *out, cutoff_req_t *req)
{
	rank_state_t *rs = ctx;
	part_t p = { .kind = C_REDSCAT, .out = out };
	start_coll(rs, p, in, (size_t)rs->net->ranks * 8, req);
}

static void t_iallgather(void *ctx, const void *in, int bytes, void *out, cutoff_req_t *req)
{
	part_t p = { .kind = C_ALLGATHER, .bytes = bytes, .out = out };
	start_coll(ctx, p, in, (size_t)bytes, req);
}

static void t_ibcast(void *ctx, void *buf, int bytes, int root, cutoff_req_t *req)
{
	rank_state_t *rs = ctx;
	part_t p = { .kind = C_BCAST, .bytes = bytes, .root = root, .out = buf };
	start_coll(rs, p, rs->rank == root ? buf : NULL, (size_t)bytes, req);
}

static uint64_t t_now_ns(void *ctx)
{
	(void)ctx;
	return cutoff_now_ns();
}

static void t_nap(void *ctx, uint64_t ns)
{
	cutoff_sim_wait_ns(ns);
	sync_rank(ctx);
}

/* A rank left before this one's latest collective call: that call cannot complete. */
static bool t_deserted(void *ctx)
{
	rank_state_t *rs = ctx;
	return __atomic_load_n(&rs->net->fewest_left, __ATOMIC_RELAXED) < rs->ncoll;
}

static void t_destroy(void *ctx) { (void)ctx; }

void cutoff_net_transport(cutoff_net_t *n, int rank, cutoff_transport_t *tp)
{
	*tp = (cutoff_transport_t){
		.ctx = &n->r[rank],
		.rank = rank,
		.size = n->ranks,
		.isend = t_isend,
		.irecv = t_irecv,
		.test = t_test,
		.cancel = t_cancel,
		.iallreduce = t_iallreduce,
		.ireduce_scatter_u64 = t_ireduce_scatter_u64,
		.iallgather = t_iallgather,
		.ibcast = t_ibcast,
		.now_ns = t_now_ns,
		.nap = t_nap,
		.deserted = t_deserted,
		.destroy = t_destroy,
	};
}

cutoff_net_t *cutoff_net_new(int ranks, uint64_t latency_ns, uint64_t epoch_ns, uint64_t start_ns)
{
	if (ranks < 1 || ranks > NET_MAX_RANKS || epoch_ns == 0)
		return NULL;
	cutoff_net_t *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->ranks = n->present = ranks;
	n->fewest_left = INT_MAX;
	n->latency = latency_ns;
	/* Barriers more often than the latency change nothing (see the header): a message
	 * or a collective's last part, sent in the epoch that a barrier ends, is due after
	 * that barrier anyway. They only cost real time, one meeting of the ranks' threads
	 * each: a 1 ns epoch under a 1 s latency had not ended a run in minutes. */
	n->epoch = cutoff_net_epoch(latency_ns, epoch_ns);
	pthread_mutex_init(&n->mu, NULL);
	pthread_mutex_init(&n->colls_mu, NULL);
	pthread_cond_init(&n->cv, NULL);
	for (int r = 0; r < ranks; r++) {
		n->r[r].net = n;
		n->r[r].rank = r;
		n->r[r].next_barrier = start_ns + epoch_ns;
	}
	return n;
}

void cutoff_net_free(cutoff_net_t *n)
{
	if (!n)
		return;
	for (int r = 0; r < n->ranks; r++) {
		rank_state_t *rs = &n->r[r];
		for (int i = 0; i < rs->nout; i++)
			free(rs->out[i].data);
		for (int i = 0; i < rs->nin; i++)
			free(rs->in[i].data);
		free(rs->out);
		free(rs->in);
		free(rs->started);
	}
	for (int k = 0; k < n->ncolls; k++) {
		for (int r = 0; n->colls[k].part && r < n->ranks; r++)
			free(n->colls[k].part[r].in);
		free(n->colls[k].part);
	}
	free(n->colls);
	pthread_mutex_destroy(&n->mu);
	pthread_mutex_destroy(&n->colls_mu);
	pthread_cond_destroy(&n->cv);
	free(n);
}
