import Foundation
import Routing

/// The dashboard's `RoadIndex`, built on first use (the first `/__sim/roads` request) rather than at start: its
/// build reads every edge's geometry, O(edges) time and memory that `serve` should not spend before it answers
/// (the road graph itself is read in place).
final class LazyRoadIndex: @unchecked Sendable {
    // @unchecked: `built` is only read and written under `lock`.
    private let graph: RoadGraph
    private let lock = NSLock()
    private var built: RoadIndex?

    init(graph: RoadGraph) { self.graph = graph }

    /// The index (built by the first caller; others wait for it).
    var index: RoadIndex {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        let index = RoadIndex(graph: graph)
        built = index
        return index
    }
}
