#include "emit_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void emit_int_lit(FILE *o, uint64_t bits, int kind) {
    switch (kind) {
    case K_U64:
        fprintf(o, "UINT64_C(%llu)", (unsigned long long)bits);
        break;
    case K_I64:
        if (bits == (uint64_t)1 << 63)
            fputs("INT64_MIN", o);
        else
            fprintf(o, "INT64_C(%lld)", (long long)(int64_t)bits);
        break;
    case K_U32:
        fprintf(o, "%lluu", (unsigned long long)bits);
        break;
    case K_I32:
        if ((int64_t)bits == -2147483647LL - 1)
            fputs("INT32_MIN", o);
        else
            fprintf(o, "%lld", (long long)(int64_t)bits);
        break;
    default:
        fprintf(o, "%lld", (long long)(int64_t)bits);
    }
}

void emit_float_lit(FILE *o, double v, int is_f32) {
    if (isnan(v)) {
        fputs("NAN", o);
        return;
    }
    if (isinf(v)) {
        fputs(v < 0 ? "-INFINITY" : "INFINITY", o);
        return;
    }
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        double r = strtod(buf, NULL);
        if (is_f32 ? (float)r == (float)v : r == v)
            break;
    }
    fputs(buf, o);
    if (!strpbrk(buf, ".en"))
        fputs(".0", o);
    if (is_f32)
        fputc('f', o);
}

void emit_default(FILE *o, const field *f) {
    if (f->kind == K_F32 || f->kind == K_F64)
        emit_float_lit(o, f->def_real, f->kind == K_F32);
    else
        emit_int_lit(o, f->def_bits, f->kind);
}
