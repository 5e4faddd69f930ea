extension Usage {
    static let exportTiles = """
        USAGE: vietmap-sim export-tiles --out FILE.mbtiles [--area district1|hoankiem|dataset | --bbox W,S,E,N]
                                        [--zoom MIN-MAX] [--look tm|lm|dm] [--db PATH] [--name NAME] [--all-glyphs]

        Exports the simulator's map of an area for device tests with no server at all: FILE.mbtiles
        (MBTiles 1.3: gzipped vector tiles in VietMap's schema, TMS rows, metadata with bounds, center,
        zooms, attribution and vector_layers), FILE.style.json (the look's style; its source is
        mbtiles:///<absolute path of FILE.mbtiles>) and FILE.assets/ (fonts/{fontstack}/{range}.pbf and
        sprite[@2x].{json,png}, which the style names by file:// URL). Tiles are cut up to z15,
        VietMap's source maxzoom; deeper zooms are drawn by the client from z15 (overzoom). Only tiles
        with data are stored. Every file is written under a temporary name and renamed once complete.
        See docs/maps.md.

        OPTIONS:
          --out FILE       the MBTiles file to write (required); the style and assets go beside it
          --area NAME      district1 (default: HCMC District 1), hoankiem (Hanoi) or dataset (all of it)
          --bbox W,S,E,N   a box in degrees instead of --area (west,south,east,north)
          --zoom MIN-MAX   zooms (default 10-16); tiles are cut from MIN to min(MAX, 15); MIN ≤ 15
          --look L         tm (default), lm (light) or dm (dark): the style's palette
          --db PATH        dataset built by `vietmap-sim import` (default: the embedded one)
          --name NAME      the MBTiles name (default: FILE without .mbtiles)
          --all-glyphs     every glyph range 0-255 … 65280-65535 of the three font stacks (as an offline
                           pack holds); default: 0-255 and the ranges the exported names and the
                           style's own label text (the one-way arrow) need
          -h, --help       show this help
        """
}
