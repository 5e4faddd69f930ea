/// Incremental polyline encoder: append points one at a time (in degrees or integer units),
/// read `string` / `bytes` at any time.
///
/// ```swift
/// var e = try PolylineEncoder(precision: 6)
/// try e.append(latUnits: 21_028_511, lngUnits: 105_804_817)   // units at 1e6
/// try e.append(lat: 21.0300, lng: 105.8500)                   // degrees, rounded like Polyline.encode
/// let s = e.string
/// ```
/// Degree appends are range-checked (|lat| ≤ 90, |lng| ≤ 180, finite) and rounded with `rounding`;
/// unit appends are taken as-is (only a delta overflowing Int64 is rejected). A failed append
/// leaves the encoder unchanged.
public struct PolylineEncoder: Sendable {
    public let precision: Int
    public let rounding: Polyline.Rounding
    private let factor: Double
    /// The encoded ASCII bytes so far.
    public private(set) var bytes: [UInt8] = []
    /// Number of points appended so far.
    public private(set) var count: Int = 0
    private var lastLat: Int64 = 0
    private var lastLng: Int64 = 0

    /// - Parameter points: expected number of points (reserves ~8 bytes per point).
    public init(
        precision: Int = 5, rounding: Polyline.Rounding = .halfAwayFromZero, reservingCapacity points: Int = 0
    ) throws(PolylineError) {
        self.factor = try Polyline.factor(precision)
        self.precision = precision
        self.rounding = rounding
        if points > 0 { bytes.reserveCapacity(points &* 8) }
    }

    /// Units-only encoder (for `Polyline.encode(units:)`; precision is nominal).
    init(unitsReservingCapacity points: Int) {
        self.factor = 1e5
        self.precision = 5
        self.rounding = .halfAwayFromZero
        if points > 0 { bytes.reserveCapacity(points &* 8) }
    }

    /// The encoded polyline so far.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func append(_ point: Coordinate2D) throws(PolylineError) {
        try append(lat: point.lat, lng: point.lng)
    }

    /// Appends a point in degrees; `index` in errors is the point's position (`count`).
    public mutating func append(lat: Double, lng: Double) throws(PolylineError) {
        guard lat.isFinite, lng.isFinite else { throw PolylineError(.nonFiniteCoordinate, index: count) }
        guard lat.magnitude <= 90 else { throw PolylineError(.latitudeOutOfRange(lat), index: count) }
        guard lng.magnitude <= 180 else { throw PolylineError(.longitudeOutOfRange(lng), index: count) }
        // |value| ≤ 180 × 1e10 = 1.8e12, so the conversions below cannot trap.
        let latUnits: Int64, lngUnits: Int64
        switch rounding {
        case .halfAwayFromZero:
            latUnits = Int64((lat * factor).rounded(.toNearestOrAwayFromZero))
            lngUnits = Int64((lng * factor).rounded(.toNearestOrAwayFromZero))
        case .floor:
            latUnits = Int64((lat * factor).rounded(.down))
            lngUnits = Int64((lng * factor).rounded(.down))
        }
        appendUnchecked(latUnits, lngUnits)
    }

    /// Appends a point already in integer units (caller's scale; no range check).
    public mutating func append(latUnits: Int, lngUnits: Int) throws(PolylineError) {
        let lat = Int64(latUnits), lng = Int64(lngUnits)
        guard !lat.subtractingReportingOverflow(lastLat).overflow,
              !lng.subtractingReportingOverflow(lastLng).overflow
        else { throw PolylineError(.deltaOverflow, index: count) }
        appendUnchecked(lat, lng)
    }

    /// Clears the output and the delta state, keeping capacity.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        count = 0
        lastLat = 0
        lastLng = 0
    }

    @inline(__always)
    private mutating func appendUnchecked(_ lat: Int64, _ lng: Int64) {
        Polyline.appendValue(Polyline.zigZag(lat &- lastLat), to: &bytes)
        Polyline.appendValue(Polyline.zigZag(lng &- lastLng), to: &bytes)
        lastLat = lat
        lastLng = lng
        count += 1
    }
}
