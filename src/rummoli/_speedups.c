/* The poker evaluator of rummoli/poker.py and the Gin race's keep_best (rummoli/bots/rummy_race.py), compiled
 * (issue 34).
 *
 * Why C: every bot's win chance, every playout's showdown and every stops hand's poker pot end in
 * evaluate_mask, called millions of times a decision; in Python each call costs about 0.8 us, most of it the
 * interpreter walking a few bit operations. No library evaluates more than seven cards correctly (eval7 misranks
 * hands with two five-card suits; phevaluator stops at seven), so the algorithm stays ours: this file is the same
 * steps as rummoli.poker.evaluate_mask_pure, which stays the reference (RUMMOLI_PURE=1 uses it everywhere), and
 * tests/core/test_speedups.py holds the two to the same answer on every hand it draws.
 *
 * A mask holds card 13 * suit + rank at that bit (rummoli.cards); a value is the category in bits 20-23 and up to
 * five ranks, four bits each, most significant first.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <math.h>
#include <string.h>

enum { HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH };

#define SUIT_BITS 0x1FFFu
#define RANK_SETS 8192

/* Per rank set of one suit (13 bits): the highest rank, the two, three and five highest packed, the top of the
 * best straight (-1: none), and how many ranks it holds. Built once at import. */
static int8_t high_of[RANK_SETS];
static int32_t top2[RANK_SETS], top3[RANK_SETS], top5[RANK_SETS];
static int8_t straight_of[RANK_SETS];
/* per rank set: the sum over its ranks of 12 - rank (rummoli.bots.stops_chance.LOWNESS) */
static int16_t lowness_of[RANK_SETS];
static uint8_t count_of[RANK_SETS];

static int highest(unsigned ranks) {
    int high = -1;
    while (ranks) {
        high++;
        ranks >>= 1;
    }
    return high;
}

static int32_t top_ranks(unsigned ranks, int k) {
    int32_t packed = 0;
    for (int i = 0; i < k; i++) {
        int high = highest(ranks);
        packed = packed << 4 | (high > 0 ? high : 0);
        if (high >= 0) ranks &= ~(1u << high);
    }
    return packed;
}

static int straight_top(unsigned ranks) {
    /* a copy of the ace below the two, so A-2-3-4-5 counts; no wrap-around */
    unsigned x = (ranks << 1) | (ranks >> 12 & 1u);
    unsigned runs = x & x >> 1 & x >> 2 & x >> 3 & x >> 4;
    return runs ? highest(runs) + 3 : -1;
}

static void build_tables(void) {
    for (unsigned r = 0; r < RANK_SETS; r++) {
        high_of[r] = (int8_t)highest(r);
        top2[r] = top_ranks(r, 2);
        top3[r] = top_ranks(r, 3);
        top5[r] = top_ranks(r, 5);
        straight_of[r] = (int8_t)straight_top(r);
        count_of[r] = (uint8_t)__builtin_popcount(r);
        lowness_of[r] = 0;
        for (int k = 0; k < 13; k++)
            if (r >> k & 1) lowness_of[r] = (int16_t)(lowness_of[r] + 12 - k);
    }
}

static long evaluate(uint64_t mask) {
    unsigned s[4] = {(unsigned)(mask & SUIT_BITS), (unsigned)(mask >> 13 & SUIT_BITS),
                     (unsigned)(mask >> 26 & SUIT_BITS), (unsigned)(mask >> 39 & SUIT_BITS)};
    /* every suit of five or more counts: above seven cards two suits may both flush */
    long flush = -1, straight_flush = -1;
    for (int i = 0; i < 4; i++) {
        if (count_of[s[i]] >= 5) {
            if (straight_of[s[i]] > straight_flush) straight_flush = straight_of[s[i]];
            if (top5[s[i]] > flush) flush = top5[s[i]];
        }
    }
    if (straight_flush >= 0) return (long)STRAIGHT_FLUSH << 20 | straight_flush << 16;
    unsigned ones = s[0] | s[1] | s[2] | s[3];
    unsigned fours = s[0] & s[1] & s[2] & s[3];
    if (fours) {
        long quad = high_of[fours];
        return (long)QUADS << 20 | quad << 16 | (long)high_of[ones ^ 1u << quad] << 12;
    }
    unsigned s01 = s[0] & s[1], s23 = s[2] & s[3];
    unsigned threes = (s01 & (s[2] | s[3])) | (s23 & (s[0] | s[1]));
    unsigned twos = s01 | s23 | ((s[0] | s[1]) & (s[2] | s[3]));
    long trip = -1;
    if (threes) {
        trip = high_of[threes];
        unsigned pairs = twos & ~(1u << trip);
        if (pairs) return (long)FULL_HOUSE << 20 | trip << 16 | (long)high_of[pairs] << 12;
    }
    if (flush >= 0) return (long)FLUSH << 20 | flush;
    long top = straight_of[ones];
    if (top >= 0) return (long)STRAIGHT << 20 | top << 16;
    if (threes) return (long)TRIPS << 20 | trip << 16 | (long)top2[ones ^ 1u << trip] << 8;
    if (twos) {
        long high = high_of[twos];
        unsigned rest = twos ^ 1u << high;
        if (rest) {
            long low = high_of[rest];
            return (long)TWO_PAIR << 20 | high << 16 | low << 12 | (long)high_of[ones ^ 1u << high ^ 1u << low] << 8;
        }
        return (long)ONE_PAIR << 20 | high << 16 | (long)top3[ones ^ 1u << high] << 4;
    }
    return top5[ones];
}

static PyObject *evaluate_mask(PyObject *module, PyObject *arg) {
    (void)module;
    uint64_t mask = PyLong_AsUnsignedLongLong(arg);
    if (mask == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    if (mask >> 52) {
        PyErr_SetString(PyExc_ValueError, "a card mask has 52 bits");
        return NULL;
    }
    return PyLong_FromLong(evaluate(mask));
}


/* ---------------------------------------------------------------------------------------------------------------
 * keep_best: the deadwood of the best cards of a Rummy hand (rummoli.bots.rummy_race.keep_best_pure, step for step).
 *
 * Why C: the Gin bots judge each discard by racing it over dozens of sampled futures, and every step of every
 * future asks for the best arrangement of a hand of up to fourteen cards: 95% of a normal Gin bot's time went
 * there (4 million calls in 200 games), most of it the interpreter walking bit masks. The answer must be the
 * pure function's to the card (the same melds found in the same order, the same ties kept), so this follows
 * MeldTable.melds_in and MeldTable._best_arrangement exactly; tests/core/test_speedups.py holds the two together.
 *
 * The meld table comes packed by rummy_race (its layout is fixed there): int32 value of each of the 52 cards,
 * int32 count of one suit's runs, then that many uint32 run masks (13 bits, in the table's own order) and as
 * many int32 run values. */

#define MAX_MELDS 1024
#define MEMO_SIZE 4096 /* a power of two */
#define MEMO_FILL 3072 /* past this the search goes on without remembering more (slower, the same answer) */

typedef struct {
    const int32_t *card_value;
    int32_t runs;
    const uint32_t *run_mask;
    const int32_t *run_value;
} MeldPack;

typedef struct {
    uint64_t mask[MAX_MELDS];
    int32_t value[MAX_MELDS];
    int next[MAX_MELDS]; /* the next meld with the same lowest card, in the order found (-1: none) */
    int first[52];
    int count;
    int overflow; /* a meld was left out for want of room (only an absurd hand could: gin_knock then says so) */
} Melds;

/* memo of one search: rest -> (points, cover); an entry counts when its stamp is the search's */
static uint64_t memo_rest[MEMO_SIZE], memo_cover[MEMO_SIZE];
static int32_t memo_points[MEMO_SIZE];
static uint32_t memo_stamp[MEMO_SIZE];
static uint32_t stamp;
static int memo_used;

static int lowest(uint64_t x) { return __builtin_ctzll(x); }

/* the four cards of a rank */
static uint64_t rank_cards(int rank) { return 1ull << rank | 1ull << (13 + rank) | 1ull << (26 + rank) | 1ull << (39 + rank); }

static void add_meld(Melds *m, uint64_t mask, int32_t value) {
    if (m->count >= MAX_MELDS) { /* cannot happen with one hand's melds: at most 4 x 143 runs and 65 sets */
        m->overflow = 1;
        return;
    }
    int i = m->count++;
    m->mask[i] = mask;
    m->value[i] = value;
    m->next[i] = -1;
    int low = lowest(mask);
    if (m->first[low] < 0) {
        m->first[low] = i;
    } else {
        int j = m->first[low];
        while (m->next[j] >= 0) j = m->next[j];
        m->next[j] = i;
    }
}

static int32_t cards_value(const MeldPack *t, uint64_t mask) {
    int32_t total = 0;
    while (mask) {
        total += t->card_value[lowest(mask)];
        mask &= mask - 1;
    }
    return total;
}

/* MeldTable.melds_in: each suit's runs (when the suit holds two cards in sequence, or its ace and two), then
 * the sets rank by rank, four of a kind followed by its four threes. */
static void melds_in(const MeldPack *t, uint64_t hand, Melds *m) {
    m->count = 0;
    m->overflow = 0;
    for (int i = 0; i < 52; i++) m->first[i] = -1;
    for (int suit = 0; suit < 4; suit++) {
        uint32_t block = (uint32_t)(hand >> (13 * suit)) & SUIT_BITS;
        if (!((block & (block >> 1)) || (block & 0x1001u) == 0x1001u)) continue;
        for (int i = 0; i < t->runs; i++) {
            if ((t->run_mask[i] & block) == t->run_mask[i]) add_meld(m, (uint64_t)t->run_mask[i] << (13 * suit), t->run_value[i]);
        }
    }
    uint32_t a = hand & SUIT_BITS, b = hand >> 13 & SUIT_BITS, c = hand >> 26 & SUIT_BITS, d = hand >> 39 & SUIT_BITS;
    uint32_t triples = (a & b & (c | d)) | (c & d & (a | b));
    while (triples) {
        int rank = __builtin_ctz(triples);
        triples &= triples - 1;
        uint64_t rank_mask = rank_cards(rank);
        uint64_t cards = hand & rank_mask;
        add_meld(m, cards, cards_value(t, cards));
        if (__builtin_popcountll(cards) == 4) {
            for (uint64_t rest = cards; rest; rest &= rest - 1) {
                uint64_t three = cards ^ (rest & -rest);
                add_meld(m, three, cards_value(t, three));
            }
        }
    }
}

/* MeldTable._best_arrangement's search: the lowest card of rest stays loose, or goes into one of the melds it is
 * the lowest card of (in the order found); a later choice replaces an earlier only when it covers more. */
static int32_t search(const Melds *m, uint64_t rest, uint64_t *cover);

/* One state of the search: the best points of `rest`, the cards they cover, and the choice that gives them (the
 * index of the meld taken, or -1: the lowest card stays loose). */
static int32_t choose(const Melds *m, uint64_t rest, int *choice, uint64_t *cover) {
    uint64_t low = rest & -rest;
    int32_t best = search(m, rest ^ low, cover);
    *choice = -1;
    for (int i = m->first[lowest(low)]; i >= 0; i = m->next[i]) {
        uint64_t mask = m->mask[i];
        if ((mask & rest) != mask) continue;
        uint64_t under;
        int32_t points = search(m, rest ^ mask, &under) + m->value[i];
        if (points > best) {
            best = points;
            *cover = under | mask;
            *choice = i;
        }
    }
    return best;
}

static int32_t search(const Melds *m, uint64_t rest, uint64_t *cover) {
    if (!rest) {
        *cover = 0;
        return 0;
    }
    unsigned slot = (unsigned)((rest * 0x9E3779B97F4A7C15ull) >> 52) & (MEMO_SIZE - 1);
    while (memo_stamp[slot] == stamp) {
        if (memo_rest[slot] == rest) {
            *cover = memo_cover[slot];
            return memo_points[slot];
        }
        slot = (slot + 1) & (MEMO_SIZE - 1);
    }
    uint64_t best_cover;
    int choice;
    int32_t best = choose(m, rest, &choice, &best_cover);
    if (memo_used < MEMO_FILL) {
        /* the slot found free above may have been taken by the searches below it: probe again */
        slot = (unsigned)((rest * 0x9E3779B97F4A7C15ull) >> 52) & (MEMO_SIZE - 1);
        while (memo_stamp[slot] == stamp) slot = (slot + 1) & (MEMO_SIZE - 1);
        memo_stamp[slot] = stamp;
        memo_rest[slot] = rest;
        memo_cover[slot] = best_cover;
        memo_points[slot] = best;
        memo_used++;
    }
    *cover = best_cover;
    return best;
}

/* The packed meld table (rummoli.rummy.melds.pack) and a hand's card mask, read and checked; 0 on success, -1 with
 * the error set. */
static int read_table_and_hand(PyObject *packed, PyObject *number, MeldPack *t, uint64_t *hand) {
    Py_ssize_t size = PyBytes_GET_SIZE(packed);
    const char *raw = PyBytes_AS_STRING(packed);
    if (size >= 53 * 4) {
        t->card_value = (const int32_t *)raw;
        t->runs = ((const int32_t *)raw)[52];
        if (t->runs >= 0 && t->runs <= 13 * 13 && size == (Py_ssize_t)(53 + 2 * (Py_ssize_t)t->runs) * 4) {
            t->run_mask = (const uint32_t *)(raw + 53 * 4);
            t->run_value = (const int32_t *)(raw + (53 + t->runs) * 4);
            *hand = PyLong_AsUnsignedLongLong(number);
            if (*hand == (uint64_t)-1 && PyErr_Occurred()) return -1;
            if (*hand >> 52) {
                PyErr_SetString(PyExc_ValueError, "a card mask has 52 bits");
                return -1;
            }
            return 0;
        }
    }
    PyErr_SetString(PyExc_ValueError, "not a packed meld table");
    return -1;
}

/* The melds of `hand` and the best arrangement's points (the search above, from a fresh memory); the melds found
 * are left in `melds` and the whole meldable mask in `meldable` (0: no meld). */
static int32_t best_of(const MeldPack *t, uint64_t hand, Melds *melds, uint64_t *meldable, uint64_t *cover) {
    melds_in(t, hand, melds);
    *meldable = 0;
    *cover = 0;
    if (!melds->count) return 0;
    for (int i = 0; i < melds->count; i++) *meldable |= melds->mask[i];
    if (++stamp == 0) { /* the stamps wrapped: forget every entry */
        memset(memo_stamp, 0, sizeof memo_stamp);
        stamp = 1;
    }
    memo_used = 0;
    return search(melds, *meldable, cover);
}

static PyObject *keep_best(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 3 || !PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "keep_best(packed table: bytes, hand: int, extra: int)");
        return NULL;
    }
    MeldPack t;
    uint64_t hand;
    if (read_table_and_hand(args[0], args[1], &t, &hand) < 0) return NULL;
    long extra = PyLong_AsLong(args[2]);
    if (extra == -1 && PyErr_Occurred()) return NULL;
    /* a hand has at most 52 loose cards: beyond that every extra sheds all or none, and n - extra cannot overflow */
    if (extra > 52) extra = 52;
    if (extra < -52) extra = -52;
    static Melds melds;
    uint64_t meldable, cover;
    best_of(&t, hand, &melds, &meldable, &cover);
    /* the loose cards' values, cheapest first; the dearest `extra` are shed */
    int32_t values[52];
    int n = 0;
    for (uint64_t loose = hand & ~cover; loose; loose &= loose - 1) {
        int32_t v = t.card_value[lowest(loose)];
        int k = n++;
        while (k > 0 && values[k - 1] > v) {
            values[k] = values[k - 1];
            k--;
        }
        values[k] = v;
    }
    long keep = n - extra < n ? n - extra : n;
    long total = 0;
    for (long i = 0; i < keep; i++) total += values[i];
    return PyLong_FromLong(total);
}

