/* The tests' deterministic random numbers: xorshift64* from a caller's state (never 0), and a
 * uniform random direction. Header-only: each test keeps its own state and seed. */
#ifndef BLVL_TEST_RND_H
#define BLVL_TEST_RND_H

#include <math.h>
#include <stdint.h>

/* A uniform double in [0, 1). */
static inline double test_rnd(uint64_t *state) {
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return (double)((x * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}

/* A point of the unit ball (by rejection, never near 0) in d; returns its length (d / length is
 * a uniform random direction). */
static inline double test_rnd_ball(uint64_t *state, double d[3]) {
    double len;
    do {
        len = 0;
        for (int k = 0; k < 3; k++) {
            d[k] = 2 * test_rnd(state) - 1;
            len += d[k] * d[k];
        }
    } while (len > 1 || len < 1e-6);
    return sqrt(len);
}

#endif
