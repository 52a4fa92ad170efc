/*
 * The scaling methods, once: each rope_type's name, the keys of its block,
 * and how the page shows it (its menu label, its parameters, whether the
 * scaling figure can draw it as a comparison line). The config reader, the
 * CLI's usage and the page (web/gen/methods.js, which make writes from this
 * table through tools/methods_js.c) all read it. Not part of the public API.
 */
#ifndef ROPE_SCALING_METHODS_H
#define ROPE_SCALING_METHODS_H

/* The columns only the page reads exist only in the program that writes
 * web/gen/methods.js (built with ROPE_METHODS_PAGE): the reader, and the wasm
 * module the page inlines, carry none of them. PAGE(...) in methods.c's rows
 * holds their values. */
/* A parameter the page shows for a method. */
typedef struct {
    /* Its value where a config gives none (the page's start, and the reader's
     * default for optional keys); NaN: the page derives it from the preset. */
    double fallback;
#ifdef ROPE_METHODS_PAGE
    const char *param; /* the page's control and URL key: "beta-fast" */
    const char *key;   /* the rope_scaling member it sets: "beta_fast" */
    int boolean;       /* true or false, not a number */
    int zero_absent;   /* 0 stands for "not given": the key is left out */
#endif
} rope_method_param;

/* The page's parameters, in the order every method shows them. */
enum {
    ROPE_P_FACTOR,
    ROPE_P_NEW_BASE,
    ROPE_P_ORIG_MAX,
    ROPE_P_LOW_FREQ,
    ROPE_P_HIGH_FREQ,
    ROPE_P_BETA_FAST,
    ROPE_P_BETA_SLOW,
    ROPE_P_TRUNCATE,
    ROPE_P_MSCALE,
    ROPE_P_MSCALE_ALL_DIM,
    ROPE_METHOD_PARAMS
};

#define ROPE_P(k) (1u << (k))

/* One method, in the page's menu order. */
typedef struct rope_method {
    const char *name; /* the rope_type */
    int type;         /* ROPE_SCALING_* */
    /* Block members (config_internal.h's B_*) it requires and may take. */
    unsigned required, optional;
    int own;    /* ropescope's own: transformers does not know it */
    int factor; /* scales by a factor (> 0, shown as the factor); 0: none (default, base change) */
#ifdef ROPE_METHODS_PAGE
    const char *label; /* the page's menu */
    unsigned params;   /* the page's controls: ROPE_P bits */
    int seq_len;       /* reads the current sequence length (the page passes the gap) */
    /* Theme colour of its dashed comparison line (--c-<name>); NULL: the
     * scaling figure does not compare it. */
    const char *compare;
#endif
} rope_method;

extern const rope_method rope_methods[];
extern const int rope_method_count;
extern const rope_method_param rope_method_params[ROPE_METHOD_PARAMS];

/* Old names transformers still reads, each with the rope_type it stands for. */
extern const char *const rope_method_aliases[][2];
extern const int rope_method_alias_count;

/* The row of a rope_type name or of a ROPE_SCALING_* code; NULL for none. */
const rope_method *rope_method_named(const char *name);
const rope_method *rope_method_of_type(int type);

/* The rope_type names in table order, separated by sep: every method (own
 * -1), those transformers knows (0) or ropescope's own (1). Writes at most
 * cap bytes, NUL-terminated (cut if longer); returns buf. */
char *rope_method_list(char *buf, int cap, const char *sep, int own);

#endif /* ROPE_SCALING_METHODS_H */
