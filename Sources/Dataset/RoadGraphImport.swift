import Dispatch
import Foundation
import Routing

/// The import's routing steps on their own (for benchmarks and tests): OSM files → road graph → contraction
/// hierarchies.
public enum RoadGraphImport {
    /// The road graph of OSM files (XML or PBF), as `DatasetBuilder` builds it.
    public static func graph(osmFiles: [URL]) throws -> RoadGraph {
        var roads = RoadNetworkSource()
        for url in osmFiles { _ = try roads.read(url) }
        return RoadGraphBuilder.build(roads.input())
    }

    /// One contraction hierarchy per vehicle (in `Vehicle` order) and its build time in seconds. Vehicles are
    /// contracted on up to `parallelism` threads at once (each build holds its own working copy of the state
    /// graph: memory grows with the thread count).
    public static func contract(_ graph: RoadGraph,
                                parallelism: Int = min(2, ProcessInfo.processInfo.activeProcessorCount))
        -> [(hierarchy: ContractionHierarchy, seconds: Double)] {
        let vehicles = Vehicle.allCases
        let results = Results(count: vehicles.count)
        let threads = max(1, min(parallelism, vehicles.count))
        DispatchQueue.concurrentPerform(iterations: threads) { k in
            for i in stride(from: k, to: vehicles.count, by: threads) {
                let t0 = DispatchTime.now().uptimeNanoseconds
                let ch = ContractionHierarchy.build(graph, vehicle: vehicles[i])
                results.set(i, (ch, Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9))
            }
        }
        return results.all
    }

    private final class Results: @unchecked Sendable {
        // @unchecked: each slot is written by one thread, read after `concurrentPerform` returns; the lock orders it.
        private var slots: [(ContractionHierarchy, Double)?]
        private let lock = NSLock()
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ value: (ContractionHierarchy, Double)) { lock.lock(); slots[i] = value; lock.unlock() }
        var all: [(hierarchy: ContractionHierarchy, seconds: Double)] {
            lock.lock(); defer { lock.unlock() }
            return slots.compactMap { $0.map { (hierarchy: $0.0, seconds: $0.1) } }
        }
    }
}
