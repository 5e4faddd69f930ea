import Foundation
import Geodesy

/// A WGS84 point.
public struct Coordinate: Sendable, Equatable, CustomStringConvertible {
    public var lat: Double
    public var lng: Double

    public init(lat: Double, lng: Double) {
        self.lat = lat
        self.lng = lng
    }

    /// Parses `"lat,lng"`; `nil` unless both are finite numbers inside [-90,90] × [-180,180].
    public init?(parsing text: String) {
        let utf8 = text.utf8
        guard let comma = utf8.firstIndex(of: UInt8(ascii: ",")) else { return nil }
        let latText = text[..<comma]
        let lngText = text[utf8.index(after: comma)...]
        guard !lngText.utf8.contains(UInt8(ascii: ",")),
              let lat = Self.number(latText), let lng = Self.number(lngText),
              lat.isFinite, lng.isFinite, abs(lat) <= 90, abs(lng) <= 180 else { return nil }
        self.init(lat: lat, lng: lng)
    }

    /// `text` as a number, ignoring surrounding whitespace (`CharacterSet.whitespaces`).
    private static func number(_ text: Substring) -> Double? {
        // Fast path: ASCII ends that are no space or tab have nothing to trim.
        if let first = text.utf8.first, let last = text.utf8.last, first < 0x80, last < 0x80,
           first != 0x20, first != 0x09, last != 0x20, last != 0x09 {
            return Double(text)
        }
        return Double(text.trimmingCharacters(in: .whitespaces))
    }

    public var description: String { "\(lat),\(lng)" }

    /// Great-circle distance in metres (`Geo.distance`).
    public func distance(to other: Coordinate) -> Double {
        Geo.distance(lat, lng, other.lat, other.lng)
    }
}
