import Foundation

/// A WGS84 coordinate in degrees.
public struct GeoPoint: Sendable, Hashable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
    public init(_ latitude: Double, _ longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
    public var description: String { "(\(latitude), \(longitude))" }
}

/// Spherical geometry on one earth radius (GraphHopper's `DistanceCalcEarth` / `AngleCalc` conventions): the
/// one geodesy of routing, search, the country maker and the contract checks.
public enum Geo {
    /// The earth radius every distance uses: GraphHopper's mean radius (metres).
    public static let earthRadius = 6_371_000.0
    /// Metres in one degree of latitude (and of longitude on the equator).
    public static let metresPerDegree = earthRadius * Double.pi / 180
    static let degToRad = Double.pi / 180

    /// Great-circle (haversine) distance in metres.
    @inline(__always)
    public static func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let sinDLat = sin((lat2 - lat1) * degToRad / 2)
        let sinDLon = sin((lon2 - lon1) * degToRad / 2)
        let a = sinDLat * sinDLat + cos(lat1 * degToRad) * cos(lat2 * degToRad) * sinDLon * sinDLon
        return 2 * earthRadius * asin(Swift.min(1, a.squareRoot()))
    }

    /// Equirectangular distance in metres: cheaper than `distance`, good enough over a few hundred kilometres.
    public static func planarDistance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let x = (lon2 - lon1) * cos((lat1 + lat2) / 2 * degToRad)
        let y = lat2 - lat1
        return (x * x + y * y).squareRoot() * metresPerDegree
    }

    public static func distance(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        distance(a.latitude, a.longitude, b.latitude, b.longitude)
    }

    /// GraphHopper `AngleCalc.calcOrientation`: mathematical angle (radians, counter-clockwise from east),
    /// in (-π, π].
    @inline(__always)
    public static func orientation(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let shrink = cos((lat1 + lat2) / 2 * degToRad)
        return atan2(lat2 - lat1, shrink * (lon2 - lon1))
    }

    /// GraphHopper `AngleCalc.alignOrientation`: shifts `orientation` by ±2π so that it is within π of `base`.
    @inline(__always)
    public static func alignOrientation(_ base: Double, _ orientation: Double) -> Double {
        if base >= 0 {
            return orientation < -Double.pi + base ? orientation + 2 * Double.pi : orientation
        } else {
            return orientation > Double.pi + base ? orientation - 2 * Double.pi : orientation
        }
    }

    /// Azimuth (bearing) in degrees, 0 = north, clockwise, in [0, 360).
    public static func azimuth(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        var o = Double.pi / 2 - orientation(lat1, lon1, lat2, lon2)
        if o < 0 { o += 2 * Double.pi }
        var deg = (o / degToRad).truncatingRemainder(dividingBy: 360)
        if deg < 0 { deg += 360 }
        return deg
    }
}
