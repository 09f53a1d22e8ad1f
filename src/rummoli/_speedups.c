/* The poker evaluator of rummoli/poker.py, compiled (issue 34).
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

enum { HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH };

#define SUIT_BITS 0x1FFFu
#define RANK_SETS 8192

/* Per rank set of one suit (13 bits): the highest rank, the two, three and five highest packed, the top of the
 * best straight (-1: none), and how many ranks it holds. Built once at import. */
static int8_t high_of[RANK_SETS];
static int32_t top2[RANK_SETS], top3[RANK_SETS], top5[RANK_SETS];
static int8_t straight_of[RANK_SETS];
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

static PyMethodDef methods[] = {
    {"evaluate_mask", evaluate_mask, METH_O,
     "The value of the best five cards of a 52-bit mask holding at least five cards (rummoli.poker)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "rummoli._speedups",
    "The compiled twin of rummoli.poker.evaluate_mask_pure (see rummoli/_speedups.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__speedups(void) {
    build_tables();
    return PyModule_Create(&module);
}
