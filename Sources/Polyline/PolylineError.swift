/// Why a polyline could not be encoded or decoded.
///
/// Decoding errors carry `offset`, the byte offset into the input (UTF-8 bytes for `String` input);
/// encoding errors carry `index`, the index of the offending point (or of the `encode(units:)` pair).
/// Parameter errors (bad precision) carry neither.
public struct PolylineError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        // MARK: decoding (`offset` is set)
        /// A byte outside `?`…`~` (63…126): control characters, space…`>`, DEL, any non-ASCII byte.
        case invalidByte(UInt8)
        /// The input ends inside a value: its last chunk still has the continuation bit (0x20) set.
        /// `offset` is where that value starts.
        case unterminatedValue
        /// A single value does not fit in 64 bits (more than 13 chunks, or a 13th chunk > 15).
        /// `offset` is the offending chunk.
        case valueOverflow
        /// The running sum of deltas leaves the Int64 range. `offset` is where the delta starts.
        case coordinateOverflow
        /// An odd number of values: a latitude without its longitude. `offset` is where that
        /// latitude starts.
        case missingLongitude
        /// Single-value decoding only: bytes remain after the value. `offset` is the first of them.
        case trailingBytes
        /// Single-value decoding only: the input is empty (a whole polyline `""` is `[]`, not an error).
        case emptyInput

        // MARK: encoding (`index` is set)
        /// NaN or ±infinity in a point.
        case nonFiniteCoordinate
        /// |latitude| > 90.
        case latitudeOutOfRange(Double)
        /// |longitude| > 180.
        case longitudeOutOfRange(Double)
        /// The difference between two consecutive unit values does not fit in Int64
        /// (only reachable through `encode(units:)` / `PolylineEncoder.append(latUnits:lngUnits:)`).
        case deltaOverflow

        // MARK: parameters
        /// Precision outside `Polyline.precisionRange` (0…10).
        case invalidPrecision(Int)
    }

    public var reason: Reason
    /// Byte offset into the decoded input (decoding errors only).
    public var offset: Int?
    /// Index of the offending point (encoding errors only).
    public var index: Int?

    public init(_ reason: Reason, offset: Int? = nil, index: Int? = nil) {
        self.reason = reason
        self.offset = offset
        self.index = index
    }

    public var description: String {
        let what: String
        switch reason {
        case .invalidByte(let b):
            what = "invalid byte 0x\(String(b, radix: 16, uppercase: true)) (polyline characters are '?'...'~')"
        case .unterminatedValue: what = "input ends inside a value (continuation bit set on the last chunk)"
        case .valueOverflow: what = "value does not fit in 64 bits"
        case .coordinateOverflow: what = "accumulated coordinate overflows Int64"
        case .missingLongitude: what = "latitude without longitude (odd number of values)"
        case .trailingBytes: what = "unexpected bytes after the value"
        case .emptyInput: what = "empty input"
        case .nonFiniteCoordinate: what = "non-finite coordinate"
        case .latitudeOutOfRange(let v): what = "latitude \(v) outside [-90, 90]"
        case .longitudeOutOfRange(let v): what = "longitude \(v) outside [-180, 180]"
        case .deltaOverflow: what = "difference between consecutive values overflows Int64"
        case .invalidPrecision(let p):
            what = "invalid precision \(p) (allowed \(Polyline.precisionRange.lowerBound)...\(Polyline.precisionRange.upperBound))"
        }
        var s = "polyline error: \(what)"
        if let offset { s += " at byte \(offset)" }
        if let index { s += " at point \(index)" }
        return s
    }
}
