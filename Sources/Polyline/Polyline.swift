/// A latitude/longitude pair in degrees (latitude first, as in the polyline format).
public struct Coordinate2D: Sendable, Hashable {
    public var lat: Double
    public var lng: Double
    public init(lat: Double, lng: Double) {
        self.lat = lat
        self.lng = lng
    }
}

/// Google Encoded Polyline Algorithm Format codec.
///
/// - Values are `[lat, lng]` pairs, scaled by `10^precision` to integer *units*, delta-encoded
///   against the previous point, zig-zag encoded (`(v << 1) ^ (v >> 63)`) and written as 5-bit
///   chunks, least significant first, each `+ 63`, with `0x20` as continuation bit.
/// - Precision `p` means factor `10^p`: 5 (Google, default) → 1e5, 6 (OSRM/Valhalla) → 1e6,
///   0 → 1. Allowed: `precisionRange` (0…10); anything else throws `.invalidPrecision`.
/// - Rounding of degrees to units: `.halfAwayFromZero` (default) = Google's reference /
///   Python-2 `round` (−112.083965 × 1e5 = −11208396.5 → −11208397; 0.000015 → "CC").
///   `.floor` reproduces GraphHopper's `Math.floor` encoder bit for bit.
/// - Width: values are 64-bit. A single value may take up to 13 chunks, the 13th ≤ 15
///   (`~~~~~~~~~~~~N` = UInt64.max); decoded coordinates accumulate in Int64 with overflow checks.
///   Google only specifies 32-bit values; every 32-bit encoding decodes identically here.
/// - Decoding never traps and always terminates (each step consumes a byte). Non-canonical
///   zero-padded chunks (`a?` = 2) are accepted, as in go-polyline. Decoded coordinates are not
///   range-checked (a precision-0 or foreign-precision string can legitimately exceed ±90/±180
///   in units); encoding does check |lat| ≤ 90, |lng| ≤ 180 and finiteness.
/// - Decoded degrees are `Double(units) / 10^p` (a correctly rounded division), so a point on the
///   precision grid decodes to exactly the `Double` its decimal literal denotes
///   (48.8507 stays 48.8507, not 48.850699999).
public enum Polyline {
    /// How degrees are turned into integer units when encoding.
    public enum Rounding: Sendable, Hashable {
        /// Round half away from zero (Google's reference behaviour, the conformance vectors). Default.
        case halfAwayFromZero
        /// Round toward −∞, like GraphHopper's `PolylineEncoder` (`Math.floor(lat * 1e5)`).
        case floor
    }

    /// Supported precisions (decimal digits).
    public static let precisionRange: ClosedRange<Int> = 0...10

    // MARK: - Coordinates

    /// Encodes `[lat, lng]` points. Throws on a bad precision, a non-finite value,
    /// |lat| > 90 or |lng| > 180 (`index` = the point).
    public static func encode(
        _ points: [Coordinate2D], precision: Int = 5, rounding: Rounding = .halfAwayFromZero
    ) throws(PolylineError) -> String {
        var encoder = try PolylineEncoder(precision: precision, rounding: rounding,
                                          reservingCapacity: points.count)
        for p in points { try encoder.append(p) }
        return encoder.string
    }

    /// Decodes a polyline string. `""` → `[]`.
    public static func decode(_ encoded: String, precision: Int = 5) throws(PolylineError) -> [Coordinate2D] {
        let divisor = try factor(precision)
        return try withUTF8(encoded) { (bytes) throws(PolylineError) in
            try decodeCoordinates(bytes, divisor: divisor)
        }
    }

    /// Decodes polyline bytes (for input that may not be valid UTF-8). `[]` → `[]`.
    public static func decode(
        bytes: some Collection<UInt8>, precision: Int = 5
    ) throws(PolylineError) -> [Coordinate2D] {
        let divisor = try factor(precision)
        return try withBuffer(bytes) { (buffer) throws(PolylineError) in
            try decodeCoordinates(buffer, divisor: divisor)
        }
    }

