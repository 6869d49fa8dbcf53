/* SPDX-License-Identifier: MIT */
/*
 * results.c — what `cutoff match` reports: a line per game and the totals as text, or the
 * whole match as one JSON object (--json), and each game as PGN (--pgn), its moves in SAN.
 *
 * Owns nothing: it reads the match's settings, engines and game records and writes to
 * stdout or the PGN file. Engine 1's side is the side of every count (wins, draws,
 * losses, score); colours are by game. Times are in seconds; a least clock left is "-" in
 * the text and null in the JSON when no move was timed (--depth, --nodes). The games are
 * reported in game order whatever --concurrency (slots.c records them so); the text says
 * how many were played at once when more than one was, or when the clocks were unfair
 * (more engine threads thinking at once than CPUs), and the JSON's control always does.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "kit/json.h"
#include "match/referee.h"

static const char *const mode_names[] = { "tc", "movetime", "depth", "nodes" };

void match_print_game_line(const match_t *m, int index, const game_rec_t *g)
{
	char clk[2][16];
	for (int c = 0; c < 2; c++) {
		if (g->min_clock[c] == INT64_MAX || !match_tc_timed(&m->tc[0]))
			snprintf(clk[c], sizeof(clk[c]), "-");
		else
			snprintf(clk[c], sizeof(clk[c]), "%.3f", secs(g->min_clock[c]));
	}
	if (index == 0)
		printf("%5s %5s %5s  %-7s %5s %10s %10s %10s %10s  %s\n", "game", "white", "black",
		       "result", "plies", "white s", "black s", "white min", "black min", "reason");
	printf("%5d %5d %5d  %-7s %5d %10.3f %10.3f %10s %10s  %s\n", index + 1, g->white + 1,
	       2 - g->white, g->result, g->plies, secs(g->used[0]), secs(g->used[1]), clk[0],
	       clk[1], g->reason);
	fflush(stdout);
}

/* ---- statistics (stats.c; docs/match-statistics.md) ----------------------------------- */

static const char *const decision_names[] = { "continue", "H0 accepted", "H1 accepted" };

/* A signed figure ("+12.3", "+inf"), or "n/a" when it is not defined (NAN). */
static const char *signed_text(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "n/a");
	else
		snprintf(buf, size, "%+.1f", v == 0 ? 0.0 : v); /* no "-0.0" */
	return buf;
}

/* "+12.3 [-40.1, +65.0]": a figure and its 95 % interval. */
static const char *interval_text(char *buf, size_t size, double v, double lo, double hi)
{
	char a[24], b[24], c[24];
	snprintf(buf, size, "%s [%s, %s]", signed_text(a, sizeof(a), v),
	         signed_text(b, sizeof(b), lo), signed_text(c, sizeof(c), hi));
	return buf;
}

/* The figures of both models; false when there is no game (nothing to say). */
static bool compute_both(const match_t *m, match_stats_t *games, match_stats_t *pairs)
{
	return match_stats_compute(&m->counts, MATCH_STATS_TRINOMIAL, games) == 0 &&
	       match_stats_compute(&m->counts, MATCH_STATS_PENTANOMIAL, pairs) == 0 &&
	       games->samples > 0;
}

/* The SPRT's settings and state in words. */
static void sprt_text(const match_t *m, char *buf, size_t size)
{
	const match_sprt_t *t = &m->sprt;
	snprintf(buf, size,
	         "elo0 %g, elo1 %g (%s Elo, over pairs), alpha %g, beta %g: LLR %.3f in "
	         "[%.3f, %.3f], %s",
	         t->elo0, t->elo1, t->normalized ? "normalized" : "logistic", t->alpha, t->beta,
	         isnan(m->llr) ? 0.0 : m->llr, match_sprt_lower(t), match_sprt_upper(t),
	         decision_names[m->decision]);
}

/* The statistics' lines of the text report: Elo with its interval, LOS and draws over
 * games and over pairs, the pairs' counts, normalized Elo, and the SPRT. */
