/* SPDX-License-Identifier: MIT */
/*
 * slots.c — the games of `cutoff match` played --concurrency at a time: N slots, each with
 * its own two engine processes and its own game_t, take the games in order and play them
 * side by side; the games are recorded (counted, reported, written to the PGN) in game
 * order whatever order they end in.
 *
 * Owns the slots: their engines (started, all of them, on the calling thread before the
 * first game, slot 1's engine 1 first; an engine that faulted is started again by its
 * slot before that slot's next game; all stopped and reaped before match_slots_play
 * returns), their game_t and their threads. Slot 1 plays on the calling thread, slots 2..N
 * each on a thread of its own: gameplay.c blocks on one engine at a time, so a thread per slot
 * keeps each game's code as it was and each game's clock its own, charged from its own
 * engine's answer on its own thread. With one slot there is no thread and the match is the
 * single-threaded referee it always was.
 *
 * Shared state, all of it in the match_t and under m->lock (referee.h's struct match):
 *
 *     field              written by                         read by
 *     next               take(), to hand out game `next`    take()
 *     stop_at, stopped   stop_locked(): only ever lowered   take(), finish(); the report
 *     games[i]           the slot playing game i, unlocked  record(), once it is finished
 *     games[i].finished  the slot playing game i, locked    finish()
 *     played, totals     record(), from finish()            finish(); the report
 *     counts, llr,       count(), from record()             the report
 *       decision
 *     status             record() and stop()                the report, after the join
 *
 * Game i's record is written only by the slot that took it, and read by another thread
 * only after that slot set `finished` under the lock (the lock orders the writes before
 * the read). Records are made in order: the games before `played` are recorded; a finished
 * game waits until every game before it is. So the game lines, the PGN, the totals and
 * the exit status are those of games 1..played in order, the same for any --concurrency
 * when the engines are deterministic, and games 2k+1 and 2k+2 (one opening, colours
 * reversed) are handed out one after the other.
 *
 * Stops. A slot that cannot start its engines again after a fault before game i, or whose
 * game i fails in the referee itself (out of memory), stops the match before game i:
 * stop_at falls to i, no game from i on is handed out, the games before i still in play
 * are played to their end and recorded, and games after i that were in play are played to
 * their end (their engines are in the middle of them) but not recorded. With one slot
 * that is exactly the match stopping after game i-1. A stop decided on a game as it is
 * recorded (stop_locked() from record(): --sprt's decision, count()) falls to the
 * next index, so that the match is then the same for any N. Either way every engine of
 * every slot is then stopped (quit, a short wait, SIGKILL to its process group) and
 * reaped: no engine outlives the command. A signal (SIGTERM, SIGINT, SIGHUP) while the
 * slots play is the reaper's (reaper.c, started before the first engine and ended after
 * the last is reaped): it keeps m->lock, so that no game is recorded or handed out from
 * then on, stops every engine and ends the process by the signal.
 */
#include <stdlib.h>
#include <string.h>

#include "match/referee.h"

typedef struct slot {
	match_t *m;
	engine_t eng[2]; /* eng[0] is engine 1 */
	game_t gm;
	pthread_t thread;
	bool threaded; /* has a thread of its own to join */
} slot_t;

/* Stops the match before game `index`, for the reason `why`, unless it stops earlier
 * already. Under m->lock: a stop decided on a game being recorded (by record(), which
 * holds the lock) stops before index + 1, and the games after it in play are not
 * recorded, so that the match is the same for any --concurrency. */
static void stop_locked(match_t *m, int index, const char *why)
{
	if (index < m->stop_at) {
		m->stop_at = index;
		m->stopped = why;
	}
}

/* Stops the match before game `index` for a failure `why`: exit status 1. */
static void stop(match_t *m, int index, const char *why)
{
	pthread_mutex_lock(&m->lock);
	stop_locked(m, index, why);
	m->status = CLI_EXIT_FAIL;
	pthread_mutex_unlock(&m->lock);
}

