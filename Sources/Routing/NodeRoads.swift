/// One road at a graph node, as a junction shows it: the azimuth of leaving the node along the
/// edge and whether a vehicle may leave that way.
public struct NodeRoad: Sendable, Hashable {
    /// Degrees clockwise from north, [0, 360), of the edge's first segment away from the node.
    public var bearing: Double
    /// Whether the vehicle may travel the edge away from the node.
    public var canLeave: Bool
}

extension RoadGraph {
    /// Every road at `node` (each incident edge once per end at the node; a loop twice), in
    /// adjacency order. Empty for a node out of range.
    public func roads(atNode node: Int, vehicle: Vehicle) -> [NodeRoad] {
        guard node >= 0, node < nodeCount else { return [] }
        var roads: [NodeRoad] = []
        for slot in Int(index.adjStart[node])..<Int(index.adjStart[node + 1]) {
            let d = Int(index.adjDirEdge[slot])
            let edge = d >> 1, forward = d & 1 == 0
            let line = edgeGeometry(edge)
            guard line.count >= 2 else { continue }
            let (a, b) = forward ? (line[0], line[1]) : (line[line.count - 1], line[line.count - 2])
            roads.append(NodeRoad(bearing: Geo.azimuth(a.latitude, a.longitude, b.latitude, b.longitude),
                                  canLeave: isAccessible(edge: edge, forward: forward, vehicle: vehicle)))
        }
        return roads
    }
}
