/* An exact solver for Cztery w rzędzie (Connect Four, 7 columns x 6 rows).
 *
 * The ideas are Pascal Pons' ("Solving Connect 4: how to build a perfect AI",
 * blog.gamesolver.org), the code is ours:
 *
 * - Bitboards: column c holds bits 7c .. 7c+5 from the bottom up, bit 7c+6
 *   is always empty (so shifts never wrap). `cur` = discs of the player to
 *   move, `mask` = all discs; `cur + mask` is a unique key of the position
 *   (games/connect4/bits.py holds the same layout in Python).
 * - Scores (Pons' convention): 0 draw; a win with one's own n-th disc scores
 *   22 - n (positive = the player to move wins, the faster the higher); a
 *   loss against the opponent's n-th disc scores n - 22.
 * - Negamax alpha-beta that only ever plays moves that do not hand the
 *   opponent an immediate win (a node's mover never has an immediate win: the
 *   previous mover blocked it), moves ordered by the number of threats they
 *   create, centre columns first (after the move that cut off before); a
 *   transposition table of lower / upper bounds (a prime number of entries, kept between
 *   calls: a bound is true of the position whatever the query); bounds from
 *   the lines still open to each side; the exact score by a series of
 *   null-window searches that narrow [min, max] (a binary search, biased
 *   towards 0 first).
 * - Enhanced transposition cutoffs: before searching, a child whose stored
 *   upper bound already gives the node beta ends it.
 * - An optional deadline: the clock is read every 4096 nodes; a search past
 *   it returns C4_TIMEOUT, and the table keeps only true bounds. An optional
 *   bound in nodes does the same, and gives up at the same node however
 *   loaded the machine (the review's: the same game, the same figures).
 *
 * The site's early draw (all 69 lines dead) does not change any score: once
 * no line can be completed every continuation is a draw. Built by
 * games/connect4/solver_build.py (cffi, API mode).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define C4_W 7
#define C4_H 6
#define C4_H1 7
#define C4_CELLS 42
#define C4_MIN_SCORE (-(C4_CELLS / 2) + 3)
#define C4_MAX_SCORE ((C4_CELLS + 1) / 2 - 3)
#define C4_TIMEOUT (-1000)
#define C4_ILLEGAL (-2000)
#define ETC_BELOW 34 /* nearer the leaves its probes cost more than they save */

typedef uint64_t u64;

static const u64 BOTTOM = 0x40810204081ULL;  /* bit 7c for every column */
static const u64 BOARD = 0x40810204081ULL * 63; /* the 42 playable cells */

static inline u64 column_mask(int c) { return ((u64)63) << (c * C4_H1); }
static inline u64 top_mask(int c) { return ((u64)1) << (C4_H - 1 + c * C4_H1); }
static inline u64 bottom_mask(int c) { return ((u64)1) << (c * C4_H1); }

/* Empty cells that would complete a four for the owner of `pos`. */
static inline u64 winning_cells(u64 pos, u64 mask) {
    u64 r = (pos << 1) & (pos << 2) & (pos << 3); /* vertical */
    u64 p;
    /* horizontal */
    p = (pos << C4_H1) & (pos << 2 * C4_H1);
    r |= p & (pos << 3 * C4_H1);
    r |= p & (pos >> C4_H1);
    p = (pos >> C4_H1) & (pos >> 2 * C4_H1);
    r |= p & (pos << C4_H1);
    r |= p & (pos >> 3 * C4_H1);
    /* diagonal, one way */
    p = (pos << C4_H) & (pos << 2 * C4_H);
    r |= p & (pos << 3 * C4_H);
    r |= p & (pos >> C4_H);
    p = (pos >> C4_H) & (pos >> 2 * C4_H);
    r |= p & (pos << C4_H);
    r |= p & (pos >> 3 * C4_H);
    /* diagonal, the other way */
    p = (pos << (C4_H + 2)) & (pos << 2 * (C4_H + 2));
    r |= p & (pos << 3 * (C4_H + 2));
    r |= p & (pos >> (C4_H + 2));
    p = (pos >> (C4_H + 2)) & (pos >> 2 * (C4_H + 2));
    r |= p & (pos << (C4_H + 2));
    r |= p & (pos >> 3 * (C4_H + 2));
    return r & (BOARD ^ mask);
}

static inline int popcount(u64 x) { return __builtin_popcountll(x); }

/* True if `bits` holds four in a row anywhere. */
static inline int has_four(u64 bits) {
    static const int dirs[4] = {1, C4_H1, C4_H, C4_H + 2};
    for (int i = 0; i < 4; i++) {
        u64 m = bits & (bits >> dirs[i]);
        if (m & (m >> 2 * dirs[i]))
            return 1;
    }
    return 0;
}

