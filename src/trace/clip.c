/* The box trace against one convex solid, the Quake family's way: each plane is pushed out by the
 * box's support in its direction (the Minkowski sum), the segment is clipped against the pushed
 * planes, and the entry is pulled back BLVL_TRACE_DIST_EPSILON along the entering plane.
 *
 * With SSE, four planes at a time (a patch hull has ~23): each lane does the scalar code's
 * arithmetic in the same order, so the answer is the same bit for bit, and the reduction keeps
 * the scalar loop's choice (the first plane reaching the latest entry). */
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "trace/trace_internal.h"

/* What the plane loop found: 0 when the box never meets the solid (the early out). */
typedef struct clip_scan {
    float enter, leave;
    const blvl_Plane *clip;
    int startout, getout;
} clip_scan;

#if defined(__SSE2__)
static inline __m128 sel(__m128 m, __m128 a, __m128 b) { /* m ? a : b */
    return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b));
}

/* Four planes transposed into lanes: x, y, z of the normals and the distances. A short tail is
 * padded with planes every point is far inside (normal 0, distance 1e30): no effect. */
static inline void load4(const blvl_Plane *p, uint32_t n, __m128 *nx, __m128 *ny, __m128 *nz,
                         __m128 *d) {
    __m128 a, b, c, e;
    if (n >= 4) {
        a = _mm_loadu_ps(&p[0].normal.x);
        b = _mm_loadu_ps(&p[1].normal.x);
        c = _mm_loadu_ps(&p[2].normal.x);
        e = _mm_loadu_ps(&p[3].normal.x);
    } else {
        const __m128 pad = _mm_setr_ps(0, 0, 0, 1e30f);
        a = _mm_loadu_ps(&p[0].normal.x);
        b = n > 1 ? _mm_loadu_ps(&p[1].normal.x) : pad;
        c = n > 2 ? _mm_loadu_ps(&p[2].normal.x) : pad;
        e = pad;
    }
    _MM_TRANSPOSE4_PS(a, b, c, e);
    *nx = a, *ny = b, *nz = c, *d = e;
}

/* The plane's distance pushed out by the box corner deepest against its normal, and the
 * signed distance of pos from it: per lane as the scalar code computes it. */
static inline __m128 pushed_dist(__m128 nx, __m128 ny, __m128 nz, __m128 d, const __m128 mn[3],
                                 const __m128 mx[3], const __m128 pos[3]) {
    const __m128 zero = _mm_setzero_ps();
    __m128 off = _mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, sel(_mm_cmplt_ps(nx, zero), mx[0], mn[0])),
                                       _mm_mul_ps(ny, sel(_mm_cmplt_ps(ny, zero), mx[1], mn[1]))),
                            _mm_mul_ps(nz, sel(_mm_cmplt_ps(nz, zero), mx[2], mn[2])));
    __m128 dist = _mm_sub_ps(d, off);
    return _mm_sub_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, pos[0]), _mm_mul_ps(ny, pos[1])),
                                 _mm_mul_ps(nz, pos[2])),
                      dist);
}

