import ArrayBlob
import Routing

/// A uniform grid over the road graph's edges (by each edge's bounding box), to find the
/// edges in a map view quickly. Built once; immutable.
struct RoadIndex: Sendable {
    /// Cell size in degrees (about 550 m).
    static let cellDegrees = 0.005

    let graph: RoadGraph
    /// Per edge: minLon, minLat, maxLon, maxLat in 1e-7 degrees.
    private let boxes: [(Int32, Int32, Int32, Int32)]
    /// Cell key → edges touching the cell.
    private let cells: [Int64: [Int32]]
    /// The centre of the cell with the most edges (where a map should open), nil without edges.
    let busiestPoint: (latitude: Double, longitude: Double)?

    init(graph: RoadGraph) {
        self.graph = graph
        var boxes: [(Int32, Int32, Int32, Int32)] = []
        boxes.reserveCapacity(graph.edgeCount)
        var cells: [Int64: [Int32]] = [:]
        let storage = graph.storage
        for edge in 0..<graph.edgeCount {
            var minLon = Int32.max, minLat = Int32.max, maxLon = Int32.min, maxLat = Int32.min
            func include(_ lat: Int32, _ lon: Int32) {
                minLat = min(minLat, lat); maxLat = max(maxLat, lat)
                minLon = min(minLon, lon); maxLon = max(maxLon, lon)
            }
            let base = Int(storage.edgeBaseNode[edge]), adj = Int(storage.edgeAdjNode[edge])
            include(storage.nodeLatE7[base], storage.nodeLonE7[base])
            include(storage.nodeLatE7[adj], storage.nodeLonE7[adj])
            for pillar in Int(storage.edgeGeometryStart[edge])..<Int(storage.edgeGeometryStart[edge + 1]) {
                include(storage.pillarLatE7[pillar], storage.pillarLonE7[pillar])
            }
            boxes.append((minLon, minLat, maxLon, maxLat))
            for x in Self.cell(minLon)...Self.cell(maxLon) {
                for y in Self.cell(minLat)...Self.cell(maxLat) {
                    cells[Self.key(x, y), default: []].append(Int32(edge))
                }
            }
        }
        self.boxes = boxes
        self.cells = cells
        if let busiest = cells.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) })?.key {
            let x = Double(busiest >> 32), y = Double(Int32(truncatingIfNeeded: busiest))
            busiestPoint = ((y + 0.5) * Self.cellDegrees, (x + 0.5) * Self.cellDegrees)
        } else {
            busiestPoint = nil
        }
    }

    /// The edges whose bounding box meets `box`, in edge order.
    func edges(in box: BoundingBox) -> [Int] {
        let minLon = Int32((box.minLongitude * 1e7).rounded(.down)), maxLon = Int32((box.maxLongitude * 1e7).rounded(.up))
        let minLat = Int32((box.minLatitude * 1e7).rounded(.down)), maxLat = Int32((box.maxLatitude * 1e7).rounded(.up))
        var found = Set<Int32>()
        for x in Self.cell(minLon)...Self.cell(maxLon) {
            for y in Self.cell(minLat)...Self.cell(maxLat) {
                for edge in cells[Self.key(x, y)] ?? [] {
                    let b = boxes[Int(edge)]
                    if b.0 <= maxLon && b.2 >= minLon && b.1 <= maxLat && b.3 >= minLat { found.insert(edge) }
                }
            }
        }
        return found.map(Int.init).sorted()
    }

    private static func cell(_ e7: Int32) -> Int {
        Int((Double(e7) / 1e7 / cellDegrees).rounded(.down))
    }

    private static func key(_ x: Int, _ y: Int) -> Int64 {
        Int64(x) << 32 | Int64(UInt32(truncatingIfNeeded: y))
    }
}

/// A longitude/latitude rectangle in degrees.
struct BoundingBox: Sendable, Equatable {
    let minLongitude: Double
    let minLatitude: Double
    let maxLongitude: Double
    let maxLatitude: Double
}
