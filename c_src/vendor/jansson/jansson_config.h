/* jansson's build-time settings, written by hand in place of its configure
 * step (jansson_config.h.in). The depth limit is ropescope's: a model config
 * nests four levels; 64 refuses pathological nesting with a message. */
#ifndef JANSSON_CONFIG_H
#define JANSSON_CONFIG_H

#ifdef __cplusplus
#define JSON_INLINE inline
#else
#define JSON_INLINE inline
#endif

#define JSON_INTEGER_IS_LONG_LONG 1
/* Numbers are read in the "C" locale on every build (the CLI never calls setlocale). */
#define JSON_HAVE_LOCALECONV 0
#define JSON_HAVE_ATOMIC_BUILTINS 0
#define JSON_HAVE_SYNC_BUILTINS 0
#define JSON_PARSER_MAX_DEPTH 64

#endif
