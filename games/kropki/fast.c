/* Kropki's hot path for the computer player: the board, the capture rules
 * and a Monte Carlo tree search (UCT with RAVE) with fast playouts.
 *
 * The rules are a line-by-line port of games/kropki/engine.py, which stays
 * the reference: the same point bytes (one-point border, stride = width + 1,
 * the _PUT/_BLUE/_CAPTURED/_BOUND/_EMPTY_BASE/_BAD bits), the same chain
 * walk and flood, the same order of operations, so a board copied in from
 * Python and played on here is byte for byte what the engine would make
 * (tests/bots/test_kropki_fast_agrees.py replays random games through both).
 * Built by games/kropki/fast_build.py (cffi, API mode).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define KF_BLUE 1
#define KF_PUT 2
#define KF_CAPTURED 4
#define KF_BOUND 8
#define KF_EMPTY_BASE 16
#define KF_BAD 32

#define KF_MAX_W 40
#define KF_MAX_H 40
#define KF_MAX_SIZE ((KF_MAX_W + 1) * (KF_MAX_H + 2) + 1) /* as kf_board_size */

typedef struct {
    int w, h, stride, size;
    int free_points;
    int captured[3]; /* by dot colour; index 0 unused */
    unsigned char pts[KF_MAX_SIZE];
} KfBoard;

/* Scratch memory of the rules (never copied with a board). */
typedef struct {
    uint32_t mark[KF_MAX_SIZE];
    uint32_t stamp;
    int chains[4][KF_MAX_SIZE];
    int chain_len[4];
    int inside[4];
    int region[KF_MAX_SIZE + 8];
    int walk[KF_MAX_SIZE + 8];
} KfScratch;

static KfScratch scratch;

static uint32_t new_stamp(void) {
    scratch.stamp++;
    if (scratch.stamp == 0) {
        memset(scratch.mark, 0, sizeof(scratch.mark));
        scratch.stamp = 1;
    }
    return scratch.stamp;
}

static inline int colour_bit(int player) { return player == 2 ? KF_BLUE : 0; }

static inline void board_copy(KfBoard *dst, const KfBoard *src) {
    memcpy(dst, src, offsetof(KfBoard, pts) + (size_t)src->size);
}

static inline int offset_of(const KfBoard *b, int d) {
    int s = b->stride;
    switch (d) {
    case 0: return -s;
    case 1: return -s + 1;
    case 2: return 1;
    case 3: return s + 1;
    case 4: return s;
    case 5: return s - 1;
    case 6: return -1;
    default: return -s - 1;
    }
}

/* _gaps: up to four (direction, inside) pairs; returns their count. */
static int gaps_of(const KfBoard *b, int center, int colour, int *dirs, int *insides) {
    const unsigned char *p = b->pts;
    int s = b->stride;
    int want = KF_PUT | colour, mask = KF_PUT | KF_CAPTURED | KF_BLUE;
    int west = center - 1, east = center + 1, north = center - s, south = center + s;
    int has_w = (p[west] & mask) == want;
    int has_e = (p[east] & mask) == want;
    int has_n = (p[north] & mask) == want;
    int has_s = (p[south] & mask) == want;
    int n = 0;
    if (!has_w) {
        if ((p[north - 1] & mask) == want) { dirs[n] = 7; insides[n++] = west; }
        else if (has_n) { dirs[n] = 0; insides[n++] = west; }
    }
    if (!has_s) {
        if ((p[south - 1] & mask) == want) { dirs[n] = 5; insides[n++] = south; }
        else if (has_w) { dirs[n] = 6; insides[n++] = south; }
    }
    if (!has_e) {
        if ((p[south + 1] & mask) == want) { dirs[n] = 3; insides[n++] = east; }
        else if (has_s) { dirs[n] = 4; insides[n++] = east; }
    }
    if (!has_n) {
        if ((p[north + 1] & mask) == want) { dirs[n] = 1; insides[n++] = north; }
        else if (has_e) { dirs[n] = 2; insides[n++] = north; }
    }
    return n;
}

/* _walk_chain into out; returns its length (0 when it ran into the border)
 * and sets *encloses. */
static int walk_chain(const KfBoard *b, int start, int colour, int direction, int *out, int *encloses) {
    const unsigned char *p = b->pts;
    int want = KF_PUT | colour, mask = KF_PUT | KF_CAPTURED | KF_BLUE;
    uint32_t st = new_stamp();
    int center = start + offset_of(b, direction);
    int n = 0;
    long guard = 8L * b->size + 64;
    *encloses = 0;
    out[n++] = start;
    out[n++] = center;
    scratch.mark[center] = st;
    for (;;) {
        int pos;
        if (--guard < 0)
            return 0; /* the engine would never get here: a safety net */
        direction = ((direction + 6) | 1) & 7;
        pos = center + offset_of(b, direction);
        while ((p[pos] & mask) != want) {
            if (p[pos] & KF_BAD)
                return 0;
            direction = (direction + 1) & 7;
            pos = center + offset_of(b, direction);
        }
        if (pos == start)
            break;
        if (scratch.mark[pos] == st) {
            while (out[n - 1] != pos) {
                scratch.mark[out[n - 1]] = 0;
                n--;
            }
        } else {
            scratch.mark[pos] = st;
            out[n++] = pos;
        }
        center = pos;
    }
    {
        int s = b->stride;
        long area = 0;
        int px = out[n - 1] % s, py = out[n - 1] / s;
        for (int i = 0; i < n; i++) {
            int x = out[i] % s, y = out[i] / s;
            area += (long)px * y - (long)py * x;
            px = x;
            py = y;
        }
        *encloses = area < 0;
    }
    return n;
}

