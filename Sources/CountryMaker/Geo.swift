import Foundation

/// Equirectangular distances, good enough at country scale.
enum Geo {
    static let kmPerDegree = 111.32

    static func km(_ lat1: Double, _ lng1: Double, _ lat2: Double, _ lng2: Double) -> Double {
        let x = (lng2 - lng1) * cos((lat1 + lat2) / 2 * .pi / 180)
        let y = lat2 - lat1
        return (x * x + y * y).squareRoot() * kmPerDegree
    }
}
