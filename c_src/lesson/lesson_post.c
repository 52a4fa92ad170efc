/* ropescope lesson, "the post, checked": every number the blog post prints,
 * as data (what it prints, to how many decimals, and which lesson function
 * with which inputs recomputes it), and the recomputed table. The rows and
 * the post's slips are listed in docs/LESSON.md. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "core/rope.h"
#include "core/rope_internal.h"
#include "lesson/lesson.h"

/* Which function recomputes a row; p[] are its inputs, slot the output read. */
enum source {
    SRC_SLOT,        /* rope_lesson_slot(nolan, p0)[slot] */
    SRC_DIVIDE,      /* rope_lesson_normalized(p0, p1) */
    SRC_CLOCK,       /* rope_lesson_clock(pair p0, dim p1, base p2, position p3, 1)[slot] */
    SRC_PERIOD,      /* 1 / theta of rope_lesson_clock(p0, p1, p2, ...) */
    SRC_TURNS,       /* p3 whole turns of pair p0 (width p1, base p2): p3 * 2 pi / theta */
    SRC_SIN_DEG,     /* rope_lesson_identity(p0 degrees, 0): sin */
    SRC_MARK,        /* rope_lesson_marks(position p0, width p1, base p2)[slot] */
    SRC_MARKED,      /* rope_lesson_marked(nolan, slot p0, base p2)[slot] */
    SRC_IDENTITY,    /* rope_lesson_identity(p0, p1)[slot] */
    SRC_CAT,         /* rope_lesson_cat(cat, cat, m p0, n p1, theta p2)[slot] */
    SRC_PROOF,       /* rope_lesson_proof(cat, cat, m p0, n p1, theta p2)[slot] */
    SRC_CLOCK_THETA, /* rope_lesson_clock_theta(p0, p1, divide p2)[slot] */
    SRC_REBASE       /* rope_lesson_rebase(255, 512, p0, p1, gap p2, train p3)[slot] */
};

/* The chapters in the lesson's order; a row names its chapter by index. */
enum chapter {
    CH_SLOT = 1,
    CH_NORMALIZED,
    CH_MARKS,
    CH_EXTRAPOLATE,
    CH_IDENTITY,
    CH_CAT,
    CH_PROOF,
    CH_PLANES,
    CH_CLOCK,
    CH_WEIGHTS
};
static const char *const chapters[] = {"order",       "slot",     "normalized", "marks",
                                       "extrapolate", "identity", "cat",        "proof",
                                       "planes",      "clock",    "weights"};

/* id, label and the number as the post prints it, in one string with NULs
 * between (its decimals are counted from the text); the chapter; which
 * function recomputes it, which output slot is read and with which inputs. */
struct row {
    const char *text;
    unsigned char chapter, src, slot, in;
};

#define BASE_OLD 10000.0
#define BASE_NEW 500000.0
/* The inputs rows recompute with (see enum source for their meaning). */
enum input {
    IN_SLOT_1,
    IN_SLOT_5,
    IN_1_OF_512,
    IN_256_OF_512,
    IN_512_OF_512,
    IN_256_OF_1024,
    IN_30_DEG,
    IN_150_DEG,
    IN_W4_PAIR0,
    IN_W4_PAIR1,
    IN_W4_PERIOD1,
    IN_W4_TURN0,
    IN_W4_TURN1,
    IN_W4_TURN2,
    IN_MARK_3,
    IN_MARK_4,
    IN_NOLAN_3,
    IN_MARK_512,
    IN_MARK_513,
    IN_MARK_10000,
    IN_47_4,
    IN_CAT_3_7,
    IN_CAT_10_14,
    IN_SLOW_3,
    IN_SLOW_3000,
    IN_FAST_TRAIN,
    IN_SLOW_TRAIN,
    IN_SLOW_GAP,
    IN_SLOW_GAP_DIV8,
    IN_P255_OLD,
    IN_P255_NEW,
    IN_REBASE,
    IN_P255_NEW_GAP,
    IN_P255_OLD_GAP,
    IN_P255_OLD_TRAIN,
    IN_TOKENS,
};

