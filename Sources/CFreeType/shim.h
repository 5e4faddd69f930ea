#ifndef VMSIM_CFREETYPE_SHIM_H
#define VMSIM_CFREETYPE_SHIM_H

/* FreeType (outlines of the embedded Roboto fonts → SDF glyphs for MapLibre's glyph PBFs). */

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_GLYPH_H
#include FT_OUTLINE_H

#endif