/* ---- transposition table ------------------------------------------------
 * Pons' table: the index is key mod a prime TT_SIZE (every bit of the key
 * counts: key mod 2^23 saw only the first three columns, so positions that
 * differ to the right shared a slot); stored: the key's low 32 bits, which
 * with its residue mod the prime (> 2^17) identify a key below 2^49 exactly
 * (Chinese remainder). One 8-byte entry a slot: one cache line a probe.
 * A value byte: 0 empty, 1 .. 37 an upper bound (score + 19), 64 + 1 ..
 * 64 + 37 a lower bound. An entry counts only in the generation it was
 * written in (the padding's two bytes): c4_reset forgets the whole table by
 * starting the next one, not by clearing 67 MB. */

#define TT_SIZE 8388593u /* the largest prime below 2^23 */

typedef struct {
    uint32_t key;
    uint8_t val;
    uint8_t move; /* 1 + the column of the move that cut off, 0 none */
    uint16_t gen; /* the generation it was written in; 0: never */
} tt_entry;
_Static_assert(sizeof(tt_entry) == 8, "one 8-byte entry a slot");

static tt_entry *tt;
static uint16_t gen = 1;

static int tt_ready(void) {
    if (!tt)
        tt = calloc(TT_SIZE, sizeof(tt_entry));
    return tt != NULL;
}

static inline void tt_put(u64 key, int lower, int score, int move) {
    tt_entry *e = &tt[key % TT_SIZE];
    e->key = (uint32_t)key;
    e->val = (uint8_t)((lower ? 64 : 0) + score - C4_MIN_SCORE + 1);
    e->move = (uint8_t)(move + 1);
    e->gen = gen;
}

/* 0 when absent; else fills *lower, *score and *move (-1: none). */
static inline int tt_get(u64 key, int *lower, int *score, int *move) {
    const tt_entry *e = &tt[key % TT_SIZE];
    uint8_t v = e->val;
    if (!v || e->key != (uint32_t)key || e->gen != gen)
        return 0;
    *lower = v >= 64;
    *score = (v & 63) + C4_MIN_SCORE - 1;
    *move = e->move - 1;
    return 1;
}

/* ---- search ------------------------------------------------------------- */

static u64 nodes;
static double deadline; /* CLOCK_MONOTONIC seconds; 0 = none */
static u64 node_stop;   /* give up when `nodes` reaches it; 0 = none */
static int timed_out;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const int CENTRE_ORDER[C4_W] = {3, 2, 4, 1, 5, 0, 6};

/* Moves of the player to move that do not let the opponent win at once
 * (0 when every move loses). */
static inline u64 non_losing_moves(u64 cur, u64 mask) {
    u64 possible = (mask + BOTTOM) & BOARD;
    u64 theirs = winning_cells(cur ^ mask, mask);
    u64 forced = possible & theirs;
    if (forced) {
        if (forced & (forced - 1))
            return 0; /* two immediate threats: lost */
        possible = forced;
    }
    return possible & ~(theirs >> 1); /* never play just under their threat */
}

/* The score of (cur, mask) within [alpha, beta): exact inside, a bound
 * outside. The player to move has no immediate win. */
static int negamax(u64 cur, u64 mask, int moves, int alpha, int beta) {
    nodes++;
    if ((deadline > 0 && !(nodes & 4095) && now_s() > deadline) || (node_stop && nodes >= node_stop))
        timed_out = 1;
    if (timed_out)
        return 0;
    u64 next = non_losing_moves(cur, mask);
    if (!next)
        return -(C4_CELLS - moves) / 2;
    if (moves >= C4_CELLS - 2)
        return 0; /* neither can win with the last two discs */
    int lo = -(C4_CELLS - 2 - moves) / 2; /* the opponent cannot win next move */
    if (alpha < lo) {
        alpha = lo;
        if (alpha >= beta)
            return alpha;
    }
    int hi = (C4_CELLS - 1 - moves) / 2; /* we cannot win at once */
    /* a side with no line left free of the other's discs cannot win (the
     * site's early draw, seen from one side) */
    if (!has_four(BOARD & ~(cur ^ mask))) {
        if (hi > 0)
            hi = 0;
    }
    if (!has_four(BOARD & ~cur)) {
        if (lo < 0)
            lo = 0;
    }
    u64 key = cur + mask;
    int lower, bound, tt_move = -1;
    if (tt_get(key, &lower, &bound, &tt_move)) {
        if (lower) {
            if (bound > lo)
                lo = bound;
        } else if (bound < hi) {
            hi = bound;
        }
    }
    if (alpha < lo) {
        alpha = lo;
        if (alpha >= beta)
            return alpha;
    }
    if (beta > hi) {
        beta = hi;
        if (alpha >= beta)
            return beta;
    }

    /* enhanced transposition cutoff (a quarter fewer nodes at 8 discs) */
    for (u64 m = moves < ETC_BELOW ? next : 0; m; m &= m - 1) {
        u64 move = m & -m;
        int clower, cbound, cmove;
        if (tt_get((cur ^ mask) + (mask | move), &clower, &cbound, &cmove) && !clower && -cbound >= beta)
            return -cbound;
    }

    /* order: the move that cut off here before, then most threats after
     * the move, centre first among equals */
    u64 order[C4_W];
    int keys[C4_W];
    int n = 0;
    for (int i = 0; i < C4_W; i++) {
        u64 move = next & column_mask(CENTRE_ORDER[i]);
        if (!move)
            continue;
        int k = CENTRE_ORDER[i] == tt_move ? 100 : popcount(winning_cells(cur | move, mask));
        int j = n++;
        while (j > 0 && keys[j - 1] < k) {
            keys[j] = keys[j - 1];
            order[j] = order[j - 1];
            j--;
        }
        keys[j] = k;
        order[j] = move;
    }
    for (int i = 0; i < n; i++) {
        u64 nmask = mask | order[i];
        int score = -negamax(cur ^ mask, nmask, moves + 1, -beta, -alpha);
        if (timed_out)
            return 0;
        if (score >= beta) {
            tt_put(key, 1, score, __builtin_ctzll(order[i]) / C4_H1);
            return score;
        }
        if (score > alpha)
            alpha = score;
    }
    tt_put(key, 0, alpha, -1);
    return alpha;
}