/* _enclose: returns 1 when the chain took something. */
static int enclose(KfBoard *b, const int *chain, int chain_len, int inside, int player) {
    unsigned char *p = b->pts;
    int s = b->stride;
    int colour = colour_bit(player);
    int bound_own = KF_PUT | KF_BOUND | colour;
    int *region = scratch.region;
    int n = 0, i = 0, opponent_dots = 0;
    uint32_t st = new_stamp();
    for (int k = 0; k < chain_len; k++) {
        if (chain[k] == inside)
            return 0;
        scratch.mark[chain[k]] = st;
    }
    scratch.mark[inside] = st;
    if ((p[inside] & (KF_PUT | KF_BOUND | KF_BLUE)) == bound_own)
        return 0;
    region[n++] = inside;
    while (i < n) {
        int pos = region[i++];
        int cell = p[pos];
        int next[4];
        if (cell & KF_BAD)
            return 0;
        if ((cell & KF_PUT) && (cell & KF_BLUE) != colour)
            opponent_dots++;
        next[0] = pos - s;
        next[1] = pos + s;
        next[2] = pos - 1;
        next[3] = pos + 1;
        for (int k = 0; k < 4; k++) {
            int nx = next[k];
            if (scratch.mark[nx] != st) {
                scratch.mark[nx] = st;
                if ((p[nx] & (KF_PUT | KF_BOUND | KF_BLUE)) != bound_own)
                    region[n++] = nx;
            }
        }
    }
    if (!opponent_dots) {
        for (int k = 0; k < n; k++) {
            int cell = p[region[k]];
            if (!(cell & KF_PUT))
                p[region[k]] = (unsigned char)((cell & ~KF_BLUE) | colour | KF_EMPTY_BASE);
        }
        return 0;
    }
    for (int k = 0; k < chain_len; k++)
        p[chain[k]] |= KF_BOUND;
    {
        int opponent = 3 - player;
        for (int k = 0; k < n; k++) {
            int pos = region[k];
            int cell = p[pos];
            if (!(cell & KF_PUT)) {
                if (!(cell & KF_CAPTURED))
                    b->free_points--;
                p[pos] = (unsigned char)((cell & ~(KF_EMPTY_BASE | KF_BLUE)) | KF_CAPTURED | colour);
            } else if ((cell & KF_BLUE) != colour) {
                if (!(cell & KF_CAPTURED))
                    b->captured[opponent]++;
                p[pos] = (unsigned char)((cell & ~KF_BOUND) | KF_CAPTURED);
            } else if (cell & KF_CAPTURED) {
                b->captured[player]--;
                p[pos] = (unsigned char)(cell & ~KF_CAPTURED);
            }
        }
    }
    return 1;
}

/* _find_captures: returns how many territories were made. */
static int find_captures(KfBoard *b, int pos, int player) {
    int colour = colour_bit(player);
    int dirs[4], insides[4];
    int ngaps = gaps_of(b, pos, colour, dirs, insides);
    int wanted = ngaps - 1;
    int nchains = 0, taken = 0;
    int order[4];
    if (wanted <= 0)
        return 0;
    for (int g = 0; g < ngaps; g++) {
        int encloses;
        int len = walk_chain(b, pos, colour, dirs[g], scratch.walk, &encloses);
        if (encloses) {
            memcpy(scratch.chains[nchains], scratch.walk, sizeof(int) * (size_t)len);
            scratch.chain_len[nchains] = len;
            scratch.inside[nchains] = insides[g];
            nchains++;
            if (nchains == wanted)
                break;
        } else if (0 < len && len < 4) {
            wanted--;
            if (nchains == wanted)
                break;
        }
    }
    /* stable sort by chain length, as Python's list.sort */
    for (int k = 0; k < nchains; k++)
        order[k] = k;
    for (int k = 1; k < nchains; k++) {
        int v = order[k], j = k - 1;
        while (j >= 0 && scratch.chain_len[order[j]] > scratch.chain_len[v]) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = v;
    }
    for (int k = 0; k < nchains; k++) {
        int c = order[k];
        taken += enclose(b, scratch.chains[c], scratch.chain_len[c], scratch.inside[c], player);
    }
    return taken;
}

static void clear_empty_enclosure(KfBoard *b, int pos) {
    unsigned char *p = b->pts;
    int s = b->stride;
    int *stack = scratch.region;
    int n = 0;
    if (!(p[pos] & KF_EMPTY_BASE))
        return;
    p[pos] &= (unsigned char)~KF_EMPTY_BASE;
    stack[n++] = pos;
    while (n) {
        int here = stack[--n];
        int next[4] = {here - s, here + s, here - 1, here + 1};
        for (int k = 0; k < 4; k++) {
            if (p[next[k]] & KF_EMPTY_BASE) {
                p[next[k]] &= (unsigned char)~KF_EMPTY_BASE;
                stack[n++] = next[k];
            }
        }
    }
}

static int side_of(int node, int s, int px, int py) {
    int x = node % s, y = node / s, dy;
    if (x > px)
        return 0;
    dy = y - py;
    if (dy == 1)
        return 1;
    if (dy == -1)
        return -1;
    if (dy == 0)
        return 2; /* on the row: keep the previous side */
    return 0;
}

static int inside_ring(const KfBoard *b, int pos, const int *ring, int n) {
    int s = b->stride;
    int px = pos % s, py = pos / s;
    int crossings = 0, state = 0;
    for (int k = 0; k < n; k++) {
        int now = side_of(ring[k], s, px, py);
        if (now == 2)
            continue;
        if (now && state == -now)
            crossings++;
        state = now;
    }
    if (state) {
        int first = 0;
        for (int k = 0; k < n; k++) {
            int now = side_of(ring[k], s, px, py);
            if (now != 2) {
                first = now;
                break;
            }
        }
        if (first == -state)
            crossings++;
    }
    return crossings % 2 == 1;
}

static void opponent_takes(KfBoard *b, int pos, int owner) {
    unsigned char *p = b->pts;
    int colour = colour_bit(owner);
    int probe = pos;
    for (;;) {
        int dirs[4], insides[4], ngaps;
        probe--;
        while (probe >= 0 && (p[probe] & (KF_PUT | KF_BLUE)) != (KF_PUT | colour))
            probe--;
        if (probe < 0)
            return;
        ngaps = gaps_of(b, probe, colour, dirs, insides);
        for (int g = 0; g < ngaps; g++) {
            int encloses;
            int len = walk_chain(b, probe, colour, dirs[g], scratch.walk, &encloses);
            if (encloses && inside_ring(b, pos, scratch.walk, len)) {
                memcpy(scratch.chains[0], scratch.walk, sizeof(int) * (size_t)len);
                enclose(b, scratch.chains[0], len, insides[g], owner);
                return;
            }
        }
    }
}

