/* Until the .bsym reader (src/symbols, include/blvl/symbols.h) is in the tree, blvl-diag and
 * `blvl diag --dump` must still link: without it every .bsym is refused (a D0038 finding, or a
 * failed --dump) and nothing has a source. The reader is found by its internal header; once it
 * is merged this file does nothing and can be deleted. */
#ifndef BLVL_DIAG_SYMBOLS_SHIM_H
#define BLVL_DIAG_SYMBOLS_SHIM_H

#include <stdio.h>
#include <string.h>

#include "blvl/symbols.h"

#if !__has_include("../symbols/symbols_internal.h")
#define blvl_symbols_open_memory blvl_diag_no_symbols_open
#define blvl_symbols_free blvl_diag_no_symbols_free
#define blvl_symbols_get_info blvl_diag_no_symbols_info
#define blvl_symbols_collider_source blvl_diag_no_symbols_source
#define blvl_symbols_batch_source blvl_diag_no_symbols_source
#define blvl_symbols_triangle_source blvl_diag_no_symbols_source
#define blvl_symbols_describe blvl_diag_no_symbols_describe
#define blvl_symbols_material_at blvl_diag_no_symbols_material
static inline blvl_status blvl_diag_no_symbols_open(blvl_symbols **out, const void *data,
                                                    size_t size, blvl_level *level, unsigned flags,
                                                    const blvl_options *opt, blvl_error *err) {
    (void)data, (void)size, (void)level, (void)flags, (void)opt;
    *out = NULL;
    if (err) {
        err->code = BLVL_E_SYMBOLS_VERSION;
        snprintf(err->message, sizeof err->message,
                 "symbols-version: this build has no .bsym reader");
    }
    return BLVL_E_SYMBOLS_VERSION;
}
static inline void blvl_diag_no_symbols_free(blvl_symbols *sym) {
    (void)sym;
}
static inline void blvl_diag_no_symbols_info(const blvl_symbols *sym, blvl_symbols_info *out) {
    (void)sym;
    memset(out, 0, sizeof *out);
}
static inline uint32_t blvl_diag_no_symbols_source(const blvl_symbols *sym, uint32_t i) {
    (void)sym, (void)i;
    return BLVL_SYMBOLS_NONE;
}
static inline size_t blvl_diag_no_symbols_describe(const blvl_symbols *sym, uint32_t s, char *buf,
                                                   size_t size) {
    (void)sym, (void)s;
    if (size)
        buf[0] = '\0';
    return 0;
}
static inline bool blvl_diag_no_symbols_material(const blvl_symbols *sym, uint32_t i,
                                                 blvl_symbols_material *out) {
    (void)sym, (void)i, (void)out;
    return false;
}
#endif
#endif