/* melds as a tuple of card masks, in the order given */
static PyObject *melds_tuple(const uint64_t *melds, int count) {
    PyObject *tuple = PyTuple_New(count);
    if (!tuple) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *mask = PyLong_FromUnsignedLongLong(melds[i]);
        if (!mask) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, mask);
    }
    return tuple;
}

/* best_melds(packed, hand): MeldTable._best_arrangement_pure, step for step: (melded points, the melds), the melds
 * in the order the Python search nests them. The search remembers only each state's points and cover; the melds are
 * read back by walking from the whole meldable mask through each state's choice (`choose`, as the search made it),
 * the states below already remembered.
 * Why C: the hard Rummy bot's worlds and the Gin bots weigh hands by their best arrangement thousands of times a
 * decision, and the Python search was the largest part of a hard Gin decision. */
static PyObject *best_melds(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 2 || !PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "best_melds(packed table: bytes, hand: int)");
        return NULL;
    }
    MeldPack t;
    uint64_t hand;
    if (read_table_and_hand(args[0], args[1], &t, &hand) < 0) return NULL;
    static Melds melds;
    uint64_t meldable, cover;
    int32_t points = best_of(&t, hand, &melds, &meldable, &cover);
    uint64_t chosen[52];
    int count = 0;
    for (uint64_t rest = meldable; rest;) {
        int choice;
        uint64_t under;
        choose(&melds, rest, &choice, &under);
        if (choice < 0) {
            rest ^= rest & -rest;
        } else {
            chosen[count++] = melds.mask[choice];
            rest ^= melds.mask[choice];
        }
    }
    PyObject *tuple = melds_tuple(chosen, count);
    return tuple ? Py_BuildValue("(iN)", (int)points, tuple) : NULL;
}

/* ---------------------------------------------------------------------------------------------------------------
 * gin_knock: how a Gin knock is settled (rummoli.rummy.settle.gin_knock_pure, step for step): every arrangement of
 * the knocker's hand that keeps `limit` or less deadwood (MeldTable.arrangements, in its order), each answered by
 * the defender's best melds and lay-offs (MeldTable.deadwood_with_layoffs), the one that serves the knocker best.
 *
 * Why C: every hand a hard Gin bot plays out to its end in a sampled world ends in a knock, and settling it in
 * Python was a sixth of the bot's time. The answer must be the pure function's to the card: the same arrangements
 * in the same order, the same ties kept, the same cards laid off; tests/core/test_speedups.py holds the two
 * together. Only for a table whose melds count their cards' points (MeldTable.deadwood_counter is not None). */

#define MAX_ARRANGED 17 /* melds in one arrangement: 52 cards make at most 17 */

typedef struct {
    int32_t dead;
    int32_t count;
    Py_ssize_t order; /* the order found, so that sorting by deadwood keeps ties as the Python sort does */
    uint64_t melds[MAX_ARRANGED];
} Arrangement;

typedef struct {
    Arrangement *items;
    Py_ssize_t count, capacity;
    int failed; /* out of memory: the search stops */
} Arrangements;

static void arrange(const MeldPack *t, const Melds *m, uint64_t rest, int32_t dead, int32_t limit, uint64_t *stack,
                    int depth, Arrangements *out) {
    if (out->failed) return;
    if (!rest) {
        if (out->count == out->capacity) {
            Py_ssize_t capacity = out->capacity ? 2 * out->capacity : 64;
            Arrangement *grown = PyMem_Realloc(out->items, (size_t)capacity * sizeof(Arrangement));
            if (!grown) {
                out->failed = 1;
                return;
            }
            out->items = grown;
            out->capacity = capacity;
        }
        Arrangement *a = &out->items[out->count];
        a->dead = dead;
        a->count = depth;
        a->order = out->count++;
        memcpy(a->melds, stack, (size_t)depth * sizeof(uint64_t));
        return;
    }
    uint64_t low = rest & -rest;
    int32_t left = dead + t->card_value[lowest(low)];
    if (left <= limit) arrange(t, m, rest ^ low, left, limit, stack, depth, out);
    for (int i = m->first[lowest(low)]; i >= 0; i = m->next[i]) {
        uint64_t mask = m->mask[i];
        if ((mask & rest) != mask) continue;
        stack[depth] = mask;
        arrange(t, m, rest ^ mask, dead, limit, stack, depth + 1, out);
    }
}

static int by_deadwood(const void *x, const void *y) {
    const Arrangement *a = x, *b = y;
    if (a->dead != b->dead) return a->dead < b->dead ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* MeldTable.fits of a legal meld: the cards that may be laid off on it (meld plus card is a meld) */
static uint64_t fits_of(const MeldPack *t, uint64_t meld) {
    int low = lowest(meld);
    uint64_t rank_mask = rank_cards(low % 13);
    if ((meld & ~rank_mask) == 0) return __builtin_popcountll(meld) == 3 ? rank_mask ^ meld : 0; /* a set */
    int shift = 13 * (low / 13);
    uint32_t block = (uint32_t)(meld >> shift) & SUIT_BITS;
    int size = __builtin_popcount(block);
    uint64_t out = 0;
    for (int i = 0; i < t->runs; i++) {
        uint32_t run = t->run_mask[i];
        if ((run & block) == block && __builtin_popcount(run) == size + 1) out |= (uint64_t)(run ^ block) << shift;
    }
    return out;
}

/* The defender's candidates are kept as Melds whose `value` is the index of the table meld a candidate extends (-1:
 * the defender's own meld): its own melds, then for each table meld in turn the cards that extend it
 * (MeldTable.containing's order: by size, then mask), grouped by lowest card in the order found. */
static uint64_t lay_memo_rest[MEMO_SIZE], lay_memo_laid[MEMO_SIZE];
static uint32_t lay_memo_used[MEMO_SIZE], lay_memo_stamp[MEMO_SIZE];
static int32_t lay_memo_points[MEMO_SIZE];
static uint32_t lay_stamp;
static int lay_memo_used_count;

/* the points covered at best from `rest` with the table melds in `used` already extended, and the cards laid off */
static int32_t lay_search(const MeldPack *t, const Melds *m, uint64_t rest, uint32_t used, uint64_t *laid) {
    if (!rest) {
        *laid = 0;
        return 0;
    }
    uint64_t key = rest * 0x9E3779B97F4A7C15ull ^ (uint64_t)used * 0xC2B2AE3D27D4EB4Full;
    unsigned slot = (unsigned)(key >> 52) & (MEMO_SIZE - 1);
    while (lay_memo_stamp[slot] == lay_stamp) {
        if (lay_memo_rest[slot] == rest && lay_memo_used[slot] == used) {
            *laid = lay_memo_laid[slot];
            return lay_memo_points[slot];
        }
        slot = (slot + 1) & (MEMO_SIZE - 1);
    }
    uint64_t low = rest & -rest, best_laid;
    int32_t best = lay_search(t, m, rest ^ low, used, &best_laid);
    for (int i = m->first[lowest(low)]; i >= 0; i = m->next[i]) {
        uint64_t mask = m->mask[i];
        int index = m->value[i]; /* the table meld it extends, or -1 */
        if ((mask & rest) != mask || (index >= 0 && (used >> index & 1))) continue;
        uint64_t under;
        int32_t points = lay_search(t, m, rest ^ mask, index >= 0 ? used | 1u << index : used, &under);
        points += cards_value(t, mask);
        if (points > best) {
            best = points;
            best_laid = index >= 0 ? under | mask : under;
        }
    }
    if (lay_memo_used_count < MEMO_FILL) {
        slot = (unsigned)(key >> 52) & (MEMO_SIZE - 1);
        while (lay_memo_stamp[slot] == lay_stamp) slot = (slot + 1) & (MEMO_SIZE - 1);
        lay_memo_stamp[slot] = lay_stamp;
        lay_memo_rest[slot] = rest;
        lay_memo_used[slot] = used;
        lay_memo_points[slot] = best;
        lay_memo_laid[slot] = best_laid;
        lay_memo_used_count++;
    }
    *laid = best_laid;
    return best;
}

/* MeldTable.deadwood_with_layoffs: the defender's least deadwood when its cards may also extend `table` */
static int32_t deadwood_with_layoffs(const MeldPack *t, uint64_t hand, const uint64_t *table, int melds,
                                     uint64_t *laid) {
    static Melds own, m;
    melds_in(t, hand, &own);
    m.count = 0;
    m.overflow = 0;
    for (int i = 0; i < 52; i++) m.first[i] = -1;
    for (int i = 0; i < own.count; i++) add_meld(&m, own.mask[i], -1);
    for (int index = 0; index < melds; index++) {
        uint64_t meld = table[index], within = meld | hand;
        int low = lowest(meld);
        uint64_t rank_mask = rank_cards(low % 13);
        if ((meld & ~rank_mask) == 0) { /* a set: only the four of its rank contains it */
            if (__builtin_popcountll(meld) == 3 && (rank_mask & within) == rank_mask) add_meld(&m, rank_mask ^ meld, index);
            continue;
        }
        int shift = 13 * (low / 13);
        uint32_t block = (uint32_t)(meld >> shift) & SUIT_BITS, room = (uint32_t)(within >> shift) & SUIT_BITS;
        uint32_t found[13 * 13];
        int count = 0;
        for (int i = 0; i < t->runs; i++) {
            uint32_t run = t->run_mask[i];
            if ((run & block) != block || run == block || (run & ~room)) continue;
            /* in order of size, then mask (the table's `containing` order) */
            int k = count++;
            while (k > 0 && (__builtin_popcount(found[k - 1]) > __builtin_popcount(run) ||
                             (__builtin_popcount(found[k - 1]) == __builtin_popcount(run) && found[k - 1] > run))) {
                found[k] = found[k - 1];
                k--;
            }
            found[k] = run;
        }
        for (int i = 0; i < count; i++) add_meld(&m, (uint64_t)(found[i] ^ block) << shift, index);
    }
    if (m.overflow) return INT32_MIN; /* too many candidates to hold: the caller hands the knock to the Python */
    uint64_t coverable = 0;
    for (int i = 0; i < m.count; i++) coverable |= m.mask[i];
    if (++lay_stamp == 0) {
        memset(lay_memo_stamp, 0, sizeof lay_memo_stamp);
        lay_stamp = 1;
    }
    lay_memo_used_count = 0;
    int32_t covered = lay_search(t, &m, coverable, 0, laid);
    return cards_value(t, hand) - covered;
}

/* gin_knock(packed, knocker, defender, limit): (knocker's deadwood, defender's, the knocker's melds, the cards laid
 * off), or None when no arrangement keeps `limit` or less (the Python raises there), or NotImplemented for hands
 * with more melds than the search holds (never two hands of a deal; the Python answers those). */
static PyObject *gin_knock(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 4 || !PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "gin_knock(packed table: bytes, knocker: int, defender: int, limit: int)");
        return NULL;
    }
    MeldPack t;
    uint64_t knocker, defender;
    if (read_table_and_hand(args[0], args[1], &t, &knocker) < 0) return NULL;
    if (read_table_and_hand(args[0], args[2], &t, &defender) < 0) return NULL;
    int overflow;
    long long wide = PyLong_AsLongLongAndOverflow(args[3], &overflow);
    if (wide == -1 && PyErr_Occurred()) return NULL;
    /* no hand holds more than 52 x 15 points: any limit past that allows all, any below zero none */
    int32_t limit = overflow > 0 || wide > (1 << 28) ? 1 << 28 : overflow < 0 || wide < -1 ? -1 : (int32_t)wide;
    static Melds melds;
    melds_in(&t, knocker, &melds);
    uint64_t meldable = 0;
    for (int i = 0; i < melds.count; i++) meldable |= melds.mask[i];
    if (melds.overflow) Py_RETURN_NOTIMPLEMENTED;
    int32_t base = cards_value(&t, knocker & ~meldable);
    if (base > limit) Py_RETURN_NONE;
    Arrangements shown = {NULL, 0, 0, 0};
    uint64_t stack[MAX_ARRANGED];
    arrange(&t, &melds, meldable, base, limit, stack, 0, &shown);
    if (shown.failed) {
        PyMem_Free(shown.items);
        return PyErr_NoMemory();
    }
    if (!shown.count) {
        PyMem_Free(shown.items);
        Py_RETURN_NONE;
    }
    qsort(shown.items, (size_t)shown.count, sizeof(Arrangement), by_deadwood);
    static Melds theirs_melds;
    uint64_t their_meldable, their_cover;
    int32_t alone = cards_value(&t, defender) - best_of(&t, defender, &theirs_melds, &their_meldable, &their_cover);
    const Arrangement *best = &shown.items[0];
    int32_t best_theirs = alone;
    uint64_t best_laid = 0;
    if (best->dead != 0) {
        int32_t best_margin = -(1 << 30);
        for (Py_ssize_t i = 0; i < shown.count; i++) {
            const Arrangement *a = &shown.items[i];
            if (alone - a->dead <= best_margin) break;
            uint64_t reach = 0;
            for (int j = 0; j < a->count; j++) reach |= fits_of(&t, a->melds[j]);
            int32_t theirs = alone;
            uint64_t laid = 0;
            if (reach & defender) theirs = deadwood_with_layoffs(&t, defender, a->melds, a->count, &laid);
            if (theirs == INT32_MIN) {
                PyMem_Free(shown.items);
                Py_RETURN_NOTIMPLEMENTED;
            }
            if (theirs - a->dead > best_margin) {
                best_margin = theirs - a->dead;
                best = a;
                best_theirs = theirs;
                best_laid = laid;
            }
        }
    }
    PyObject *tuple = melds_tuple(best->melds, best->count);
    PyObject *result = tuple ? Py_BuildValue("(iiNK)", (int)best->dead, (int)best_theirs, tuple,
                                             (unsigned long long)best_laid) : NULL;
    PyMem_Free(shown.items);
    return result;
}