/* Engine 1's points in a finished game, in halves: 2 a win, 1 a draw, 0 a loss. */
static int half_points(const game_rec_t *g) { return g->winner < 0 ? 1 : g->winner == 0 ? 2 : 0; }

/* Counts game `index` into the statistics: the game, and with it the pair of games
 * index - 1 and index when it completes one (games 2k and 2k+1 share an opening, colours
 * reversed). After a pair, --sprt's LLR, a progress line on stderr, and a stop before the
 * next game once a bound is crossed (not a failure: the exit status stays). Under m->lock. */
static void count(match_t *m, int index)
{
	match_stats_add_game(&m->counts, half_points(&m->games[index]));
	if (index % 2 == 0)
		return;
	match_stats_add_pair(&m->counts, half_points(&m->games[index - 1]),
	                     half_points(&m->games[index]));
	if (!m->sprt_on || m->decision != MATCH_SPRT_CONTINUE)
		return;
	m->llr = match_sprt_llr(&m->sprt, &m->counts, MATCH_STATS_PENTANOMIAL);
	m->decision = match_sprt_decide(&m->sprt, m->llr);
	match_print_sprt_progress(m, index);
	if (m->decision != MATCH_SPRT_CONTINUE) {
		snprintf(m->sprt_why, sizeof(m->sprt_why), "SPRT: %s accepted after %d games",
		         m->decision == MATCH_SPRT_H1 ? "H1" : "H0", index + 1);
		stop_locked(m, index + 1, m->sprt_why);
	}
}

/* Counts game `index`, the next in order, and reports it. Under m->lock. */
static void record(match_t *m, int index)
{
	const game_rec_t *g = &m->games[index];
	m->played++;
	if (g->winner < 0)
		m->draws++;
	else if (g->winner == 0)
		m->wins++;
	else
		m->losses++;
	for (int c = 0; c < 2; c++) {
		engine_t *e = &m->eng[c == 0 ? g->white : 1 - g->white];
		e->used += g->used[c];
		e->moves += g->nmoves[c];
		if (g->min_clock[c] < e->min_clock)
			e->min_clock = g->min_clock[c];
	}
	if (g->fault != FAULT_NONE) {
		m->eng[g->fault_engine].faults[g->fault]++;
		m->status = CLI_EXIT_FAIL;
	}
	count(m, index);
	match_log_note(&m->log, "game %d: %s %s", index + 1, g->result, g->reason);
	if (!m->json)
		match_print_game_line(m, index, g);
	if (m->pgn)
		match_write_pgn(m, g, index + 1);
}

/* Game `index` is over: records it and the finished games after it, up to the first one
 * still in play. */
static void finish(match_t *m, int index)
{
	pthread_mutex_lock(&m->lock);
	m->games[index].finished = true;
	while (m->played < m->stop_at && m->games[m->played].finished)
		record(m, m->played);
	pthread_mutex_unlock(&m->lock);
}

/* The next game to play, or -1 when there is none. */
static int take(match_t *m)
{
	pthread_mutex_lock(&m->lock);
	int index = m->next < m->stop_at ? m->next++ : -1;
	pthread_mutex_unlock(&m->lock);
	return index;
}

/* Starts again whoever faulted, so that the next game starts clean. False (printed) when
 * one cannot be. */
static bool restart_broken(slot_t *s)
{
	for (int k = 0; k < 2; k++) {
		engine_t *e = &s->eng[k];
		if (!e->broken && e->proc.pid > 0)
			continue;
		match_engine_stop(e, false);
		if (match_engine_start(e) != CLI_EXIT_OK)
			return false;
	}
	return true;
}

/* The slot's games, one after the other, until none is left or the match stops. */
static void slot_play(slot_t *s)
{
	match_t *m = s->m;
	for (int i; (i = take(m)) >= 0;) {
		if (!restart_broken(s)) {
			stop(m, i, "an engine could not be started again after a fault");
			return;
		}
		if (match_game_play(m, s->eng, i, &s->gm) != CLI_EXIT_OK) {
			stop(m, i, "the referee failed");
			return;
		}
		finish(m, i);
	}
}

