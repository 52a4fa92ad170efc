/*
 * Unit tests of the scaling math (c_src/scaling/scaling.c) called directly, and of
 * the config reader's C contract (c_src/scaling/config.c): the identities every
 * method must keep, the bands' edges, the return codes and NULL rules of the
 * header. The numbers themselves are checked against tests/ref/ref_scaling.py by
 * tests/diff/diff_scaling.py; here only identities and hand-worked cases.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/rope.h"
#include "scaling/config.h"
#include "scaling/scaling.h"

#define PAIRS 64
#define TWO_PI 6.283185307179586

static int is_close(double a, double b)
{
    return fabs(a - b) <= 1e-9 + 1e-6 * fabs(b);
}

static rope_scaling plain(int type)
{
    rope_scaling s;
    memset(&s, 0, sizeof s);
    s.type = type;
    s.dim = 2 * PAIRS;
    s.base = 10000.0;
    s.new_base = 10000.0;
    s.factor = 1.0;
    s.attention_factor = NAN;
    s.beta_fast = 32.0;
    s.beta_slow = 1.0;
    s.truncate = 1;
    s.low_freq_factor = 1.0;
    s.high_freq_factor = 4.0;
    s.original_max = 4096.0;
    s.max_position = 4096.0;
    return s;
}

/* Factor 1 (or the same base) changes nothing, for every method. */
static void every_method_should_keep_thetas_at_factor_one(void **state)
{
    (void)state;
    static double ones[PAIRS];
    for (int i = 0; i < PAIRS; i++) ones[i] = 1.0;
    for (int type = 0; type < ROPE_SCALING_TYPES; type++) {
        rope_scaling s = plain(type);
        s.short_factor = s.long_factor = ones;
        double theta[PAIRS], scaled[PAIRS], ratio[PAIRS], want[PAIRS];
        assert_int_equal(rope_scaling_pairs(&s, theta, scaled, NULL, ratio, NULL), ROPE_OK);
        assert_int_equal(rope_thetas(s.dim, s.base, want), ROPE_OK);
        for (int i = 0; i < PAIRS; i++) {
            assert_true(is_close(theta[i], want[i]));
            assert_true(is_close(scaled[i], theta[i]));
            assert_true(is_close(ratio[i], 1.0));
        }
    }
}

static void linear_should_divide_every_pair(void **state)
{
    (void)state;
    rope_scaling s = plain(ROPE_SCALING_LINEAR);
    s.factor = 8.0;
    double ratio[PAIRS];
    int band[PAIRS];
    assert_int_equal(rope_scaling_pairs(&s, NULL, NULL, NULL, ratio, band), ROPE_OK);
    for (int i = 0; i < PAIRS; i++) {
        assert_true(is_close(ratio[i], 0.125));
        assert_int_equal(band[i], ROPE_BAND_DIVIDE);
    }
}

/* Llama 3's smooth band meets both neighbours without a jump. */
static void llama3_should_be_continuous_at_its_band_edges(void **state)
{
    (void)state;
    rope_scaling s = plain(ROPE_SCALING_LLAMA3);
    s.factor = 8.0;
    s.dim = 4096; /* dense pairs, so neighbours straddle each edge closely */
    static double ratio[2048];
    static int band[2048];
    assert_int_equal(rope_scaling_pairs(&s, NULL, NULL, NULL, ratio, band), ROPE_OK);
    int seen[3] = {0, 0, 0};
    for (int i = 0; i < 2048; i++) {
        seen[band[i]]++;
        if (band[i] == ROPE_BAND_KEEP) assert_true(is_close(ratio[i], 1.0));
        if (band[i] == ROPE_BAND_DIVIDE) assert_true(is_close(ratio[i], 0.125));
        if (i > 0) assert_true(fabs(ratio[i] - ratio[i - 1]) < 0.01);
        if (i > 0) assert_true(band[i] >= band[i - 1]); /* keep, then ramp, then divide */
    }
    assert_true(seen[0] > 0 && seen[1] > 0 && seen[2] > 0);
}

/* Dynamic NTK is the identity up to max_position_embeddings and equals static
 * NTK with the stretch factor*s/L - (factor - 1) beyond it. */