static void print_stats(const match_t *m)
{
	match_stats_t g, p;
	char e[96], n[96];
	if (!compute_both(m, &g, &p))
		return;
	cli_field(stdout, "Elo (games)", "%s, LOS %.1f %%, draws %.1f %% (%" PRId64 " games)",
	          interval_text(e, sizeof(e), g.elo, g.elo_lo, g.elo_hi), 100.0 * g.los,
	          100.0 * g.draw_ratio, g.samples);
	if (p.samples > 0) {
		cli_field(stdout, "Elo (pairs)", "%s, LOS %.1f %%, nElo %s (%" PRId64 " pairs)",
		          interval_text(e, sizeof(e), p.elo, p.elo_lo, p.elo_hi), 100.0 * p.los,
		          interval_text(n, sizeof(n), p.nelo, p.nelo_lo, p.nelo_hi), p.samples);
		const int64_t *c = m->counts.pairs;
		cli_field(stdout, "pairs",
		          "0: %" PRId64 ", 1/2: %" PRId64 ", 1: %" PRId64 ", 3/2: %" PRId64
		          ", 2: %" PRId64 " (engine 1's points)",
		          c[0], c[1], c[2], c[3], c[4]);
	}
	if (m->sprt_on) {
		char s[200];
		sprt_text(m, s, sizeof(s));
		cli_field(stdout, "SPRT", "%s", s);
	}
}

void match_print_sprt_progress(const match_t *m, int index)
{
	match_stats_t g, p;
	char e[96];
	if (!compute_both(m, &g, &p))
		return;
	fprintf(stderr,
	        "cutoff %s: %d games (%" PRId64 " W, %" PRId64 " D, %" PRId64 " L), Elo %s, LLR "
	        "%.3f [%.3f, %.3f]%s\n",
	        MATCH_CMD, index + 1, m->counts.wins, m->counts.draws, m->counts.losses,
	        interval_text(e, sizeof(e), p.elo, p.elo_lo, p.elo_hi),
	        isnan(m->llr) ? 0.0 : m->llr, match_sprt_lower(&m->sprt),
	        match_sprt_upper(&m->sprt),
	        m->decision == MATCH_SPRT_CONTINUE ? ""
	        : m->decision == MATCH_SPRT_H1     ? ": H1 accepted"
	                                           : ": H0 accepted");
}

/* Opens the JSON object `key` with one model's figures; the caller adds to it and ends it. */
static void json_model(json_writer_t *w, const char *key, const match_stats_t *s)
{
	jw_begin_object(w, key);
	jw_int(w, "samples", s->samples);
	jw_double(w, "score", s->score);
	jw_double(w, "variance", s->variance);
	jw_double(w, "elo", s->elo);
	jw_double(w, "elo_low", s->elo_lo);
	jw_double(w, "elo_high", s->elo_hi);
	jw_double(w, "los", s->los);
	jw_double(w, "draw_ratio", s->draw_ratio);
	jw_double(w, "nelo", s->nelo);
	jw_double(w, "nelo_low", s->nelo_lo);
	jw_double(w, "nelo_high", s->nelo_hi);
}

/* "stats": both models (the pentanomial one with its counts) and the SPRT. An undefined
 * figure is null (no games, a score of 0 or 1, no variance). */
