/// The encoded-polyline decoding both SDKs use on route `points`: Google's algorithm, latitude
/// first, 1e5 for precision 5 (Flutter's `VietmapPolylineDecoder.decodePolyline(points, false)`,
/// the JS helper `Polyline.decode(points, 5)`). Like Dart's `codeUnitAt` past the end, a string
/// that ends inside a value throws.
enum SDKPolylineDecoder {
    struct Truncated: Error, CustomStringConvertible {
        let offset: Int
        var description: String { "the string ends inside a value at character \(offset)" }
    }

    /// `(latitude, longitude)` pairs.
    static func decode(_ text: String, precision: Int) throws -> [(Double, Double)] {
        let units = Array(text.utf16)
        var index = 0, lat = 0, lng = 0
        var points: [(Double, Double)] = []
        var factor = 1.0
        for _ in 0..<precision { factor *= 10 }
        func next() throws -> Int {
            var result = 0, shift = 0, byte = 0
            repeat {
                guard index < units.count else { throw Truncated(offset: index) }
                byte = Int(units[index]) - 63
                index += 1
                result |= (byte & 0x1f) << shift
                shift += 5
            } while byte >= 0x20
            return (result & 1) != 0 ? ~(result >> 1) : result >> 1
        }
        while index < units.count {
            lat += try next()
            lng += try next()
            points.append((Double(lat) / factor, Double(lng) / factor))
        }
        return points
    }
}