static void dynamic_should_follow_the_sequence_length(void **state)
{
    (void)state;
    rope_scaling d = plain(ROPE_SCALING_DYNAMIC), n = plain(ROPE_SCALING_NTK);
    d.factor = 4.0;
    double r1[PAIRS], r2[PAIRS];
    d.seq_len = 4096.0;
    assert_int_equal(rope_scaling_pairs(&d, NULL, NULL, NULL, r1, NULL), ROPE_OK);
    for (int i = 0; i < PAIRS; i++) assert_true(is_close(r1[i], 1.0));
    d.seq_len = 3.0 * 4096.0;
    n.factor = 4.0 * 3.0 - 3.0;
    assert_int_equal(rope_scaling_pairs(&d, NULL, NULL, NULL, r1, NULL), ROPE_OK);
    assert_int_equal(rope_scaling_pairs(&n, NULL, NULL, NULL, r2, NULL), ROPE_OK);
    for (int i = 0; i < PAIRS; i++) assert_true(is_close(r1[i], r2[i]));
    assert_true(r1[PAIRS - 1] < r1[1]); /* slow pairs are stretched most */
}

/* NTK's last pair is divided by exactly the factor: base' = base * a^(d/(d-2)). */
static void ntk_should_divide_the_last_pair_by_the_factor(void **state)
{
    (void)state;
    rope_scaling s = plain(ROPE_SCALING_NTK);
    s.factor = 16.0;
    double ratio[PAIRS];
    assert_int_equal(rope_scaling_pairs(&s, NULL, NULL, NULL, ratio, NULL), ROPE_OK);
    /* theta'_{d/2-1} / theta_{d/2-1} = a^(-(d/(d-2)) (d-2)/d) = 1/a. */
    assert_true(is_close(ratio[PAIRS - 1], 1.0 / 16.0));
    assert_true(is_close(ratio[0], 1.0));
}

static void yarn_attention_factor_should_follow_mscale(void **state)
{
    (void)state;
    rope_scaling s = plain(ROPE_SCALING_YARN);
    s.factor = 40.0;
    double att, soft;
    assert_int_equal(rope_scaling_factors(&s, &att, &soft), ROPE_OK);
    assert_true(is_close(att, 0.1 * log(40.0) + 1.0));
    assert_true(is_close(soft, 1.0));
    s.mscale = s.mscale_all_dim = 1.0; /* DeepSeek: the ratio is 1, the softmax takes g^2 */
    assert_int_equal(rope_scaling_factors(&s, &att, &soft), ROPE_OK);
    assert_true(is_close(att, 1.0));
    assert_true(is_close(soft, pow(0.1 * log(40.0) + 1.0, 2)));
    s.attention_factor = 0.5;
    assert_int_equal(rope_scaling_factors(&s, &att, NULL), ROPE_OK);
    assert_true(is_close(att, 0.5));
    assert_true(is_close(rope_yarn_mscale(1.0, 7.0), 1.0));
}

/* Covered, inside and unseen partition the pairs, and a gap inside the
 * training length never shows an unseen angle without scaling. */
static void range_should_partition_the_pairs(void **state)
{
    (void)state;
    rope_scaling s = plain(ROPE_SCALING_DEFAULT);
    double trained[PAIRS], at_gap[PAIRS];
    int status[PAIRS], counts[3];
    assert_int_equal(rope_scaling_range(&s, 4096.0, 16384.0, trained, at_gap, status, counts),
                     ROPE_OK);
    assert_int_equal(counts[0] + counts[1] + counts[2], PAIRS);
    assert_int_equal(counts[0], 46); /* Liu et al.'s critical dimension 92 for Llama 2 */
    assert_int_equal(counts[2], 18);
    for (int i = 0; i < PAIRS; i++)
        assert_int_equal(status[i], trained[i] >= TWO_PI ? ROPE_RANGE_COVERED : ROPE_RANGE_UNSEEN);
    assert_int_equal(rope_scaling_range(&s, 4096.0, 1000.0, NULL, NULL, NULL, counts), ROPE_OK);
    assert_int_equal(counts[2], 0);
}

/* Gemma 4's proportional: a 32-dim head (16 pairs) of which 4 rotate, at base^(-2i/32) (the whole
 * head is the exponent's d), divided by the factor; the other 12 pairs are still. Hand-worked: pair
 * 1 at base 10000 has 10000^(-1/16) = 10^(-1/4) = 0.562341325 (and half that at factor 2). */
/* rope_scaling_pairs(s) asked for the frequencies alone: its return code. */
static int pairs_code(const rope_scaling *s)
{
    double theta[PAIRS];
    return rope_scaling_pairs(s, theta, NULL, NULL, NULL, NULL);
}