static void json_stats(json_writer_t *w, const match_t *m)
{
	match_stats_t g, p;
	match_stats_compute(&m->counts, MATCH_STATS_TRINOMIAL, &g);
	match_stats_compute(&m->counts, MATCH_STATS_PENTANOMIAL, &p);
	jw_begin_object(w, "stats");
	json_model(w, "trinomial", &g);
	jw_end(w);
	json_model(w, "pentanomial", &p);
	jw_begin_array(w, "counts");
	for (int k = 0; k < 5; k++)
		jw_int(w, NULL, m->counts.pairs[k]);
	jw_end(w);
	jw_end(w);
	if (m->sprt_on) {
		const match_sprt_t *t = &m->sprt;
		jw_begin_object(w, "sprt");
		jw_double(w, "elo0", t->elo0);
		jw_double(w, "elo1", t->elo1);
		jw_double(w, "alpha", t->alpha);
		jw_double(w, "beta", t->beta);
		jw_string(w, "elo", t->normalized ? "normalized" : "logistic");
		jw_double(w, "llr", m->llr);
		jw_double(w, "lower", match_sprt_lower(t));
		jw_double(w, "upper", match_sprt_upper(t));
		jw_string(w, "decision",
		          m->decision == MATCH_SPRT_H1   ? "H1"
		          : m->decision == MATCH_SPRT_H0 ? "H0"
		                                         : "continue");
		jw_end(w);
	} else {
		jw_null(w, "sprt");
	}
	jw_end(w);
}

/* ---- totals ------------------------------------------------------------------------ */

/* One fault count's line: the total and each engine's. */
static void print_fault(const match_t *m, const char *label, fault_t f)
{
	const engine_t *a = &m->eng[0], *b = &m->eng[1];
	cli_field(stdout, label, "%d (engine 1 %d, engine 2 %d)", a->faults[f] + b->faults[f],
	          a->faults[f], b->faults[f]);
}

/* The options the engines rejected (--ignore-option-errors), each line as the engine
 * said it, quoted. */
static void print_rejections(const match_t *m)
{
	for (int i = 0; i < 2; i++) {
		const engine_t *e = &m->eng[i];
		char label[32], q[320];
		snprintf(label, sizeof(label), "engine %d rejected", i + 1);
		for (int k = 0; k < e->nrejected && k < MAX_REJECTED; k++)
			cli_field(stdout, label, "%s",
			          e->rejected[k] ? cli_quote(q, sizeof(q), e->rejected[k]) : "?");
		if (e->nrejected > MAX_REJECTED)
			cli_field(stdout, label, "and %d more", e->nrejected - MAX_REJECTED);
	}
}

/* One engine's time control, for the report: "10+0.1 s, margin 0 ms", "400000 nodes". */
static void describe_tc(const tc_t *tc, char *out, size_t size)
{
	if (tc->mode == TC_CLOCK)
		snprintf(out, size, "%s s, margin %" PRId64 " ms", tc->text,
		         tc->margin / NS_PER_MS);
	else if (tc->mode == TC_MOVETIME)
		snprintf(out, size, "%" PRId64 " ms a move, margin %" PRId64 " ms",
		         tc->movetime / NS_PER_MS, tc->margin / NS_PER_MS);
	else if (tc->mode == TC_DEPTH)
		snprintf(out, size, "depth %" PRId64, tc->depth);
	else
		snprintf(out, size, "%" PRIu64 " nodes", tc->nodes);
}

void match_print_totals(const match_t *m)
{
	const tc_t *tc = &m->tc[0];
	printf("\n");
	for (int i = 0; i < 2; i++) {
		char label[16];
		snprintf(label, sizeof(label), "engine %d", i + 1);
		cli_field(stdout, label, "%s (%s)", m->eng[i].name, m->eng[i].command);
	}
	print_rejections(m);
	if (match_tc_same(&m->tc[0], &m->tc[1])) {
		char text[80];
		describe_tc(tc, text, sizeof(text));
		cli_field(stdout, "time control", "%s", text);
	} else {
		for (int i = 0; i < 2; i++) {
			char label[32], text[80];
			snprintf(label, sizeof(label), "time control %d", i + 1);
			describe_tc(&m->tc[i], text, sizeof(text));
			cli_field(stdout, label, "%s", text);
		}
	}
	if (m->concurrency > 1 || m->unfair_clock)
		cli_field(stdout, "concurrency",
		          "%d game%s at once, up to %" PRId64 " thread%s an engine, on %d CPU%s%s",
		          m->concurrency, m->concurrency == 1 ? "" : "s", m->threads,
		          m->threads == 1 ? "" : "s", m->cpus, m->cpus == 1 ? "" : "s",
		          m->unfair_clock ? ": the clocks are unfair" : "");
	cli_field(stdout, "games", "%d", m->played);
	cli_field(stdout, "engine 1 score", "%d W, %d D, %d L (%.1f %%)", m->wins, m->draws,
	          m->losses, m->played ? 100.0 * (m->wins + 0.5 * m->draws) / m->played : 0.0);
	print_stats(m);
	print_fault(m, "illegal moves", FAULT_ILLEGAL);
	print_fault(m, "time losses", FAULT_TIME);
	print_fault(m, "crashes", FAULT_CRASH);
	print_fault(m, "no answer", FAULT_HANG);
	print_fault(m, "engine errors", FAULT_ERROR);
	for (int i = 0; i < 2; i++) {
		char label[32], clk[32] = "";
		const engine_t *e = &m->eng[i];
		snprintf(label, sizeof(label), "engine %d time", i + 1);
		if (e->min_clock != INT64_MAX)
			snprintf(clk, sizeof(clk), ", least left %.3f s", secs(e->min_clock));
		cli_field(stdout, label, "%.3f s for %d moves (%.1f ms a move)%s", secs(e->used),
		          e->moves, e->moves ? 1e3 * secs(e->used) / e->moves : 0.0, clk);
	}
}

