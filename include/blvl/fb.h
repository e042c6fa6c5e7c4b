/* libblvl's FlatBuffers runtime, all of it: reader, type tables, verifier, builder and JSON.
 * Each job has its own header (blvl/fb_reader.h explains the split); include only what a
 * program uses. */
#ifndef BLVL_FB_H
#define BLVL_FB_H

#include "blvl/fb_builder.h"
#include "blvl/fb_json.h"
#include "blvl/fb_reader.h"
#include "blvl/fb_types.h"
#include "blvl/fb_verifier.h"

#endif
