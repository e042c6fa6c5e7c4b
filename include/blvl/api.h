/* BLVL_API marks what libblvl exports. The library is built with -fvisibility=hidden, so a
 * function or object without it is internal to the library, whatever its name; a test
 * (tests/test_symbols.sh) holds the shared library's exports to exactly the blvl_ names.
 *
 * A program that embeds the sources in its own build may define BLVL_API (to nothing, or to its
 * own export attribute) before including any blvl header. */
#ifndef BLVL_API_H
#define BLVL_API_H

#ifndef BLVL_API
#if defined(__GNUC__) || defined(__clang__)
#define BLVL_API __attribute__((visibility("default")))
#else
#define BLVL_API
#endif
#endif

#endif
