/// The decoded `OSMHeader` blob: HeaderBlock { bbox = 1; required_features = 4; … }.
struct PBFHeaderBlock {
    /// Features a reader must implement to read the file correctly.
    static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes"]

    var bounds: OSMBounds?
    var requiredFeatures: [String] = []

    /// Required features this reader lacks (e.g. "HistoricalInformation").
    var unsupportedFeatures: [String] {
        requiredFeatures.filter { !Self.supportedFeatures.contains($0) }
    }

    init(_ bytes: UnsafeRawBufferPointer) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .lengthDelimited):
                var bbox = try reader.readMessage()
                bounds = try Self.decodeBBox(&bbox)
            case (4, .lengthDelimited):
                requiredFeatures.append(try reader.readString())
            default:
                try reader.skip(field.wireType)
            }
        }
    }

    /// HeaderBBox { left = 1; right = 2; top = 3; bottom = 4 }, sint64 nanodegrees.
    private static func decodeBBox(_ reader: inout ProtobufReader) throws(ProtobufError) -> OSMBounds {
        var edges: [Int: Int64] = [:]
        while let field = try reader.nextField() {
            if (1 ... 4).contains(field.number), field.wireType == .varint {
                edges[field.number] = try reader.readSInt64()
            } else {
                try reader.skip(field.wireType)
            }
        }
        func degrees(_ n: Int) -> Double { Double(edges[n] ?? 0) / 1e9 }
        return OSMBounds(minLat: degrees(4), minLon: degrees(1), maxLat: degrees(3), maxLon: degrees(2))
    }
}
