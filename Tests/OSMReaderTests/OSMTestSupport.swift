import Foundation
import OSMReader

/// The repository's real OSM extracts (Sources/DefaultData/Resources/data/osm), located
/// from this file's path so the tests need no copies.
enum OSMFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // OSMReaderTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root
        .appendingPathComponent("Sources/DefaultData/Resources/data/osm")

    static let hcmcQ1Q3XML = directory.appendingPathComponent("hcmc_q1_q3_2018.osm")
    static let hoanKiemXML = directory.appendingPathComponent("hanoi_hoankiem_2019.osm")
    static let hcmcPBF = directory.appendingPathComponent("hcmc_2018.osm.pbf")
}

/// Counts what the tests assert on.
struct OSMStats: OSMHandler {
    var bounds: OSMBounds?
    var nodes = 0
    var taggedNodes = 0
    var ways = 0
    var relations = 0
    var highwayWays = 0
    /// Highway ways tagged `oneway=yes` / `oneway=-1` (the README counts highways only).
    var onewayYes = 0
    var onewayReverse = 0
    var restrictions = 0
    var nodeIDs = Set<Int64>()
    var wayRefs = 0
    var resolvedWayRefs = 0
    var firstNode: OSMNode?
    var firstRestriction: OSMRelation?

    var resolvedFraction: Double { wayRefs == 0 ? 1 : Double(resolvedWayRefs) / Double(wayRefs) }

    mutating func bounds(_ bounds: OSMBounds) { self.bounds = bounds }

    mutating func node(_ node: OSMNode) {
        nodes += 1
        if !node.tags.isEmpty { taggedNodes += 1 }
        nodeIDs.insert(node.id)
        if firstNode == nil { firstNode = node }
    }

    mutating func way(_ way: OSMWay) {
        ways += 1
        if way.tags["highway"] != nil {
            highwayWays += 1
            switch way.tags["oneway"] {
            case "yes": onewayYes += 1
            case "-1": onewayReverse += 1
            default: break
            }
        }
        wayRefs += way.nodeIDs.count
        for ref in way.nodeIDs where nodeIDs.contains(ref) { resolvedWayRefs += 1 }
    }

    mutating func relation(_ relation: OSMRelation) {
        relations += 1
        if relation.tags["type"] == "restriction" {
            restrictions += 1
            if firstRestriction == nil { firstRestriction = relation }
        }
    }
}

/// A scratch directory for malformed inputs, removed by the caller.
/// Reads `url` to the end: the reader's error, or nil when every element was delivered.
func readRefusal(_ url: URL) -> OSMReadError? {
    var stats = OSMStats()
    do {
        try OSMReader.read(url, handler: &stats)
        return nil
    } catch {
        return error
    }
}

func makeScratchDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("OSMReaderTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
