/// A latitude/longitude pair: the Foundation-only stand-in for `CLLocationCoordinate2D`.
public struct VMCoordinate: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The reference client's `decodePolyline` (precision 1e5, latitude first), made total: where the
/// original force-unwraps (`asciiValue!`) and reads past the end on malformed input, this one
/// stops at the first bad character or truncated value and returns the points decoded so far.
/// Use `decodePolylineStrict` to learn *that* the input was malformed.
public func decodePolyline(_ encoded: String) -> [VMCoordinate] {
    decodePolyline(encoded, precision: 1e5)
}

/// `decodePolyline` at another precision: `1e6` for Directions v5's `polyline6` (the navigation
/// SDKs' default `geometries`), `1e5` for `polyline` and route v4. A precision that is not a
/// positive finite number decodes nothing.
public func decodePolyline(_ encoded: String, precision: Double) -> [VMCoordinate] {
    decodePolylineCore(encoded, precision: precision).0
}

/// Why a polyline string could not be decoded (or the precision was unusable).
public struct VMPolylineError: Error, Equatable, Sendable {
    public let offset: Int
    public let reason: String
}

/// Decodes a whole polyline (1e5 unless told, `1e6` for `polyline6`) or throws at the first malformed byte.
public func decodePolylineStrict(_ encoded: String, precision: Double = 1e5) throws(VMPolylineError) -> [VMCoordinate] {
    let (points, error) = decodePolylineCore(encoded, precision: precision)
    if let error { throw error }
    return points
}

private func decodePolylineCore(_ encoded: String, precision: Double) -> ([VMCoordinate], VMPolylineError?) {
    guard precision.isFinite, precision > 0 else { return ([], VMPolylineError(offset: 0, reason: "precision \(precision) is not a positive number")) }
    let bytes = Array(encoded.utf8)
    var coords: [VMCoordinate] = []
    var index = 0
    var lat = 0
    var lng = 0
    func next() -> Result<Int, VMPolylineError> {
        var result = 0
        var shift = 0
        while true {
            guard index < bytes.count else { return .failure(VMPolylineError(offset: index, reason: "truncated value")) }
            let raw = Int(bytes[index])
            guard raw >= 63, raw <= 126 else {
                return .failure(VMPolylineError(offset: index, reason: "byte \(raw) outside '?'…'~'"))
            }
            guard shift <= 30 else { return .failure(VMPolylineError(offset: index, reason: "value overflows 32 bits")) }
            let chunk = raw - 63
            index += 1
            result |= (chunk & 0x1F) << shift
            shift += 5
            if chunk < 0x20 { break }
        }
        return .success((result & 1) != 0 ? ~(result >> 1) : (result >> 1))
    }
    while index < bytes.count {
        switch (next(), next()) {
        case (.success(let dLat), .success(let dLng)):
            lat += dLat
            lng += dLng
            coords.append(VMCoordinate(latitude: Double(lat) / precision, longitude: Double(lng) / precision))
        case (.failure(let e), _), (_, .failure(let e)):
            return (coords, e)
        }
    }
    return (coords, nil)
}
