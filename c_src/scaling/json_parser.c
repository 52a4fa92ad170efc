/* jansson, the strict JSON parser read_json.c uses (c_src/vendor/jansson: MIT,
 * its files unchanged), built here as one unit: its folder is a system include
 * folder (-isystem), so the tree's warning flags judge our code, not its. */
#define HAVE_CONFIG_H 1
/* Its asserts are internal invariants; kept out, they take stdio out of the wasm module. */
#define NDEBUG 1
/* gcc judges inlined code after the system-header mark is gone (error.c's strncpy). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-truncation"
#endif
#include <error.c>
#include <hashtable.c>
/* read_json.c always gives the hash seed, so the clock is never asked for one: no clock
 * import in the wasm module. */
#include <time.h>
#define time(t) ((time_t)1)
#include <hashtable_seed.c>
#undef time
#include <load.c>
#include <memory.c>
#include <strbuffer.c>
#include <strconv.c>
#include <utf.c>
#include <value.c>
