/* Images of a Quake 3 map: TGA decoded to RGBA8 (the bake stores it as PNG), JPEG and PNG
 * carried as they are once their size is read, and the engine's look-up of an image name with
 * its extension swapped (docs/IMPORT-Q3.md "Materials and images"). */
#ifndef BLVL_IMPORT_Q3_IMAGE_INTERNAL_H
#define BLVL_IMPORT_Q3_IMAGE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "blvl/q3.h"

#define Q3I_MAX_SIDE 8192u         /* pixels along either side */
#define Q3I_MAX_PIXELS (16u << 20) /* width * height: 64 MiB of RGBA8 at most */
#define Q3I_MAX_NAME 127u          /* bytes of an image path looked up */

enum { Q3I_TGA = 1, Q3I_JPEG, Q3I_PNG };

/* What the bytes are, from their first bytes (JPEG and PNG signatures; anything else is read
 * as a TGA, which has none). */
int blvl__import_q3_img_kind(const uint8_t *data, size_t size);

/* A TGA (types 1, 2, 3 and their RLE forms 9, 10, 11; 24/32-bit colour, 8-bit grey, 8-bit
 * indices into a 24/32-bit colour map) as RGBA8 rows top to bottom, in memory from `a` (free
 * with blvl__dealloc(a, rgba, w * h * 4)). Refusals: BLVL_E_SOURCE "<name>: <field> at offset
 * N: <rule>: <problem>". */
blvl_status blvl__import_q3_img_tga(const uint8_t *data, size_t size, const char *name,
                                    const blvl_allocator *a, uint8_t **rgba, uint32_t *w,
                                    uint32_t *h, blvl_error *err);
/* The size of a JPEG from its first frame header (SOFn), or of a PNG from its IHDR. */
blvl_status blvl__import_q3_img_jpeg_size(const uint8_t *data, size_t size, const char *name,
                                          uint32_t *w, uint32_t *h, blvl_error *err);
blvl_status blvl__import_q3_img_png_size(const uint8_t *data, size_t size, const char *name,
                                         uint32_t *w, uint32_t *h, blvl_error *err);

/* Any of the three kinds as RGBA8 rows top to bottom (JPEG by libjpeg-turbo, PNG by stb_image),
 * freed with blvl__dealloc(a, rgba, w * h * 4). */
blvl_status blvl__import_q3_img_decode(const uint8_t *data, size_t size, const char *name,
                                       const blvl_allocator *a, uint8_t **rgba, uint32_t *w,
                                       uint32_t *h, blvl_error *err);

/* The file an image name stands for, as the engine looks it up: the name as written, then with
 * its extension (if .tga, .jpg, .jpeg or .png, or none) replaced by .tga, .jpg, .jpeg, .png in
 * that order. Writes the path found into out (cap bytes); false when none exists. */
bool blvl__import_q3_img_find(const blvl_q3_fs *fs, const char *name, char *out, size_t cap);

#endif