/* names_of(names, mask): the names of a mask's cards in card order (rummoli.cards.names_of_pure, step for step),
 * ``names`` the 52 names by card index. Why C: a view names every hand it shows, at every update a server sends
 * and every decision a bot is handed, and the Python loop over the mask's bits was a few percent of a lab hand. */
static PyObject *names_of(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 2 || !PyTuple_Check(args[0]) || PyTuple_GET_SIZE(args[0]) != 52) {
        PyErr_SetString(PyExc_TypeError, "names_of(names: a tuple of 52 names, mask: int)");
        return NULL;
    }
    uint64_t mask = PyLong_AsUnsignedLongLong(args[1]);
    if (mask == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    if (mask >> 52) {
        PyErr_SetString(PyExc_ValueError, "a card mask has 52 bits");
        return NULL;
    }
    PyObject *out = PyList_New(__builtin_popcountll(mask));
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; mask; mask &= mask - 1, i++) {
        PyObject *name = PyTuple_GET_ITEM(args[0], __builtin_ctzll(mask));
        Py_INCREF(name);
        PyList_SET_ITEM(out, i, name);
    }
    return out;
}

/* Python's own generator, drawn from here. Every Monte-Carlo loop of this file draws through a random.Random the
 * caller hands in (its bound random() or getrandbits()), so that the compiled loops and their pure-Python twins make
 * the same draws. Calling back into Python for each draw cost more than the rest of those loops together (a bound
 * method call, a float or int made and freed: about 40 ns, against a few for the draw): a normal bot's win chance
 * and widow worth, a hard bot's worlds and rollouts, and every deal's shuffle. So where the bound method is CPython's
 * own Mersenne Twister (_random.Random's random or getrandbits, not overridden), the words are drawn here from the
 * generator's own state, exactly as _randommodule.c draws them, and the object is left where Python would leave it.
 * That reads the layout of CPython's RandomObject (PyObject_HEAD, int index, uint32_t state[624], unchanged since
 * Python 3.2), which no API exposes: the module checks it when it is imported (mt_check: the type's size, and 1,400
 * draws of each kind against Python's own) and calls back into Python as before whenever the check fails or the
 * generator is anything else. tests/core/test_speedups.py holds the draws to Python's. */
#define MT_N 624
#define MT_M 397
typedef struct {
    PyObject_HEAD
    int index;
    uint32_t state[MT_N];
} MTObject;

static PyTypeObject *mt_type;  /* _random.Random; NULL: never draw here */
static PyMethodDef *mt_random_def, *mt_getrandbits_def;  /* the methods drawn here when bound to such an object */

static uint32_t mt_next(MTObject *g) {
    uint32_t *mt = g->state, y;
    if (g->index >= MT_N) {  /* the next 624 words, as genrand_uint32 makes them */
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        g->index = 0;
    }
    y = mt[g->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static double mt_unit(MTObject *g) {  /* random.random(): 53 bits from two words */
    uint32_t a = mt_next(g) >> 5, b = mt_next(g) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* The generator behind ``bound`` when it is ``def`` bound to a _random.Random, else NULL (call it instead). */
static MTObject *mt_behind(PyObject *bound, const PyMethodDef *def) {
    if (def == NULL || !PyCFunction_Check(bound)) return NULL;
    PyCFunctionObject *f = (PyCFunctionObject *)bound;
    if (f->m_ml != def || f->m_self == NULL || !PyObject_TypeCheck(f->m_self, mt_type)) return NULL;
    return (MTObject *)f->m_self;
}

/* Whether drawing here gives Python's own draws: the layout read above, checked on two generators seeded alike. */
static int mt_check(void) {
    PyObject *module = PyImport_ImportModule("_random");
    if (module == NULL) { PyErr_Clear(); return 0; }
    PyObject *type = PyObject_GetAttrString(module, "Random");
    Py_DECREF(module);
    if (type == NULL) { PyErr_Clear(); return 0; }
    int ok = PyType_Check(type) && ((PyTypeObject *)type)->tp_basicsize == (Py_ssize_t)sizeof(MTObject);
    PyObject *ours = ok ? PyObject_CallFunction(type, "i", 2026) : NULL;
    PyObject *theirs = ok ? PyObject_CallFunction(type, "i", 2026) : NULL;
    PyObject *unit = theirs ? PyObject_GetAttrString(theirs, "random") : NULL;
    PyObject *bits = theirs ? PyObject_GetAttrString(theirs, "getrandbits") : NULL;
    ok = ours && unit && bits && PyCFunction_Check(unit) && PyCFunction_Check(bits);
    for (int i = 0; ok && i < 1400; i++) {  /* past two refills of the 624 words */
        PyObject *u = PyObject_CallNoArgs(unit);
        int k = 1 + i % 32;
        PyObject *r = PyObject_CallFunction(bits, "i", k);
        double expected_unit = u ? PyFloat_AsDouble(u) : -1.0;
        unsigned long expected_bits = r ? PyLong_AsUnsignedLong(r) : 0;
        Py_XDECREF(u);
        Py_XDECREF(r);
        if (PyErr_Occurred()) { PyErr_Clear(); ok = 0; break; }
        double drawn_unit = mt_unit((MTObject *)ours);
        unsigned long drawn_bits = mt_next((MTObject *)ours) >> (32 - k);
        ok = drawn_unit == expected_unit && drawn_bits == expected_bits;
    }
    if (ok) {
        mt_type = (PyTypeObject *)type;  /* kept for the module's life */
        mt_random_def = ((PyCFunctionObject *)unit)->m_ml;
        mt_getrandbits_def = ((PyCFunctionObject *)bits)->m_ml;
    } else {
        Py_DECREF(type);
    }
    Py_XDECREF(ours);
    Py_XDECREF(theirs);
    Py_XDECREF(unit);
    Py_XDECREF(bits);
    PyErr_Clear();
    return ok;
}

static PyObject *drawn_here(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "drawn_here(bound method)");
        return NULL;
    }
    return PyBool_FromLong(mt_behind(args[0], mt_random_def) != NULL || mt_behind(args[0], mt_getrandbits_def) != NULL);
}

/* random.Random._randbelow(n), n >= 1, through the generator's getrandbits; -1 on an error */
static long long rand_below(PyObject *getrandbits, unsigned long long n) {
    int k = 0;
    for (unsigned long long m = n; m; m >>= 1) k++;
    MTObject *g = k <= 32 ? mt_behind(getrandbits, mt_getrandbits_def) : NULL;
    if (g != NULL) {
        uint32_t r;
        do r = mt_next(g) >> (32 - k); while (r >= n);
        return (long long)r;
    }
    PyObject *bits = PyLong_FromLong(k);
    if (bits == NULL) return -1;
    unsigned long long r;
    do {
        PyObject *drawn = PyObject_CallOneArg(getrandbits, bits);
        if (drawn == NULL) { Py_DECREF(bits); return -1; }
        r = PyLong_AsUnsignedLongLong(drawn);
        Py_DECREF(drawn);
        if (r == (unsigned long long)-1 && PyErr_Occurred()) { Py_DECREF(bits); return -1; }
    } while (r >= n);
    Py_DECREF(bits);
    return (long long)r;
}

/* shuffle_with(deck, getrandbits): random.Random.shuffle(deck) with the generator's own getrandbits, the same draws
 * in the same order (rummoli.shuffling.shuffle_pure is the same steps). Why C: a random stops hand's 51 draws cost
 * a tenth of the hand when each goes through Python's _randbelow. */
static PyObject *shuffle_with(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 2 || !PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "shuffle_with(deck: list, getrandbits: callable)");
        return NULL;
    }
    PyObject *deck = args[0], *getrandbits = args[1];
    for (Py_ssize_t i = PyList_GET_SIZE(deck) - 1; i > 0; i--) {
        long long r = rand_below(getrandbits, (unsigned long long)i + 1);
        if (r < 0) return NULL;
        if (i >= PyList_GET_SIZE(deck)) {  /* getrandbits may be any callable: the list may have shrunk */
            PyErr_SetString(PyExc_RuntimeError, "the deck changed size while it was shuffled");
            return NULL;
        }
        PyObject *a = PyList_GET_ITEM(deck, i), *b = PyList_GET_ITEM(deck, (Py_ssize_t)r);
        PyList_SET_ITEM(deck, i, b);
        PyList_SET_ITEM(deck, (Py_ssize_t)r, a);
    }
    Py_RETURN_NONE;
}

/* play_plain(hands, owner, log, hot, modes, state, words): the plain forced leads and plays of a stops hand's play
 * round, and the stops after which the same seat leads again, laid and logged as rummoli.stops.play lays them;
 * rummoli.stops.play.play_plain_pure is the same steps. Why C: most of a random hand's time went on these
 * cards, a few bit operations each. */
#define STOP_BLACK (((uint64_t)SUIT_BITS) | ((uint64_t)SUIT_BITS << 39))
#define STOP_RED (((uint64_t)SUIT_BITS << 13) | ((uint64_t)SUIT_BITS << 26))

static uint64_t lowest_per_suit(uint64_t m) {
    uint64_t out = 0;
    for (int s = 0; s < 4; s++) {
        uint64_t b = m & ((uint64_t)SUIT_BITS << (13 * s));
        out |= b & (~b + 1);
    }
    return out;
}

static uint64_t lowest_rank(uint64_t m) {
    uint64_t ranks = (m | m >> 13 | m >> 26 | m >> 39) & SUIT_BITS;
    if (!ranks) return 0;
    int r = __builtin_ctzll(ranks);
    uint64_t rank = (1ULL << r) | (1ULL << (13 + r)) | (1ULL << (26 + r)) | (1ULL << (39 + r));
    return m & rank;
}

