import MapTiles
import VietMapWire

/// How raster tiles (`/api/{tm,lm,dm}/{z}/{x}/{y}[@2x].png`) draw the dataset's features: the same palette
/// (`MapPalette`), road groups and widths as the vector style (`MapStyleDocument`), so a raster map and a vector
/// map of one look agree. Raster tiles are 256-px tiles: a raster zoom z shows what the vector style shows at
/// zoom z − 1, so every zoom of the vector style is shifted by one here.
public enum MapRasterPaint {
    /// The paint of `look`.
    public static func of(_ look: MapLook) -> RasterPaint {
        switch look {
        case .standard: return standard
        case .light: return light
        case .dark: return dark
        }
    }

    /// Transparent tiles: the traffic overlay (`/api/tf/…`) of a simulator that has no traffic data.
    public static let traffic = RasterPaint(background: .transparent, rules: [])

    private static let standard = paint(MapPalette.standard)
    private static let light = paint(MapPalette.light)
    private static let dark = paint(MapPalette.dark)

    static func paint(_ palette: MapPalette) -> RasterPaint {
        var rules: [RasterRule] = [
            RasterRule(sourceLayer: VietMapTileSchema.hydro, minZoom: 7, drawing: .fill(RasterFill(color: palette.water))),
            RasterRule(sourceLayer: VietMapTileSchema.footPrint, filter: .oneOf(key: "catid", values: [.int(4), .int(5), .int(8), .int(14), .int(13)]),
                       minZoom: 12, drawing: .fill(RasterFill(color: palette.park))),
            RasterRule(sourceLayer: VietMapTileSchema.hydroCenterline, minZoom: 10,
                       drawing: .line(RasterLine(color: palette.water, width: shifted([(10, 1), (14, 2), (18, 4)])))),
            RasterRule(sourceLayer: VietMapTileSchema.building, minZoom: 15,
                       drawing: .fill(RasterFill(color: palette.building, outline: palette.buildingOutline))),
            RasterRule(sourceLayer: VietMapTileSchema.ferry, minZoom: 10,
                       drawing: .line(RasterLine(color: palette.ferry, width: shifted([(9, 1), (14, 2), (18, 3)]), dash: [4, 4]))),
        ]
        for group in MapStyleDocument.roadGroups {
            let classes = Set(group.classes.map { MapValue.int(Int64($0)) })
            let widths = shifted(group.widths)
            let casingWidths = shifted(group.widths.map { ($0.0, $0.1 + 1.5) })
            rules.append(RasterRule(sourceLayer: VietMapTileSchema.network, filter: .oneOf(key: "roadclass", values: classes),
                                    minZoom: group.minZoom + 1,
                                    drawing: .line(RasterLine(color: palette.fill(roadClass: group.classes[0]), width: widths,
                                                              casing: RasterCasing(color: palette.casing(roadClass: group.classes[0]),
                                                                                   width: casingWidths)))))
        }
        rules += [
            RasterRule(sourceLayer: VietMapTileSchema.networkName, minZoom: 15,
                       drawing: .label(RasterLabel(textKey: "name", size: 11, color: palette.roadLabel, halo: palette.roadLabelHalo))),
            RasterRule(sourceLayer: VietMapTileSchema.point, minZoom: 16,
                       drawing: .circle(RasterCircle(radius: .constant(3.5), fill: palette.poiText, stroke: palette.poiHalo))),
            RasterRule(sourceLayer: VietMapTileSchema.point, minZoom: 17,
                       drawing: .label(RasterLabel(textKey: "shortname", size: 10, color: palette.poiText, halo: palette.poiHalo,
                                                   offsetY: 10))),
            RasterRule(sourceLayer: VietMapTileSchema.adminPoint, filter: .oneOf(key: "class", values: [.int(1), .int(2)]), minZoom: 5, maxZoom: 12,
                       drawing: .label(RasterLabel(textKey: "name", size: 13, color: palette.adminLabel, halo: palette.adminLabelHalo,
                                                   bold: true))),
            RasterRule(sourceLayer: VietMapTileSchema.adminPoint, filter: .oneOf(key: "class", values: [.int(4)]), minZoom: 14, maxZoom: 17,
                       drawing: .label(RasterLabel(textKey: "name", size: 11, color: palette.adminLabel, halo: palette.adminLabelHalo))),
        ]
        return RasterPaint(background: palette.background, rules: rules)
    }

    /// Vector-style stops (zoom, px) moved one zoom deeper for 256-px tiles.
    private static func shifted(_ stops: [(Double, Double)]) -> ZoomFunction {
        ZoomFunction(stops: stops.map { ZoomFunction.Stop($0.0 + 1, $0.1) }, base: 1.2)
    }
}
