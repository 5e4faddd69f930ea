import Foundation
import TestExpectations
import Testing
@testable import MapTiles

/// Selection by zoom, layer order, determinism, the per-tile budget and bad input.
@Suite final class VectorTileBuilderTests {
    let tile = TileID(z: 14, x: 13048, y: 7698)!

    private func road(_ i: Int, minZoom: Int, layer: String = "roads") -> MapFeature {
        let v = Double(100 + 10 * i)
        return MapFeature(id: UInt64(i), layer: layer, minZoom: minZoom,
                          geometry: .lines([TileUnits.line(tile, [(100, v), (3000, v)])]),
                          properties: [MapProperty("i", .int(Int64(i)))])
    }

    @Test func testFeaturesAppearFromTheirMinZoomAndAllAtTheSourcesMaxZoom() throws {
        let features = [road(0, minZoom: 10), road(1, minZoom: 12), road(2, minZoom: 14), road(3, minZoom: 16)]
        let builder = VectorTileBuilder(index: MapFeatureIndex(features: features), maxZoom: 14)
        func ids(_ id: TileID) throws -> [UInt64?] {
            try VectorTileReader(builder.tile(id).data)[layer: "roads"]?.features.map(\.id) ?? []
        }
        expectEqual(try ids(tile.ancestor(atZoom: 9)), [])
        expectTrue(builder.tile(tile.ancestor(atZoom: 9)).isEmpty)
        expectEqual(try ids(tile.ancestor(atZoom: 11)), [0])
        expectEqual(try ids(tile.ancestor(atZoom: 12)), [0, 1])
        expectEqual(try ids(tile.ancestor(atZoom: 13)), [0, 1])
        // The source's deepest zoom (14) carries the z16 feature too: clients overzoom it and never ask for z16.
        expectEqual(try ids(tile), [0, 1, 2, 3])
        expectEqual(try ids(TileID(z: 16, x: 13048 * 4, y: 7698 * 4)!), [0, 1, 2, 3])
    }

    @Test func testLayersComeInFirstAppearanceOrderFeaturesInIndexOrderAndBytesRepeat() throws {
        var features: [MapFeature] = []
        for i in 0..<30 { features.append(road(i, minZoom: 0, layer: ["water", "roads", "pois"][i % 3])) }
        let a = VectorTileBuilder(index: MapFeatureIndex(features: features), maxZoom: 14).tile(tile)
        let b = VectorTileBuilder(index: MapFeatureIndex(features: features), maxZoom: 14).tile(tile)
        expectEqual(a.data, b.data)
        expectEqual(a.layers.map(\.name), ["water", "roads", "pois"])
        expectEqual(a.layers.map(\.featureCount), [10, 10, 10])
        let decoded = try VectorTileReader(a.data)
        let roadIDs: [UInt64] = (0..<30).filter { $0 % 3 == 1 }.map { UInt64($0) }
        expectEqual(decoded[layer: "roads"]?.features.map(\.id), roadIDs)
        // A different grid gives the same tile.
        let c = VectorTileBuilder(index: MapFeatureIndex(features: features, gridZoom: 10), maxZoom: 14).tile(tile)
        expectEqual(a.data, c.data)
    }

    @Test func testTheBudgetDropsTheHighestMinZoomsFirstThenTheLatest() throws {
        let features = [road(0, minZoom: 12), road(1, minZoom: 5), road(2, minZoom: 12), road(3, minZoom: 8), road(4, minZoom: 14)]
        let index = MapFeatureIndex(features: features)
        let byCount = VectorTileBuilder(index: index, maxZoom: 14, budget: TileBudget(maxFeatures: 3)).tile(tile)
        expectEqual(try VectorTileReader(byCount.data)[layer: "roads"]?.features.map(\.id), [0, 1, 3])
        expectEqual(byCount.droppedFeatureCount, 2)
        let full = VectorTileBuilder(index: index, maxZoom: 14).tile(tile)
        expectEqual(full.droppedFeatureCount, 0)
        let limit = full.data.count - 10
        let byBytes = VectorTileBuilder(index: index, maxZoom: 14, budget: TileBudget(maxBytes: limit)).tile(tile)
        expectLessThanOrEqual(byBytes.data.count, limit)
        expectEqual(try VectorTileReader(byBytes.data)[layer: "roads"]?.features.map(\.id), [0, 1, 2, 3])
        expectEqual(byBytes.droppedFeatureCount, 1)
        let nothing = VectorTileBuilder(index: index, maxZoom: 14, budget: TileBudget(maxBytes: 0)).tile(tile)
        expectTrue(nothing.isEmpty)
        expectEqual(nothing.droppedFeatureCount, 5)
    }

    @Test func testBadCoordinatesAreSkippedNotDrawn() throws {
        let nan = MapFeature(layer: "roads", minZoom: 0, geometry: .lines([[TileUnits.world(tile, 10, 10), WorldPoint(x: .nan, y: 0.5)]]), properties: [])
        let inf = MapFeature(layer: "roads", minZoom: 0, geometry: .points([WorldPoint(x: .infinity, y: 0.4)]), properties: [])
        let far = MapFeature(layer: "roads", minZoom: 0, geometry: .lines([[TileUnits.world(tile, 10, 10), WorldPoint(x: 1e300, y: 0.5)]]), properties: [])
        let empty = MapFeature(layer: "roads", minZoom: 0, geometry: .lines([]), properties: [])
        let index = MapFeatureIndex(features: [nan, inf, far, empty, road(9, minZoom: 0)])
        let vt = VectorTileBuilder(index: index, maxZoom: 14).tile(tile)
        expectEqual(try VectorTileReader(vt.data)[layer: "roads"]?.features.map(\.id), [9])
        expectEqual(index.featureIndices(in: TileID(z: 0, x: 0, y: 0)!, buffer: 0), [4])
    }
}
