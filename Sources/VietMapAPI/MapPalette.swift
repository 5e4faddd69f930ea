import MapTiles
import VietMapWire

/// The colours of one `MapLook`: land, water, parks, buildings, every road class's fill and casing, labels
/// and their halos. Plain data: the style document and the raster renderer paint from the same palette.
public struct MapPalette: Sendable, Hashable {
    public var background: RGBAColor
    public var water: RGBAColor
    public var waterLabel: RGBAColor
    public var park: RGBAColor
    public var building: RGBAColor
    public var buildingOutline: RGBAColor
    /// Index 0 = roadclass 1 … index 8 = roadclass 9.
    public var roadFill: [RGBAColor]
    public var roadCasing: [RGBAColor]
    /// Bridges' casing (drawn wider and darker than surface casings) and tunnels' fill (faded).
    public var bridgeCasing: RGBAColor
    public var tunnelFill: RGBAColor
    public var ferry: RGBAColor
    public var roadLabel: RGBAColor
    public var roadLabelHalo: RGBAColor
    public var shieldText: RGBAColor
    public var poiText: RGBAColor
    public var poiHalo: RGBAColor
    public var adminLabel: RGBAColor
    public var adminLabelHalo: RGBAColor
    public var capitalLabel: RGBAColor
    /// One-way arrows along one-way roads.
    public var onewayArrow: RGBAColor

    /// The fill of roadclass `roadClass` (1…9; out of range clamps).
    public func fill(roadClass: Int) -> RGBAColor { roadFill[min(max(roadClass, 1), 9) - 1] }
    public func casing(roadClass: Int) -> RGBAColor { roadCasing[min(max(roadClass, 1), 9) - 1] }

    /// The palette of `look`.
    public static func of(_ look: MapLook) -> MapPalette {
        switch look {
        case .standard: return standard
        case .light: return light
        case .dark: return dark
        }
    }

    /// VietMap's default look: warm land, orange expressways, yellow major roads, white streets with grey
    /// casings (the colours of VietMap's `street` style).
    public static let standard = MapPalette(
        background: RGBAColor(rgb: 0xF4F1EA), water: RGBAColor(rgb: 0x90D5EF), waterLabel: RGBAColor(rgb: 0x3466A8),
        park: RGBAColor(rgb: 0xC0E7A9), building: RGBAColor(rgb: 0xDDD9D3), buildingOutline: RGBAColor(rgb: 0xCBC6BF),
        roadFill: [0xFF9330, 0xF4E07D, 0xF4E07D, 0xF4E07D, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF].map { RGBAColor(rgb: $0) },
        roadCasing: [0xFC7200, 0xE9AC77, 0xE9AC77, 0xE9AC77, 0xC9C4BB, 0xACACA9, 0xACACA9, 0xACACA9, 0xBEBEBB].map { RGBAColor(rgb: $0) },
        bridgeCasing: RGBAColor(rgb: 0x8E8A84), tunnelFill: RGBAColor(rgb: 0xFFFFFF, alpha: 153), ferry: RGBAColor(rgb: 0x5B8FC9),
        roadLabel: RGBAColor(rgb: 0x4F4F4F), roadLabelHalo: RGBAColor(rgb: 0xFFFFFF, alpha: 204), shieldText: RGBAColor(rgb: 0x0A17B7),
        poiText: RGBAColor(rgb: 0x5A4632), poiHalo: RGBAColor(rgb: 0xFFFFFF),
        adminLabel: RGBAColor(rgb: 0x333333), adminLabelHalo: RGBAColor(rgb: 0xFFFFFF, alpha: 204), capitalLabel: RGBAColor(rgb: 0x663333),
        onewayArrow: RGBAColor(rgb: 0x8A8A8A))

    /// Light: paler land and muted roads, for data drawn on top.
    public static let light = MapPalette(
        background: RGBAColor(rgb: 0xFAFAF8), water: RGBAColor(rgb: 0xD4E6F1), waterLabel: RGBAColor(rgb: 0x7A9BB8),
        park: RGBAColor(rgb: 0xE3F0DA), building: RGBAColor(rgb: 0xEDEBE8), buildingOutline: RGBAColor(rgb: 0xE0DDD9),
        roadFill: [0xFCE2C4, 0xFBF3D0, 0xFBF3D0, 0xFBF3D0, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF].map { RGBAColor(rgb: $0) },
        roadCasing: [0xE8C49C, 0xE4D7A6, 0xE4D7A6, 0xE4D7A6, 0xDDDDDA, 0xDDDDDA, 0xE2E2DF, 0xE2E2DF, 0xE6E6E3].map { RGBAColor(rgb: $0) },
        bridgeCasing: RGBAColor(rgb: 0xC4C2BE), tunnelFill: RGBAColor(rgb: 0xFFFFFF, alpha: 128), ferry: RGBAColor(rgb: 0x9DBCDB),
        roadLabel: RGBAColor(rgb: 0x7A7A7A), roadLabelHalo: RGBAColor(rgb: 0xFFFFFF, alpha: 230), shieldText: RGBAColor(rgb: 0x55608F),
        poiText: RGBAColor(rgb: 0x8A7B6C), poiHalo: RGBAColor(rgb: 0xFFFFFF),
        adminLabel: RGBAColor(rgb: 0x6B6B6B), adminLabelHalo: RGBAColor(rgb: 0xFFFFFF, alpha: 230), capitalLabel: RGBAColor(rgb: 0x8A5A5A),
        onewayArrow: RGBAColor(rgb: 0xB5B5B5))

    /// Dark: night land, dark-grey streets, light labels with dark halos.
    public static let dark = MapPalette(
        background: RGBAColor(rgb: 0x1D2330), water: RGBAColor(rgb: 0x0E2A44), waterLabel: RGBAColor(rgb: 0x6C93B8),
        park: RGBAColor(rgb: 0x1F3326), building: RGBAColor(rgb: 0x2A303C), buildingOutline: RGBAColor(rgb: 0x232833),
        roadFill: [0xB8691E, 0x8C7A3A, 0x8C7A3A, 0x7A6C3C, 0x3E4656, 0x3A4150, 0x353C4A, 0x353C4A, 0x303643].map { RGBAColor(rgb: $0) },
        roadCasing: [0x7A4010, 0x5C5026, 0x5C5026, 0x504727, 0x2A303C, 0x262B36, 0x242934, 0x242934, 0x222731].map { RGBAColor(rgb: $0) },
        bridgeCasing: RGBAColor(rgb: 0x0F1218), tunnelFill: RGBAColor(rgb: 0x3A4150, alpha: 153), ferry: RGBAColor(rgb: 0x3F6E9E),
        roadLabel: RGBAColor(rgb: 0xC9CED8), roadLabelHalo: RGBAColor(rgb: 0x1D2330, alpha: 217), shieldText: RGBAColor(rgb: 0xDDE4FF),
        poiText: RGBAColor(rgb: 0xD9C9A8), poiHalo: RGBAColor(rgb: 0x1D2330),
        adminLabel: RGBAColor(rgb: 0xE2E6EE), adminLabelHalo: RGBAColor(rgb: 0x1D2330, alpha: 217), capitalLabel: RGBAColor(rgb: 0xF2B8B8),
        onewayArrow: RGBAColor(rgb: 0x7C8596))
}
