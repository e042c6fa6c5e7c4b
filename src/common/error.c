#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const names[BLVL_STATUS_COUNT] = {
    [BLVL_OK] = "ok",
    [BLVL_E_ARGUMENT] = "argument",
    [BLVL_E_NOMEM] = "out-of-memory",
    [BLVL_E_IO] = "io",
    [BLVL_E_NOT_FOUND] = "not-found",
    [BLVL_E_TRUNCATED] = "truncated",
    [BLVL_E_MAGIC] = "magic",
    [BLVL_E_VERSION] = "container-version",
    [BLVL_E_HEADER_FLAGS] = "header-flags",
    [BLVL_E_FLOOR] = "payload-floor",
    [BLVL_E_TABLE_OFFSET] = "table-offset",
    [BLVL_E_COUNT] = "table-count",
    [BLVL_E_TAG] = "tag",
    [BLVL_E_TAG_REPEATED] = "tag-repeated",
    [BLVL_E_ENTRY_FLAGS] = "entry-flags",
    [BLVL_E_ENTRY_ALIGN] = "entry-align",
    [BLVL_E_ENTRY_BELOW_FLOOR] = "entry-below-floor",
    [BLVL_E_ENTRY_PAST_EOF] = "entry-past-eof",
    [BLVL_E_ENTRY_OVERLAP] = "entry-overlap",
    [BLVL_E_RAW_SIZE] = "raw-size",
    [BLVL_E_ENTRY_EMPTY] = "entry-empty",
    [BLVL_E_UNREFERENCED] = "unreferenced-bytes",
    [BLVL_E_CORE_NOT_IDENTITY] = "core-not-identity",
    [BLVL_E_TABLE_DIGEST] = "table-digest",
    [BLVL_E_IDENTITY] = "identity",
    [BLVL_E_SECTION_DIGEST] = "section-digest",
    [BLVL_E_CHUNK_INDEX] = "chunk-index",
    [BLVL_E_CHUNK_SIZE] = "chunk-size",
    [BLVL_E_CODEC] = "chunk-codec",
    [BLVL_E_ZSTD] = "zstd-frame",
    [BLVL_E_BUDGET] = "inflation-budget",
    [BLVL_E_IDENTITY_SECTION] = "identity-section",
    [BLVL_E_NO_ROOM] = "no-room",
    [BLVL_E_WRITE_TAG] = "write-tag",
    [BLVL_E_BUSY] = "busy",
    [BLVL_E_REQUIRED] = "required-section",
    [BLVL_E_SECTION_VERSION] = "section-version",
    [BLVL_E_FLATBUFFER] = "flatbuffer",
    [BLVL_E_STREAM_STATE] = "stream-state",
    [BLVL_E_SOURCE] = "source",
    [BLVL_E_UNKNOWN_FORMAT] = "unknown-format",
    [BLVL_E_SYMBOLS_STALE] = "symbols-stale",
    [BLVL_E_SYMBOLS_VERSION] = "symbols-version",
    [BLVL_E_SYMBOLS] = "symbols",
    [BLVL_E_HTTP] = "http",
    [BLVL_E_HTTP_CHANGED] = "http-changed",
    [BLVL_E_HTTP_TIMEOUT] = "http-timeout",
    [BLVL_E_HTTP_LIMIT] = "http-limit",
    [BLVL_E_PACKED_SIZE] = "packed-size",
};

const char *blvl_status_name(blvl_status code) {
    if ((unsigned)code >= BLVL_STATUS_COUNT || !names[code])
        return "unknown";
    return names[code];
}

blvl_status blvl__fail(blvl_error *err, blvl_status code, const char *fmt, ...) {
    if (err) {
        err->code = code;
        int n = snprintf(err->message, sizeof err->message, "%s: ", blvl_status_name(code));
        if (n < 0 || (size_t)n >= sizeof err->message)
            n = 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message + n, sizeof err->message - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* The same as blvl__fail with BLVL_E_NOMEM, so no allocation failure words its rule again. */
blvl_status blvl__nomem(blvl_error *err, const char *what, ...) {
    if (err) {
        err->code = BLVL_E_NOMEM;
        int n = snprintf(err->message, sizeof err->message, "%s: ", blvl_status_name(BLVL_E_NOMEM));
        if (n < 0 || (size_t)n >= sizeof err->message)
            n = 0;
        va_list ap;
        va_start(ap, what);
        vsnprintf(err->message + n, sizeof err->message - (size_t)n, what, ap);
        va_end(ap);
    }
    return BLVL_E_NOMEM;
}

blvl_status blvl__fail_source(blvl_error *err, const char *part, const char *field, uint64_t offset,
                              const char *rule, const char *fmt, ...) {
    if (err) {
        err->code = BLVL_E_SOURCE;
        int n = snprintf(err->message, sizeof err->message, "%s: %s at offset %llu: %s: ", part,
                         field, (unsigned long long)offset, rule);
        if (n < 0)
            n = 0;
        if ((size_t)n < sizeof err->message) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err->message + n, sizeof err->message - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return BLVL_E_SOURCE;
}

const char *blvl__error_text(const blvl_error *err) {
    const char *name = blvl_status_name(err->code);
    size_t n = strlen(name);
    if (strncmp(err->message, name, n) == 0 && err->message[n] == ':' && err->message[n + 1] == ' ')
        return err->message + n + 2;
    return err->message;
}

void blvl__ok(blvl_error *err) {
    if (err) {
        err->code = BLVL_OK;
        err->message[0] = '\0';
    }
}
