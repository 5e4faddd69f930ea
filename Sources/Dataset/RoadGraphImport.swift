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
        return RoadGraphBuilder.build(roads.takeInput())
    }

    /// One contraction hierarchy per vehicle (in `Vehicle` order) and its build time in seconds. Vehicles are
    /// contracted on up to `parallelism` threads at once (each build holds its own working copy of the state
    /// graph: memory grows with the thread count).
    public static func contract(_ graph: RoadGraph,
                                parallelism: Int = min(2, ProcessInfo.processInfo.activeProcessorCount))
        -> [(hierarchy: ContractionHierarchy, seconds: Double)] {
        var all: [(hierarchy: ContractionHierarchy, seconds: Double)] = []
        contract(graph, parallelism: parallelism) { all.append(($0, $1)) }
        return all
    }

    /// Bytes one vehicle's contraction holds while it runs, per search state (its working arcs and
    /// per-state arc lists, then the finished hierarchy): ≈ 630 measured on 8 copies of the city,
    /// ≈ 510 on 64, rounded up.
    static let contractionBytesPerState = 700

    /// How many vehicles an import contracts at once: up to `cores` (two at most), fewer when the
    /// memory left, less the memory watch's floor, would not hold that many builds: a laptop with
    /// little memory imports a country more slowly instead of stopping.
    public static func parallelism(stateCount: Int, availableBytes: Int?, floorBytes: Int = MemoryWatch.defaultFloorBytes,
                                   cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        let most = max(1, min(2, cores))
        guard let availableBytes else { return most }
        let perBuild = max(1, stateCount * contractionBytesPerState)
        return max(1, min(most, (availableBytes - floorBytes) / perBuild))
    }

    /// Contracts every vehicle as above, handing each hierarchy and its build time to `each` on the
    /// calling thread, in `Vehicle` order, as soon as it and those before it are built: an import
    /// writes and drops each one instead of holding all five. When `each` throws, vehicles not
    /// started are skipped and the error is rethrown once the running builds end.
    public static func contract(_ graph: RoadGraph,
                                parallelism: Int = min(2, ProcessInfo.processInfo.activeProcessorCount),
                                each: (ContractionHierarchy, Double) throws -> Void) rethrows {
        let vehicles = Vehicle.allCases
        let results = Results(count: vehicles.count)
        let threads = max(1, min(parallelism, vehicles.count))
        let built = DispatchSemaphore(value: 0)
        let workers = DispatchGroup()
        for k in 0..<threads {
            DispatchQueue.global().async(group: workers) {
                for i in stride(from: k, to: vehicles.count, by: threads) where !results.isCancelled {
                    let t0 = DispatchTime.now().uptimeNanoseconds
                    let ch = ContractionHierarchy.build(graph, vehicle: vehicles[i])
                    results.set(i, (ch, Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9))
                    built.signal()
                }
            }
        }
        defer { workers.wait() }
        var next = 0
        while next < vehicles.count {
            built.wait()
            while next < vehicles.count, let (hierarchy, seconds) = results.take(next) {
                next += 1
                do { try each(hierarchy, seconds) } catch { results.cancel(); throw error }
            }
        }
    }

    private final class Results: @unchecked Sendable {
        // @unchecked: each slot is written by one thread and taken by the caller; the lock orders it.
        private var slots: [(ContractionHierarchy, Double)?]
        private var cancelled = false
        private let lock = NSLock()
        init(count: Int) { slots = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ value: (ContractionHierarchy, Double)) { lock.lock(); slots[i] = value; lock.unlock() }
        /// Slot `i`'s hierarchy, emptied, if it is built.
        func take(_ i: Int) -> (ContractionHierarchy, Double)? {
            lock.lock(); defer { lock.unlock() }
            let value = slots[i]
            slots[i] = nil
            return value
        }
        func cancel() { lock.lock(); cancelled = true; lock.unlock() }
        var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelled }
    }
}