/* modes: restart (0 opposite_colour, 1 other_suit, 2 other_suit_else_same) * 2 + lead (0 lowest_overall, 1 lowest_in_chosen_suit) */
static uint64_t restart_leads(uint64_t held, int suit, long modes) {
    long restart = modes / 2, lead = modes % 2;
    if (restart == 0) {
        uint64_t allowed = held & ((suit == 1 || suit == 2) ? STOP_BLACK : STOP_RED);
        return lead == 0 ? lowest_rank(allowed) : lowest_per_suit(allowed);
    }
    uint64_t allowed = held & ~((uint64_t)SUIT_BITS << (13 * suit));
    if (allowed) return lowest_per_suit(allowed);
    if (restart == 2) return held & (~held + 1);
    return 0;
}

static int append_new(PyObject *list, PyObject *item) {
    if (item == NULL) return -1;
    int failed = PyList_Append(list, item);
    Py_DECREF(item);
    return failed;
}

static PyObject *play_plain(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if ((nargs != 10 && nargs != 11) || !PyList_Check(args[0]) || !PyList_Check(args[1]) || !PyList_Check(args[2]) ||
        !PyList_Check(args[5]) || PyList_GET_SIZE(args[5]) != 6 || !PyTuple_Check(args[6]) ||
        PyTuple_GET_SIZE(args[6]) != 7 || PyList_GET_SIZE(args[1]) != 52 ||
        !(args[7] == Py_None || (PyTuple_Check(args[7]) && PyTuple_GET_SIZE(args[7]) == 52)) ||
        !PyList_Check(args[8]) || !PyList_Check(args[9]) || PyList_GET_SIZE(args[9]) != PyList_GET_SIZE(args[0])) {
        PyErr_SetString(PyExc_TypeError, "play_plain(hands: list, owner: list of 52, log: list, hot: int, modes: int, "
                        "state: list of 6, words: (act, play, lead, stop, forced, chips, pay_card), "
                        "pays: 52 tuples of (pot, lowest rank) or None, pots: list, chips: list[, getrandbits])");
        return NULL;
    }
    PyObject *getrandbits = nargs == 11 && args[10] != Py_None ? args[10] : NULL;
    PyObject *pays = args[7], *pots = args[8], *chips = args[9];
    PyObject *chips_word = PyTuple_GET_ITEM(args[6], 5), *pay_card = PyTuple_GET_ITEM(args[6], 6);
    PyObject *hands = args[0], *owner = args[1], *log = args[2], *state = args[5], *words = args[6];
    PyObject *act = PyTuple_GET_ITEM(words, 0), *play = PyTuple_GET_ITEM(words, 1);
    PyObject *lead = PyTuple_GET_ITEM(words, 2), *stop = PyTuple_GET_ITEM(words, 3);
    PyObject *forced = PyTuple_GET_ITEM(words, 4);
    uint64_t hot = PyLong_AsUnsignedLongLong(args[3]);
    if (hot == (uint64_t)-1 && PyErr_Occurred()) return NULL;
    long modes = PyLong_AsLong(args[4]);
    if (modes == -1 && PyErr_Occurred()) return NULL;
    long turn = PyLong_AsLong(PyList_GET_ITEM(state, 0));
    uint64_t mask = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(state, 1));
    int run = PyObject_IsTrue(PyList_GET_ITEM(state, 2));
    long last = PyLong_AsLong(PyList_GET_ITEM(state, 3));
    long streak = PyLong_AsLong(PyList_GET_ITEM(state, 4));
    long stopped = PyLong_AsLong(PyList_GET_ITEM(state, 5));
    if (PyErr_Occurred() || run < 0) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(hands);
    long status = 0;
    int failed = 0;  /* a draw failed: the state is written back at its choice, then the error raised */
    for (;;) {
        int chosen = 0;
        if (!run && (mask & (mask - 1))) {
            if (getrandbits == NULL || mask >> 52) { status = 0; break; }
            /* rng.choice of the lead's cards, lowest first (rummoli.stops.random_path) */
            long long pick = rand_below(getrandbits, (unsigned long long)__builtin_popcountll(mask));
            if (pick < 0) { failed = 1; break; }
            uint64_t rest = mask;
            while (pick--) rest &= rest - 1;
            mask = rest & (~rest + 1);
            chosen = 1;
        }
        if (!mask || mask >> 52 || turn < 0 || turn >= n) {
            PyErr_SetString(PyExc_ValueError, "play_plain: no card to lay");
            return NULL;
        }
        int card = 63 - __builtin_clzll(mask);
        uint64_t bit = 1ULL << card;
        uint64_t held = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(hands, turn));
        if (held == (uint64_t)-1 && PyErr_Occurred()) return NULL;
        if ((hot >> card & 1) || held == bit || !(held & bit)) { status = chosen ? 3 : 1; break; }
        if (append_new(log, Py_BuildValue("(OlOiiO)", act, turn, run ? play : lead, card, 0,
                                          chosen ? Py_False : forced)) < 0) return NULL;
        PyObject *left = PyLong_FromUnsignedLongLong(held ^ bit);
        if (left == NULL) return NULL;
        PyList_SetItem(hands, turn, left);
        PyObject *played = PyLong_FromLong(-2);
        if (played == NULL) return NULL;
        PyList_SetItem(owner, card, played);
        if (!run || last != turn) streak = card % 13;
        last = turn;
        if (pays != Py_None) {  /* the pots this card wins, each emptied into the layer's chips (claim = automatic) */
            PyObject *wins = PyTuple_GET_ITEM(pays, card);
            if (!PyTuple_Check(wins)) goto bad_pays;
            for (Py_ssize_t w = 0; w < PyTuple_GET_SIZE(wins); w++) {
                PyObject *win = PyTuple_GET_ITEM(wins, w);
                if (!PyTuple_Check(win) || PyTuple_GET_SIZE(win) != 2) goto bad_pays;
                long j = PyLong_AsLong(PyTuple_GET_ITEM(win, 0)), low = PyLong_AsLong(PyTuple_GET_ITEM(win, 1));
                if (PyErr_Occurred()) return NULL;
                if (j < 0 || j >= PyList_GET_SIZE(pots)) goto bad_pays;
                if (low >= 0 && low < streak) continue;
                long long amount = PyLong_AsLongLong(PyList_GET_ITEM(pots, j));
                long long own = PyLong_AsLongLong(PyList_GET_ITEM(chips, turn));
                if (PyErr_Occurred()) return NULL;
                if (amount <= 0) continue;
                PyObject *emptied = PyLong_FromLongLong(0), *richer = PyLong_FromLongLong(own + amount);
                if (emptied == NULL || richer == NULL) { Py_XDECREF(emptied); Py_XDECREF(richer); return NULL; }
                PyList_SetItem(pots, j, emptied);
                PyList_SetItem(chips, turn, richer);
                if (append_new(log, Py_BuildValue("(OllLO)", chips_word, -1 - j, turn, amount, pay_card)) < 0)
                    return NULL;
            }
        }
        long holder = -1;
        if (card % 13 != 12) {
            holder = PyLong_AsLong(PyList_GET_ITEM(owner, card + 1));
            if (holder == -1 && PyErr_Occurred()) return NULL;
        }
        if (holder >= 0) {
            run = 1;
            turn = holder;
            mask = bit << 1;
            continue;
        }
        uint64_t again = restart_leads(held ^ bit, card / 13, modes);
        if (!again) { status = 2; mask = bit; break; }  /* the next leader is found the long way */
        if (append_new(log, Py_BuildValue("(Oi)", stop, card)) < 0) return NULL;
        run = 0;
        stopped = card / 13;
        mask = again;
    }
    PyObject *type = NULL, *value = NULL, *traceback = NULL;
    if (failed) PyErr_Fetch(&type, &value, &traceback);
    PyObject *values[6] = {PyLong_FromLong(turn), PyLong_FromUnsignedLongLong(mask), PyBool_FromLong(run),
                           PyLong_FromLong(last), PyLong_FromLong(streak), PyLong_FromLong(stopped)};
    for (int k = 0; k < 6; k++) {
        if (values[k] == NULL) {
            for (int j = 0; j < 6; j++) Py_XDECREF(values[j]);
            Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(traceback);
            return NULL;
        }
    }
    for (int k = 0; k < 6; k++) PyList_SetItem(state, k, values[k]);
    if (failed) {
        PyErr_Restore(type, value, traceback);
        return NULL;
    }
    return PyLong_FromLong(status);
bad_pays:
    PyErr_SetString(PyExc_ValueError, "play_plain: pays holds, per card, (pot index, lowest rank) pairs");
    return NULL;
}

/* bid_random(getrandbits, state, chips, pots, hands, owner, log, put, start_stack, table, words): the random
 * decisions of a stops hand before its play round (the widow choice, the auction, the poker round) and the forced
 * ones between them, drawn, made and logged as rummoli.stops.random_bidding.bid_random_pure makes them (its
 * docstring says what each argument holds). Why C: these dozen decisions were half of a random Rummoli hand's
 * time, each a few comparisons and a log entry under Python's general machinery. The lists are written back only
 * when the call succeeds. */
#define BID_SEATS 62

static int read_ints(PyObject *list, long long *out, Py_ssize_t count) {
    for (Py_ssize_t i = 0; i < count; i++) {
        out[i] = PyLong_AsLongLong(PyList_GET_ITEM(list, i));
        if (out[i] == -1 && PyErr_Occurred()) return -1;
    }
    return 0;
}

/* list[:] = values[:count] */
static int write_ints(PyObject *list, const long long *values, Py_ssize_t count) {
    PyObject *fresh = PyList_New(count);
    if (fresh == NULL) return -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *v = PyLong_FromLongLong(values[i]);
        if (v == NULL) { Py_DECREF(fresh); return -1; }
        PyList_SET_ITEM(fresh, i, v);
    }
    int failed = PyList_SetSlice(list, 0, PyList_GET_SIZE(list), fresh);
    Py_DECREF(fresh);
    return failed;
}

enum { B_KEEP, B_SWAP, B_PASS, B_BID, B_CHECK, B_BET, B_CALL, B_FOLD, B_RAISE };
enum { PH_WIDOW, PH_AUCTION, PH_POKER };

/* What a decider of bid_core may read of the moment (rummoli.stops.random_bidding.BidNow). */
typedef struct {
    long long n, level, folded, pot;
    const long long *puts, *held;
} bid_now;

/* A decider: the kind and amount chosen among count options (kinds, with amount ranges lows..highs); -1 with a
 * Python error set when it fails. */
typedef int (*bid_decider)(void *ctx, long long phase, long long seat, const int *kinds, const long long *lows,
                           const long long *highs, int count, const bid_now *now, int *kind, long long *amount);

/* bid_random's decider: an option, then an amount, drawn as rng.choice and rng.randint draw. */
static int random_decide(void *ctx, long long phase, long long seat, const int *kinds, const long long *lows,
                         const long long *highs, int count, const bid_now *now, int *kind, long long *amount) {
    (void)phase; (void)seat; (void)now;
    PyObject *getrandbits = (PyObject *)ctx;
    long long pick = rand_below(getrandbits, (unsigned long long)count);
    if (pick < 0) return -1;
    *kind = kinds[pick];
    *amount = -1;
    if (*kind == B_BID || *kind == B_BET || *kind == B_RAISE) {
        long long r = rand_below(getrandbits, (unsigned long long)(highs[pick] - lows[pick] + 1));
        if (r < 0) return -1;
        *amount = lows[pick] + r;
    }
    return 0;
}

/* bid_policy's decider (rummoli.bots.stops_rollout.bid_policy_pure): the rules of thumb of a hard bot's rollout,
 * the same double operations in the same order as the Python (pow as Python's float ** calls it, round half to
 * even as Python's round), so the same choices. A hand's percentile and widow test are asked of the Python
 * functions once per seat and hand. */
typedef struct {
    PyObject *getrandbits, *percentile, *widow_test;  /* getrandbits NULL: no seat bets at random */
    long long wild, doubted;
    long long pct_of[BID_SEATS], test_of[BID_SEATS];  /* the hand each remembered answer is for, -1 none */
    double pct[BID_SEATS];
    int test[BID_SEATS];
} policy_ctx;

/* fn(mask): a new reference, or NULL with the error set */
static PyObject *ask_of_mask(PyObject *fn, long long held) {
    PyObject *mask = PyLong_FromLongLong(held);
    if (mask == NULL) return NULL;
    PyObject *r = PyObject_CallOneArg(fn, mask);
    Py_DECREF(mask);
    return r;
}

static int policy_pct(policy_ctx *c, long long seat, long long held, double *out) {
    if (c->pct_of[seat] != held) {
        PyObject *r = ask_of_mask(c->percentile, held);
        if (r == NULL) return -1;
        double v = PyFloat_AsDouble(r);
        Py_DECREF(r);
        if (v == -1.0 && PyErr_Occurred()) return -1;
        c->pct[seat] = v;
        c->pct_of[seat] = held;
    }
    *out = c->pct[seat];
    return 0;
}

static int policy_test(policy_ctx *c, long long seat, long long held) {
    if (c->test_of[seat] != held) {
        PyObject *r = ask_of_mask(c->widow_test, held);
        if (r == NULL) return -1;
        int v = PyObject_IsTrue(r);
        Py_DECREF(r);
        if (v < 0) return -1;
        c->test[seat] = v;
        c->test_of[seat] = held;
    }
    return c->test[seat];
}

static double unit_clamp(double x) {  /* min(1.0, max(0.0, x)) as Python picks */
    double y = x > 0.0 ? x : 0.0;
    return y < 1.0 ? y : 1.0;
}