static void *slot_main(void *arg)
{
	slot_play(arg);
	return NULL;
}

/* Sets up and starts every slot's engines, slot by slot, engine 1 first. CLI_EXIT_OK, or
 * an exit status after the one-line error. */
static int slots_start(match_t *m, slot_t *slots)
{
	for (int s = 0; s < m->concurrency; s++) {
		slots[s].m = m;
		for (int k = 0; k < 2; k++) {
			match_engine_clear(&slots[s].eng[k], k + 1, &m->log);
			slots[s].eng[k].slot = m->concurrency > 1 ? s + 1 : 0;
			slots[s].eng[k].reaper = &m->reaper;
		}
	}
	for (int s = 0; s < m->concurrency; s++) {
		for (int k = 0; k < 2; k++) {
			const engine_t *p = &m->eng[k];
			int status = match_engine_init(
				&slots[s].eng[k], p->command, p->timeout, p->setopts, p->nshared,
				p->setopts + p->nshared, p->nsetopts - p->nshared);
			slots[s].eng[k].ignore_option_errors = p->ignore_option_errors;
			if (status == CLI_EXIT_OK)
				status = match_engine_start(&slots[s].eng[k]);
			if (status != CLI_EXIT_OK)
				return status;
		}
	}
	for (int k = 0; k < 2; k++) {
		engine_t *e = &m->eng[k], *first = &slots[0].eng[k];
		snprintf(e->name, sizeof(e->name), "%s", first->name);
		/* The report's rejections (--ignore-option-errors) are slot 1's, as its name. */
		for (int i = 0; i < first->nrejected && i < MAX_REJECTED; i++)
			e->rejected[i] = first->rejected[i] ? strdup(first->rejected[i]) : NULL;
		e->nrejected = first->nrejected;
	}
	return CLI_EXIT_OK;
}

/* Plays the games on every slot: slot 1 on this thread, the others on their own. A slot
 * whose thread cannot be made plays nothing (the others play its games), with a warning. */
static void slots_run(match_t *m, slot_t *slots)
{
	for (int s = 1; s < m->concurrency; s++) {
		int rc = pthread_create(&slots[s].thread, NULL, slot_main, &slots[s]);
		if (rc != 0)
			cli_error(MATCH_CMD,
			          "warning: cannot make a thread for slot %d (%s): %d games "
			          "at a time",
			          s + 1, strerror(rc), s);
		slots[s].threaded = rc == 0;
		if (rc != 0)
			break;
	}
	slot_play(&slots[0]);
	for (int s = 1; s < m->concurrency; s++)
		if (slots[s].threaded)
			pthread_join(slots[s].thread, NULL);
}

int match_slots_play(match_t *m)
{
	slot_t *slots = calloc((size_t)m->concurrency, sizeof(*slots));
	if (!slots) {
		cli_error(MATCH_CMD, "--concurrency %d: out of memory", m->concurrency);
		return CLI_EXIT_FAIL;
	}
	int rc = pthread_mutex_init(&m->lock, NULL);
	if (rc != 0) {
		cli_error(MATCH_CMD, "cannot make a lock: %s", strerror(rc));
		free(slots);
		return CLI_EXIT_FAIL;
	}
	m->next = 0;
	m->stop_at = (int)m->ngames;
	m->status = CLI_EXIT_OK;
	int status = match_reaper_start(&m->reaper, &m->lock, &m->log);
	if (status == CLI_EXIT_OK)
		status = slots_start(m, slots);
	if (status == CLI_EXIT_OK)
		slots_run(m, slots);
	for (int s = 0; s < m->concurrency; s++) {
		match_game_free(&slots[s].gm);
		for (int k = 0; k < 2; k++)
			match_engine_free(&slots[s].eng[k]);
	}
	match_reaper_end(&m->reaper); /* every engine reaped: a late signal ends us alone */
	pthread_mutex_destroy(&m->lock);
	free(slots);
	return status;
}