/* _place: put player's dot on the free pos. Returns 1 when the new dot
 * itself was taken at once. */
static int place(KfBoard *b, int pos, int player) {
    unsigned char *p = b->pts;
    int cell = p[pos];
    int colour = colour_bit(player);
    p[pos] = (unsigned char)((cell & ~KF_BLUE) | colour | KF_PUT);
    b->free_points--;
    if (!(cell & KF_EMPTY_BASE)) {
        find_captures(b, pos, player);
        return 0;
    }
    if ((cell & KF_BLUE) == colour) {
        p[pos] &= (unsigned char)~KF_EMPTY_BASE;
        return 0;
    }
    if (find_captures(b, pos, player) > 0) {
        clear_empty_enclosure(b, pos);
        return 0;
    }
    opponent_takes(b, pos, 3 - player);
    return 1;
}

static inline int is_free(const KfBoard *b, int pos) {
    return !(b->pts[pos] & (KF_PUT | KF_CAPTURED | KF_BAD));
}

/* ---- public: rules ---------------------------------------------------- */

int kf_board_size(int w, int h) { return (w + 1) * (h + 2) + 1; }

/* Play player's dot at pos on the raw point array (as the engine's
 * bytearray). counters = {free, captured[1], captured[2]} in and out.
 * Returns 1 when the dot was taken at once, -1 on bad input. */
int kf_place(int w, int h, unsigned char *points, int *counters, int pos, int player) {
    static KfBoard b;
    int taken;
    if (w < 5 || w > KF_MAX_W || h < 5 || h > KF_MAX_H || (player != 1 && player != 2))
        return -1;
    b.w = w;
    b.h = h;
    b.stride = w + 1;
    b.size = kf_board_size(w, h);
    if (pos < 0 || pos >= b.size)
        return -1;
    memcpy(b.pts, points, (size_t)b.size);
    b.free_points = counters[0];
    b.captured[0] = 0;
    b.captured[1] = counters[1];
    b.captured[2] = counters[2];
    if (!is_free(&b, pos))
        return -1;
    taken = place(&b, pos, player);
    memcpy(points, b.pts, (size_t)b.size);
    counters[0] = b.free_points;
    counters[1] = b.captured[1];
    counters[2] = b.captured[2];
    return taken;
}

/* ---- random numbers ----------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static inline uint64_t rng_next(void) {
    /* xorshift64* */
    uint64_t x = rng_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    rng_state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static inline int rng_below(int n) { return (int)(((rng_next() >> 32) * (uint64_t)n) >> 32); }
static inline double rng_unit(void) { return (double)(rng_next() >> 11) * (1.0 / 9007199254740992.0); }

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- playouts ------------------------------------------------------------ */

/* Play random moves from b (player to move first) until no point of the
 * playout area is free; with probability `local` a move goes next to the
 * previous one. Records in first_by[pos] the first player who played pos
 * (AMAF). Returns the final score difference captured[2] - captured[1]
 * seen from player 1: dots of 2 taken by 1 minus dots of 1 taken by 2. */
static int order_buf[KF_MAX_SIZE];

static int playout(KfBoard *b, int player, const int *area, int area_n, unsigned char *first_by, double local,
                   int last) {
    int n = 0;
    for (int k = 0; k < area_n; k++)
        if (is_free(b, area[k]))
            order_buf[n++] = area[k];
    for (int k = n - 1; k > 0; k--) {
        int j = rng_below(k + 1);
        int t = order_buf[k];
        order_buf[k] = order_buf[j];
        order_buf[j] = t;
    }
    int idx = 0;
    for (;;) {
        int pos = -1;
        if (last >= 0 && local > 0 && rng_unit() < local) {
            int d0 = rng_below(8);
            int skip_colour = player == 2 ? 0 : KF_BLUE;
            for (int k = 0; k < 8; k++) {
                int q = last + offset_of(b, (d0 + k) & 7);
                if (is_free(b, q) && !((b->pts[q] & KF_EMPTY_BASE) && (b->pts[q] & KF_BLUE) == skip_colour)) {
                    pos = q;
                    break;
                }
            }
        }
        if (pos < 0) {
            /* one pass over the shuffled points; a point where the mover's
             * dot would only be taken (the other side's empty enclosure) is
             * skipped, as oppai-rs keeps self-captures out of its playouts */
            int skip_colour = player == 2 ? 0 : KF_BLUE;
            while (idx < n) {
                int q = order_buf[idx];
                int cell = b->pts[q];
                if (!is_free(b, q) || ((cell & KF_EMPTY_BASE) && (cell & KF_BLUE) == skip_colour)) {
                    idx++;
                    continue;
                }
                break;
            }
            if (idx >= n)
                break;
            pos = order_buf[idx++];
        }
        if (first_by && !first_by[pos])
            first_by[pos] = (unsigned char)player;
        place(b, pos, player);
        last = pos;
        player = 3 - player;
    }
    return b->captured[2] - b->captured[1];
}

/* ---- search tree ------------------------------------------------------------ */

typedef struct {
    int32_t pos;
    int32_t first_child; /* -1 until expanded */
    int32_t n_children;
    int32_t visits;
    float wins; /* for the player who made `pos` */
    float amaf_visits;
    float amaf_wins;
    float prior; /* added to selection, fades with visits */
} KfNode;

static KfNode *nodes = NULL;
static int nodes_cap = 0, nodes_used = 0;

static int node_alloc(int count) {
    if (nodes_used + count > nodes_cap)
        return -1;
    int first = nodes_used;
    nodes_used += count;
    return first;
}

typedef struct {
    double rave_k;       /* RAVE equivalence */
    double explore;      /* UCT exploration */
    double local;        /* playout locality */
    int expand_after;    /* visits before a node grows children */
    int tactics_depth;   /* nodes at this depth or less get capture priors */
} KfParams;

/* Candidate moves: free points within Chebyshev distance 2 of a dot (or
 * the centre on an empty board). */