static long long bet_scale(double p, double floor_, long long low, long long high) {  /* stops_policy._scale */
    double frac = unit_clamp((p - floor_) / (1.0 - floor_));
    long long v = low + (long long)nearbyint(frac * (double)(high - low));
    if (v > high) v = high;
    return v < low ? low : v;
}

static int policy_decide(void *ctx, long long phase, long long seat, const int *kinds, const long long *lows,
                         const long long *highs, int count, const bid_now *now, int *kind, long long *amount) {
    policy_ctx *c = (policy_ctx *)ctx;
    long long held = now->held[seat];
    *amount = 0;
    if (phase == PH_AUCTION) {
        int dreadful = count > 1 && lows[1] <= 2 ? policy_test(c, seat, held) : 0;
        if (dreadful < 0) return -1;
        *kind = dreadful ? B_BID : B_PASS;
        if (dreadful) *amount = lows[1];
        return 0;
    }
    if (phase == PH_WIDOW) {
        int dreadful = count > 1 ? policy_test(c, seat, held) : 0;
        if (dreadful < 0) return -1;
        *kind = dreadful ? B_SWAP : B_KEEP;
        return 0;
    }
    if (c->getrandbits != NULL && (c->wild >> seat & 1)) {  /* stops_search.wild_bet: every amount one action */
        unsigned long long total = 0;
        for (int i = 0; i < count; i++)
            total += kinds[i] == B_BET || kinds[i] == B_RAISE ? (unsigned long long)(highs[i] - lows[i] + 1) : 1;
        long long pick = rand_below(c->getrandbits, total);
        if (pick < 0) return -1;
        for (int i = 0; i < count; i++) {
            int ranged = kinds[i] == B_BET || kinds[i] == B_RAISE;
            long long span = ranged ? highs[i] - lows[i] + 1 : 1;
            if (pick < span) {
                *kind = kinds[i];
                *amount = ranged ? lows[i] + pick : 0;
                return 0;
            }
            pick -= span;
        }
    }
    long long n = now->n, others = 0, to_call = now->level - now->puts[seat];
    int doubted_quiet = 0;  /* a doubted seat that has put in the level: its bet is no sign of a hand */
    for (long long s = 0; s < n; s++) {
        if (s != seat && !(now->folded >> s & 1)) others++;
        if ((c->doubted >> s & 1) && now->level - now->puts[s] == 0) doubted_quiet = 1;
    }
    int facing = to_call > 0 && others >= 1 && !doubted_quiet;
    double pct, p;
    if (policy_pct(c, seat, held, &pct) < 0) return -1;
    if (facing) p = pow(pct, (double)(others - 1)) * unit_clamp((pct - 0.8) / 0.2);
    else p = pow(pct, (double)(others > 1 ? others : 1));
    int can_check = kinds[0] == B_CHECK;
    int bet = -1, raise = -1;
    for (int i = 0; i < count; i++) {
        if (kinds[i] == B_BET) bet = i;
        if (kinds[i] == B_RAISE) raise = i;
    }
    if (can_check) {  /* stops_policy.easy_bet */
        if (bet >= 0 && p >= 0.6) { *kind = B_BET; *amount = bet_scale(p, 0.6, lows[bet], highs[bet]); }
        else *kind = B_CHECK;
        return 0;
    }
    if (raise >= 0 && p >= 0.8) { *kind = B_RAISE; *amount = bet_scale(p, 0.8, lows[raise], highs[raise]); return 0; }
    if (p >= 0.4 || (to_call <= 2 && p >= 0.25)) { *kind = B_CALL; return 0; }
    /* stops_rollout.bet_choice: a fold calls when the pot's odds are worth it */
    *kind = p * (double)(now->pot + to_call) >= 1.2 * (double)to_call ? B_CALL : B_FOLD;
    return 0;
}

/* The loop both deciders play by (rummoli.stops.random_bidding.bid_loop): args are (state, chips, pots, hands,
 * owner, log, put, start_stack, table, words), as bid_random takes them after its generator. */
static int bid_args_ok(PyObject *const *args) {
    if (!PyList_Check(args[0]) || PyList_GET_SIZE(args[0]) != 11 || !PyList_Check(args[1]) ||
        !PyList_Check(args[2]) || !PyList_Check(args[3]) || !PyList_Check(args[4]) || PyList_GET_SIZE(args[4]) != 52 ||
        !PyList_Check(args[5]) || !PyList_Check(args[6]) || !PyList_Check(args[7]) || !PyTuple_Check(args[8]) ||
        PyTuple_GET_SIZE(args[8]) != 7 || !PyTuple_Check(args[9]) || PyTuple_GET_SIZE(args[9]) != 12) {
        PyErr_SetString(PyExc_TypeError, "bidding arguments: state: list of 11, chips: list, pots: list, "
                        "hands: list, owner: list of 52, log: list, put: list, start_stack: list, table: tuple of 7, "
                        "words: tuple of 12");
        return 0;
    }
    return 1;
}

static PyObject *bid_core(PyObject *const *args, bid_decider decide, void *ctx) {
    PyObject *state = args[0], *chips = args[1], *pots = args[2], *hands = args[3];
    PyObject *owner = args[4], *log = args[5], *put = args[6], *start_stack = args[7], *table = args[8];
    PyObject *words = args[9];
    long long t[7];
    for (int i = 0; i < 7; i++) {
        t[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(table, i));
        if (t[i] == -1 && PyErr_Occurred()) return NULL;
    }
    long long n = t[0], dealer = t[1], max_bet = t[2], max_raises = t[3], barred = t[4], poker = t[6];
    uint64_t pay_mask = (uint64_t)t[5];
    if (n < 1 || n > BID_SEATS || dealer < 0 || dealer >= n || PyList_GET_SIZE(chips) != n ||
        PyList_GET_SIZE(hands) != n || poker >= PyList_GET_SIZE(pots) || poker < -1) {
        PyErr_SetString(PyExc_ValueError, "bidding: the table, chips and hands do not agree");
        return NULL;
    }
    long long st[11], mine[BID_SEATS], puts[BID_SEATS], stack[BID_SEATS], held[BID_SEATS];
    if (read_ints(state, st, 11) < 0 || read_ints(chips, mine, n) < 0 || read_ints(hands, held, n) < 0)
        return NULL;
    Py_ssize_t had_puts = PyList_GET_SIZE(put), had_stack = PyList_GET_SIZE(start_stack);
    if ((had_puts != 0 && had_puts != n) || (had_stack != 0 && had_stack != n)) {
        PyErr_SetString(PyExc_ValueError, "bidding: put and start_stack hold one number a seat, or none yet");
        return NULL;
    }
    if (read_ints(put, puts, had_puts) < 0 || read_ints(start_stack, stack, had_stack) < 0) return NULL;
    long long pot = 0;
    if (poker >= 0) {
        pot = PyLong_AsLongLong(PyList_GET_ITEM(pots, poker));
        if (pot == -1 && PyErr_Occurred()) return NULL;
    }
    long long phase = st[0], turn = st[1], bid = st[2], bidder = st[3], passed = st[4], level = st[5], cap = st[6];
    long long raises = st[7], folded = st[8], swapped = st[9], given_up = st[10];
    if (phase < PH_WIDOW || phase > PH_POKER || turn < 0 || turn >= n || bidder >= n ||
        (phase == PH_POKER && (poker < 0 || had_puts != n || had_stack != n))) {
        PyErr_SetString(PyExc_ValueError, "bidding: not a state before the play round");
        return NULL;
    }
    PyObject *act = PyTuple_GET_ITEM(words, 0), *chips_word = PyTuple_GET_ITEM(words, 1);
    PyObject *widow_bid = PyTuple_GET_ITEM(words, 2);
    Py_ssize_t log_start = PyList_GET_SIZE(log);
    long long everyone = (1LL << n) - 1;
    int took = 0, status;
    for (;;) {
        long long seat = turn;
        int kinds[3], count = 1;
        long long lows[3] = {0, 0, 0}, highs[3] = {0, 0, 0};
        if (phase == PH_POKER) {
            if (puts[seat] == level) {
                kinds[0] = B_CHECK;
                if (level == 0 && cap > 0) {
                    kinds[1] = B_BET; lows[1] = 1; highs[1] = max_bet < cap ? max_bet : cap; count = 2;
                }
            } else {
                kinds[0] = B_CALL; kinds[1] = B_FOLD; count = 2;
                if (raises < max_raises && cap > level) {
                    kinds[2] = B_RAISE; lows[2] = 1; highs[2] = max_bet < cap - level ? max_bet : cap - level; count = 3;
                }
            }
        } else if (phase == PH_AUCTION) {
            kinds[0] = B_PASS;
            if (!(barred && ((uint64_t)held[seat] & pay_mask)) && mine[seat] > bid) {
                kinds[1] = B_BID; lows[1] = bid + 1; highs[1] = mine[seat]; count = 2;
            }
        } else {
            kinds[0] = B_KEEP;
            if (!(barred && ((uint64_t)held[seat] & pay_mask))) { kinds[1] = B_SWAP; count = 2; }
        }
        int kind;
        long long amount;
        PyObject *forced;
        if (count == 1) {
            kind = kinds[0]; amount = 0; forced = Py_True;
        } else {
            bid_now now = {n, level, folded, pot, puts, held};
            if (decide(ctx, phase, seat, kinds, lows, highs, count, &now, &kind, &amount) < 0) goto failed;
            forced = Py_False;
        }
        if (append_new(log, Py_BuildValue("(OLOiLO)", act, seat, PyTuple_GET_ITEM(words, 3 + kind), -1, amount,
                                          forced)) < 0) goto failed;
        long long winner = -1;
        if (phase == PH_POKER) {
            long long alive_before = everyone & ~folded;
            if (kind == B_BET || kind == B_RAISE || kind == B_CALL) {
                long long add = kind == B_CALL ? level - puts[seat] : (level - puts[seat]) + amount;
                if (kind != B_CALL) level += amount;
                if (kind == B_RAISE) raises++;
                puts[seat] += add;
                if (add > 0) {
                    mine[seat] -= add;
                    pot += add;
                    if (append_new(log, Py_BuildValue("(OLLLO)", chips_word, seat, -1 - poker, add,
                                                      PyTuple_GET_ITEM(words, 3 + B_BET))) < 0) goto failed;
                }
                if (kind == B_CALL) passed &= ~(1LL << seat);
                else passed = alive_before & ~(1LL << seat);
            } else {
                if (kind == B_FOLD) {
                    folded |= 1LL << seat;
                    int first = 1;
                    for (long long s = 0; s < n; s++) {
                        if (folded >> s & 1) continue;
                        if (first || stack[s] < cap) cap = stack[s];
                        first = 0;
                    }
                }
                passed &= ~(1LL << seat);
            }
            long long alive = everyone & ~folded;
            if ((alive & (alive - 1)) == 0 || !passed) { status = 1; break; }
            for (long long k = 1; k < n; k++) {
                long long nxt = (seat + k) % n;
                if (passed >> nxt & 1) { turn = nxt; break; }
            }
            continue;
        }
        if (kind == B_SWAP) {
            winner = seat;
        } else {
            if (kind == B_KEEP) {
                phase = PH_AUCTION; turn = dealer; passed = 1LL << dealer;
            } else if (kind == B_BID) {
                bid = amount; bidder = seat;
            } else {
                passed |= 1LL << seat;
            }
            long long others = everyone & ~passed;
            if (bidder >= 0) others &= ~(1LL << bidder);
            if (others) {
                for (long long k = 0; k < n; k++) {
                    turn = (turn + 1) % n;
                    if (others >> turn & 1) break;
                }
                continue;
            }
            if (bidder >= 0) {
                if (bid > 0) {
                    mine[bidder] -= bid;
                    mine[dealer] += bid;
                    if (append_new(log, Py_BuildValue("(OLLLO)", chips_word, bidder, dealer, bid, widow_bid)) < 0)
                        goto failed;
                }
                winner = bidder;
            }
        }
        if (winner >= 0) {
            uint64_t old = (uint64_t)held[winner], widow = old ^ ((1ULL << 52) - 1);
            for (long long s = 0; s < n; s++) widow &= ~(uint64_t)held[s];
            held[winner] = (long long)widow;
            swapped = winner; given_up = (long long)old; took = 1;
            if (append_new(log, Py_BuildValue("(OL)", PyTuple_GET_ITEM(words, 3 + B_SWAP), winner)) < 0) goto failed;
        }
        if (poker < 0) { status = 0; break; }
        phase = PH_POKER;
        cap = mine[0];
        for (long long s = 0; s < n; s++) {
            stack[s] = mine[s];
            puts[s] = 0;
            if (mine[s] < cap) cap = mine[s];
        }
        had_puts = had_stack = n;
        level = raises = folded = 0;
        passed = everyone;
        turn = (dealer + 1) % n;
    }
    /* every number ready: write them back */
    if (took) {
        uint64_t sets[2] = {(uint64_t)held[swapped], (uint64_t)given_up};
        long holders[2] = {(long)swapped, -1};  /* IN_WIDOW */
        for (int w = 0; w < 2; w++) {
            for (uint64_t c = sets[w]; c; c &= c - 1) {
                PyObject *h = PyLong_FromLong(holders[w]);
                if (h == NULL) goto failed;
                PyList_SetItem(owner, __builtin_ctzll(c), h);
            }
        }
    }
    if (write_ints(chips, mine, n) < 0 || write_ints(hands, held, n) < 0 || write_ints(put, puts, had_puts) < 0 ||
        write_ints(start_stack, stack, had_stack) < 0) goto failed;
    if (poker >= 0) {
        PyObject *p = PyLong_FromLongLong(pot);
        if (p == NULL) goto failed;
        PyList_SetItem(pots, poker, p);
    }
    long long out[11] = {phase, turn, bid, bidder, passed, level, cap, raises, folded, swapped, given_up};
    if (write_ints(state, out, 11) < 0) goto failed;
    return PyLong_FromLong(status);
failed: {
        /* the entries of a call that failed go, and its error stays the one raised */
        PyObject *type, *value, *traceback;
        PyErr_Fetch(&type, &value, &traceback);
        PyList_SetSlice(log, log_start, PyList_GET_SIZE(log), NULL);
        PyErr_Restore(type, value, traceback);
        return NULL;
    }
}