/* Exact score of a position whose mover has no immediate win. */
static int solve_quiet(u64 cur, u64 mask, int moves) {
    int lo = -(C4_CELLS - moves) / 2;
    int hi = (C4_CELLS + 1 - moves) / 2;
    while (lo < hi) {
        int med = lo + (hi - lo) / 2;
        if (med <= 0 && lo / 2 < med)
            med = lo / 2;
        else if (med >= 0 && hi / 2 > med)
            med = hi / 2;
        int r = negamax(cur, mask, moves, med, med + 1);
        if (timed_out)
            return C4_TIMEOUT;
        if (r <= med)
            hi = r;
        else
            lo = r;
    }
    return lo;
}

static void start(double budget_s, u64 max_nodes) {
    timed_out = 0;
    deadline = budget_s > 0 ? now_s() + budget_s : 0;
    node_stop = max_nodes ? nodes + max_nodes : 0;
}

/* ---- the interface (games/connect4/solver_build.py) --------------------- */

/* Exact score for the player to move of a position (not finished, fewer than
 * 42 discs). C4_TIMEOUT past budget_s seconds (budget_s <= 0: no limit) or
 * past max_nodes nodes (0: no limit);
 * C4_ILLEGAL when the table could not be allocated. */
int c4_solve(u64 cur, u64 mask, int moves, double budget_s, u64 max_nodes) {
    if (!tt_ready())
        return C4_ILLEGAL;
    start(budget_s, max_nodes);
    if (winning_cells(cur, mask) & ((mask + BOTTOM) & BOARD))
        return (C4_CELLS + 1 - moves) / 2;
    return solve_quiet(cur, mask, moves);
}

/* The score for the player to move of playing each column:
 * out[c] = the mover's score after playing c, C4_ILLEGAL for a full column.
 * Returns 0, or C4_TIMEOUT past the budget. */
int c4_move_values(u64 cur, u64 mask, int moves, double budget_s, u64 max_nodes, int *out) {
    if (!tt_ready())
        return C4_ILLEGAL;
    start(budget_s, max_nodes);
    u64 possible = (mask + BOTTOM) & BOARD;
    u64 mine = winning_cells(cur, mask);
    for (int c = 0; c < C4_W; c++) {
        u64 move = possible & column_mask(c);
        if (!move) {
            out[c] = C4_ILLEGAL;
            continue;
        }
        if (move & mine) {
            out[c] = (C4_CELLS + 1 - moves) / 2;
            continue;
        }
        u64 ncur = cur ^ mask, nmask = mask | move;
        if (moves + 1 == C4_CELLS) {
            out[c] = 0;
            continue;
        }
        /* the opponent now moves: if he can win at once it is his score */
        int s = winning_cells(ncur, nmask) & ((nmask + BOTTOM) & BOARD) ? (C4_CELLS + 1 - (moves + 1)) / 2
                                                                      : solve_quiet(ncur, nmask, moves + 1);
        if (timed_out)
            return C4_TIMEOUT;
        out[c] = -s;
    }
    return 0;
}

/* 1 if the score of the position (mover without an immediate win) is at
 * least `v`, 0 if not, C4_TIMEOUT past the budget. */
int c4_at_least(u64 cur, u64 mask, int moves, int v, double budget_s, u64 max_nodes) {
    if (!tt_ready())
        return C4_ILLEGAL;
    start(budget_s, max_nodes);
    if (winning_cells(cur, mask) & ((mask + BOTTOM) & BOARD))
        return (C4_CELLS + 1 - moves) / 2 >= v;
    int r = negamax(cur, mask, moves, v - 1, v);
    if (timed_out)
        return C4_TIMEOUT;
    return r >= v;
}

/* Nodes searched since the process started. */
unsigned long long c4_nodes(void) { return nodes; }

/* Forget everything the table holds: the next generation (every 65,535th
 * time, the table cleared, so an old entry never comes back). */
void c4_reset(void) {
    if (++gen == 0) {
        if (tt)
            memset(tt, 0, TT_SIZE * sizeof(tt_entry));
        gen = 1;
    }
}
