/* Fuzz target: the Riot record parser (blvl_riot_parse) on record bodies alone, without the
 * container's checks in the way. The input is a run of records, each u16 type, u32 size
 * (clipped to the bytes left), the body; they become a container built by hand. A refusal must
 * be BLVL_E_SOURCE with the documented message shape; a level that parses must write, read
 * back (unless the input repeats a known type, which the reader refuses), compare equal by its
 * rewrite, and write the same bytes again. Seeds: fuzz/corpus/riot_parse/, written by
 * tests/data/riot/make_riot.py (the records of the good files and of the bad ones). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/blvl.h"
#include "blvl/le.h"
#include "blvl/riot.h"
#include "fuzz_source_error.h"

#define MAX_RECORDS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blvl_riot_record recs[MAX_RECORDS];
    blvl_riot_srsc c = {.version = 0x0100, .records = recs};
    bool repeated = false;
    size_t pos = 0;
    while (size - pos >= 6 && c.record_count < MAX_RECORDS) {
        uint16_t type = blvl_le16(data + pos);
        uint32_t n = blvl_le32(data + pos + 2);
        pos += 6;
        if (n > size - pos)
            n = (uint32_t)(size - pos);
        bool known = type <= 2 || type == 0x20;
        for (uint16_t i = 0; known && i < c.record_count; i++)
            repeated |= recs[i].type == type;
        recs[c.record_count++] = (blvl_riot_record){
            .type = type, .size = n, .bytes = (uint8_t *)(uintptr_t)(data + pos)};
        pos += n;
    }
    blvl_error e;
    blvl_riot_level *l = NULL;
    blvl_status st = blvl_riot_parse(&l, &c, NULL, &e);
    if (st) {
        if (l)
            abort();
        fuzz_check_source_error(st, &e);
        return 0;
    }
    void *out = NULL, *again = NULL;
    size_t n = 0, n2 = 0;
    if (blvl_riot_write(&out, &n, l, NULL, &e) != BLVL_OK)
        abort();
    blvl_riot_level *back = NULL;
    st = blvl_riot_read(&back, out, n, NULL, &e);
    if (repeated) {
        if (st != BLVL_E_SOURCE)
            abort();
    } else {
        if (st != BLVL_OK)
            abort();
        if (blvl_riot_write(&again, &n2, back, NULL, &e) != BLVL_OK || n2 != n ||
            memcmp(again, out, n) != 0)
            abort();
        blvl_free(NULL, again);
        blvl_riot_free(back);
    }
    blvl_free(NULL, out);
    blvl_riot_free(l);
    return 0;
}