/* ---- JSON ----------------------------------------------------------------------------- */

/* A time in seconds, or null for INT64_MAX (none). */
static void json_clock(json_writer_t *w, const char *key, int64_t ns)
{
	if (ns == INT64_MAX)
		jw_null(w, key);
	else
		jw_double(w, key, secs(ns));
}

static void json_engines(json_writer_t *w, const match_t *m)
{
	jw_begin_array(w, "engines");
	for (int i = 0; i < 2; i++) {
		const engine_t *e = &m->eng[i];
		jw_begin_object(w, NULL);
		jw_int(w, "engine", e->id);
		jw_string(w, "command", e->command);
		jw_string(w, "name", e->name);
		jw_int(w, "moves", e->moves);
		jw_double(w, "time_s", secs(e->used));
		json_clock(w, "min_clock_s", e->min_clock);
		for (int f = 1; f < NFAULTS; f++)
			jw_int(w, match_fault_names[f], e->faults[f]);
		jw_begin_array(w, "option_errors");
		for (int k = 0; k < e->nrejected && k < MAX_REJECTED; k++)
			jw_string(w, NULL, e->rejected[k]);
		jw_end(w);
		jw_end(w);
	}
	jw_end(w);
}

/* One engine's limit: the keys of its mode. */
static void json_limit(json_writer_t *w, const tc_t *tc)
{
	if (tc->mode == TC_CLOCK) {
		jw_string(w, "tc", tc->text);
		jw_double(w, "base_s", secs(tc->base));
		jw_double(w, "inc_s", secs(tc->inc));
	} else if (tc->mode == TC_MOVETIME) {
		jw_int(w, "movetime_ms", tc->movetime / NS_PER_MS);
	} else if (tc->mode == TC_DEPTH) {
		jw_int(w, "depth", tc->depth);
	} else {
		jw_uint(w, "nodes", tc->nodes);
	}
}

/* The limit's keys at the top hold engine 1's (as before the engines could differ);
 * "engines" holds each engine's. */
static void json_control(json_writer_t *w, const match_t *m)
{
	const tc_t *tc = &m->tc[0];
	jw_begin_object(w, "control");
	jw_string(w, "mode", mode_names[tc->mode]);
	json_limit(w, tc);
	jw_begin_array(w, "engines");
	for (int i = 0; i < 2; i++) {
		jw_begin_object(w, NULL);
		json_limit(w, &m->tc[i]);
		jw_end(w);
	}
	jw_end(w);
	jw_int(w, "margin_ms", tc->margin / NS_PER_MS);
	jw_int(w, "concurrency", m->concurrency);
	jw_int(w, "threads", m->threads);
	jw_int(w, "cpus", m->cpus);
	jw_bool(w, "unfair_clock", m->unfair_clock);
	jw_end(w);
}

