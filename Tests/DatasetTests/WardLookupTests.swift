@testable import Dataset
import DefaultData
import Foundation
import TestExpectations
import Testing

/// The 2025 ward of a point is found through a grid of ward bboxes: the same ward as testing every
/// ward of Vietnam, for points over the whole country, on bbox edges and outside every ward.
@Suite final class WardLookupTests {
    @Test func testTheGridFindsTheWardEveryWardWouldGive() throws {
        let admin = AdminRegistry()
        for url in DefaultData.adminFiles where url.lastPathComponent.contains("centroid") { try admin.loadCentroids(url) }
        for url in DefaultData.adminFiles where url.lastPathComponent == "units_2025.json" { try admin.loadUnits2025(url) }
        expectGreaterThan(admin.wardCentroids.count, 3_000)

        func everyWard(_ lat: Double, _ lng: Double) -> Int? {
            var best: (Int, Double)?
            let scale = cos(lat * .pi / 180)
            for (code, c) in admin.wardCentroids where c.contains(lat: lat, lng: lng) {
                let dx = (c.lng - lng) * scale, dy = c.lat - lat
                let d = dx * dx + dy * dy
                if best == nil || d < best!.1 || (d == best!.1 && code < best!.0) { best = (code, d) }
            }
            return best?.0
        }
        var points: [(Double, Double)] = []
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<4_000 { points.append((Double.random(in: 8.0...23.5, using: &rng), Double.random(in: 102.0...110.0, using: &rng))) }
        for c in admin.wardCentroids.values.prefix(500) {
            points += [(c.lat, c.lng), (c.minLat, c.minLng), (c.maxLat, c.maxLng), (c.minLat, c.maxLng), (c.maxLat, c.minLng)]
        }
        points += [(0, 0), (-33.9, 151.2), (.nan, 106.7), (10.77, .infinity)]
        var found = 0
        for (lat, lng) in points {
            let ward = admin.newWard(containing: lat, lng)?.ward
            expectEqual(ward, everyWard(lat, lng), "\(lat), \(lng)")
            if ward != nil { found += 1 }
        }
        expectGreaterThan(found, 2_500, "most points lie in a ward")
    }
}
