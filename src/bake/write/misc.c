/* The small sections: meta, textures, entities, sites and cameras; and the helpers every
 * section writer shares. */
#include <string.h>

#include "bake/write/write.h"
#include "blvl/sections/cameras_builder.h"
#include "blvl/sections/common_builder.h"
#include "blvl/sections/entities_builder.h"
#include "blvl/sections/meta_builder.h"
#include "blvl/sections/sites_builder.h"
#include "blvl/sections/textures_builder.h"
#include "blvl/version.h"
#include "common/alloc.h"
#include "common/error.h"

blvl_fb_ref blvl__bake_write_fb_str(blvl_fb_builder *fb, const char *s) {
    return s ? blvl_fb_create_string(fb, s, strlen(s)) : 0;
}

blvl_fb_ref *blvl__bake_write_refs(const blvl_bake *b, uint32_t n, blvl_error *err) {
    if (n == 0)
        return NULL;
    blvl_fb_ref *r = blvl__alloc(b->al, (size_t)n * sizeof *r);
    if (!r)
        blvl__nomem(err, "bake: %u references", n);
    return r;
}

void blvl__bake_write_refs_free(const blvl_bake *b, blvl_fb_ref *r, uint32_t n) {
    blvl__bake_model_dealloc(b, r, (size_t)n * sizeof *r);
}

blvl_status blvl__bake_write_meta(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                  blvl_error *err) {
    blvl_fb_builder_reset(fb);
    blvl_fb_ref name = blvl__bake_write_fb_str(fb, b->meta.name);
    blvl_fb_ref author = blvl__bake_write_fb_str(fb, b->meta.author);
    blvl_fb_ref desc = blvl__bake_write_fb_str(fb, b->meta.description);
    blvl_fb_ref tool =
        blvl__bake_write_fb_str(fb, b->draft ? "blvl " BLVL_VERSION_STRING BLVL_BAKE_DRAFT_MARKER
                                             : "blvl " BLVL_VERSION_STRING);
    blvl_Meta_start(fb);
    blvl_Meta_add_name(fb, name);
    blvl_Meta_add_author(fb, author);
    blvl_Meta_add_description(fb, desc);
    blvl_Meta_add_created(fb, b->meta.created);
    blvl_Meta_add_tool(fb, tool);
    blvl_Meta_add_engine(fb, (blvl_Engine)b->meta.engine);
    return blvl_Meta_finish(fb, blvl_Meta_end(fb), &out->data, &out->size, err);
}

blvl_status blvl__bake_write_textures(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                      blvl_error *err) {
    uint32_t n = b->images.n;
    blvl_fb_ref *refs = blvl__bake_write_refs(b, n, err);
    if (n && !refs)
        return BLVL_E_NOMEM;
    blvl_fb_builder_reset(fb);
    for (uint32_t i = 0; i < n; i++) {
        const bake_image *im = &b->images.p[i];
        blvl_fb_ref name = blvl__bake_write_fb_str(fb, im->name);
        blvl_fb_ref data = blvl_Image_data_create(fb, im->data, im->size);
        blvl_Image_start(fb);
        blvl_Image_add_name(fb, name);
        blvl_Image_add_width(fb, im->width);
        blvl_Image_add_height(fb, im->height);
        blvl_Image_add_encoding(fb, (blvl_ImageEncoding)im->encoding);
        blvl_Image_add_color_space(fb, (blvl_ColorSpace)im->color_space);
        blvl_Image_add_data(fb, data);
        refs[i] = blvl_Image_end(fb);
    }
    blvl_fb_ref images = n ? blvl_fb_create_ref_vector(fb, refs, n) : 0;
    blvl_Textures_start(fb);
    blvl_Textures_add_images(fb, images);
    blvl_status st = blvl_Textures_finish(fb, blvl_Textures_end(fb), &out->data, &out->size, err);
    blvl__bake_write_refs_free(b, refs, n);
    return st;
}

