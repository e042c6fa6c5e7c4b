/* blvl_bake_merge_boxes: in place, no allocation. Each round merges along x, then y, then z;
 * rounds repeat until one merges nothing. Along an axis the boxes are sorted by (key, the other
 * two axes' ranges, lo, hi), so the boxes that could share a face across it sit together in one
 * run; each live box of a run in turn absorbs the first live box of the run that starts where it
 * ends, until none does. The sort compares every field, so the result depends only on the boxes
 * given. Boxes with a non-finite or inverted range never merge and are left after the rest. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/bake.h"

static float get(const blvl_Vec3 *v, int k) {
    return k == 0 ? v->x : k == 1 ? v->y : v->z;
}

static void put(blvl_Vec3 *v, int k, float f) {
    if (k == 0)
        v->x = f;
    else if (k == 1)
        v->y = f;
    else
        v->z = f;
}

static int fcmp(float a, float b) {
    return (a > b) - (a < b);
}

/* Same key and the same ranges on the axes other than k. */
static int same_run(const blvl_bake_box *a, const blvl_bake_box *b, int k) {
    if (a->key != b->key)
        return 0;
    for (int j = 0; j < 3; j++)
        if (j != k && (get(&a->lo, j) != get(&b->lo, j) || get(&a->hi, j) != get(&b->hi, j)))
            return 0;
    return 1;
}

static int cmp_along(const blvl_bake_box *a, const blvl_bake_box *b, int k) {
    if (a->key != b->key)
        return (a->key > b->key) - (a->key < b->key);
    for (int j = 0; j < 3; j++) {
        if (j == k)
            continue;
        int c = fcmp(get(&a->lo, j), get(&b->lo, j));
        c = c ? c : fcmp(get(&a->hi, j), get(&b->hi, j));
        if (c)
            return c;
    }
    int c = fcmp(get(&a->lo, k), get(&b->lo, k));
    return c ? c : fcmp(get(&a->hi, k), get(&b->hi, k));
}

static int cmp_x(const void *a, const void *b) {
    return cmp_along(a, b, 0);
}
static int cmp_y(const void *a, const void *b) {
    return cmp_along(a, b, 1);
}
static int cmp_z(const void *a, const void *b) {
    return cmp_along(a, b, 2);
}

static int valid(const blvl_bake_box *b) {
    for (int k = 0; k < 3; k++)
        if (!isfinite(get(&b->lo, k)) || !isfinite(get(&b->hi, k)) ||
            get(&b->lo, k) > get(&b->hi, k))
            return 0;
    return 1;
}

/* An absorbed box is marked by a NaN hi on the merge axis (every valid box is finite). */
static size_t merge_axis(blvl_bake_box *b, size_t n, int k, size_t *merged) {
    int (*const cmps[3])(const void *, const void *) = {cmp_x, cmp_y, cmp_z};
    qsort(b, n, sizeof *b, cmps[k]);
    for (size_t rs = 0; rs < n;) {
        size_t re = rs + 1;
        while (re < n && same_run(&b[rs], &b[re], k))
            re++;
        for (size_t i = rs; i < re; i++) {
            while (!isnan(get(&b[i].hi, k))) {
                float want = get(&b[i].hi, k);
                size_t lo = rs, hi = re; /* first box of the run with lo >= want */
                while (lo < hi) {
                    size_t mid = lo + (hi - lo) / 2;
                    if (get(&b[mid].lo, k) < want)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                size_t j = lo;
                while (j < re && get(&b[j].lo, k) == want && (j == i || isnan(get(&b[j].hi, k))))
                    j++;
                if (j == re || get(&b[j].lo, k) != want)
                    break;
                put(&b[i].hi, k, get(&b[j].hi, k));
                put(&b[j].hi, k, NAN);
                ++*merged;
            }
        }
        rs = re;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(get(&b[i].hi, k)))
            b[m++] = b[i];
    return m;
}

size_t blvl_bake_merge_boxes(blvl_bake_box *boxes, size_t count) {
    if (!boxes || count < 2)
        return count;
    /* The boxes that cannot merge go to the end, in their order. */
    size_t n = 0;
    for (size_t i = 0; i < count; i++)
        if (valid(&boxes[i])) {
            blvl_bake_box t = boxes[i];
            memmove(&boxes[n + 1], &boxes[n], (i - n) * sizeof *boxes);
            boxes[n++] = t;
        }
    size_t bad = count - n;
    for (;;) {
        size_t merged = 0;
        for (int k = 0; k < 3; k++)
            n = merge_axis(boxes, n, k, &merged);
        if (!merged)
            break;
    }
    /* Close the gap the merged boxes left: the invalid ones follow the merged ones. */
    memmove(&boxes[n], &boxes[count - bad], bad * sizeof *boxes);
    return n + bad;
}