static void proportional_should_keep_the_head_and_still_the_rest(void **state)
{
    (void)state;
    rope_scaling s = plain(ROPE_SCALING_PROPORTIONAL);
    s.dim = 32;
    s.still = 12;
    s.factor = 2.0;
    double theta[16], scaled[16], wavelength[16], ratio[16];
    int band[16];
    assert_int_equal(rope_scaling_pairs(&s, theta, scaled, wavelength, ratio, band), ROPE_OK);
    assert_true(is_close(theta[1], 0.56234132519034907));
    assert_true(is_close(scaled[1], 0.56234132519034907 / 2.0));
    for (int i = 0; i < 16; i++) {
        int still = i >= 4;
        assert_int_equal(band[i], still ? ROPE_BAND_STILL : ROPE_BAND_DIVIDE);
        if (!still) continue;
        assert_true(theta[i] == 0.0 && scaled[i] == 0.0);
        assert_true(isinf(wavelength[i]) && isnan(ratio[i]));
    }
    assert_string_equal(rope_band_name(ROPE_BAND_STILL), "still");
    int status[16], counts[3];
    assert_int_equal(rope_scaling_range(&s, 4096.0, 1e6, NULL, NULL, status, counts), ROPE_OK);
    for (int i = 4; i < 16; i++) assert_int_equal(status[i], ROPE_RANGE_INSIDE);
    /* At least one pair rotates, and only proportional has still pairs. */
    s.still = 16;
    assert_int_equal(pairs_code(&s), ROPE_E_SCALING);
    s.still = -1;
    assert_int_equal(pairs_code(&s), ROPE_E_SCALING);
    s = plain(ROPE_SCALING_LINEAR);
    s.still = 1;
    assert_int_equal(pairs_code(&s), ROPE_E_SCALING);
}

static void scaling_should_return_the_documented_codes(void **state)
{
    (void)state;
    rope_scaling s = plain(ROPE_SCALING_DEFAULT);
    assert_int_equal(pairs_code(NULL), ROPE_E_NULL);
    s.dim = 7;
    assert_int_equal(pairs_code(&s), ROPE_E_DIM);
    s.dim = -2;
    assert_int_equal(pairs_code(&s), ROPE_E_DIM);
    s = plain(ROPE_SCALING_DEFAULT);
    s.base = 0.0;
    assert_int_equal(rope_scaling_factors(&s, NULL, NULL), ROPE_E_BASE);
    s = plain(ROPE_SCALING_LINEAR);
    s.factor = -1.0;
    assert_int_equal(pairs_code(&s), ROPE_E_SCALING);
    s = plain(ROPE_SCALING_NTK);
    s.dim = 2; /* d/(d-2) undefined */
    assert_int_equal(pairs_code(&s), ROPE_E_SCALING);
    s = plain(ROPE_SCALING_LONGROPE);
    assert_int_equal(pairs_code(&s), ROPE_E_NULL);
    s = plain(ROPE_SCALING_YARN);
    s.beta_slow = 0.0;
    assert_int_equal(rope_scaling_yarn_range(&s, NULL, NULL), ROPE_E_SCALING);
    s = plain(ROPE_SCALING_DEFAULT);
    assert_int_equal(rope_scaling_yarn_range(&s, NULL, NULL), ROPE_E_SCALING);
    assert_int_equal(rope_scaling_range(&s, 0.0, 1.0, NULL, NULL, NULL, NULL), ROPE_E_POSITION);
    assert_int_equal(rope_scaling_range(&s, 10.0, -1.0, NULL, NULL, NULL, NULL), ROPE_E_POSITION);
    s.type = 99;
    assert_int_equal(pairs_code(&s), ROPE_E_SCALING);
    assert_null(rope_scaling_name(99));
    assert_string_equal(rope_band_name(-1), "?");
}

/* The reader keeps its first error, and a retry after ROPE_E_SPACE gives the
 * length the first call announced. */
static void config_writer_should_keep_its_contract(void **state)
{
    (void)state;
    rope_config *c = malloc(sizeof *c);
    assert_non_null(c);
    rope_config_init(c);
    assert_int_equal(rope_config_put(NULL, "x", 0, 0, NULL, NULL, 0), ROPE_E_NULL);
    assert_int_equal(rope_config_put(c, NULL, 0, 0, NULL, NULL, 0), ROPE_E_NULL);
    assert_int_equal(rope_config_put(c, "head_dim", ROPE_CONFIG_NUMBER, 64, NULL, NULL, 0),
                     ROPE_OK);
    assert_int_equal(rope_config_put(c, "vocab_size", ROPE_CONFIG_NUMBER, 5, NULL, NULL, 0),
                     ROPE_OK);
    char small[8];
    int len = -1, len2 = -1;
    assert_int_equal(rope_scaling_write(c, ROPE_SCALING_CSV, 0, NAN, NAN, small, 8, &len),
                     ROPE_E_SPACE);
    char *buf = malloc((size_t)len + 1);
    assert_non_null(buf);
    assert_int_equal(rope_scaling_write(c, ROPE_SCALING_CSV, 0, NAN, NAN, buf, len + 1, &len2),
                     ROPE_OK);
    assert_int_equal(len, len2);
    assert_int_equal(strlen(buf), (size_t)len);
    assert_int_equal(strncmp(buf, "i,inv_freq,inv_freq_scaled,wavelength,ratio,band\n0,1,1,", 54),
                     0);
    assert_int_equal(rope_scaling_write(c, 7, 0, NAN, NAN, buf, len + 1, &len2), ROPE_E_VALUE);
    assert_int_equal(rope_config_put(c, "head_dim", ROPE_CONFIG_NUMBER, 64, NULL, NULL, 0),
                     ROPE_E_CONFIG);
    assert_string_equal(rope_config_message(c), "head_dim is given twice");
    assert_int_equal(rope_config_put(c, "rope_theta", ROPE_CONFIG_NUMBER, 5, NULL, NULL, 0),
                     ROPE_E_CONFIG);
    assert_int_equal(rope_config_resolve(c, 0), ROPE_E_CONFIG);
    assert_null(rope_config_warning(c, 99));
    free(buf);
    free(c);
}