blvl_status blvl__bake_write_entities(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                      blvl_error *err) {
    uint32_t n = b->entities.n, most = 0;
    for (uint32_t i = 0; i < n; i++)
        most = b->entities.p[i].pair_count > most ? b->entities.p[i].pair_count : most;
    blvl_fb_ref *refs = blvl__bake_write_refs(b, n, err);
    blvl_fb_ref *pairs = blvl__bake_write_refs(b, most, err);
    blvl_status st = BLVL_OK;
    if ((n && !refs) || (most && !pairs)) {
        st = BLVL_E_NOMEM;
        goto done;
    }
    blvl_fb_builder_reset(fb);
    for (uint32_t i = 0; i < n; i++) {
        const bake_entity *e = &b->entities.p[i];
        for (uint32_t k = 0; k < e->pair_count; k++) {
            blvl_fb_ref key = blvl__bake_write_fb_str(fb, e->pairs[k].key);
            blvl_fb_ref value = blvl__bake_write_fb_str(fb, e->pairs[k].value);
            blvl_KeyValue_start(fb);
            blvl_KeyValue_add_key(fb, key);
            blvl_KeyValue_add_value(fb, value);
            pairs[k] = blvl_KeyValue_end(fb);
        }
        blvl_fb_ref pv = e->pair_count ? blvl_fb_create_ref_vector(fb, pairs, e->pair_count) : 0;
        blvl_fb_ref cls = blvl__bake_write_fb_str(fb, e->classname);
        blvl_Entity_start(fb);
        blvl_Entity_add_classname(fb, cls);
        blvl_Entity_add_pairs(fb, pv);
        refs[i] = blvl_Entity_end(fb);
    }
    blvl_fb_ref ents = n ? blvl_fb_create_ref_vector(fb, refs, n) : 0;
    blvl_Entities_start(fb);
    blvl_Entities_add_entities(fb, ents);
    st = blvl_Entities_finish(fb, blvl_Entities_end(fb), &out->data, &out->size, err);
done:
    blvl__bake_write_refs_free(b, refs, n);
    blvl__bake_write_refs_free(b, pairs, most);
    return st;
}

blvl_status blvl__bake_write_sites(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                   blvl_error *err) {
    uint32_t n = b->sites.n;
    blvl_fb_ref *refs = blvl__bake_write_refs(b, n, err);
    if (n && !refs)
        return BLVL_E_NOMEM;
    blvl_fb_builder_reset(fb);
    for (uint32_t i = 0; i < n; i++) {
        const bake_site *s = &b->sites.p[i];
        blvl_fb_ref name = blvl__bake_write_fb_str(fb, s->name);
        blvl_Site_start(fb);
        blvl_Site_add_name(fb, name);
        blvl_Site_add_kind(fb, (blvl_SiteKind)s->kind);
        blvl_Site_add_lo(fb, &s->lo);
        blvl_Site_add_hi(fb, &s->hi);
        refs[i] = blvl_Site_end(fb);
    }
    blvl_fb_ref sites = n ? blvl_fb_create_ref_vector(fb, refs, n) : 0;
    blvl_Sites_start(fb);
    blvl_Sites_add_sites(fb, sites);
    blvl_status st = blvl_Sites_finish(fb, blvl_Sites_end(fb), &out->data, &out->size, err);
    blvl__bake_write_refs_free(b, refs, n);
    return st;
}

blvl_status blvl__bake_write_cameras(const blvl_bake *b, blvl_fb_builder *fb, bake_buf *out,
                                     blvl_error *err) {
    uint32_t n = b->cameras.n;
    blvl_fb_ref *refs = blvl__bake_write_refs(b, n, err);
    if (n && !refs)
        return BLVL_E_NOMEM;
    blvl_fb_builder_reset(fb);
    for (uint32_t i = 0; i < n; i++) {
        const bake_camera *c = &b->cameras.p[i];
        blvl_fb_ref name = blvl__bake_write_fb_str(fb, c->name);
        blvl_Camera_start(fb);
        blvl_Camera_add_name(fb, name);
        blvl_Camera_add_purpose(fb, (blvl_CameraPurpose)c->purpose);
        blvl_Camera_add_pos(fb, &c->pos);
        blvl_Camera_add_yaw(fb, c->yaw);
        blvl_Camera_add_pitch(fb, c->pitch);
        blvl_Camera_add_roll(fb, c->roll);
        blvl_Camera_add_fov_x(fb, c->fov_x);
        refs[i] = blvl_Camera_end(fb);
    }
    blvl_fb_ref cams = n ? blvl_fb_create_ref_vector(fb, refs, n) : 0;
    blvl_Cameras_start(fb);
    blvl_Cameras_add_cameras(fb, cams);
    blvl_status st = blvl_Cameras_finish(fb, blvl_Cameras_end(fb), &out->data, &out->size, err);
    blvl__bake_write_refs_free(b, refs, n);
    return st;
}
