import Dataset
import DefaultData
import Foundation
import Routing
import TestExpectations
import Testing

/// Bridges and tunnels are marked on the road edges for maps, and routing does not read them.
@Suite final class RoadBridgeFlagTests {
    @Test func testBridgesAreFlaggedAndRoutesDoNotChange() throws {
        let q1q3 = try unwrap(DefaultData.inputFiles.first { $0.lastPathComponent == "hcmc_q1_q3_2018.osm" })
        let graph = try RoadGraphImport.graph(osmFiles: [q1q3])
        let bridges = (0..<graph.edgeCount).filter { graph.isBridge(edge: $0) }
        let tunnels = (0..<graph.edgeCount).filter { graph.isTunnel(edge: $0) }
        expectGreaterThan(bridges.count, 20, "Q1/Q3 has 43 bridge=yes ways")
        expectGreaterThan(tunnels.count, 0)
        // Cầu Kiệu (Hai Bà Trưng over the Nhiêu Lộc canal) is a bridge edge.
        expectTrue(bridges.contains { graph.name(ofEdge: $0).contains("Hai Bà Trưng") || graph.name(ofEdge: $0).contains("Cầu") },
                      Set(bridges.map { graph.name(ofEdge: $0) }).sorted().joined(separator: ", "))

        // The same graph with the map bits cleared routes identically: same cost, geometry and settled count.
        var plain = RoadGraph.EditableStorage(graph.storage)
        plain.edgeFlags = plain.edgeFlags.map { $0 & ~(EdgeFlag.bridge | EdgeFlag.tunnel) }
        expectNotEqual(plain.edgeFlags, Array(graph.storage.edgeFlags))
        let cleared = try RoadGraph(storage: RoadGraph.Storage(plain))
        let points = [GeoPoint(10.7725, 106.6980), GeoPoint(10.7869, 106.7050), GeoPoint(10.7626, 106.6602),
                      GeoPoint(10.8015, 106.7143), GeoPoint(10.7930, 106.6890)]
        for vehicle in Vehicle.allCases {
            for (a, b) in zip(points, points.dropFirst()) {
                let x = try Router.route(graph, points: [a, b], vehicle: vehicle)
                let y = try Router.route(cleared, points: [a, b], vehicle: vehicle)
                expectEqual(x, y, "\(vehicle)")
            }
        }
    }
}