static int candidates(const KfBoard *b, int *out) {
    int s = b->stride, n = 0, any = 0;
    uint32_t st = new_stamp();
    for (int y = 0; y < b->h; y++) {
        for (int x = 0; x < b->w; x++) {
            int pos = (y + 1) * s + x + 1;
            if (!(b->pts[pos] & KF_PUT))
                continue;
            any = 1;
            for (int dy = -2; dy <= 2; dy++) {
                int yy = y + dy;
                if (yy < 0 || yy >= b->h)
                    continue;
                for (int dx = -2; dx <= 2; dx++) {
                    int xx = x + dx;
                    if (xx < 0 || xx >= b->w)
                        continue;
                    int q = (yy + 1) * s + xx + 1;
                    if (scratch.mark[q] != st && is_free(b, q)) {
                        scratch.mark[q] = st;
                        out[n++] = q;
                    }
                }
            }
        }
    }
    if (!any) {
        int cx = b->w / 2, cy = b->h / 2;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                out[n++] = (cy + dy + 1) * s + cx + dx + 1;
    }
    return n;
}

/* The playout area: free points in the bounding box of the dots grown by
 * `margin` (the whole board when margin is large). */
static int playout_area(const KfBoard *b, int margin, int *out) {
    int s = b->stride, n = 0;
    int x0 = b->w, x1 = -1, y0 = b->h, y1 = -1;
    for (int y = 0; y < b->h; y++)
        for (int x = 0; x < b->w; x++)
            if (b->pts[(y + 1) * s + x + 1] & KF_PUT) {
                if (x < x0) x0 = x;
                if (x > x1) x1 = x;
                if (y < y0) y0 = y;
                if (y > y1) y1 = y;
            }
    if (x1 < 0) {
        x0 = x1 = b->w / 2;
        y0 = y1 = b->h / 2;
    }
    x0 = x0 - margin < 0 ? 0 : x0 - margin;
    y0 = y0 - margin < 0 ? 0 : y0 - margin;
    x1 = x1 + margin >= b->w ? b->w - 1 : x1 + margin;
    y1 = y1 + margin >= b->h ? b->h - 1 : y1 + margin;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            int q = (y + 1) * s + x + 1;
            if (is_free(b, q))
                out[n++] = q;
        }
    return n;
}

static int gain_of(const KfBoard *b, int pos, int player, int *taken) {
    KfBoard c;
    board_copy(&c, b);
    int before = c.captured[3 - player] - c.captured[player];
    *taken = place(&c, pos, player);
    return (c.captured[3 - player] - c.captured[player]) - before;
}

/* The most `player` can gain with one move among cands (0 if nothing). */
static int best_gain(const KfBoard *b, const int *cands, int n, int player, int skip) {
    int best = 0, taken;
    for (int k = 0; k < n; k++) {
        if (cands[k] == skip || !is_free(b, cands[k]))
            continue;
        int g = gain_of(b, cands[k], player, &taken);
        if (g > best)
            best = g;
    }
    return best;
}


/* ---- ladders ---------------------------------------------------------------- */

/* Free points within Chebyshev distance r (<= 2) of pos, pos excluded. */
static int around(const KfBoard *b, int pos, int r, int *out) {
    int s = b->stride, n = 0;
    int x = pos % s - 1, y = pos / s - 1;
    for (int dy = -r; dy <= r; dy++) {
        for (int dx = -r; dx <= r; dx++) {
            int xx = x + dx, yy = y + dy;
            if ((!dx && !dy) || xx < 0 || xx >= b->w || yy < 0 || yy >= b->h)
                continue;
            int q = (yy + 1) * s + xx + 1;
            if (is_free(b, q))
                out[n++] = q;
        }
    }
    return n;
}

static int ladder_budget;
static long ladder_total; /* what is left for all the reading of one root */

/* ladder_works within what is left of ladder_total */
static int ladder_read(const KfBoard *b, int attacker, int t);

/* The attacker threatens to take something by playing t; the defender
 * answers on t. Does the chase still end in a capture? The attacker tries
 * every move near t that threatens again: a capture at once or two threats
 * at once end the chase in its favour, one threat goes on (the defender
 * answers there), none lets the defender escape. Reads up to `depth`
 * answers and `ladder_budget` trial moves; out of either, the defender is
 * taken to escape. */
static int ladder_works(const KfBoard *b, int attacker, int t, int depth) {
    KfBoard c, d;
    int defender = 3 - attacker;
    int cands[24], near[48];
    if (depth <= 0 || --ladder_budget < 0)
        return 0;
    board_copy(&c, b);
    int before_def = c.captured[attacker];
    if (place(&c, t, defender))
        return 1; /* the answer is taken at once */
    if (c.captured[attacker] > before_def)
        return 0; /* the answer captures: the chase is over */
    int n = around(&c, t, 2, cands);
    for (int i = 0; i < n; i++) {
        int a = cands[i];
        if (--ladder_budget < 0)
            return 0;
        board_copy(&d, &c);
        int before = d.captured[defender];
        if (place(&d, a, attacker))
            continue;
        if (d.captured[defender] > before)
            return 1;
        int m = around(&d, a, 2, near);
        int threats = 0, tq = -1;
        for (int j = 0; j < m && threats < 2; j++) {
            int taken;
            if (--ladder_budget < 0)
                return 0;
            if (gain_of(&d, near[j], attacker, &taken) > 0 && !taken) {
                threats++;
                tq = near[j];
            }
        }
        if (threats >= 2)
            return 1;
        if (threats == 1 && ladder_works(&d, attacker, tq, depth - 1))
            return 1;
    }
    return 0;
}

#define LADDER_DEPTH 12
#define LADDER_BUDGET 6000
#define LADDER_TOTAL 60000

static int ladder_read(const KfBoard *b, int attacker, int t) {
    if (ladder_total <= 0)
        return 0;
    int start = ladder_total < LADDER_BUDGET ? (int)ladder_total : LADDER_BUDGET;
    ladder_budget = start;
    int works = ladder_works(b, attacker, t, LADDER_DEPTH);
    ladder_total -= start - (ladder_budget > 0 ? ladder_budget : 0);
    return ladder_budget < 0 ? 0 : works;
}

/* ---- capture races -------------------------------------------------------- */

