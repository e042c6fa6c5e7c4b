#include "fb_builder/struct_copy.h"

static void copy_members(const blvl_fb_type *t, uint8_t *dst, const uint8_t *src) {
    for (uint32_t i = 0; i < t->field_count; i++) {
        const blvl_fb_field *f = &t->fields[i];
        if (f->kind == BLVL_FB_STRUCT) {
            copy_members(f->type, dst + f->offset, src + f->offset);
        } else if (f->kind == BLVL_FB_ARRAY && f->elem == BLVL_FB_STRUCT) {
            for (uint32_t j = 0; j < f->array_len; j++)
                copy_members(f->type, dst + f->offset + (size_t)j * f->type->size,
                             src + f->offset + (size_t)j * f->type->size);
        } else if (f->kind == BLVL_FB_ARRAY) {
            memcpy(dst + f->offset, src + f->offset,
                   (size_t)f->array_len * blvl_fb_scalar_size((blvl_fb_kind)f->elem));
        } else {
            memcpy(dst + f->offset, src + f->offset, blvl_fb_scalar_size((blvl_fb_kind)f->kind));
        }
    }
}

void blvl_fb__struct_copy(const blvl_fb_type *t, uint8_t *dst, const void *src) {
    if (!t->has_padding) {
        memcpy(dst, src, t->size);
        return;
    }
    memset(dst, 0, t->size);
    copy_members(t, dst, (const uint8_t *)src);
}