/* bid_random(getrandbits, state, chips, pots, hands, owner, log, put, start_stack, table, words) */
static PyObject *bid_random(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 11 || !bid_args_ok(args + 1)) {
        if (nargs != 11) PyErr_SetString(PyExc_TypeError, "bid_random takes getrandbits and the bidding arguments");
        return NULL;
    }
    return bid_core(args + 1, random_decide, args[0]);
}

/* bid_policy(getrandbits or None, (percentile, widow_test, wild, doubted), state, chips, pots, hands, owner, log,
 * put, start_stack, table, words): a hard bot's rollout before its play round
 * (rummoli.bots.stops_rollout.bid_policy_pure). Why C: step by step through the engine these decisions were two
 * fifths of a sampled world's time, a list of options, a dict and an engine step each. */
static PyObject *bid_policy(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 12 || !PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) != 4) {
        PyErr_SetString(PyExc_TypeError, "bid_policy(getrandbits or None, (percentile, widow_test, wild, doubted), "
                        "and the bidding arguments)");
        return NULL;
    }
    if (!bid_args_ok(args + 2)) return NULL;
    policy_ctx c;
    c.getrandbits = args[0] == Py_None ? NULL : args[0];
    c.percentile = PyTuple_GET_ITEM(args[1], 0);
    c.widow_test = PyTuple_GET_ITEM(args[1], 1);
    c.wild = PyLong_AsLongLong(PyTuple_GET_ITEM(args[1], 2));
    if (c.wild == -1 && PyErr_Occurred()) return NULL;
    c.doubted = PyLong_AsLongLong(PyTuple_GET_ITEM(args[1], 3));
    if (c.doubted == -1 && PyErr_Occurred()) return NULL;
    if (c.getrandbits == NULL) c.wild = 0;
    for (int s = 0; s < BID_SEATS; s++) c.pct_of[s] = c.test_of[s] = -1;
    return bid_core(args + 2, policy_decide, &c);
}


/* poker_chance(random, unseen, sizes, plan, strong, others, mine, limit, thresholds, min_samples, check_every,
 * clear_z) and widow_worth(random, unseen, size, samples, plan): the counting bots' two Monte-Carlo loops,
 * rummoli.bots.stops_chance.poker_chance_pure and widow_worth_pure (their docstrings say what each argument holds).
 * The same draws through the generator's own random(), the same double operations in the same order (libm's pow
 * and sqrt, as Python's float ** and math.sqrt call them), so the same answers to the last bit. Why C: these loops
 * were most of a normal bot's time, a random number, a swap and an evaluation at a time. */
static int draw_unit(PyObject *random_, double *out) {
    MTObject *g = mt_behind(random_, mt_random_def);
    if (g != NULL) {
        *out = mt_unit(g);
        return 0;
    }
    PyObject *r = PyObject_CallNoArgs(random_);
    if (r == NULL) return -1;
    *out = PyFloat_AsDouble(r);
    Py_DECREF(r);
    return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static int read_cards(PyObject *list, long *out) {
    Py_ssize_t n = PyList_GET_SIZE(list);
    if (n > 52) { PyErr_SetString(PyExc_ValueError, "more than 52 unseen cards"); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (out[i] == -1 && PyErr_Occurred()) return -1;
        if (out[i] < 0 || out[i] > 51) { PyErr_SetString(PyExc_ValueError, "a card is 0..51"); return -1; }
    }
    return 0;
}

/* i + int(u * span), checked to stay in the pool (a generator of another class might return 1.0) */
static int pick_in(double u, Py_ssize_t i, Py_ssize_t span, Py_ssize_t *j) {
    double at = u * (double)span;
    if (!(at >= 0.0 && at < (double)span)) {
        PyErr_SetString(PyExc_ValueError, "random() gave a number outside [0, 1)");
        return -1;
    }
    *j = i + (Py_ssize_t)at;
    return 0;
}

#define CHANCE_THRESHOLDS 16

static PyObject *poker_chance(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 12 || !PyList_Check(args[1]) || !PyList_Check(args[2]) || !PyList_Check(args[3]) ||
        !PyTuple_Check(args[8]) || PyTuple_GET_SIZE(args[8]) > CHANCE_THRESHOLDS) {
        PyErr_SetString(PyExc_TypeError, "poker_chance(random, unseen: list, sizes: list, plan: list, strong, others, "
                        "mine, limit, thresholds: tuple (at most 16), min_samples, check_every, clear_z)");
        return NULL;
    }
    PyObject *random_ = args[0], *strong = args[4], *others_obj = args[5];
    long unseen[52], cards[52], size_of[52];
    Py_ssize_t n_unseen = PyList_GET_SIZE(args[1]), hands = PyList_GET_SIZE(args[2]);
    if (read_cards(args[1], unseen) < 0) return NULL;
    if (hands > 52) { PyErr_SetString(PyExc_ValueError, "more than 52 hands"); return NULL; }
    Py_ssize_t need = 0;
    for (Py_ssize_t h = 0; h < hands; h++) {
        size_of[h] = PyLong_AsLong(PyList_GET_ITEM(args[2], h));
        if (size_of[h] == -1 && PyErr_Occurred()) return NULL;
        if (size_of[h] < 0) { PyErr_SetString(PyExc_ValueError, "a hand's size is negative"); return NULL; }
        need += size_of[h];
    }
    if (need > n_unseen) { PyErr_SetString(PyExc_ValueError, "the hands need more cards than are unseen"); return NULL; }
    Py_ssize_t players = PyList_GET_SIZE(args[3]);
    if (players > 52) { PyErr_SetString(PyExc_ValueError, "more than 52 players"); return NULL; }
    long px[52], pagg[52];
    double pcred[52], pdoubt[52];
    PyObject *pknown[52];
    for (Py_ssize_t p = 0; p < players; p++) {
        PyObject *t = PyList_GET_ITEM(args[3], p);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 5 || !PyDict_Check(PyTuple_GET_ITEM(t, 4))) {
            PyErr_SetString(PyExc_TypeError, "a player is (hand index, bets, credibility, doubt, dict)");
            return NULL;
        }
        px[p] = PyLong_AsLong(PyTuple_GET_ITEM(t, 0));
        pagg[p] = PyLong_AsLong(PyTuple_GET_ITEM(t, 1));
        pcred[p] = PyFloat_AsDouble(PyTuple_GET_ITEM(t, 2));
        pdoubt[p] = PyFloat_AsDouble(PyTuple_GET_ITEM(t, 3));
        pknown[p] = PyTuple_GET_ITEM(t, 4);
        if (PyErr_Occurred()) return NULL;
        if (px[p] < 0 || px[p] >= hands) { PyErr_SetString(PyExc_IndexError, "a player's hand index"); return NULL; }
    }
    long long mine = PyLong_AsLongLong(args[6]);
    long limit = PyLong_AsLong(args[7]), min_samples = PyLong_AsLong(args[9]), check_every = PyLong_AsLong(args[10]);
    double clear_z = PyFloat_AsDouble(args[11]);
    Py_ssize_t n_thresholds = PyTuple_GET_SIZE(args[8]);
    double thresholds[CHANCE_THRESHOLDS];
    for (Py_ssize_t t = 0; t < n_thresholds; t++) thresholds[t] = PyFloat_AsDouble(PyTuple_GET_ITEM(args[8], t));
    if (PyErr_Occurred()) return NULL;
    if (n_thresholds && check_every <= 0) { PyErr_SetString(PyExc_ValueError, "check_every must be positive"); return NULL; }
    double wins = 0.0, weight_sum = 0.0, weight_sq = 0.0;
    long n = 0;
    uint64_t masks[52];
    while (n < limit) {
        memcpy(cards, unseen, sizeof(long) * (size_t)n_unseen);
        Py_ssize_t i = 0;
        for (Py_ssize_t h = 0; h < hands; h++) {
            uint64_t m = 0;
            for (long d = 0; d < size_of[h]; d++, i++) {
                double u;
                Py_ssize_t j;
                if (draw_unit(random_, &u) < 0 || pick_in(u, i, n_unseen - i, &j) < 0) return NULL;
                long c = cards[j];
                cards[j] = cards[i];
                cards[i] = c;
                m |= (uint64_t)1 << c;
            }
            masks[h] = m;
        }
        double weight = 1.0;
        long long best_other = -1;
        for (Py_ssize_t p = 0; p < players; p++) {
            if (!pagg[p] && best_other > mine) break;  /* lost already: the rest did not bet */
            long long value = evaluate(masks[px[p]]);
            if (value > best_other) best_other = value;
            if (pagg[p]) {
                PyObject *key = PyLong_FromLongLong(value);
                if (key == NULL) return NULL;
                PyObject *likely = PyDict_GetItemWithError(pknown[p], key);  /* borrowed */
                double l;
                if (likely == NULL) {
                    if (PyErr_Occurred()) { Py_DECREF(key); return NULL; }
                    PyObject *size = PyLong_FromLong(size_of[px[p]]);
                    if (size == NULL) { Py_DECREF(key); return NULL; }
                    PyObject *call[3] = {key, size, others_obj};
                    PyObject *fresh = PyObject_Vectorcall(strong, call, 3, NULL);
                    Py_DECREF(size);
                    if (fresh == NULL || PyDict_SetItem(pknown[p], key, fresh) < 0) {
                        Py_XDECREF(fresh);
                        Py_DECREF(key);
                        return NULL;
                    }
                    l = PyFloat_AsDouble(fresh);
                    Py_DECREF(fresh);
                } else {
                    l = PyFloat_AsDouble(likely);
                }
                Py_DECREF(key);
                if (l == -1.0 && PyErr_Occurred()) return NULL;
                weight *= pow(pcred[p] * l + pdoubt[p], (double)pagg[p]);
            }
        }
        n++;
        weight_sum += weight;
        weight_sq += weight * weight;
        if (mine > best_other) wins += weight;
        else if (mine == best_other) wins += weight / 2;
        if (n_thresholds && n >= min_samples && n % check_every == 0 && weight_sum != 0.0) {
            double p = wins / weight_sum;
            double effective = weight_sum * weight_sum / weight_sq;
            double spread = p * (1 - p), floor = 0.25 / effective;
            double error = sqrt((floor > spread ? floor : spread) / effective);
            int clear = 1;
            for (Py_ssize_t t = 0; t < n_thresholds && clear; t++) clear = fabs(p - thresholds[t]) > clear_z * error;
            if (clear) break;
        }
    }
    return Py_BuildValue("(ddl)", wins, weight_sum, n);
}

#define WORTH_COMBOS 64

