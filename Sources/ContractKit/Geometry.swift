import Foundation
import Geodesy
import JSON
import Polyline
import VietMapClient

/// The reference client's `decodePolyline` (seed §6), replayed step by step so that where the
/// original would trap (`asciiValue!` on a non-ASCII character, `asciiValue - 63` below `?`,
/// reading past the end) it reports where and why instead.
package enum ReferencePolyline {
    /// Where the reference client's decoder would trap on a polyline.
    package struct Crash: Error, Sendable, Equatable, CustomStringConvertible {
        /// Character index into the string.
        package let offset: Int
        package let reason: String
        package var description: String { "at character \(offset): \(reason)" }
    }

    package static func decode(_ encoded: String) -> Result<[VMCoordinate], Crash> {
        let characters = Array(encoded)
        var index = 0
        var lat = 0
        var lng = 0
        var coordinates: [VMCoordinate] = []

        func value() -> Result<Int, Crash> {
            var result = 0
            var shift = 0
            var byte = 0
            repeat {
                guard index < characters.count else {
                    return .failure(Crash(offset: index, reason: "encoded[index] with index == endIndex (string ends inside a point): out-of-range trap"))
                }
                guard let ascii = characters[index].asciiValue else {
                    return .failure(Crash(offset: index, reason: "\"\(characters[index])\" is not ASCII: asciiValue! unwraps nil"))
                }
                guard ascii >= 63 else {
                    return .failure(Crash(offset: index, reason: "\"\(characters[index].unicodeScalars.map { $0.escaped(asASCII: true) }.joined())\" (\(ascii)) is below '?': asciiValue - 63 overflows UInt8"))
                }
                byte = Int(ascii - 63)
                index += 1
                result |= (byte & 0x1F) << shift
                shift += 5
            } while byte >= 0x20 && index < characters.count
            return .success((result & 1) != 0 ? ~(result >> 1) : (result >> 1))
        }

        while index < characters.count {
            let dLat: Int, dLng: Int
            switch value() {
            case .success(let v): dLat = v
            case .failure(let crash): return .failure(crash)
            }
            switch value() {
            case .success(let v): dLng = v
            case .failure(let crash): return .failure(crash)
            }
            let (newLat, o1) = lat.addingReportingOverflow(dLat)
            let (newLng, o2) = lng.addingReportingOverflow(dLng)
            guard !o1, !o2 else { return .failure(Crash(offset: index, reason: "coordinate sum overflows Int: arithmetic trap")) }
            lat = newLat
            lng = newLng
            coordinates.append(VMCoordinate(latitude: Double(lat) / 1e5, longitude: Double(lng) / 1e5))
        }
        return .success(coordinates)
    }
}

/// A point of a route geometry.
package struct LatLng: Sendable, Equatable {
    package var lat: Double
    package var lng: Double
    package init(lat: Double, lng: Double) {
        self.lat = lat
        self.lng = lng
    }

    /// Great-circle distance in metres.
    package func distance(to other: LatLng) -> Double {
        Geo.distance(lat, lng, other.lat, other.lng)
    }

    /// `"lat,lng"` → point.
    init?(latLng text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
              let lng = Double(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
        self.init(lat: lat, lng: lng)
    }
}

/// Why a geometry cannot be read.
struct GeometryProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Reads a route geometry (`points`, `snapped_waypoints`) in either encoding.
enum RouteGeometry {
    /// The points, or why they cannot be read. Encoded polylines are decoded strictly and with
    /// the reference client's decoder; both must succeed and agree.
    static func points(_ value: JSONValue?, name: String) -> Result<[LatLng], GeometryProblem> {
        guard let value else { return .failure(GeometryProblem("\(name) is missing")) }
        switch value {
        case .string(let encoded):
            let strict: [Coordinate2D]
            do {
                strict = try Polyline.decode(encoded, precision: 5)
            } catch {
                switch ReferencePolyline.decode(encoded) {
                case .failure(let crash):
                    return .failure(GeometryProblem("\(name) is not a valid polyline (\(error)); the reference decodePolyline would crash \(crash)"))
                case .success(let points):
                    return .failure(GeometryProblem("\(name) is not a valid polyline (\(error)); the reference decodePolyline silently returns \(points.count) wrong points"))
                }
            }
            switch ReferencePolyline.decode(encoded) {
            case .failure(let crash):
                return .failure(GeometryProblem("\(name): the reference decodePolyline would crash \(crash)"))
            case .success(let reference):
                guard reference.count == strict.count,
                      zip(reference, strict).allSatisfy({ abs($0.latitude - $1.lat) < 1e-9 && abs($0.longitude - $1.lng) < 1e-9 }) else {
                    return .failure(GeometryProblem("\(name): the reference decodePolyline gives \(reference.count) points, the strict decoder \(strict.count) (or other values)"))
                }
            }
            for (i, p) in strict.enumerated() where abs(p.lat) > 90 || abs(p.lng) > 180 {
                return .failure(GeometryProblem("\(name): point \(i) decodes to \(p.lat),\(p.lng), outside latitude ±90 / longitude ±180 (longitude first?)"))
            }
            return .success(strict.map { LatLng(lat: $0.lat, lng: $0.lng) })
        case .object(let object):
            guard object["type"] == "LineString", let coordinates = object["coordinates"]?.arrayValue else {
                return .failure(GeometryProblem("\(name) is an object but not a GeoJSON LineString"))
            }
            var points: [LatLng] = []
            for (i, position) in coordinates.enumerated() {
                guard let pair = position.arrayValue, pair.count >= 2, let lng = pair[0].doubleValue, let lat = pair[1].doubleValue else {
                    return .failure(GeometryProblem("\(name)/coordinates/\(i) is not a [lon, lat] position"))
                }
                guard abs(lat) <= 90, abs(lng) <= 180 else {
                    return .failure(GeometryProblem("\(name)/coordinates/\(i) = [\(lng), \(lat)] is outside longitude ±180 / latitude ±90"))
                }
                points.append(LatLng(lat: lat, lng: lng))
            }
            return .success(points)
        case .array:
            return .failure(GeometryProblem("\(name) is a bare array, not an encoded polyline or a GeoJSON LineString"))
        default:
            return .failure(GeometryProblem("\(name) is \(value.typeName), not an encoded polyline or a GeoJSON LineString"))
        }
    }
}
