import MapTiles

/// The icons of the simulator's sprite (`/mt/styles/{look}/sprite[@2x].{json,png}`): exactly
/// `VietMapTileSchema.iconNames` — every `icon-image` the generated styles can ask for — drawn by the project
/// (`SpriteAtlas`): a coloured disc with a letter per POI class, shields for numbered routes, the capital's star
/// disc, province and town dots.
public enum MapSpriteIcons {
    /// One icon per name of `VietMapTileSchema.iconNames`.
    public static let icons: [SpriteIcon] = VietMapTileSchema.iconNames.map(icon)

    /// The icon `name` stands for.
    static func icon(_ name: String) -> SpriteIcon {
        switch name {
        case "capital": return SpriteIcon(name: name, shape: .circle, fill: rgb(0xC62828), stroke: .white, glyph: "★")
        case "province_dark-04": return SpriteIcon(name: name, shape: .dot, fill: rgb(0x37474F), stroke: .white)
        case "dot_9": return SpriteIcon(name: name, shape: .dot, fill: rgb(0x616161), stroke: .white)
        case "freeway": return SpriteIcon(name: name, shape: .shield, fill: rgb(0x2E7D32), stroke: .white)
        case "highway": return SpriteIcon(name: name, shape: .shield, fill: rgb(0xC62828), stroke: .white)
        default:
            let (fill, mark) = poiLook[name] ?? (0x757575, String(name.prefix(1)).uppercased())
            return SpriteIcon(name: name, shape: name == "gasstation" || name == "parking" ? .roundedSquare : .circle,
                              fill: rgb(fill), stroke: .white, glyph: mark)
        }
    }

    /// Colour families as map apps use them: food orange, lodging purple, health red, money green, transport
    /// blue, worship brown, culture teal, shops pink, public grey.
    private static let poiLook: [String: (UInt32, String)] = [
        "restaurant": (0xEF6C00, "R"), "fastfood": (0xEF6C00, "F"), "cafe": (0x8D6E63, "C"), "bar": (0xEF6C00, "B"),
        "hotel": (0x6A1B9A, "H"), "guesthouse": (0x6A1B9A, "G"),
        "hospital": (0xD32F2F, "+"), "clinic": (0xD32F2F, "+"), "pharmacy": (0xD32F2F, "P"), "veterinary": (0xD32F2F, "V"),
        "bank": (0x2E7D32, "$"), "atm": (0x2E7D32, "$"),
        "airport": (0x1565C0, "✈"), "bus": (0x1565C0, "B"), "rail": (0x1565C0, "T"), "harbor": (0x1565C0, "⚓"),
        "parking": (0x1565C0, "P"), "gasstation": (0x1565C0, "⛽"), "carservice": (0x1565C0, "S"),
        "pagoda": (0x6D4C41, "卍"), "temple": (0x6D4C41, "T"), "church": (0x6D4C41, "✝"),
        "museum": (0x00838F, "M"), "memorial": (0x00838F, "M"), "theatre": (0x00838F, "T"), "library": (0x00838F, "L"),
        "attraction": (0x00838F, "★"), "park": (0x388E3C, "P"), "sport": (0x388E3C, "S"),
        "shop": (0xAD1457, "S"), "market": (0xAD1457, "M"), "supermarket": (0xAD1457, "S"), "convenience": (0xAD1457, "C"),
        "school": (0x5D4037, "S"), "university": (0x5D4037, "U"),
        "committee": (0x455A64, "U"), "embassy": (0x455A64, "E"), "company": (0x607D8B, "C"), "building": (0x607D8B, "B"),
        "other": (0x757575, "•"),
    ]

    private static func rgb(_ hex: UInt32) -> RGBAColor {
        RGBAColor(red: UInt8(hex >> 16 & 0xff), green: UInt8(hex >> 8 & 0xff), blue: UInt8(hex & 0xff))
    }
}
