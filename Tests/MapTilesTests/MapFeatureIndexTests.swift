import Foundation
import SeededRandom
import TestExpectations
import Testing
@testable import MapTiles

/// The grid index answers exactly what a scan of every feature would.
@Suite final class MapFeatureIndexTests {
    /// Features around Ho Chi Minh City: short roads, points, long lines, some polygons, random minZooms.
    private func generated(_ count: Int, seed: UInt64) -> [MapFeature] {
        var rng = SplitMix64(seed: seed)
        let west = WorldPoint(latitude: 11.17, longitude: 106.35), east = WorldPoint(latitude: 10.35, longitude: 107.05)
        func point() -> WorldPoint {
            WorldPoint(x: Double.random(in: west.x...east.x, using: &rng), y: Double.random(in: west.y...east.y, using: &rng))
        }
        var features: [MapFeature] = []
        for i in 0..<count {
            let start = point()
            let kind = Int.random(in: 0..<10, using: &rng)
            let reach = kind == 9 ? 1e-2 : 2e-5   // one in ten spans many z14 tiles
            var line = [start]
            for _ in 0..<Int.random(in: 1...5, using: &rng) {
                let last = line[line.count - 1]
                line.append(WorldPoint(x: last.x + Double.random(in: -reach...reach, using: &rng),
                                       y: last.y + Double.random(in: -reach...reach, using: &rng)))
            }
            let geometry: MapGeometry = switch kind {
            case 0, 1: .points([start])
            case 2: .polygons([[line + [start, WorldPoint(x: start.x + reach, y: start.y)]]])
            default: .lines([line])
            }
            features.append(MapFeature(id: UInt64(i), layer: "l\(kind % 3)", minZoom: Int.random(in: 0...15, using: &rng),
                                       geometry: geometry, properties: []))
        }
        return features
    }

    /// Every feature's bounding box, computed the plain way.
    private func boxes(_ features: [MapFeature]) -> [WorldBounds?] {
        features.map { f in
            let all: [WorldPoint] = switch f.geometry {
            case .points(let p): p
            case .lines(let l): l.flatMap { $0 }
            case .polygons(let p): p.flatMap { $0.flatMap { $0 } }
            }
            return WorldBounds(enclosing: all)
        }
    }

    private func bruteForce(_ features: [MapFeature], _ boxes: [WorldBounds?], _ tile: TileID, buffer: Double) -> [Int] {
        let box = tile.worldBounds.expanded(by: buffer / Double(tile.tilesPerSide))
        return features.indices.filter { i in
            guard features[i].minZoom <= tile.z, let b = boxes[i] else { return false }
            return b.intersects(box)
        }
    }

    @Test func testQueriesEqualABruteForceScan() {
        let features = generated(3000, seed: 36)
        let boxes = boxes(features)
        var rng = SplitMix64(seed: 7)
        for gridZoom in [16, 12] {
            let index = MapFeatureIndex(features: features, gridZoom: gridZoom)
            var nonEmpty = 0
            for _ in 0..<150 {
                let f = features[Int.random(in: 0..<features.count, using: &rng)]
                let p: WorldPoint = switch f.geometry {
                case .points(let p): p[0]
                case .lines(let l): l[0][0]
                case .polygons(let p): p[0][0][0]
                }
                let z = Int.random(in: 6...18, using: &rng)
                let n = Double(1 << z)
                let tile = TileID(z: z, x: Int(p.x * n), y: Int(p.y * n))!
                let buffer = [0, 64.0 / 4096, 0.25].randomElement(using: &rng)!
                let got = index.featureIndices(in: tile, buffer: buffer)
                expectEqual(got, bruteForce(features, boxes, tile, buffer: buffer), "tile \(tile) buffer \(buffer) grid \(gridZoom)")
                if !got.isEmpty { nonEmpty += 1 }
            }
            expectGreaterThan(nonEmpty, 100)
            // The whole world at z0 has every feature with minZoom 0.
            expectEqual(index.featureIndices(in: TileID(z: 0, x: 0, y: 0)!, buffer: 0), bruteForce(features, boxes, TileID(z: 0, x: 0, y: 0)!, buffer: 0))
        }
    }

    @Test func testLayerNamesAreInFirstAppearanceOrder() {
        let index = MapFeatureIndex(features: generated(50, seed: 1))
        expectEqual(Set(index.layerNames), ["l0", "l1", "l2"])
        expectEqual(index.layerNames.first, index.features.first?.layer)
    }
}
