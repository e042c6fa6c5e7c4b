/* Fuzz target: open and validate a container from memory, then walk what it reports. Every
 * input must be refused with a status and a message, or open with a consistent table. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blvl/blvl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    blvl_level *lv = NULL;
    blvl_error e;
    blvl_options opt = {0};
    opt.threads = 1;
    blvl_status st = blvl_open_memory(&lv, data, size, &opt, &e);
    if (st != BLVL_OK) {
        if (lv != NULL || e.code != st || e.message[0] == '\0')
            abort();
        return 0;
    }
    blvl_info info;
    blvl_get_info(lv, &info);
    if (info.file_size != size || info.covered > size || info.count > info.capacity ||
        info.count != blvl_count(lv))
        abort();
    uint64_t packed = 0;
    for (uint32_t i = 0; i < blvl_count(lv); i++) {
        const blvl_entry *en = blvl_entry_at(lv, i);
        if (!en || blvl_find(lv, en->tag) != en || en->offset < info.floor ||
            en->offset + en->packed_size > size || en->raw_size > BLVL_SECTION_RAW_MAX)
            abort();
        packed += en->packed_size;
    }
    if (info.floor + packed != info.covered)
        abort();
    uint8_t id[BLVL_DIGEST_SIZE];
    blvl_entry *all = malloc((blvl_count(lv) + 1) * sizeof *all);
    for (uint32_t i = 0; i < blvl_count(lv); i++)
        all[i] = *blvl_entry_at(lv, i);
    blvl_compute_identity(all, blvl_count(lv), id);
    free(all);
    if (memcmp(id, info.identity, BLVL_DIGEST_SIZE) != 0)
        abort();
    blvl_close(lv);
    return 0;
}