static PyObject *widow_worth(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 5 || !PyList_Check(args[1]) || !PyTuple_Check(args[4]) || PyTuple_GET_SIZE(args[4]) != 8) {
        PyErr_SetString(PyExc_TypeError, "widow_worth(random, unseen: list, size, samples, plan: WorthPlan)");
        return NULL;
    }
    PyObject *random_ = args[0], *plan = args[4];
    long unseen[52], pool[52];
    Py_ssize_t n = PyList_GET_SIZE(args[1]);
    if (read_cards(args[1], unseen) < 0) return NULL;
    long size = PyLong_AsLong(args[2]), samples = PyLong_AsLong(args[3]);
    if (PyErr_Occurred()) return NULL;
    PyObject *card_plan = PyTuple_GET_ITEM(plan, 0), *combo_plan = PyTuple_GET_ITEM(plan, 1);
    PyObject *values_obj = PyTuple_GET_ITEM(plan, 5);
    if (!PyTuple_Check(card_plan) || PyTuple_GET_SIZE(card_plan) > 52 || !PyTuple_Check(combo_plan) ||
        PyTuple_GET_SIZE(combo_plan) > WORTH_COMBOS || !PyList_Check(values_obj)) {
        PyErr_SetString(PyExc_TypeError, "a WorthPlan of at most 52 cards, 64 combos and a list of values");
        return NULL;
    }
    Py_ssize_t n_cards = PyTuple_GET_SIZE(card_plan), n_combos = PyTuple_GET_SIZE(combo_plan);
    long card_at[52];
    double card_value[52], combo_value[WORTH_COMBOS];
    uint64_t combo_masks[WORTH_COMBOS][4];
    int combo_suits[WORTH_COMBOS];
    for (Py_ssize_t i = 0; i < n_cards; i++) {
        PyObject *t = PyTuple_GET_ITEM(card_plan, i);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2) { PyErr_SetString(PyExc_TypeError, "a card is (card, value)"); return NULL; }
        card_at[i] = PyLong_AsLong(PyTuple_GET_ITEM(t, 0));
        card_value[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(t, 1));
        if (PyErr_Occurred()) return NULL;
        if (card_at[i] < 0 || card_at[i] > 51) { PyErr_SetString(PyExc_ValueError, "a card is 0..51"); return NULL; }
    }
    for (Py_ssize_t i = 0; i < n_combos; i++) {
        PyObject *t = PyTuple_GET_ITEM(combo_plan, i);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(t, 0)) ||
            PyTuple_GET_SIZE(PyTuple_GET_ITEM(t, 0)) > 4) {
            PyErr_SetString(PyExc_TypeError, "a combo is (its masks: at most 4, value)");
            return NULL;
        }
        PyObject *ms = PyTuple_GET_ITEM(t, 0);
        combo_suits[i] = (int)PyTuple_GET_SIZE(ms);
        for (int k = 0; k < combo_suits[i]; k++) combo_masks[i][k] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(ms, k));
        combo_value[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(t, 1));
        if (PyErr_Occurred()) return NULL;
    }
    int poker = PyObject_IsTrue(PyTuple_GET_ITEM(plan, 2));
    double stake = PyFloat_AsDouble(PyTuple_GET_ITEM(plan, 3)), power = PyFloat_AsDouble(PyTuple_GET_ITEM(plan, 4));
    double players = PyFloat_AsDouble(PyTuple_GET_ITEM(plan, 6)), centre = PyFloat_AsDouble(PyTuple_GET_ITEM(plan, 7));
    if (poker < 0 || PyErr_Occurred()) return NULL;
    Py_ssize_t count = PyList_GET_SIZE(values_obj);
    long long *values = NULL;
    if (poker) {
        if (count == 0) { PyErr_SetString(PyExc_ValueError, "no values to rank a hand among"); return NULL; }
        values = PyMem_Malloc(sizeof(long long) * (size_t)count);
        if (values == NULL) return PyErr_NoMemory();
        if (read_ints(values_obj, values, count) < 0) { PyMem_Free(values); return NULL; }
    }
    Py_ssize_t draws = size < n ? (Py_ssize_t)size : n;
    if (draws < 0) draws = 0;
    double total = 0.0;
    for (long s = 0; s < samples; s++) {
        memcpy(pool, unseen, sizeof(long) * (size_t)n);
        uint64_t mask = 0;
        for (Py_ssize_t i = 0; i < draws; i++) {
            double u;
            Py_ssize_t j;
            if (draw_unit(random_, &u) < 0 || pick_in(u, i, n - i, &j) < 0) { PyMem_Free(values); return NULL; }
            long c = pool[j];
            pool[j] = pool[i];
            pool[i] = c;
            mask |= (uint64_t)1 << c;
        }
        if (!mask) continue;
        double worth = 0.0;
        for (Py_ssize_t i = 0; i < n_cards; i++)
            if (mask >> card_at[i] & 1) worth += card_value[i];
        for (Py_ssize_t i = 0; i < n_combos; i++)
            for (int k = 0; k < combo_suits[i]; k++)
                if ((mask & combo_masks[i][k]) == combo_masks[i][k]) { worth += combo_value[i]; break; }
        int held = __builtin_popcountll(mask);
        if (poker && held >= 5) {
            long long v = evaluate(mask);
            Py_ssize_t lo = 0, hi = count;
            while (lo < hi) { Py_ssize_t mid = (lo + hi) / 2; if (values[mid] < v) lo = mid + 1; else hi = mid; }
            Py_ssize_t top = lo, end = count;
            while (top < end) { Py_ssize_t mid = (top + end) / 2; if (values[mid] <= v) top = mid + 1; else end = mid; }
            worth += pow((double)(lo + top) / 2 / (double)count, power) * stake;
        }
        long low = lowness_of[mask & SUIT_BITS] + lowness_of[mask >> 13 & SUIT_BITS] + lowness_of[mask >> 26 & SUIT_BITS]
                   + lowness_of[mask >> 39 & SUIT_BITS];
        double lowness = (double)low / (double)(12 * held);
        double out = 2 * lowness / players;
        worth += (out < 0.9 ? out : 0.9) * centre;
        total += worth;
    }
    PyMem_Free(values);
    return PyFloat_FromDouble(total);
}


/* lay_round(hands, chips, pots, seat, lead_mask, first, plan): the play round of a hard bot's rollout, every lead
 * chosen by the normal level's counted score, chips and pots written back; rummoli.bots.stops_playout
 * play_round_pure is the same steps (its lead_choice and rummoli.bots.stops_infer.counted_lead_score the same
 * double operations in the same order), round_plan says what plan holds. Why C: the play round was a quarter of a
 * hard bot's search, a card at a time. */
#define ROUND_SEATS 62
#define ROUND_POTS 64

typedef struct {
    int card_pot_count[52], card_pot[52][4];
    int combo_count[52], combo_pot[52][4], combo_low[52][4];
    uint64_t paying, pay_mask, combos[64];
    int modes, pay_to_pass, centre, leftover, on_play, n_combos;
    int n_score, score_card[52], score_count[52], score_pot[52][4];
} RoundPlan;

static int read_pot_list(PyObject *t, int *out, int *count, Py_ssize_t pots) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) > 4) { PyErr_SetString(PyExc_TypeError, "at most 4 pots a card"); return -1; }
    *count = (int)PyTuple_GET_SIZE(t);
    for (int i = 0; i < *count; i++) {
        long j = PyLong_AsLong(PyTuple_GET_ITEM(t, i));
        if (j == -1 && PyErr_Occurred()) return -1;
        if (j < 0 || j >= pots) { PyErr_SetString(PyExc_IndexError, "a pot index"); return -1; }
        out[i] = (int)j;
    }
    return 0;
}

static int read_round_plan(PyObject *plan, RoundPlan *r, Py_ssize_t pots) {
    if (!PyTuple_Check(plan) || PyTuple_GET_SIZE(plan) != 12) { PyErr_SetString(PyExc_TypeError, "a round plan of 12"); return -1; }
    PyObject *card_pots = PyTuple_GET_ITEM(plan, 0), *combo_end = PyTuple_GET_ITEM(plan, 1);
    PyObject *score = PyTuple_GET_ITEM(plan, 7), *combos = PyTuple_GET_ITEM(plan, 10);
    if (!PyTuple_Check(card_pots) || PyTuple_GET_SIZE(card_pots) != 52 || !PyTuple_Check(combo_end) ||
        PyTuple_GET_SIZE(combo_end) != 52 || !PyTuple_Check(score) || PyTuple_GET_SIZE(score) > 52 ||
        !PyTuple_Check(combos) || PyTuple_GET_SIZE(combos) > 64) {
        PyErr_SetString(PyExc_TypeError, "a round plan's tables");
        return -1;
    }
    for (int c = 0; c < 52; c++) {
        if (read_pot_list(PyTuple_GET_ITEM(card_pots, c), r->card_pot[c], &r->card_pot_count[c], pots) < 0) return -1;
        PyObject *ends = PyTuple_GET_ITEM(combo_end, c);
        if (!PyTuple_Check(ends) || PyTuple_GET_SIZE(ends) > 4) { PyErr_SetString(PyExc_TypeError, "combo ends"); return -1; }
        r->combo_count[c] = (int)PyTuple_GET_SIZE(ends);
        for (int i = 0; i < r->combo_count[c]; i++) {
            PyObject *e = PyTuple_GET_ITEM(ends, i);
            if (!PyTuple_Check(e) || PyTuple_GET_SIZE(e) != 2) { PyErr_SetString(PyExc_TypeError, "a combo end"); return -1; }
            r->combo_pot[c][i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(e, 0));
            r->combo_low[c][i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(e, 1));
            if (PyErr_Occurred()) return -1;
            if (r->combo_pot[c][i] < 0 || r->combo_pot[c][i] >= pots) { PyErr_SetString(PyExc_IndexError, "a pot index"); return -1; }
        }
    }
    r->paying = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(plan, 2));
    r->modes = (int)PyLong_AsLong(PyTuple_GET_ITEM(plan, 3));
    r->pay_to_pass = PyObject_IsTrue(PyTuple_GET_ITEM(plan, 4));
    r->centre = (int)PyLong_AsLong(PyTuple_GET_ITEM(plan, 5));
    r->leftover = PyObject_IsTrue(PyTuple_GET_ITEM(plan, 6));
    r->on_play = PyObject_IsTrue(PyTuple_GET_ITEM(plan, 8));
    r->pay_mask = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(plan, 9));
    if (PyErr_Occurred() || r->pay_to_pass < 0 || r->leftover < 0 || r->on_play < 0) return -1;
    if (r->centre < 0 || r->centre >= pots || r->modes < 0 || r->modes > 5) { PyErr_SetString(PyExc_ValueError, "a round plan's rules"); return -1; }
    r->n_score = (int)PyTuple_GET_SIZE(score);
    for (int i = 0; i < r->n_score; i++) {
        PyObject *e = PyTuple_GET_ITEM(score, i);
        if (!PyTuple_Check(e) || PyTuple_GET_SIZE(e) != 2) { PyErr_SetString(PyExc_TypeError, "a card pot"); return -1; }
        long c = PyLong_AsLong(PyTuple_GET_ITEM(e, 0));
        if (c == -1 && PyErr_Occurred()) return -1;
        if (c < 0 || c > 51) { PyErr_SetString(PyExc_ValueError, "a card is 0..51"); return -1; }
        r->score_card[i] = (int)c;
        if (read_pot_list(PyTuple_GET_ITEM(e, 1), r->score_pot[i], &r->score_count[i], pots) < 0) return -1;
    }
    r->n_combos = (int)PyTuple_GET_SIZE(combos);
    for (int i = 0; i < r->n_combos; i++) r->combos[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(combos, i));
    return PyErr_Occurred() ? -1 : 0;
}

/* rummoli.bots.stops_policy.lead_keeping, restart = modes / 2 */
static double lead_keeping_c(int restart, uint64_t rest, int suit) {
    if (restart == 2) return 10.0;
    uint64_t other = rest & (restart == 0 ? ((suit == 0 || suit == 3) ? STOP_RED : STOP_BLACK)
                                          : (((uint64_t)1 << 52) - 1) & ~((uint64_t)SUIT_BITS << (13 * suit)));
    if (!other) return 0.0;
    if (restart != 0) return 10.0;
    int a = __builtin_popcountll(other), b = __builtin_popcountll(rest & ~other);
    int m = 2 * (a < b ? a : b) + (a > b);
    return 10.0 + (double)(m < 6 ? m : 6);
}

/* rummoli.bots.stops_infer.counted_lead_score as a rollout's seat counts (every unseen card in the widow with
 * chance pw, no card known to be there) */
static double counted_score(const RoundPlan *r, const long long *pots, uint64_t hand, uint64_t played, double pw, int card) {
    uint64_t run = 0;
    int top_of_suit = 13 * (card / 13) + 12;
    for (int c = card; c <= top_of_suit && (hand >> c & 1); c++) run |= (uint64_t)1 << c;
    uint64_t rest = hand & ~run;
    if (!rest) return 1000.0;
    int suit = card / 13;
    int top = 63 - __builtin_clzll(run);
    double score = 2.0 * (double)__builtin_popcountll(run);
    double keeping = lead_keeping_c(r->modes / 2, rest, suit);
    if (keeping != 0.0) {
        score += keeping;
        double stop_p = (top % 13 == 12 || (played >> (top + 1) & 1)) ? 1.0 : pw;
        score += 6.0 * stop_p;
    }
    double reach = 1.0;
    int end = 13 * suit + 13;
    for (int c = top + 1; c < end && reach > 0.02; c++) {
        long long value = 0;
        if (r->on_play)
            for (int i = 0; i < r->n_score; i++)
                if (r->score_card[i] == c) {
                    for (int k = 0; k < r->score_count[i]; k++) value += pots[r->score_pot[i][k]];
                    break;
                }
        uint64_t bit = (uint64_t)1 << c;
        if (hand & bit) {
            score += (double)value * reach + 0.75 * reach + (c % 13 == 12 ? 4.0 * reach : 0.0);
        } else if (played & bit) {
            break;
        } else {
            score -= 0.5 * (double)value * reach * (1.0 - pw) + 0.75 * reach * (1.0 - pw);
            reach *= 1.0 - pw;
        }
    }
    for (int i = 0; i < r->n_score; i++)
        if (run >> r->score_card[i] & 1) {
            long long v = 0;
            for (int k = 0; k < r->score_count[i]; k++) v += pots[r->score_pot[i][k]];
            score += (double)v;
        }
    uint64_t held = rest & r->pay_mask;
    for (int i = 0; i < r->n_combos; i++)
        if ((rest & r->combos[i]) == r->combos[i]) held |= r->combos[i];
    uint64_t low = 0x7ULL | 0x7ULL << 13 | 0x7ULL << 26 | 0x7ULL << 39;
    return score + 0.1 * (double)(held != 0) + 0.01 * (double)__builtin_popcountll(rest & low);
}