/* A race in the opening of a 10x10 game is often decided two or three moves
 * before the capture (a net: the opponent's quiet dot after which every
 * answer loses a dot), which random playouts, taking loose dots of both
 * sides alike, do not see. The root reads such races: a small negamax over
 * the points next to weak dots, either side free to play elsewhere. */

#define RACE_NODES 200000 /* and at most RACE_SHARE of the move's time */
#define RACE_SHARE 0.15
#define RACE_LIKED 0.45 /* a prior above the final choice's 0.3: kept unless shown worse */

static int race_nodes;
static double race_deadline;

/* The race's moves: free points next to a weak dot (a live dot with at
 * least 3 live dots of the other colour among its 8 neighbours). */
static int race_moves(const KfBoard *b, int *out) {
    int s = b->stride, n = 0;
    uint32_t st = new_stamp();
    for (int y = 0; y < b->h; y++)
        for (int x = 0; x < b->w; x++) {
            int pos = (y + 1) * s + x + 1;
            int cell = b->pts[pos];
            if ((cell & (KF_PUT | KF_CAPTURED)) != KF_PUT)
                continue;
            int hostile = 0;
            for (int d = 0; d < 8; d++) {
                int c = b->pts[pos + offset_of(b, d)];
                if ((c & (KF_PUT | KF_CAPTURED)) == KF_PUT && (c & KF_BLUE) != (cell & KF_BLUE))
                    hostile++;
            }
            if (hostile < 3)
                continue;
            for (int d = 0; d < 8; d++) {
                int q = pos + offset_of(b, d);
                if (is_free(b, q) && scratch.mark[q] != st) {
                    scratch.mark[q] = st;
                    out[n++] = q;
                }
            }
        }
    return n;
}

/* The mover's best net gain of dots within `depth` plies of race moves
 * (alpha-beta), either side free to pass (play elsewhere); two passes in a
 * row end the race. Out of nodes or time, race_nodes exceeds RACE_NODES and
 * the caller ignores the result. */
static int race(const KfBoard *b, int mover, int depth, int alpha, int beta, int passed) {
    if (depth <= 0 || race_nodes > RACE_NODES)
        return 0;
    if ((++race_nodes & 63) == 0 && now_s() > race_deadline)
        race_nodes = RACE_NODES + 1;
    int moves[KF_MAX_SIZE], gains[KF_MAX_SIZE], order[KF_MAX_SIZE + 1];
    int n = race_moves(b, moves), m = 0;
    for (int k = 0; k < n; k++) {
        int taken;
        gains[k] = gain_of(b, moves[k], mover, &taken);
    }
    /* captures first, then the pass (-1), then the rest */
    for (int k = 0; k < n; k++)
        if (gains[k] > 0)
            order[m++] = k;
    order[m++] = -1;
    for (int k = 0; k < n; k++)
        if (gains[k] <= 0)
            order[m++] = k;
    int best = -KF_MAX_SIZE;
    KfBoard c;
    for (int i = 0; i < m; i++) {
        int k = order[i], v;
        if (k < 0) {
            v = passed ? 0 : -race(b, 3 - mover, depth - 1, -beta, -alpha, 1);
        } else {
            board_copy(&c, b);
            place(&c, moves[k], mover);
            v = gains[k] - race(&c, 3 - mover, depth - 1, gains[k] - beta, gains[k] - alpha, 0);
        }
        if (v > best)
            best = v;
        if (best > alpha)
            alpha = best;
        if (alpha >= beta)
            break;
    }
    return best;
}

/* At the root: every race move worth at least a dot more within `depth`
 * plies than playing elsewhere is liked (RACE_LIKED). Nothing is marked
 * when the reading runs out of nodes or time. */
static void race_mark(const KfBoard *b, int player, int depth, double seconds) {
    int moves[KF_MAX_SIZE];
    int n = race_moves(b, moves), marked = 0;
    if (n == 0)
        return;
    race_nodes = 0;
    race_deadline = now_s() + seconds;
    int want = 1 - race(b, 3 - player, depth - 1, -KF_MAX_SIZE, KF_MAX_SIZE, 1); /* a pass's value + 1 */
    KfBoard c;
    int before = b->captured[3 - player] - b->captured[player];
    for (int k = 0; k < n; k++) {
        board_copy(&c, b);
        place(&c, moves[k], player);
        int g = c.captured[3 - player] - c.captured[player] - before;
        /* g - race(c) >= want, read with a null window */
        if (g - race(&c, 3 - player, depth - 1, g - want, g - want + 1, 0) >= want)
            moves[marked++] = moves[k];
    }
    if (race_nodes > RACE_NODES)
        return;
    for (int k = 0; k < marked; k++)
        for (int j = 0; j < nodes[0].n_children; j++) {
            KfNode *ch = &nodes[nodes[0].first_child + j];
            if (ch->pos == moves[k] && ch->prior < RACE_LIKED)
                ch->prior = (float)RACE_LIKED;
        }
}

static int cand_buf[KF_MAX_SIZE];
static int threat_buf[KF_MAX_SIZE];

/* The review's played move (kf_review): added to the root's candidates when
 * it is not one of them (a point far from every dot); -1 otherwise. */
static int extra_root_pos = -1;

/* Grow node's children from position b, player to move. Priors:
 * a capture, a move onto the opponent's capture point (saving dots, if the
 * save holds one more move: the escape check), a move next to a dot are
 * liked; a dot into the opponent's empty enclosure (taken at once) and a
 * dot inside one's own empty enclosure are disliked. */
