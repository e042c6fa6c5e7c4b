/* blvl_subspace_free: every array was allocated alone with opt's allocator at the size its
 * count gives; strings (ATTR keys and values, region names, arena names) carry their size in a
 * prefix. NULL pointers are skipped, so a hand-built map made the same way frees here too. */
#include "common/alloc.h"
#include "import/subspace/subspace_internal.h"

void blvl_subspace_free(blvl_subspace *m) {
    if (!m)
        return;
    blvl_allocator al = m->allocator; /* m itself goes last */
    const blvl_allocator *a = &al;
    blvl__import_subspace_free_bmp(a, m->bmp);
    blvl__import_subspace_free_elvl(a, m->elvl);
    blvl__dealloc(a, m->gap, m->gap_size);
    blvl__dealloc(a, m->records, (size_t)m->record_count * 4u);
    blvl__dealloc(a, m, sizeof *m);
}
