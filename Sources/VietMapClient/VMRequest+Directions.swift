import Foundation

extension VMRequest {
    /// `GET /api/navigations/route/directions/v5/{profile}/{lng,lat;…}.json` with `options`' query:
    /// coordinates longitude first, 6 decimals, `;`-separated, in `pathSuffix`.
    public static func directions(profile: VMDirectionsProfile = .drivingTraffic, coordinates: [VMCoordinate],
                                  options: VMDirectionsOptions = VMDirectionsOptions()) throws(VMClientError) -> VMRequest {
        guard coordinates.count >= 2 else { throw .invalidArgument("directions need at least 2 coordinates, got \(coordinates.count)") }
        if let bad = coordinates.firstIndex(where: { !$0.isValid }) {
            throw .invalidArgument("coordinate \(bad) (\(coordinates[bad])) is not a valid coordinate")
        }
        let segments = profile.rawValue.split(separator: "/", omittingEmptySubsequences: false)
        guard !profile.rawValue.isEmpty, !segments.contains(where: \.isEmpty) else {
            throw .invalidArgument("profile \"\(profile)\" is not of the form mapbox/driving")
        }
        for (name, count) in [("bearings", options.bearings.count), ("radiuses", options.radiuses.count)] where count != 0 && count != coordinates.count {
            throw .invalidArgument("\(count) \(name) for \(coordinates.count) coordinates")
        }
        if let bad = options.bearings.compactMap({ $0 }).first(where: { !(0...360).contains($0.degrees) || !(0...180).contains($0.range) }) {
            throw .invalidArgument("bearing \(bad.degrees),\(bad.range) is not degrees 0…360 with a range 0…180")
        }
        if let bad = options.radiuses.compactMap({ $0 }).first(where: { !$0.isFinite || $0 < 0 }) {
            throw .invalidArgument("radius \(bad) is not a non-negative number of metres")
        }
        let profilePath = segments.map { VMQueryEncoding.encode(String($0)) }.joined(separator: "/")
        // `;` is a path sub-delimiter (RFC 3986): sent as is, as the SDKs send it.
        let list = coordinates.map { VMCoordinate.format($0.longitude) + "," + VMCoordinate.format($0.latitude) }.joined(separator: ";")
        return VMRequest(.directionsV5, options.parameters, pathSuffix: "/" + profilePath + "/" + list + ".json")
    }
}
