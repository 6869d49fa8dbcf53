/* SPDX-License-Identifier: MIT */
/*
 * attacks.c — builds the context's tables: leaper attacks, magic bitboards for the
 * sliders, lines and segments between squares, castling masks and Zobrist keys.
 *
 * Everything is computed from the rules with a fixed-seed generator, so every context is
 * bit-for-bit the same. Nothing here is kept between calls: the tables are written only
 * into the context being made.
 */
#include <string.h>

#include "chess.h"

/* splitmix64: small, fast, and good enough for both keys and magic candidates. */
static uint64_t next_random(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

/* The squares reached from `sq` by the steps (df, dr), once each. */
static uint64_t leaper(int sq, const int steps[][2], int nsteps)
{
	uint64_t b = 0;
	for (int i = 0; i < nsteps; i++) {
		int f = sq % 8 + steps[i][0], r = sq / 8 + steps[i][1];
		if (on_board(f, r))
			b |= BB(r * 8 + f);
	}
	return b;
}

/* The squares a slider on `sq` attacks along `dirs` with the board occupied as `occ`. */
static uint64_t slide(int sq, const int dirs[4][2], uint64_t occ)
{
	uint64_t b = 0;
	for (int i = 0; i < 4; i++) {
		int f = sq % 8 + dirs[i][0], r = sq / 8 + dirs[i][1];
		while (on_board(f, r)) {
			b |= BB(r * 8 + f);
			if (occ & BB(r * 8 + f))
				break;
			f += dirs[i][0];
			r += dirs[i][1];
		}
	}
	return b;
}

/*
 * The magics that find_magic() below finds from its fixed seed, written out so that a
 * context is made in well under a millisecond instead of a tenth of a second. They are
 * only the first candidate tried: each is checked against every occupancy as it fills the
 * table, and the search takes over should one ever fail (a changed mask or table layout).
 * Regenerate by printing t->rook[sq].magic and t->bishop[sq].magic with these cleared.
 */
static const uint64_t rook_magics[64] = {
	UINT64_C(0xa080001820400080), UINT64_C(0x0040002000401000), UINT64_C(0x0180300160008008),
	UINT64_C(0x0480040800801001), UINT64_C(0x2a00081084204200), UINT64_C(0x0480018012003400),
	UINT64_C(0x0600010082000428), UINT64_C(0x420002250c018042), UINT64_C(0x0040800040002080),
	UINT64_C(0x000040002000500c), UINT64_C(0x2002004022001080), UINT64_C(0x0026002200400810),
	UINT64_C(0x2000808008000400), UINT64_C(0x0022000200883104), UINT64_C(0x2c88808001000200),
	UINT64_C(0x1112000080420104), UINT64_C(0x0100908000400020), UINT64_C(0x0080808020004000),
	UINT64_C(0x0008410010200300), UINT64_C(0x0014808010000801), UINT64_C(0x0080050011004800),
	UINT64_C(0x00d1010002080400), UINT64_C(0xa08004000a300158), UINT64_C(0x1000120005288244),
	UINT64_C(0x020c400080248002), UINT64_C(0x4020411200220082), UINT64_C(0x8028100080200881),
	UINT64_C(0x1210001100090020), UINT64_C(0x005a005200084520), UINT64_C(0x0080040080020080),
	UINT64_C(0x0002000200840148), UINT64_C(0x440b210a00006884), UINT64_C(0x0880401028800080),
	UINT64_C(0x2000802008804000), UINT64_C(0x2160001041002900), UINT64_C(0x201020400a001200),
	UINT64_C(0x8018010009001104), UINT64_C(0x2480800400800200), UINT64_C(0x0000010804000210),
	UINT64_C(0x0020008042003104), UINT64_C(0x0000802040008000), UINT64_C(0x0010002000404000),
	UINT64_C(0x0001001020010041), UINT64_C(0x8840100009010022), UINT64_C(0x8048004020040400),
	UINT64_C(0x2000040002008080), UINT64_C(0x0803000200010084), UINT64_C(0x0010004400820001),
	UINT64_C(0xa881410720800100), UINT64_C(0x0008208a00450600), UINT64_C(0x0000802000100080),
	UINT64_C(0x004408a240920200), UINT64_C(0x6000800400080080), UINT64_C(0x0020040002008080),
	UINT64_C(0x8003000a00245500), UINT64_C(0x0100842081004200), UINT64_C(0x0000201840820102),
	UINT64_C(0x0011002040008019), UINT64_C(0x001181c20020501a), UINT64_C(0x1c10014488201101),
	UINT64_C(0x0002002004110802), UINT64_C(0x0881000204000801), UINT64_C(0x2000880142100094),
	UINT64_C(0x000154050022c082),
};
static const uint64_t bishop_magics[64] = {
	UINT64_C(0x0002021418048103), UINT64_C(0x0023100102108001), UINT64_C(0x1622008112000818),
	UINT64_C(0x06108912010002d0), UINT64_C(0x4002021000202400), UINT64_C(0x41c1010840012100),
	UINT64_C(0x0028841002d10100), UINT64_C(0x2820818409114080), UINT64_C(0x0082242048312111),
	UINT64_C(0xa028680828004050), UINT64_C(0x0030100142142020), UINT64_C(0x8100044040880800),
	UINT64_C(0x9004040422200240), UINT64_C(0x2400011118400422), UINT64_C(0x0030204402201008),
	UINT64_C(0x4280468a4c022081), UINT64_C(0x0540041010810140), UINT64_C(0x4030000882808400),
	UINT64_C(0x4010000104082045), UINT64_C(0xc004048804101401), UINT64_C(0x0102023401210801),
	UINT64_C(0x0000400200422000), UINT64_C(0x0882100100906408), UINT64_C(0x1001000441009008),
	UINT64_C(0x40d1400028020442), UINT64_C(0x040808203c1002ac), UINT64_C(0x1000500818068010),
	UINT64_C(0x2084080020202040), UINT64_C(0x0001010104104000), UINT64_C(0x0008020000404200),
	UINT64_C(0x004829000a414810), UINT64_C(0x2584104082260204), UINT64_C(0x0828044480d0e080),
	UINT64_C(0x0101442006300100), UINT64_C(0x4000840112300040), UINT64_C(0x0220a00800010104),
	UINT64_C(0x8010490042040040), UINT64_C(0x0000a20080441001), UINT64_C(0x4290010120404c00),
	UINT64_C(0x802801004a090042), UINT64_C(0x0001042221044004), UINT64_C(0x440410a808004410),
	UINT64_C(0x0010840048010101), UINT64_C(0x1010002018020900), UINT64_C(0x05102004a0822c00),
	UINT64_C(0x0040040802882210), UINT64_C(0x1a101400e0808c01), UINT64_C(0x3101015400800100),
	UINT64_C(0x20020801d8080000), UINT64_C(0x0009804c42200000), UINT64_C(0x0001282422280004),
	UINT64_C(0x1040000084040021), UINT64_C(0x0090042003440002), UINT64_C(0x8000084810042001),
	UINT64_C(0x00411001120080d0), UINT64_C(0x0820480541002910), UINT64_C(0xb211008041201000),
	UINT64_C(0x020000288808484c), UINT64_C(0x1108801080580800), UINT64_C(0x0020100280840c40),
	UINT64_C(0x04400801210a4c02), UINT64_C(0x8004048520140110), UINT64_C(0x004c100408008408),
	UINT64_C(0x23502022042821a0),
};

static const int rook_dirs[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
static const int bishop_dirs[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };

/* The occupancy that matters to a slider on `sq`: its rays without their last square. */
static uint64_t relevant_mask(int sq, const int dirs[4][2])
{
	uint64_t b = 0;
	for (int i = 0; i < 4; i++) {
		int f = sq % 8 + dirs[i][0], r = sq / 8 + dirs[i][1];
		while (on_board(f + dirs[i][0], r + dirs[i][1])) {
			b |= BB(r * 8 + f);
			f += dirs[i][0];
			r += dirs[i][1];
		}
	}
	return b;
}

/*
 * Finds a magic for `sq` and fills its slice of the table (starting at `table`); returns
 * the slice's size. The first candidate is `first` (when not 0), the others sparse random
 * words (the AND of three). A magic must map every subset of the mask to a slot that holds
 * either nothing yet or the same attack set (constructive collisions are fine). `epoch`
 * marks which slots this attempt has written, so that the slice need not be cleared between
 * attempts.
 */
static size_t find_magic(chess_magic_t *m, int sq, const int dirs[4][2], uint64_t *table,
                         uint64_t first, uint64_t *rng)
{
	enum {
		MAX_SUBSETS = 4096
	};
	uint64_t occ[MAX_SUBSETS], att[MAX_SUBSETS];
	unsigned epoch[MAX_SUBSETS];
	uint64_t mask = relevant_mask(sq, dirs);
	int bits = chess_popcount(mask);
	size_t size = (size_t)1 << bits;
	size_t n = 0;

	/* Carry-Rippler: every subset of the mask. */
	uint64_t sub = 0;
	do {
		occ[n] = sub;
		att[n] = slide(sq, dirs, sub);
		n++;
		sub = (sub - mask) & mask;
	} while (sub);

	m->mask = mask;
	m->shift = (unsigned)(64 - bits);
	m->attacks = table;
	memset(epoch, 0, size * sizeof(epoch[0]));
	for (unsigned attempt = 1;; attempt++) {
		uint64_t magic = attempt == 1 ? first : 0;
		while (!magic) {
			uint64_t c = next_random(rng) & next_random(rng) & next_random(rng);
			if (chess_popcount((mask * c) >> 56) >= 6)
				magic = c;
		}
		size_t i;
		for (i = 0; i < n; i++) {
			size_t idx = (size_t)((occ[i] * magic) >> m->shift);
			if (epoch[idx] != attempt) {
				epoch[idx] = attempt;
				table[idx] = att[i];
			} else if (table[idx] != att[i]) {
				break;
			}
		}
		if (i == n) {
			m->magic = magic;
			return size;
		}
	}
}

static void init_sliders(cutoff_chess_t *t)
{
	uint64_t rng = UINT64_C(0x2545f4914f6cdd1d);
	uint64_t *next = t->slider;
	for (int sq = 0; sq < 64; sq++)
		next += find_magic(&t->rook[sq], sq, rook_dirs, next, rook_magics[sq], &rng);
	for (int sq = 0; sq < 64; sq++)
		next += find_magic(&t->bishop[sq], sq, bishop_dirs, next, bishop_magics[sq], &rng);
}

static void init_leapers(cutoff_chess_t *t)
{
	static const int knight_steps[8][2] = { { 1, 2 },   { 2, 1 },   { 2, -1 }, { 1, -2 },
		                                { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
	static const int king_steps[8][2] = { { 1, 0 },  { 1, 1 },   { 0, 1 },  { -1, 1 },
		                              { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 } };
	static const int white_pawn[2][2] = { { -1, 1 }, { 1, 1 } };
	static const int black_pawn[2][2] = { { -1, -1 }, { 1, -1 } };
	for (int sq = 0; sq < 64; sq++) {
		t->knight[sq] = leaper(sq, knight_steps, 8);
		t->king[sq] = leaper(sq, king_steps, 8);
		t->pawn[CHESS_WHITE][sq] = leaper(sq, white_pawn, 2);
		t->pawn[CHESS_BLACK][sq] = leaper(sq, black_pawn, 2);
	}
}

static void init_lines(cutoff_chess_t *t)
{
	for (int a = 0; a < 64; a++) {
		for (int b = 0; b < 64; b++) {
			t->between[a][b] = 0;
			t->line[a][b] = 0;
			if (a == b)
				continue;
			const int(*dirs)[2] = NULL;
			if (slide(a, rook_dirs, 0) & BB(b))
				dirs = rook_dirs;
			else if (slide(a, bishop_dirs, 0) & BB(b))
				dirs = bishop_dirs;
			if (!dirs)
				continue;
			t->line[a][b] = (slide(a, dirs, 0) & slide(b, dirs, 0)) | BB(a) | BB(b);
			t->between[a][b] = slide(a, dirs, BB(b)) & slide(b, dirs, BB(a));
		}
	}
}

static void init_keys(cutoff_chess_t *t)
{
	uint64_t rng = UINT64_C(0x1d8e4e27c47d124f);
	for (int c = 0; c < 2; c++) {
		for (int pt = 0; pt < 6; pt++) {
			for (int sq = 0; sq < 64; sq++)
				t->z_piece[c][pt][sq] = next_random(&rng);
		}
	}
	/* One key per right, combined by XOR, so that losing a right is one XOR pair. */
	uint64_t right[4];
	for (int i = 0; i < 4; i++)
		right[i] = next_random(&rng);
	for (int rights = 0; rights < 16; rights++) {
		t->z_castling[rights] = 0;
		for (int i = 0; i < 4; i++) {
			if (rights & (1 << i))
				t->z_castling[rights] ^= right[i];
		}
	}
	for (int f = 0; f < 8; f++)
		t->z_ep[f] = next_random(&rng);
	t->z_side = next_random(&rng);

	for (int sq = 0; sq < 64; sq++)
		t->castle_keep[sq] = 15;
	t->castle_keep[4] = (uint8_t) ~(CASTLE_WK | CASTLE_WQ) & 15;  /* e1 */
	t->castle_keep[7] = (uint8_t)~CASTLE_WK & 15;                 /* h1 */
	t->castle_keep[0] = (uint8_t)~CASTLE_WQ & 15;                 /* a1 */
	t->castle_keep[60] = (uint8_t) ~(CASTLE_BK | CASTLE_BQ) & 15; /* e8 */
	t->castle_keep[63] = (uint8_t)~CASTLE_BK & 15;                /* h8 */
	t->castle_keep[56] = (uint8_t)~CASTLE_BQ & 15;                /* a8 */
}

void chess_tables_init(cutoff_chess_t *t)
{
	init_leapers(t);
	init_sliders(t);
	init_lines(t);
	init_keys(t);
}