static int lead_choice_c(const RoundPlan *r, const long long *pots, uint64_t held, uint64_t played, int widow,
                         uint64_t options) {
    int unseen = 52 - __builtin_popcountll(held) - __builtin_popcountll(played);
    double pw = unseen ? (double)widow / (double)unseen : 0.0;
    int best = -1;
    double best_score = -1e18;
    for (uint64_t m = options; m; m &= m - 1) {
        int c = __builtin_ctzll(m);
        double s = counted_score(r, pots, held, played, pw, c);
        if (s > best_score) { best = c; best_score = s; }
    }
    return best;
}

static PyObject *lay_round(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 8 || !PyList_Check(args[0]) || !PyList_Check(args[1]) || !PyList_Check(args[2]) ||
        !PyList_Check(args[3]) || PyList_GET_SIZE(args[3]) != 52 ||
        PyList_GET_SIZE(args[0]) != PyList_GET_SIZE(args[1]) || PyList_GET_SIZE(args[0]) > ROUND_SEATS ||
        PyList_GET_SIZE(args[0]) < 1 || PyList_GET_SIZE(args[2]) > ROUND_POTS) {
        PyErr_SetString(PyExc_TypeError, "lay_round(hands: list, chips: list (as many), pots: list, owner: list of 52, "
                        "seat, lead_mask, first, plan)");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(args[0]), n_pots = PyList_GET_SIZE(args[2]);
    long long hands_ll[ROUND_SEATS], chips[ROUND_SEATS], pots[ROUND_POTS], owner[52];
    uint64_t hands[ROUND_SEATS];
    if (read_ints(args[0], hands_ll, n) < 0 || read_ints(args[1], chips, n) < 0 ||
        read_ints(args[2], pots, n_pots) < 0 || read_ints(args[3], owner, 52) < 0)
        return NULL;
    RoundPlan plan;
    if (read_round_plan(args[7], &plan, n_pots) < 0) return NULL;
    long seat = PyLong_AsLong(args[4]);
    uint64_t options = PyLong_AsUnsignedLongLong(args[5]);
    long first = PyLong_AsLong(args[6]);
    long played_code = PyLong_AsLong(PyTuple_GET_ITEM(args[7], 11));
    if (PyErr_Occurred()) return NULL;
    if (seat < 0 || seat >= n || first > 51) { PyErr_SetString(PyExc_ValueError, "a seat or a card out of range"); return NULL; }
    uint64_t held_all = 0, played = 0;
    for (Py_ssize_t s = 0; s < n; s++) { hands[s] = (uint64_t)hands_ll[s]; held_all |= hands[s]; }
    for (int c = 0; c < 52; c++)
        if (owner[c] == played_code) played |= (uint64_t)1 << c;
    int widow = 52 - __builtin_popcountll(held_all) - __builtin_popcountll(played);  /* unchanged by the round */
    int card;
    if (first >= 0) card = (int)first;
    else if (options & (options - 1)) card = lead_choice_c(&plan, pots, hands[seat], played, widow, options);
    else card = options ? 63 - __builtin_clzll(options) : -1;
    int lead = 1, streak = -1;
    long last = -1;
    const uint64_t aces = (uint64_t)1 << 12 | (uint64_t)1 << 25 | (uint64_t)1 << 38 | (uint64_t)1 << 51;
    for (;;) {
        if (card < 0 || card > 51) { PyErr_SetString(PyExc_ValueError, "no card to lay"); return NULL; }
        uint64_t bit = (uint64_t)1 << card;
        uint64_t held = hands[seat] ^ bit;
        hands[seat] = held;
        played |= bit;
        if (lead || last != seat) streak = card % 13;  /* the streak this seat laid in a row */
        last = seat;
        if (bit & plan.paying) {
            for (int i = 0; i < plan.card_pot_count[card]; i++) {
                int j = plan.card_pot[card][i];
                chips[seat] += pots[j];
                pots[j] = 0;
            }
            for (int i = 0; i < plan.combo_count[card]; i++)
                if (plan.combo_low[card][i] >= streak) {
                    int j = plan.combo_pot[card][i];
                    chips[seat] += pots[j];
                    pots[j] = 0;
                }
        }
        if (!held) {  /* out: the centre, then the leftover payments */
            chips[seat] += pots[plan.centre];
            pots[plan.centre] = 0;
            if (plan.leftover)
                for (Py_ssize_t other = 0; other < n; other++)
                    if (other != seat) {
                        long long count = __builtin_popcountll(hands[other]);
                        long long paid = count < chips[other] ? count : chips[other];
                        chips[other] -= paid;
                        chips[seat] += paid;
                    }
            break;
        }
        if (!(bit & aces)) {
            long holder = -1;
            for (Py_ssize_t s = 0; s < n; s++)
                if (hands[s] >> (card + 1) & 1) { holder = (long)s; break; }
            if (holder >= 0) {  /* the run goes on: forced */
                seat = holder;
                card = card + 1;
                lead = 0;
                continue;
            }
        }
        int suit = card / 13;
        long leader = seat;
        int found = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            options = restart_leads(hands[leader], suit, plan.modes);
            if (options) { found = 1; break; }
            if (plan.pay_to_pass && chips[leader] > 0) {
                chips[leader] -= 1;
                pots[plan.centre] += 1;
            }
            leader = (leader + 1) % n;
        }
        if (!found) {  /* nobody can lead: the stall */
            for (Py_ssize_t s2 = 0; s2 < n; s2++) {
                long long count = __builtin_popcountll(hands[s2]);
                long long paid = count < chips[s2] ? count : chips[s2];
                chips[s2] -= paid;
                pots[plan.centre] += paid;
            }
            break;
        }
        seat = leader;
        lead = 1;
        card = (options & (options - 1)) ? lead_choice_c(&plan, pots, hands[seat], played, widow, options)
                                         : 63 - __builtin_clzll(options);
    }
    if (write_ints(args[1], chips, n) < 0 || write_ints(args[2], pots, n_pots) < 0) return NULL;
    Py_RETURN_NONE;
}


/* place_cards(random, getrandbits, caps, out, items): a hard bot's world, the unseen cards dealt to their places;
 * rummoli.bots.stops_search.place_cards_pure is the same steps (one random() a card in card order, the cards
 * taken fewest places first, each place drawn as randrange draws it). Why C: sampling a world was a tenth of a
 * hard bot's search. */
typedef struct { long count; double u; long card; int allowed[64]; int n_allowed; } PlaceItem;

static int place_order(const void *a, const void *b) {
    const PlaceItem *x = a, *y = b;
    if (x->count != y->count) return x->count < y->count ? -1 : 1;
    if (x->u != y->u) return x->u < y->u ? -1 : 1;
    return (x->card > y->card) - (x->card < y->card);
}

static PyObject *place_cards(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 5 || !PyList_Check(args[2]) || !PyList_Check(args[3]) || !PyList_Check(args[4]) ||
        PyList_GET_SIZE(args[2]) != PyList_GET_SIZE(args[3]) || PyList_GET_SIZE(args[2]) > 64 ||
        PyList_GET_SIZE(args[4]) > 52) {
        PyErr_SetString(PyExc_TypeError, "place_cards(random, getrandbits, caps: list, out: list (as many, at most 64), "
                        "items: list (at most 52))");
        return NULL;
    }
    Py_ssize_t places = PyList_GET_SIZE(args[2]), n = PyList_GET_SIZE(args[4]);
    long long caps[64], out_ll[64];
    if (read_ints(args[2], caps, places) < 0 || read_ints(args[3], out_ll, places) < 0) return NULL;
    PlaceItem items[52];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PyList_GET_ITEM(args[4], i);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3 || !PyList_Check(PyTuple_GET_ITEM(t, 2)) ||
            PyList_GET_SIZE(PyTuple_GET_ITEM(t, 2)) > places) {
            PyErr_SetString(PyExc_TypeError, "an item is (count, card, allowed places: list)");
            return NULL;
        }
        items[i].count = PyLong_AsLong(PyTuple_GET_ITEM(t, 0));
        items[i].card = PyLong_AsLong(PyTuple_GET_ITEM(t, 1));
        PyObject *allowed = PyTuple_GET_ITEM(t, 2);
        items[i].n_allowed = (int)PyList_GET_SIZE(allowed);
        for (int k = 0; k < items[i].n_allowed; k++) {
            long loc = PyLong_AsLong(PyList_GET_ITEM(allowed, k));
            if (loc < 0 || loc >= places) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_IndexError, "a place out of range");
                return NULL;
            }
            items[i].allowed[k] = (int)loc;
        }
        if (PyErr_Occurred()) return NULL;
        if (items[i].card < 0 || items[i].card > 51) { PyErr_SetString(PyExc_ValueError, "a card is 0..51"); return NULL; }
        if (draw_unit(args[0], &items[i].u) < 0) return NULL;
    }
    qsort(items, (size_t)n, sizeof(PlaceItem), place_order);
    for (Py_ssize_t i = 0; i < n; i++) {
        long long total = 0;
        for (int k = 0; k < items[i].n_allowed; k++) total += caps[items[i].allowed[k]];
        if (total <= 0) Py_RETURN_NONE;
        long long pick = rand_below(args[1], (unsigned long long)total);
        if (pick < 0) return NULL;
        int loc = items[i].allowed[items[i].n_allowed - 1];
        for (int k = 0; k < items[i].n_allowed; k++) {
            loc = items[i].allowed[k];
            if (pick < caps[loc]) break;
            pick -= caps[loc];
        }
        caps[loc] -= 1;
        out_ll[loc] |= (long long)1 << items[i].card;
    }
    PyObject *result = PyList_New(places);
    if (result == NULL) return NULL;
    for (Py_ssize_t p = 0; p < places; p++) {
        PyObject *v = PyLong_FromLongLong(out_ll[p]);
        if (v == NULL) { Py_DECREF(result); return NULL; }
        PyList_SET_ITEM(result, p, v);
    }
    return result;
}

static PyMethodDef methods[] = {
    {"play_plain", (PyCFunction)(void (*)(void))play_plain, METH_FASTCALL,
     "The plain forced leads and plays of a stops play round (rummoli.stops.play.play_plain_pure)."},
    {"bid_random", (PyCFunction)(void (*)(void))bid_random, METH_FASTCALL,
     "A random stops hand's widow, auction and poker round (rummoli.stops.random_bidding.bid_random_pure)."},
    {"bid_policy", (PyCFunction)(void (*)(void))bid_policy, METH_FASTCALL,
     "A hard bot's rollout's widow, auction and poker round (rummoli.bots.stops_rollout.bid_policy_pure)."},
    {"shuffle_with", (PyCFunction)(void (*)(void))shuffle_with, METH_FASTCALL,
     "random.Random.shuffle(deck) drawn through the generator's getrandbits (rummoli.shuffling)."},
    {"poker_chance", (PyCFunction)(void (*)(void))poker_chance, METH_FASTCALL,
     "A normal bot's win-chance samples (rummoli.bots.stops_chance.poker_chance_pure)."},
    {"widow_worth", (PyCFunction)(void (*)(void))widow_worth, METH_FASTCALL,
     "The summed worth of sampled widows (rummoli.bots.stops_chance.widow_worth_pure)."},
    {"lay_round", (PyCFunction)(void (*)(void))lay_round, METH_FASTCALL,
     "A hard bot's rollout's play round (rummoli.bots.stops_playout.play_round_pure)."},
    {"place_cards", (PyCFunction)(void (*)(void))place_cards, METH_FASTCALL,
     "A hard bot's sampled world: the unseen cards placed (rummoli.bots.stops_search.place_cards_pure)."},
    {"drawn_here", (PyCFunction)(void (*)(void))drawn_here, METH_FASTCALL,
     "Whether draws through this bound random() or getrandbits() are made in C from its generator's own state."},
    {"evaluate_mask", evaluate_mask, METH_O,
     "The value of the best five cards of a 52-bit mask holding at least five cards (rummoli.poker)."},
    {"names_of", (PyCFunction)(void (*)(void))names_of, METH_FASTCALL,
     "The names of a card mask's cards, in card order (rummoli.cards.names_of_pure)."},
    {"best_melds", (PyCFunction)(void (*)(void))best_melds, METH_FASTCALL,
     "A hand's best arrangement into melds: (points, melds) (rummoli.rummy.melds.MeldTable._best_arrangement_pure)."},
    {"gin_knock", (PyCFunction)(void (*)(void))gin_knock, METH_FASTCALL,
     "How a Gin knock is settled: (deadwood, defender's, melds, laid off) (rummoli.rummy.settle.gin_knock_pure)."},
    {"keep_best", (PyCFunction)(void (*)(void))keep_best, METH_FASTCALL,
     "Deadwood of the best cards of a hand, the dearest `extra` loose ones shed (rummoli.bots.rummy_race)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "rummoli._speedups",
    "Compiled twins of rummoli.poker.evaluate_mask_pure and rummoli.bots.rummy_race.keep_best_pure.", -1, methods,
};

PyMODINIT_FUNC PyInit__speedups(void) {
    build_tables();
    mt_check();
    return PyModule_Create(&module);
}
