import VietMapWire

/// The colours of one `MapLook`: land, water, parks, buildings, every road class's fill and casing, labels
/// and their halos. Plain data: the style document and the raster renderer paint from the same palette.
public struct MapPalette: Sendable, Hashable {
    public var background: MapColor
    public var water: MapColor
    public var waterLabel: MapColor
    public var park: MapColor
    public var building: MapColor
    public var buildingOutline: MapColor
    /// Index 0 = roadclass 1 … index 8 = roadclass 9.
    public var roadFill: [MapColor]
    public var roadCasing: [MapColor]
    /// Bridges' casing (drawn wider and darker than surface casings) and tunnels' fill (faded).
    public var bridgeCasing: MapColor
    public var tunnelFill: MapColor
    public var ferry: MapColor
    public var roadLabel: MapColor
    public var roadLabelHalo: MapColor
    public var shieldText: MapColor
    public var poiText: MapColor
    public var poiHalo: MapColor
    public var adminLabel: MapColor
    public var adminLabelHalo: MapColor
    public var capitalLabel: MapColor
    /// One-way arrows along one-way roads.
    public var onewayArrow: MapColor

    /// The fill of roadclass `roadClass` (1…9; out of range clamps).
    public func fill(roadClass: Int) -> MapColor { roadFill[min(max(roadClass, 1), 9) - 1] }
    public func casing(roadClass: Int) -> MapColor { roadCasing[min(max(roadClass, 1), 9) - 1] }

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
        background: MapColor(hex: 0xF4F1EA), water: MapColor(hex: 0x90D5EF), waterLabel: MapColor(hex: 0x3466A8),
        park: MapColor(hex: 0xC0E7A9), building: MapColor(hex: 0xDDD9D3), buildingOutline: MapColor(hex: 0xCBC6BF),
        roadFill: [0xFF9330, 0xF4E07D, 0xF4E07D, 0xF4E07D, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF].map { MapColor(hex: $0) },
        roadCasing: [0xFC7200, 0xE9AC77, 0xE9AC77, 0xE9AC77, 0xC9C4BB, 0xACACA9, 0xACACA9, 0xACACA9, 0xBEBEBB].map { MapColor(hex: $0) },
        bridgeCasing: MapColor(hex: 0x8E8A84), tunnelFill: MapColor(hex: 0xFFFFFF, alpha: 0.6), ferry: MapColor(hex: 0x5B8FC9),
        roadLabel: MapColor(hex: 0x4F4F4F), roadLabelHalo: MapColor(hex: 0xFFFFFF, alpha: 0.8), shieldText: MapColor(hex: 0x0A17B7),
        poiText: MapColor(hex: 0x5A4632), poiHalo: MapColor(hex: 0xFFFFFF),
        adminLabel: MapColor(hex: 0x333333), adminLabelHalo: MapColor(hex: 0xFFFFFF, alpha: 0.8), capitalLabel: MapColor(hex: 0x663333),
        onewayArrow: MapColor(hex: 0x8A8A8A))

    /// Light: paler land and muted roads, for data drawn on top.
    public static let light = MapPalette(
        background: MapColor(hex: 0xFAFAF8), water: MapColor(hex: 0xD4E6F1), waterLabel: MapColor(hex: 0x7A9BB8),
        park: MapColor(hex: 0xE3F0DA), building: MapColor(hex: 0xEDEBE8), buildingOutline: MapColor(hex: 0xE0DDD9),
        roadFill: [0xFCE2C4, 0xFBF3D0, 0xFBF3D0, 0xFBF3D0, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF, 0xFFFFFF].map { MapColor(hex: $0) },
        roadCasing: [0xE8C49C, 0xE4D7A6, 0xE4D7A6, 0xE4D7A6, 0xDDDDDA, 0xDDDDDA, 0xE2E2DF, 0xE2E2DF, 0xE6E6E3].map { MapColor(hex: $0) },
        bridgeCasing: MapColor(hex: 0xC4C2BE), tunnelFill: MapColor(hex: 0xFFFFFF, alpha: 0.5), ferry: MapColor(hex: 0x9DBCDB),
        roadLabel: MapColor(hex: 0x7A7A7A), roadLabelHalo: MapColor(hex: 0xFFFFFF, alpha: 0.9), shieldText: MapColor(hex: 0x55608F),
        poiText: MapColor(hex: 0x8A7B6C), poiHalo: MapColor(hex: 0xFFFFFF),
        adminLabel: MapColor(hex: 0x6B6B6B), adminLabelHalo: MapColor(hex: 0xFFFFFF, alpha: 0.9), capitalLabel: MapColor(hex: 0x8A5A5A),
        onewayArrow: MapColor(hex: 0xB5B5B5))

    /// Dark: night land, dark-grey streets, light labels with dark halos.
    public static let dark = MapPalette(
        background: MapColor(hex: 0x1D2330), water: MapColor(hex: 0x0E2A44), waterLabel: MapColor(hex: 0x6C93B8),
        park: MapColor(hex: 0x1F3326), building: MapColor(hex: 0x2A303C), buildingOutline: MapColor(hex: 0x232833),
        roadFill: [0xB8691E, 0x8C7A3A, 0x8C7A3A, 0x7A6C3C, 0x3E4656, 0x3A4150, 0x353C4A, 0x353C4A, 0x303643].map { MapColor(hex: $0) },
        roadCasing: [0x7A4010, 0x5C5026, 0x5C5026, 0x504727, 0x2A303C, 0x262B36, 0x242934, 0x242934, 0x222731].map { MapColor(hex: $0) },
        bridgeCasing: MapColor(hex: 0x0F1218), tunnelFill: MapColor(hex: 0x3A4150, alpha: 0.6), ferry: MapColor(hex: 0x3F6E9E),
        roadLabel: MapColor(hex: 0xC9CED8), roadLabelHalo: MapColor(hex: 0x1D2330, alpha: 0.85), shieldText: MapColor(hex: 0xDDE4FF),
        poiText: MapColor(hex: 0xD9C9A8), poiHalo: MapColor(hex: 0x1D2330),
        adminLabel: MapColor(hex: 0xE2E6EE), adminLabelHalo: MapColor(hex: 0x1D2330, alpha: 0.85), capitalLabel: MapColor(hex: 0xF2B8B8),
        onewayArrow: MapColor(hex: 0x7C8596))
}