static int scan_planes(const tw_trace *t, const blvl_Plane *planes, uint32_t count,
                       clip_scan *out) {
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
    const __m128 eps = _mm_set1_ps(BLVL_TRACE_DIST_EPSILON);
    __m128 mn[3], mx[3], s[3], e[3];
    for (int k = 0; k < 3; k++) {
        mn[k] = _mm_set1_ps(t->mins[k]);
        mx[k] = _mm_set1_ps(t->maxs[k]);
        s[k] = _mm_set1_ps(t->start[k]);
        e[k] = _mm_set1_ps(t->end[k]);
    }
    __m128 enter = _mm_set1_ps(-1.0f), leave = one, so = zero, go = zero;
    __m128i idx = _mm_set1_epi32(-1), lane = _mm_setr_epi32(0, 1, 2, 3);
    const __m128i four = _mm_set1_epi32(4);
    for (uint32_t i = 0; i < count; i += 4, lane = _mm_add_epi32(lane, four)) {
        __m128 nx, ny, nz, d;
        load4(planes + i, count - i, &nx, &ny, &nz, &d);
        __m128 d1 = pushed_dist(nx, ny, nz, d, mn, mx, s);
        __m128 d2 = pushed_dist(nx, ny, nz, d, mn, mx, e);
        __m128 out1 = _mm_cmpgt_ps(d1, zero), out2 = _mm_cmpgt_ps(d2, zero);
        /* outside a plane at both ends, or moving away from it: no contact with the solid */
        __m128 away = _mm_and_ps(out1, _mm_or_ps(_mm_cmpge_ps(d2, eps), _mm_cmpge_ps(d2, d1)));
        if (_mm_movemask_ps(away))
            return 0;
        so = _mm_or_ps(so, out1);
        go = _mm_or_ps(go, out2);
        __m128 active = _mm_or_ps(out1, out2);
        if (!_mm_movemask_ps(active))
            continue;
        __m128 entering = _mm_and_ps(active, _mm_cmpgt_ps(d1, d2));
        __m128 leaving = _mm_andnot_ps(_mm_cmpgt_ps(d1, d2), active);
        __m128 den = _mm_sub_ps(d1, d2);
        __m128 fe = _mm_div_ps(_mm_sub_ps(d1, eps), den);
        fe = _mm_andnot_ps(_mm_cmplt_ps(fe, zero), fe); /* f < 0 ? 0 : f */
        __m128 fl = _mm_div_ps(_mm_add_ps(d1, eps), den);
        fl = sel(_mm_cmpgt_ps(fl, one), one, fl);
        __m128 up = _mm_and_ps(entering, _mm_cmpgt_ps(fe, enter));
        enter = sel(up, fe, enter);
        idx = _mm_castps_si128(sel(up, _mm_castsi128_ps(lane), _mm_castsi128_ps(idx)));
        leave = sel(_mm_and_ps(leaving, _mm_cmplt_ps(fl, leave)), fl, leave);
    }
    float en[4], lv[4];
    int32_t ix[4];
    _mm_storeu_ps(en, enter);
    _mm_storeu_ps(lv, leave);
    _mm_storeu_si128((__m128i *)ix, idx);
    /* the latest entry, from the first plane (lowest index) that reached it */
    int best = -1;
    for (int l = 0; l < 4; l++)
        if (ix[l] >= 0 && (best < 0 || en[l] > en[best] || (en[l] == en[best] && ix[l] < ix[best])))
            best = l;
    out->enter = best < 0 ? -1.0f : en[best];
    out->clip = best < 0 ? NULL : &planes[ix[best]];
    float lmin = lv[0];
    for (int l = 1; l < 4; l++)
        if (lv[l] < lmin)
            lmin = lv[l];
    out->leave = lmin;
    out->startout = _mm_movemask_ps(so) != 0;
    out->getout = _mm_movemask_ps(go) != 0;
    return 1;
}
#else
static int scan_planes(const tw_trace *t, const blvl_Plane *planes, uint32_t count,
                       clip_scan *out) {
    const float eps = BLVL_TRACE_DIST_EPSILON;
    float enter = -1.0f, leave = 1.0f;
    const blvl_Plane *clip = NULL;
    int startout = 0, getout = 0;
    for (uint32_t i = 0; i < count; i++) {
        const blvl_Plane *p = &planes[i];
        const float nx = p->normal.x, ny = p->normal.y, nz = p->normal.z;
        /* The box corner deepest against the normal touches the plane first. */
        float off = nx * (nx < 0 ? t->maxs[0] : t->mins[0]) +
                    ny * (ny < 0 ? t->maxs[1] : t->mins[1]) +
                    nz * (nz < 0 ? t->maxs[2] : t->mins[2]);
        float dist = p->dist - off;
        float d1 = nx * t->start[0] + ny * t->start[1] + nz * t->start[2] - dist;
        float d2 = nx * t->end[0] + ny * t->end[1] + nz * t->end[2] - dist;
        if (d2 > 0)
            getout = 1;
        if (d1 > 0)
            startout = 1;
        /* Outside this plane at both ends, or moving away from it: no contact with the solid. */
        if (d1 > 0 && (d2 >= eps || d2 >= d1))
            return 0;
        if (d1 <= 0 && d2 <= 0)
            continue;
        if (d1 > d2) { /* entering */
            float f = (d1 - eps) / (d1 - d2);
            if (f < 0)
                f = 0;
            if (f > enter) {
                enter = f;
                clip = p;
            }
        } else { /* leaving */
            float f = (d1 + eps) / (d1 - d2);
            if (f > 1)
                f = 1;
            if (f < leave)
                leave = f;
        }
    }
    out->enter = enter, out->leave = leave, out->clip = clip;
    out->startout = startout, out->getout = getout;
    return 1;
}
#endif