static int expand(int node_i, const KfBoard *b, int player, int tactics) {
    int n = candidates(b, cand_buf);
    if (node_i == 0 && extra_root_pos >= 0 && is_free(b, extra_root_pos)) {
        int k = 0;
        while (k < n && cand_buf[k] != extra_root_pos)
            k++;
        if (k == n)
            cand_buf[n++] = extra_root_pos;
    }
    if (n == 0)
        return 0;
    int first = node_alloc(n);
    if (first < 0)
        return 0;
    int colour = colour_bit(player);
    int opp_threats = 0;
    ladder_total = LADDER_TOTAL;
    if (tactics) {
        int taken;
        for (int k = 0; k < n; k++) {
            threat_buf[k] = gain_of(b, cand_buf[k], 3 - player, &taken);
            if (threat_buf[k] > 0 && !taken)
                opp_threats++;
            else
                threat_buf[k] = 0;
        }
    }
    for (int k = 0; k < n; k++) {
        int pos = cand_buf[k];
        KfNode *c = &nodes[first + k];
        int cell = b->pts[pos];
        double prior = 0.0;
        int near = 0;
        for (int d = 0; d < 8; d++)
            if (b->pts[pos + offset_of(b, d)] & KF_PUT)
                near = 1;
        if (near)
            prior += 0.05;
        if ((cell & KF_EMPTY_BASE) && (cell & KF_BLUE) == colour)
            prior -= 0.3; /* filling one's own enclosure */
        if (tactics) {
            int taken;
            int g = gain_of(b, pos, player, &taken);
            if (taken)
                prior -= 0.5;
            else if (g > 0)
                prior += 0.4 + 0.05 * (g > 6 ? 6 : g);
            if (threat_buf[k] > 0) {
                /* escape check: after saving here, can the opponent still
                 * take as much next move, or (at the root) chase the dots
                 * down a ladder? then the save only loses more, so it
                 * counts for little. */
                KfBoard c;
                board_copy(&c, b);
                place(&c, pos, player);
                int again = best_gain(&c, cand_buf, n, 3 - player, pos);
                int futile = again >= threat_buf[k];
                if (!futile && tactics > 1)
                    futile = ladder_read(b, 3 - player, pos);
                prior += futile ? 0.0 : 0.35 + 0.05 * (threat_buf[k] > 6 ? 6 : threat_buf[k]);
            } else if (tactics > 1 && !taken && g == 0) {
                /* a move that starts a chase the opponent cannot escape
                 * (a working ladder) or makes two threats at once */
                KfBoard c;
                int near[24], threats = 0, tq = -1, tk;
                board_copy(&c, b);
                place(&c, pos, player);
                int m = around(&c, pos, 2, near);
                for (int j = 0; j < m && threats < 2; j++) {
                    if (gain_of(&c, near[j], player, &tk) > 0 && !tk) {
                        threats++;
                        tq = near[j];
                    }
                }
                if (threats >= 2) {
                    prior += 0.25;
                } else if (threats == 1 && ladder_read(&c, player, tq)) {
                    prior += 0.35;
                }
            }
        } else if ((cell & KF_EMPTY_BASE) && (cell & KF_BLUE) != colour) {
            prior -= 0.3;
        }
        c->pos = pos;
        c->first_child = -1;
        c->n_children = 0;
        c->visits = 0;
        c->wins = 0;
        c->amaf_visits = 0;
        c->amaf_wins = 0;
        c->prior = (float)prior;
    }
    nodes[node_i].first_child = first;
    nodes[node_i].n_children = n;
    return n;
}

static int select_child(int node_i, const KfParams *prm) {
    KfNode *nd = &nodes[node_i];
    double log_n = log((double)nd->visits + 1.0);
    double best = -1e300;
    int best_i = nd->first_child;
    for (int k = 0; k < nd->n_children; k++) {
        KfNode *c = &nodes[nd->first_child + k];
        double q, amaf, beta, value;
        double n = c->visits;
        amaf = c->amaf_visits > 0 ? c->amaf_wins / c->amaf_visits : 0.5;
        q = n > 0 ? c->wins / n : 0.5;
        beta = c->amaf_visits / (c->amaf_visits + n + n * c->amaf_visits / prm->rave_k + 1e-9);
        if (c->amaf_visits <= 0)
            beta = 0;
        value = (1 - beta) * q + beta * amaf;
        value += c->prior * 10.0 / (n + 10.0);
        value += prm->explore * sqrt(log_n / (n + 1.0));
        if (value > best) {
            best = value;
            best_i = nd->first_child + k;
        }
    }
    return best_i;
}

static int area_buf[KF_MAX_SIZE];
static unsigned char first_by[KF_MAX_SIZE];
static int path_buf[KF_MAX_SIZE + 4];

static double root_gain[KF_MAX_SIZE]; /* per root child: the sum of the mover's gains over its playouts */

/* kf_search's search; review: the played move `played` (a board position, -1:
 * none) is a root child that gets at least `played_min` playouts (a quarter
 * of them until it has, all the last ones if that is not enough), the root
 * is searched even with one child, and review_out gets [0] the chosen
 * child's win rate, [1] its visits, [2] its mean gain, [3] the played
 * child's win rate, [4] its visits, [5] its mean gain (all for the player to
 * move; the played ones -1 when it is no child). The chosen child is the most
 * visited by the search's own choice (the played one's forced playouts do
 * not count). */
