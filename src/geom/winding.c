/* A plane's face polygon: a large square on the plane, clipped by the solid's other planes. */
#include <math.h>
#include <string.h>

#include "geom/geom.h"

void blvl__geom_base_square(const double n[3], double d, double half, double out[4][3]) {
    /* Two axes in the plane, built off the normal's smallest component. */
    double up[3] = {0, 0, 0};
    int k = fabs(n[0]) < fabs(n[1]) ? 0 : 1;
    k = fabs(n[2]) < fabs(n[k]) ? 2 : k;
    up[k] = 1;
    double u[3] = {n[1] * up[2] - n[2] * up[1], n[2] * up[0] - n[0] * up[2],
                   n[0] * up[1] - n[1] * up[0]};
    double l = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int i = 0; i < 3; i++)
        u[i] /= l;
    /* v = n x u, so (u, v, n) is right-handed and the corners below run counter-clockwise. */
    double v[3] = {n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]};
    const double su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < 3; i++)
            out[c][i] = n[i] * d + (su[c] * u[i] + sv[c] * v[i]) * half;
}

int blvl__geom_clip(double (*pts)[3], int n, double (*tmp)[3], int cap, const double pn[3],
                    double pd, double eps) {
    int m = 0;
    for (int i = 0; i < n; i++) {
        const double *a = pts[i], *b = pts[(i + 1) % n];
        double da = pn[0] * a[0] + pn[1] * a[1] + pn[2] * a[2] - pd;
        double db = pn[0] * b[0] + pn[1] * b[1] + pn[2] * b[2] - pd;
        if (da <= eps && m < cap)
            memcpy(tmp[m++], a, sizeof tmp[0]);
        if (((da < -eps && db > eps) || (da > eps && db < -eps)) && m < cap) {
            double t = da / (da - db);
            for (int k = 0; k < 3; k++)
                tmp[m][k] = a[k] + (b[k] - a[k]) * t;
            m++;
        }
    }
    memcpy(pts, tmp, (size_t)m * sizeof pts[0]);
    return m;
}
