import Routing
import VietMapWire

/// The road graph with its per-thread search workspaces, shared by the route, matrix and TSP
/// endpoints: one workspace per server thread serves all three (a thread handles one request at a
/// time), instead of one per endpoint and thread.
final class RoadNetwork: Sendable {
    let graph: RoadGraph
    private let workspaces: ThreadLocal<RouterWorkspace>

    init(graph: RoadGraph) {
        self.graph = graph
        workspaces = ThreadLocal { RouterWorkspace(graph: graph) }
    }

    /// The calling thread's workspace (made on its first use).
    var workspace: RouterWorkspace { workspaces.value }

    /// `network`, or the "no roads" error routes answer on a dataset without a road graph.
    static func required(_ network: RoadNetwork?, firstPoint: String) throws(APIError) -> RoadNetwork {
        guard let network else { throw .invalidRequest("Cannot find point 0: \(firstPoint) (this dataset has no roads)") }
        return network
    }
}