static int run_search(int w, int h, const unsigned char *points, const int *counters, int player, double budget_s,
                      int max_playouts, unsigned long long seed, const double *params, double *stats, int played,
                      int played_min, double *review_out) {
    static KfBoard root;
    KfBoard b;
    KfParams prm;
    double deadline = now_s() + budget_s;
    int playouts = 0;
    double change_sum = 0;
    prm.rave_k = params[0];
    prm.explore = params[1];
    prm.local = params[2];
    prm.expand_after = (int)params[3];
    prm.tactics_depth = (int)params[4];
    int margin = (int)params[5];
    int komi = (int)params[6]; /* 1: a playout is won by gaining from the root's score on (oppai-rs's komi) */
    int min_playouts = (int)params[7];
    int race_depth = (int)params[8]; /* 0: no race reading (the review never reads) */
    if (w < 5 || w > KF_MAX_W || h < 5 || h > KF_MAX_H || (player != 1 && player != 2))
        return -3;
    rng_state = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    if (!rng_state)
        rng_state = 1;
    root.w = w;
    root.h = h;
    root.stride = w + 1;
    root.size = kf_board_size(w, h);
    memcpy(root.pts, points, (size_t)root.size);
    root.free_points = counters[0];
    root.captured[0] = 0;
    root.captured[1] = counters[1];
    root.captured[2] = counters[2];
    if (!nodes) {
        nodes_cap = 1 << 21;
        nodes = (KfNode *)malloc(sizeof(KfNode) * (size_t)nodes_cap);
        if (!nodes)
            return -2;
    }
    nodes_used = 1;
    nodes[0].pos = -1;
    nodes[0].first_child = -1;
    nodes[0].n_children = 0;
    nodes[0].visits = 0;
    nodes[0].wins = 0;
    nodes[0].amaf_visits = nodes[0].amaf_wins = 0;
    nodes[0].prior = 0;
    extra_root_pos = review_out ? played : -1;
    int expanded = expand(0, &root, player, 2);
    extra_root_pos = -1;
    if (expanded == 0)
        return -1;
    if (nodes[0].n_children == 1 && !review_out)
        return nodes[nodes[0].first_child].pos;
    if (race_depth > 0 && !review_out)
        race_mark(&root, player, race_depth, RACE_SHARE * budget_s);
    int forced = -1;     /* the played child's index */
    int forced_runs = 0; /* playouts sent into it by force rather than chosen by the search */
    for (int k = 0; k < nodes[0].n_children; k++) {
        root_gain[k] = 0;
        if (review_out && nodes[nodes[0].first_child + k].pos == played)
            forced = nodes[0].first_child + k;
    }
    int base_diff = root.captured[2] - root.captured[1];
    for (;;) {
        if (max_playouts > 0 && playouts >= max_playouts)
            break;
        if ((playouts & 15) == 0 && playouts >= min_playouts && now_s() > deadline)
            break;
        board_copy(&b, &root);
        int node = 0, depth = 0, to_move = player, last = -1;
        int plen = 0;
        path_buf[plen++] = 0;
        memset(first_by, 0, (size_t)root.size);
        /* descend */
        while (nodes[node].first_child >= 0) {
            int c;
            int need = forced >= 0 ? played_min - nodes[forced].visits : 0;
            if (node == 0 && need > 0 &&
                (4 * nodes[forced].visits <= playouts || (max_playouts > 0 && max_playouts - playouts <= need))) {
                c = forced;
                forced_runs++;
            } else {
                c = select_child(node, &prm);
            }
            int pos = nodes[c].pos;
            if (!is_free(&b, pos))
                break; /* a capture closed this point on the way: play out from here */
            if (!first_by[pos])
                first_by[pos] = (unsigned char)to_move;
            place(&b, pos, to_move);
            last = pos;
            to_move = 3 - to_move;
            node = c;
            path_buf[plen++] = node;
            depth++;
        }
        if (nodes[node].first_child < 0 && nodes[node].visits >= prm.expand_after && b.free_points > 0) {
            expand(node, &b, to_move, depth <= prm.tactics_depth);
        }
        int area_n = playout_area(&b, margin, area_buf);
        int diff = playout(&b, to_move, area_buf, area_n, first_by, prm.local, last);
        playouts++;
        /* result for player 1: win 1, loss 0, draw 0.5, nudged by the score */
        int rel = diff - base_diff;
        double r1 = komi ? (rel > 0 ? 1.0 : rel < 0 ? 0.0 : 0.5) : (diff > 0 ? 1.0 : diff < 0 ? 0.0 : 0.5);
        r1 = 0.9 * r1 + 0.1 * (0.5 + 0.5 * tanh(rel / 8.0));
        change_sum += player == 1 ? rel : -rel;
        if (plen > 1)
            root_gain[path_buf[1] - nodes[0].first_child] += player == 1 ? rel : -rel;
        /* back up: node i's stats are for the player who moved into it */
        int mover = player;
        for (int k = 0; k < plen; k++) {
            int ni = path_buf[k];
            KfNode *nd = &nodes[ni];
            nd->visits++;
            if (k > 0) {
                nd->wins += (float)(mover == 1 ? r1 : 1.0 - r1);
                mover = 3 - mover;
            }
            /* AMAF for the children: moves first played by the child's mover */
            if (nd->first_child >= 0) {
                int child_mover = k == 0 ? player : (((k & 1) == 0) ? player : 3 - player);
                double rr = child_mover == 1 ? r1 : 1.0 - r1;
                for (int j = 0; j < nd->n_children; j++) {
                    KfNode *c = &nodes[nd->first_child + j];
                    if (first_by[c->pos] == child_mover) {
                        c->amaf_visits += 1;
                        c->amaf_wins += (float)rr;
                    }
                }
            }
        }
    }
    /* the most visited root move (the review's played move counts only the
     * playouts the search itself sent it) */
    int best = nodes[0].first_child;
    for (int k = 0; k < nodes[0].n_children; k++) {
        int i = nodes[0].first_child + k;
        int visits = nodes[i].visits - (i == forced ? forced_runs : 0);
        int best_visits = nodes[best].visits - (best == forced ? forced_runs : 0);
        if (visits > best_visits || (visits == best_visits && nodes[i].wins > nodes[best].wins))
            best = i;
    }
    /* unless a tactical move (a capture or a save that holds: the priors
     * above 0.3) is not shown worse by two standard errors: random
     * playouts count a dot taken for little, and a player expects the
     * computer to take what is offered (1 search in 50 took another move) */
    int tactic = -1;
    for (int k = 0; k < nodes[0].n_children; k++) {
        KfNode *c = &nodes[nodes[0].first_child + k];
        if (c->prior > 0.3 && c->visits > 0 && (tactic < 0 || c->visits > nodes[tactic].visits))
            tactic = nodes[0].first_child + k;
    }
    if (tactic >= 0 && tactic != best && nodes[best].visits > 0) {
        double qb = nodes[best].wins / nodes[best].visits, qt = nodes[tactic].wins / nodes[tactic].visits;
        double se = sqrt(0.25 / nodes[best].visits + 0.25 / nodes[tactic].visits);
        if (qb - qt < 2 * se)
            best = tactic;
    }
    if (stats) {
        stats[0] = playouts;
        stats[1] = nodes[best].visits ? nodes[best].wins / nodes[best].visits : 0.5;
        stats[2] = nodes_used;
        stats[3] = playouts ? change_sum / playouts : 0;
    }
    if (review_out) {
        int first = nodes[0].first_child;
        for (int k = 0; k < 6; k++)
            review_out[k] = -1;
        for (int side = 0; side < 2; side++) {
            int c = side == 0 ? best : forced;
            if (c < 0 || nodes[c].visits == 0)
                continue;
            review_out[3 * side] = nodes[c].wins / nodes[c].visits;
            review_out[3 * side + 1] = nodes[c].visits;
            review_out[3 * side + 2] = root_gain[c - first] / nodes[c].visits;
        }
    }
    return nodes[best].pos;
}

