/* jansson's private configure results, by hand: standard C plus POSIX only.
 * The hash seed is set by the caller (json_object_seed), so no entropy source. */
#define HAVE_STDINT_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_STRTOLL 1
#define INITIAL_HASHTABLE_ORDER 3