static void json_game(json_writer_t *w, int index, const game_rec_t *g)
{
	jw_begin_object(w, NULL);
	jw_int(w, "game", index + 1);
	jw_int(w, "white", g->white + 1);
	jw_int(w, "black", 2 - g->white);
	jw_string(w, "fen", g->fen);
	jw_string(w, "result", g->result);
	if (g->winner < 0)
		jw_null(w, "winner");
	else
		jw_int(w, "winner", g->winner + 1);
	jw_string(w, "reason", g->reason);
	if (g->fault == FAULT_NONE) {
		jw_null(w, "fault");
	} else {
		jw_string(w, "fault", match_fault_names[g->fault]);
		jw_int(w, "fault_engine", g->fault_engine + 1);
	}
	jw_int(w, "plies", g->plies);
	jw_string(w, "moves", match_sb_text(&g->moves));
	jw_double(w, "white_time_s", secs(g->used[0]));
	jw_double(w, "black_time_s", secs(g->used[1]));
	json_clock(w, "white_min_clock_s", g->min_clock[0]);
	json_clock(w, "black_min_clock_s", g->min_clock[1]);
	jw_end(w);
}

static void json_totals(json_writer_t *w, const match_t *m)
{
	static const char *const keys[NFAULTS] = { "none",    "illegal_moves", "time_losses",
		                                   "crashes", "no_answers",    "engine_errors" };
	jw_begin_object(w, "totals");
	jw_int(w, "games", m->played);
	jw_int(w, "wins", m->wins);
	jw_int(w, "draws", m->draws);
	jw_int(w, "losses", m->losses);
	jw_double(w, "score", m->played ? (m->wins + 0.5 * m->draws) / m->played : 0.0);
	for (int f = 1; f < NFAULTS; f++)
		jw_int(w, keys[f], m->eng[0].faults[f] + m->eng[1].faults[f]);
	json_stats(w, m);
	jw_end(w);
}

void match_write_json(const match_t *m)
{
	json_writer_t w;
	jw_init(&w, stdout);
	jw_begin_object(&w, NULL);
	json_engines(&w, m);
	json_control(&w, m);
	jw_begin_array(&w, "games");
	for (int i = 0; i < m->played; i++)
		json_game(&w, i, &m->games[i]);
	jw_end(&w);
	json_totals(&w, m);
	if (m->stopped)
		jw_string(&w, "stopped", m->stopped);
	else
		jw_null(&w, "stopped");
	jw_end(&w);
	if (jw_finish(&w) < 0)
		cli_error(MATCH_CMD, "cannot write the JSON output");
}

/* ---- PGN ------------------------------------------------------------------------------ */

/* Engine text (a name; a reason quoting a bestmove) inside a tag's string (`tag`) or a
 * comment: well-formed UTF-8 as it is and each broken sequence as U+FFFD (json.h), so
 * that the file is UTF-8 whatever the engines sent; control bytes as blanks (a tag or a
 * comment is printing characters on one line); in a tag " and \ escaped, in a comment
 * '}' (which would end it) as ')'. */
static void pgn_text(FILE *f, const char *s, bool tag)
{
	for (const char *p = s; *p;) {
		int n = json_utf8_char(p);
		unsigned char c = (unsigned char)*p;
		if (n < 0)
			fputs("\xef\xbf\xbd", f);
		else if (n > 1)
			fwrite(p, 1, (size_t)n, f);
		else if (c < 0x20 || c == 0x7f)
			fputc(' ', f);
		else if (tag && (c == '"' || c == '\\'))
			fprintf(f, "\\%c", c);
		else
			fputc(!tag && c == '}' ? ')' : c, f);
		p += n > 0 ? n : -n;
	}
}

/* The tags: the Seven Tag Roster (Site, Date and Event as a referee knows them), SetUp and
 * FEN for an opening, TimeControl for --tc (WhiteTimeControl and BlackTimeControl when the
 * engines' differ), PlyCount and Termination. */