/* A nested text model is read only when the top level holds none, its keys are
 * named with their level, and a second nested object of the same name is refused. */
static void config_reader_should_pick_the_level_with_the_text_model(void **state)
{
    (void)state;
    rope_config *c = malloc(sizeof *c);
    assert_non_null(c);
    rope_config_init(c);
    assert_int_equal(rope_config_put(c, "model_type", ROPE_CONFIG_STRING, 0, "gemma3", NULL, 0),
                     ROPE_OK);
    assert_int_equal(rope_config_put(c, "text_config", ROPE_CONFIG_OBJECT, 0, NULL, NULL, 0),
                     ROPE_OK);
    assert_int_equal(
        rope_config_put(c, "text_config.head_dim", ROPE_CONFIG_NUMBER, 96, NULL, NULL, 0), ROPE_OK);
    assert_int_equal(rope_config_put(c, "text_config.layer_types.0", ROPE_CONFIG_STRING, 0,
                                     "sliding_attention", NULL, 0),
                     ROPE_OK);
    assert_int_equal(rope_config_put(c, "text_config.layer_types.1", ROPE_CONFIG_STRING, 0,
                                     "full_attention", NULL, 0),
                     ROPE_OK);
    assert_int_equal(rope_config_resolve(c, 0), ROPE_OK);
    assert_int_equal(c->use_nest, 1);
    assert_int_equal(c->scaling.dim, 96);
    assert_true(fabs(c->scaling.base - 1e6) < 1e-9); /* gemma3's class default */
    assert_int_equal(c->n_layers, 2);
    assert_int_equal(c->layer_kind[0], ROPE_LAYER_LOCAL);
    assert_int_equal(c->layer_kind[1], 0);
    assert_true(fabs(c->local_base - 1e4) < 1e-9);
    assert_int_equal(rope_config_layer_type(NULL, "x"), ROPE_E_NULL);
    assert_int_equal(
        rope_config_put(c, "text_config.head_dim", ROPE_CONFIG_NUMBER, 96, NULL, NULL, 0),
        ROPE_E_CONFIG);
    assert_string_equal(rope_config_message(c), "text_config.head_dim is given twice");
    /* A top-level text model wins over the nested one. */
    rope_config_init(c);
    assert_int_equal(rope_config_put(c, "head_dim", ROPE_CONFIG_NUMBER, 64, NULL, NULL, 0),
                     ROPE_OK);
    assert_int_equal(rope_config_put(c, "llm_config", ROPE_CONFIG_OBJECT, 0, NULL, NULL, 0),
                     ROPE_OK);
    assert_int_equal(
        rope_config_put(c, "llm_config.head_dim", ROPE_CONFIG_NUMBER, 128, NULL, NULL, 0), ROPE_OK);
    assert_int_equal(rope_config_resolve(c, 0), ROPE_OK);
    assert_int_equal(c->use_nest, 0);
    assert_int_equal(c->scaling.dim, 64);
    free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(config_reader_should_pick_the_level_with_the_text_model),
        cmocka_unit_test(every_method_should_keep_thetas_at_factor_one),
        cmocka_unit_test(linear_should_divide_every_pair),
        cmocka_unit_test(llama3_should_be_continuous_at_its_band_edges),
        cmocka_unit_test(dynamic_should_follow_the_sequence_length),
        cmocka_unit_test(ntk_should_divide_the_last_pair_by_the_factor),
        cmocka_unit_test(yarn_attention_factor_should_follow_mscale),
        cmocka_unit_test(range_should_partition_the_pairs),
        cmocka_unit_test(proportional_should_keep_the_head_and_still_the_rest),
        cmocka_unit_test(scaling_should_return_the_documented_codes),
        cmocka_unit_test(config_writer_should_keep_its_contract),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