    // MARK: - Integer units

    /// Encodes `(lat, lng)` pairs already scaled to integer units (precision-agnostic: the caller
    /// chose the factor). No range check; throws `.deltaOverflow` only if consecutive values are
    /// more than Int64.max apart.
    public static func encode(units: [(Int, Int)]) throws(PolylineError) -> String {
        var encoder = PolylineEncoder(unitsReservingCapacity: units.count)
        for (lat, lng) in units { try encoder.append(latUnits: lat, lngUnits: lng) }
        return encoder.string
    }

    /// Decodes a polyline to `(lat, lng)` integer units (no scaling).
    public static func decodeUnits(_ encoded: String) throws(PolylineError) -> [(Int, Int)] {
        try withUTF8(encoded) { (bytes) throws(PolylineError) in try decodeUnitPairs(bytes) }
    }

    /// Decodes polyline bytes to `(lat, lng)` integer units (no scaling).
    public static func decodeUnits(bytes: some Collection<UInt8>) throws(PolylineError) -> [(Int, Int)] {
        try withBuffer(bytes) { (buffer) throws(PolylineError) in try decodeUnitPairs(buffer) }
    }

    // MARK: - Single values (go-polyline's EncodeInt/DecodeInt/EncodeUint/DecodeUint)

    /// Zig-zag encodes one signed value (no delta), e.g. 3850000 → `_p~iF`.
    public static func encodeInteger(_ value: Int64) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(13)
        appendValue(zigZag(value), to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Encodes one unsigned value (no zig-zag), e.g. 32 → `_@`.
    public static func encodeUnsigned(_ value: UInt64) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(13)
        appendValue(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes exactly one signed value; the whole input must be that value.
    public static func decodeInteger(_ encoded: String) throws(PolylineError) -> Int64 {
        unZigZag(try decodeUnsigned(encoded))
    }

    /// Decodes exactly one signed value from bytes.
    public static func decodeInteger(bytes: some Collection<UInt8>) throws(PolylineError) -> Int64 {
        unZigZag(try decodeUnsigned(bytes: bytes))
    }

    /// Decodes exactly one unsigned value; the whole input must be that value.
    public static func decodeUnsigned(_ encoded: String) throws(PolylineError) -> UInt64 {
        try withUTF8(encoded) { (bytes) throws(PolylineError) in try decodeSingle(bytes) }
    }

    /// Decodes exactly one unsigned value from bytes.
    public static func decodeUnsigned(bytes: some Collection<UInt8>) throws(PolylineError) -> UInt64 {
        try withBuffer(bytes) { (buffer) throws(PolylineError) in try decodeSingle(buffer) }
    }

    // MARK: - Internals

    static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10]

    @inline(__always)
    static func factor(_ precision: Int) throws(PolylineError) -> Double {
        guard precisionRange.contains(precision) else {
            throw PolylineError(.invalidPrecision(precision))
        }
        return powersOfTen[precision]
    }

    @inline(__always)
    static func zigZag(_ v: Int64) -> UInt64 {
        UInt64(bitPattern: (v << 1) ^ (v >> 63))
    }

    @inline(__always)
    static func unZigZag(_ u: UInt64) -> Int64 {
        Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    /// Appends one (already zig-zagged) value as 5-bit chunks + 63.
    @inline(__always)
    static func appendValue(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x20 {
            out.append(UInt8(truncatingIfNeeded: (v & 0x1F) | 0x20) &+ 63)
            v >>= 5
        }
        out.append(UInt8(truncatingIfNeeded: v) &+ 63)
    }

    /// Reads one unsigned value starting at `i`, advancing `i` past it.
    /// Precondition: `i < bytes.count` (callers check for end of input first).
    @inline(__always)
    static func readValue(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) throws(PolylineError) -> UInt64 {
        let start = i
        let end = bytes.count
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard i < end else { throw PolylineError(.unterminatedValue, offset: start) }
            let byte = bytes[i]
            guard byte >= 63, byte <= 126 else { throw PolylineError(.invalidByte(byte), offset: i) }
            let chunk = UInt64(byte &- 63)
            // 12 chunks carry 60 bits; the 13th may only add 4 more and must be the last.
            if shift == 60, chunk > 0x0F { throw PolylineError(.valueOverflow, offset: i) }
            result |= (chunk & 0x1F) << shift
            i += 1
            if chunk < 0x20 { return result }
            shift += 5
        }
    }

    static func decodeSingle(_ bytes: UnsafeBufferPointer<UInt8>) throws(PolylineError) -> UInt64 {
        guard !bytes.isEmpty else { throw PolylineError(.emptyInput, offset: 0) }
        var i = 0
        let value = try readValue(bytes, &i)
        guard i == bytes.count else { throw PolylineError(.trailingBytes, offset: i) }
        return value
    }

    /// The decoding loop shared by all polyline decoders: calls `body` with each (lat, lng) in units.
    @inline(__always)
    static func forEachUnitPair(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (Int64, Int64) -> Void
    ) throws(PolylineError) {
        let end = bytes.count
        var i = 0
        var lat: Int64 = 0
        var lng: Int64 = 0
        while i < end {
            let latStart = i
            let dLat = unZigZag(try readValue(bytes, &i))
            guard i < end else { throw PolylineError(.missingLongitude, offset: latStart) }
            let lngStart = i
            let dLng = unZigZag(try readValue(bytes, &i))
            let (newLat, o1) = lat.addingReportingOverflow(dLat)
            if o1 { throw PolylineError(.coordinateOverflow, offset: latStart) }
            let (newLng, o2) = lng.addingReportingOverflow(dLng)
            if o2 { throw PolylineError(.coordinateOverflow, offset: lngStart) }
            lat = newLat
            lng = newLng
            body(lat, lng)
        }
    }

    static func decodeCoordinates(
        _ bytes: UnsafeBufferPointer<UInt8>, divisor: Double
    ) throws(PolylineError) -> [Coordinate2D] {
        var points: [Coordinate2D] = []
        points.reserveCapacity(bytes.count / 4)  // a point takes ≥ 2 bytes; typical routes ~4–8
        try forEachUnitPair(bytes) { lat, lng in
            points.append(Coordinate2D(lat: Double(lat) / divisor, lng: Double(lng) / divisor))
        }
        return points
    }

    static func decodeUnitPairs(_ bytes: UnsafeBufferPointer<UInt8>) throws(PolylineError) -> [(Int, Int)] {
        var pairs: [(Int, Int)] = []
        pairs.reserveCapacity(bytes.count / 4)
        var overflowAt: Int? = nil
        try forEachUnitPair(bytes) { lat, lng in
            // Int is 64-bit on every platform this package targets; stay total elsewhere.
            if let a = Int(exactly: lat), let b = Int(exactly: lng) {
                pairs.append((a, b))
            } else if overflowAt == nil {
                overflowAt = pairs.count
            }
        }
        if let overflowAt { throw PolylineError(.coordinateOverflow, index: overflowAt) }
        return pairs
    }

    /// Runs `body` over the string's UTF-8 bytes without copying when the string is native.
    @inline(__always)
    static func withUTF8<R>(
        _ string: String, _ body: (UnsafeBufferPointer<UInt8>) throws(PolylineError) -> R
    ) throws(PolylineError) -> R {
        var s = string  // withUTF8 makes a (rare) bridged/non-contiguous string native first
        let result: Result<R, PolylineError> = s.withUTF8 { buffer in
            do throws(PolylineError) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    @inline(__always)
    static func withBuffer<R>(
        _ bytes: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws(PolylineError) -> R
    ) throws(PolylineError) -> R {
        let fast: Result<R, PolylineError>? = bytes.withContiguousStorageIfAvailable { buffer in
            do throws(PolylineError) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        if let fast { return try fast.get() }
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { (buffer) throws(PolylineError) -> R in try body(buffer) }
    }
}