static const double inputs[][4] = {
    [IN_SLOT_1] = {1},
    [IN_SLOT_5] = {5},
    [IN_1_OF_512] = {1, 512},
    [IN_256_OF_512] = {256, 512},
    [IN_512_OF_512] = {512, 512},
    [IN_256_OF_1024] = {256, 1024},
    [IN_30_DEG] = {30},
    [IN_150_DEG] = {150},
    [IN_W4_PAIR0] = {0, 4, BASE_OLD, 1},
    [IN_W4_PAIR1] = {1, 4, BASE_OLD, 1},
    [IN_W4_PERIOD1] = {1, 4, BASE_OLD},
    [IN_W4_TURN0] = {0, 4, BASE_OLD, 0},
    [IN_W4_TURN1] = {0, 4, BASE_OLD, 1},
    [IN_W4_TURN2] = {0, 4, BASE_OLD, 2},
    [IN_MARK_3] = {3, 4, BASE_OLD},
    [IN_MARK_4] = {4, 4, BASE_OLD},
    [IN_NOLAN_3] = {3, 0, BASE_OLD},
    [IN_MARK_512] = {512, 4, BASE_OLD},
    [IN_MARK_513] = {513, 4, BASE_OLD},
    [IN_MARK_10000] = {10000, 4, BASE_OLD},
    [IN_47_4] = {47, 4},
    [IN_CAT_3_7] = {3, 7, 0.1},
    [IN_CAT_10_14] = {10, 14, 0.1},
    [IN_SLOW_3] = {3, 0, 1e-4},
    [IN_SLOW_3000] = {3000, 0, 1e-4},
    [IN_FAST_TRAIN] = {0.1, 8192, 1},
    [IN_SLOW_TRAIN] = {1e-4, 8192, 1},
    [IN_SLOW_GAP] = {1e-4, 50000, 1},
    [IN_SLOW_GAP_DIV8] = {1e-4, 50000, 8},
    [IN_P255_OLD] = {255, 512, BASE_OLD, 1},
    [IN_P255_NEW] = {255, 512, BASE_NEW, 1},
    [IN_REBASE] = {BASE_OLD, BASE_NEW, 50000, 8192},
    [IN_P255_NEW_GAP] = {255, 512, BASE_NEW, 50000},
    [IN_P255_OLD_GAP] = {255, 512, BASE_OLD, 50000},
    [IN_P255_OLD_TRAIN] = {255, 512, BASE_OLD, 8192},
    [IN_TOKENS] = {800, 10},
};

/* Every number the post prints, one a row: made by the build from the table in
 * c_src/lesson/post_numbers.txt (tools/post_rows.awk). */
static const struct row rows[] = {
#include "post_rows.inc"
};
#define ROW_COUNT ((int)(sizeof rows / sizeof rows[0]))

/* The post's running examples: the word "nolan" and the word "cat". */
static const double nolan[4] = {2, 1, 1, 0};
static const double cat[2] = {0.9, 0.4};

/* A row's value; room for the largest output any source writes. */
static int recompute(const struct row *r, double *value)
{
    double o[ROPE_CAT_LEN + ROPE_PROOF_LEN];
    const double *p = inputs[r->in];
    int rc = ROPE_OK, at = r->slot;
    switch (r->src) {
    case SRC_SLOT: rc = rope_lesson_slot(nolan, 4, p[0], o); break;
    case SRC_DIVIDE: rc = rope_lesson_normalized(p[0], p[1], o); break;
    case SRC_CLOCK: rc = rope_lesson_clock((int)p[0], (int)p[1], p[2], p[3], 1.0, o); break;
    case SRC_PERIOD:
        rc = rope_lesson_clock((int)p[0], (int)p[1], p[2], 1.0, 1.0, o);
        o[0] = 1.0 / o[ROPE_CLOCK_THETA];
        at = 0;
        break;
    case SRC_TURNS:
        rc = rope_lesson_clock((int)p[0], (int)p[1], p[2], 1.0, 1.0, o);
        o[0] = p[3] * ROPE_TWO_PI / o[ROPE_CLOCK_THETA];
        at = 0;
        break;
    case SRC_SIN_DEG:
        rc = rope_lesson_identity(p[0] * (ROPE_TWO_PI / 360.0), 0.0, o);
        at = ROPE_ID_SIN_A;
        break;
    case SRC_MARK: rc = rope_lesson_marks(&p[0], 1, (int)p[1], p[2], o); break;
    case SRC_MARKED: rc = rope_lesson_marked(nolan, 4, p[0], p[2], o); break;
    case SRC_IDENTITY: rc = rope_lesson_identity(p[0], p[1], o); break;
    case SRC_CAT: rc = rope_lesson_cat(cat[0], cat[1], cat[0], cat[1], p[0], p[1], p[2], o); break;
    case SRC_PROOF:
        rc = rope_lesson_proof(cat[0], cat[1], cat[0], cat[1], p[0], p[1], p[2], o);
        break;
    case SRC_CLOCK_THETA: rc = rope_lesson_clock_theta(p[0], p[1], p[2], o); break;
    case SRC_REBASE: rc = rope_lesson_rebase(255, 512, p[0], p[1], p[2], p[3], o); break;
    }
    if (rc == ROPE_OK) *value = o[at];
    return rc;
}