/* Search from the position (points, counters as kf_place) with `player`
 * to move for budget_s seconds or max_playouts playouts (0: no cap).
 * params: [0] RAVE equivalence k, [1] UCT exploration, [2] chance of a
 * playout move next to the previous one, [3] visits before a leaf grows
 * children, [4] depth down to which children get capture priors, [5] the
 * playout area's margin around the dots, [6] komi (1: a playout is won by
 * gaining from the root's score on, 0: by leading at the end), [7] playouts
 * played before the clock may stop the search (a descheduled process still
 * reads the position this far), [8] the root's race reading's depth in plies
 * (0: none; see race_mark).
 * stats out: [0] playouts, [1] root win rate of the chosen move,
 * [2] nodes, [3] mean playout score change for the mover.
 * Returns the chosen board position, or -1 when there is no move. */
int kf_search(int w, int h, const unsigned char *points, const int *counters, int player, double budget_s,
              int max_playouts, unsigned long long seed, const double *params, double *stats) {
    return run_search(w, h, points, counters, player, budget_s, max_playouts, seed, params, stats, -1, 0, NULL);
}

/* The review's search (games/kropki/review.py): kf_search's, with the move
 * played from the position (`played`, a board position) searched at least
 * `played_min` playouts as a root child, so that its value and the chosen
 * move's come from one tree (see run_search for review_out). */
int kf_review(int w, int h, const unsigned char *points, const int *counters, int player, double budget_s,
              int max_playouts, unsigned long long seed, const double *params, double *stats, int played,
              int played_min, double *review_out) {
    return run_search(w, h, points, counters, player, budget_s, max_playouts, seed, params, stats, played,
                      played_min, review_out);
}

/* Random full playouts from the position for budget_s seconds (the
 * benchmark of playout speed). Returns how many were played. */
int kf_playout_speed(int w, int h, const unsigned char *points, const int *counters, int player, double budget_s,
                     unsigned long long seed) {
    static KfBoard root;
    KfBoard b;
    int count = 0;
    double deadline = now_s() + budget_s;
    rng_state = seed | 1;
    root.w = w;
    root.h = h;
    root.stride = w + 1;
    root.size = kf_board_size(w, h);
    memcpy(root.pts, points, (size_t)root.size);
    root.free_points = counters[0];
    root.captured[0] = 0;
    root.captured[1] = counters[1];
    root.captured[2] = counters[2];
    int area_n = playout_area(&root, 1000, area_buf);
    while (now_s() < deadline) {
        for (int k = 0; k < 16; k++) {
            board_copy(&b, &root);
            playout(&b, player, area_buf, area_n, NULL, 0.0, -1);
            count++;
        }
    }
    return count;
}

/* Whether the position is settled for `player`: with every free point
 * filled by the opponent alone (the most the opponent can do after we end;
 * `tries` random orders) player still leads, and player filling alone gains
 * nothing more. Returns 1 if so. */
int kf_settled(int w, int h, const unsigned char *points, const int *counters, int player, int tries,
               unsigned long long seed) {
    static KfBoard root;
    KfBoard b;
    rng_state = seed | 1;
    root.w = w;
    root.h = h;
    root.stride = w + 1;
    root.size = kf_board_size(w, h);
    memcpy(root.pts, points, (size_t)root.size);
    root.free_points = counters[0];
    root.captured[0] = 0;
    root.captured[1] = counters[1];
    root.captured[2] = counters[2];
    int me_now = root.captured[3 - player] - root.captured[player];
    if (me_now <= 0)
        return 0;
    int area_n = playout_area(&root, 1000, area_buf);
    for (int t = 0; t < tries; t++) {
        for (int who = 0; who < 2; who++) {
            int solo = who == 0 ? 3 - player : player;
            board_copy(&b, &root);
            for (int k = area_n - 1; k > 0; k--) {
                int j = rng_below(k + 1), tmp = area_buf[k];
                area_buf[k] = area_buf[j];
                area_buf[j] = tmp;
            }
            /* the filler skips the other side's empty enclosures, where
             * its dots would only be taken... */
            for (int k = 0; k < area_n; k++) {
                int cell = b.pts[area_buf[k]];
                if (is_free(&b, area_buf[k]) &&
                    !((cell & KF_EMPTY_BASE) && (cell & KF_BLUE) != colour_bit(solo)))
                    place(&b, area_buf[k], solo);
            }
            /* ...unless a dot there closes a ring of its own around that
             * enclosure, which takes it (oppai-rs's order): a player left
             * alone finds those, so the filler then plays each one that gains */
            for (int again = 1; again;) {
                again = 0;
                for (int k = 0; k < area_n; k++) {
                    int taken;
                    if (is_free(&b, area_buf[k]) && gain_of(&b, area_buf[k], solo, &taken) > 0) {
                        place(&b, area_buf[k], solo);
                        again = 1;
                    }
                }
            }
            int me = b.captured[3 - player] - b.captured[player];
            if (who == 0 && me <= 0)
                return 0;
            if (who == 1 && me > me_now)
                return 0;
        }
    }
    return 1;
}

/* Whether `attacker`, threatening to take something by playing t, still
 * takes it when the defender answers on t and the chase goes on (the ladder
 * reader of the search, for tests). Returns 1 if so, 0 if the defender
 * escapes or the reading ran out of budget. */
int kf_ladder(int w, int h, const unsigned char *points, const int *counters, int attacker, int t) {
    static KfBoard b;
    b.w = w;
    b.h = h;
    b.stride = w + 1;
    b.size = kf_board_size(w, h);
    if (t < 0 || t >= b.size || (attacker != 1 && attacker != 2))
        return 0;
    memcpy(b.pts, points, (size_t)b.size);
    b.free_points = counters[0];
    b.captured[0] = 0;
    b.captured[1] = counters[1];
    b.captured[2] = counters[2];
    if (!is_free(&b, t))
        return 0;
    ladder_total = LADDER_TOTAL;
    return ladder_read(&b, attacker, t);
}