static void pgn_tags(const match_t *m, const game_rec_t *g, int round)
{
	const char *names[2] = { m->eng[g->white].name, m->eng[1 - g->white].name };
	time_t t = time(NULL);
	struct tm tm;
	char date[16] = "????.??.??";
	if (localtime_r(&t, &tm))
		strftime(date, sizeof(date), "%Y.%m.%d", &tm);
	FILE *f = m->pgn;
	fprintf(f, "[Event \"cutoff match\"]\n[Site \"?\"]\n[Date \"%s\"]\n[Round \"%d\"]\n", date,
	        round);
	for (int c = 0; c < 2; c++) {
		fprintf(f, "[%s \"", c == 0 ? "White" : "Black");
		pgn_text(f, names[c], true);
		fputs("\"]\n", f);
	}
	fprintf(f, "[Result \"%s\"]\n", g->result);
	if (g->opening >= 0)
		fprintf(f, "[SetUp \"1\"]\n[FEN \"%s\"]\n", g->fen);
	if (m->tc[0].mode == TC_CLOCK && match_tc_same(&m->tc[0], &m->tc[1]))
		fprintf(f, "[TimeControl \"%s\"]\n", m->tc[0].text);
	else if (m->tc[0].mode == TC_CLOCK) /* time odds: each side's, as cutechess writes them */
		fprintf(f, "[WhiteTimeControl \"%s\"]\n[BlackTimeControl \"%s\"]\n",
		        m->tc[g->white].text, m->tc[1 - g->white].text);
	fprintf(f, "[PlyCount \"%d\"]\n[Termination \"%s\"]\n\n", g->plies, g->termination);
}

/* The moves in SAN with their numbers, in lines of at most 79 columns; false when the
 * start position does not parse (nothing written). */
static bool pgn_moves(const match_t *m, const game_rec_t *g)
{
	cutoff_chess_state_t pos;
	if (cutoff_chess_parse_fen(m->chess, g->fen, &pos, NULL, 0) != 0)
		return false;
	FILE *f = m->pgn;
	int side = match_fen_side(g->fen);
	int64_t number = match_fen_field_int(g->fen, 5);
	size_t col = 0;
	const char *p = match_sb_text(&g->moves);
	char tok[CUTOFF_CHESS_MOVE_SIZE + 2], word[32], san[CUTOFF_CHESS_SAN_SIZE];
	for (int ply = 0; ply < g->plies; ply++) {
		size_t n = strcspn(p, " ");
		snprintf(tok, sizeof(tok), "%.*s", (int)(n < 7 ? n : 7), p);
		p += n + (p[n] == ' ');
		cutoff_move_t mv;
		if (cutoff_chess_parse_move(m->chess, &pos, tok, &mv, NULL, 0) != 0)
			break;
		if (cutoff_chess_san(m->chess, &pos, mv, san, sizeof(san)) < 0)
			break;
		if (side == 0)
			snprintf(word, sizeof(word), "%" PRId64 ". %s", number, san);
		else if (ply == 0)
			snprintf(word, sizeof(word), "%" PRId64 "... %s", number, san);
		else
			snprintf(word, sizeof(word), "%s", san);
		size_t wl = strlen(word);
		if (col > 0 && col + 1 + wl > 79) {
			fputc('\n', f);
			col = 0;
		} else if (col > 0) {
			fputc(' ', f);
			col++;
		}
		fputs(word, f);
		col += wl;
		(void)cutoff_chess_play(m->chess, &pos, mv, &pos);
		if (side == 1)
			number++;
		side = 1 - side;
	}
	if (col > 0)
		fputc('\n', f);
	return true;
}

void match_write_pgn(const match_t *m, const game_rec_t *g, int round)
{
	FILE *f = m->pgn;
	pgn_tags(m, g, round);
	if (!pgn_moves(m, g))
		return;
	fputc('{', f);
	pgn_text(f, g->reason, false);
	fprintf(f, "} %s\n\n", g->result);
	fflush(f);
}