/* The table's own texts: [-]digits[.digits], at most 15 digits. The digits
 * form an exact integer and 10^decimals is exact, so one division rounds
 * like a decimal parser would (strtod is not linked in for this). Returns
 * the number of decimals. */
static int printed_value(const char *text, double *value)
{
    double digits = 0.0, scale = 1.0;
    int decimals = -1, negative = *text == '-';
    for (const char *c = text + negative; *c != '\0'; c++) {
        if (*c == '.') {
            decimals = 0;
            continue;
        }
        digits = digits * 10.0 + (double)(*c - '0');
        if (decimals >= 0) {
            decimals++;
            scale *= 10.0;
        }
    }
    *value = (negative ? -digits : digits) / scale;
    return decimals < 0 ? 0 : decimals;
}

int rope_lesson_post_count(void)
{
    return ROW_COUNT;
}

/* A printed number matches when the true value rounds to it: within half a
 * unit of its last printed decimal (a hair more, so that an exact tie such as
 * 0.9 x 0.4 = 0.36 is not lost to binary rounding). */
int rope_lesson_post_row(int row, double *out)
{
    if (row < 0 || row >= ROW_COUNT) return ROPE_E_COUNT;
    if (out == NULL) return ROPE_E_NULL;
    const struct row *r = &rows[row];
    double value = 0.0, printed = 0.0;
    int rc = recompute(r, &value);
    if (rc != ROPE_OK) return rc;
    int decimals = printed_value(rope_lesson_post_text(row), &printed);
    double half = 0.5;
    for (int d = 0; d < decimals; d++) half /= 10.0;
    out[ROPE_POST_PRINTED] = printed;
    out[ROPE_POST_DECIMALS] = decimals;
    out[ROPE_POST_VALUE] = value;
    out[ROPE_POST_MATCH] = fabs(value - printed) <= half * (1.0 + 1e-9) ? 1.0 : 0.0;
    out[ROPE_POST_CHAPTER] = r->chapter;
    return ROPE_OK;
}

int rope_lesson_post_table(double *out, int cap)
{
    if (cap < ROW_COUNT) return ROPE_E_SPACE;
    if (out == NULL) return ROPE_E_NULL;
    for (int j = 0; j < ROW_COUNT; j++) {
        int rc = rope_lesson_post_row(j, out + (size_t)j * ROPE_POST_FIELDS);
        if (rc != ROPE_OK) return rc;
    }
    return ROPE_OK;
}

const char *rope_lesson_post_id(int row)
{
    return (row >= 0 && row < ROW_COUNT) ? rows[row].text : NULL;
}

const char *rope_lesson_post_label(int row)
{
    const char *id = rope_lesson_post_id(row);
    return id == NULL ? NULL : id + strlen(id) + 1;
}

const char *rope_lesson_post_text(int row)
{
    const char *label = rope_lesson_post_label(row);
    return label == NULL ? NULL : label + strlen(label) + 1;
}

const char *rope_lesson_chapter(int index)
{
    int n = (int)(sizeof chapters / sizeof chapters[0]);
    return (index >= 0 && index < n) ? chapters[index] : NULL;
}
