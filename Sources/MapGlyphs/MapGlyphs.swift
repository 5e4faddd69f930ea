// Placeholder: the glyph PBF generator (FreeType SDF) lands here.