void blvl__trace_clip_box(tw_trace *t, const blvl_Plane *planes, uint32_t count,
                          uint32_t collider) {
    if (t->touched < TW_TOUCH_MAX) {
        t->touch_planes[t->touched] = planes;
        t->touch_counts[t->touched] = count;
        t->touch_colliders[t->touched] = collider;
    }
    t->touched++;
    clip_scan c;
    if (!scan_planes(t, planes, count, &c))
        return;
    /* Ties go to the lowest collider index, so the answer does not depend on the order the
     * colliders are visited in (the hierarchy's, brute force's). */
    if (!c.startout) {
        t->startsolid = 1;
        if (!c.getout && (!t->allsolid || collider < t->collider)) {
            t->allsolid = 1;
            t->fraction = 0;
            t->plane = NULL;
            t->collider = collider;
        }
        return;
    }
    if (t->allsolid || !(c.enter < c.leave && c.enter > -1 && c.clip))
        return;
    float f = c.enter < 0 ? 0 : c.enter;
    if (f < t->fraction ||
        (f == t->fraction && t->collider != BLVL_TRACE_NONE && collider < t->collider)) {
        t->fraction = f;
        t->plane = c.clip;
        t->collider = collider;
    }
}

const blvl_Plane *blvl__trace_box_nearest_plane(const blvl_Plane *planes, uint32_t count,
                                                const float pos[3], const float mins[3],
                                                const float maxs[3], float *dist) {
    const blvl_Plane *best = NULL;
    float bd = -INFINITY;
    for (uint32_t i = 0; i < count; i++) {
        const blvl_Plane *p = &planes[i];
        const float nx = p->normal.x, ny = p->normal.y, nz = p->normal.z;
        /* the SSE step's order: (x + y) + z for both sums */
        float off = nx * (nx < 0 ? maxs[0] : mins[0]) + ny * (ny < 0 ? maxs[1] : mins[1]) +
                    nz * (nz < 0 ? maxs[2] : mins[2]);
        float d = nx * pos[0] + ny * pos[1] + nz * pos[2] - (p->dist - off);
        if (!best || d > bd) {
            best = p;
            bd = d;
        }
    }
    *dist = bd;
    return best;
}

int blvl__trace_point_inside(const blvl_Plane *planes, uint32_t count, const float p[3]) {
    for (uint32_t i = 0; i < count; i++) {
        const blvl_Plane *q = &planes[i];
        if (q->normal.x * p[0] + q->normal.y * p[1] + q->normal.z * p[2] - q->dist > 0)
            return 0;
    }
    return count > 0;
}

int blvl__trace_box_inside(const blvl_Plane *planes, uint32_t count, const float pos[3],
                           const float mins[3], const float maxs[3]) {
#if defined(__SSE2__)
    __m128 mn[3], mx[3], ps[3];
    for (int k = 0; k < 3; k++) {
        mn[k] = _mm_set1_ps(mins[k]);
        mx[k] = _mm_set1_ps(maxs[k]);
        ps[k] = _mm_set1_ps(pos[k]);
    }
    for (uint32_t i = 0; i < count; i += 4) {
        __m128 nx, ny, nz, d;
        load4(planes + i, count - i, &nx, &ny, &nz, &d);
        if (_mm_movemask_ps(_mm_cmpgt_ps(pushed_dist(nx, ny, nz, d, mn, mx, ps), _mm_setzero_ps())))
            return 0;
    }
#else
    for (uint32_t i = 0; i < count; i++) {
        const blvl_Plane *p = &planes[i];
        const float nx = p->normal.x, ny = p->normal.y, nz = p->normal.z;
        float off = nx * (nx < 0 ? maxs[0] : mins[0]) + ny * (ny < 0 ? maxs[1] : mins[1]) +
                    nz * (nz < 0 ? maxs[2] : mins[2]);
        float dist = p->dist - off;
        float d1 = nx * pos[0] + ny * pos[1] + nz * pos[2] - dist;
        if (d1 > 0)
            return 0;
    }
#endif
    return count > 0;
}
