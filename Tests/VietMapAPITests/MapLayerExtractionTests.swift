import Dataset
import Foundation
import ArrayBlob
import MapTiles
import Platform
import Routing
import Search
import SimTesting
@testable import VietMapAPI
import XCTest

/// The dataset as VietMap-schema map features: every road edge a typed line, street names split, POIs and
/// admin units as points — on the shared test dataset.
final class MapLayerExtractionTests: XCTestCase {
    /// Extracted once per process (the shared simulator's dataset).
    nonisolated(unsafe) static var cached: (graph: RoadGraph, search: PlaceSearch, roads: [MapFeature])?

    static func dataset() throws -> (graph: RoadGraph, search: PlaceSearch, roads: [MapFeature]) {
        if let cached { return cached }
        let service = SimulatorHarness.shared.service
        let graph = try XCTUnwrap(service.roadGraph, "the test dataset has roads")
        let result = (graph, service.search, MapLayerExtraction.roads(graph))
        cached = result
        return result
    }

    func testEveryRoadEdgeBecomesOneTypedLine() throws {
        let (graph, _, roads) = try Self.dataset()
        let network = roads.filter { $0.layer == VietMapTileSchema.network }
        let ferries = roads.filter { $0.layer == VietMapTileSchema.ferry }
        // Every edge is a road line or a ferry line (an edge whose ends coincide with no pillar is no line).
        var expected = Set<UInt64>(), expectedFerries = Set<UInt64>()
        for edge in 0..<graph.edgeCount {
            let points = Set(graph.edgeGeometry(edge).map { WorldPoint(latitude: $0.latitude, longitude: $0.longitude) })
            guard points.count >= 2 else { continue }
            if graph.storage.edgeRoadClass[edge] == RoadClass.ferry.rawValue { expectedFerries.insert(UInt64(edge)) } else { expected.insert(UInt64(edge)) }
        }
        XCTAssertGreaterThan(expected.count, 1_000)
        XCTAssertEqual(Set(network.compactMap(\.id)), expected)
        XCTAssertEqual(network.count, expected.count, "one feature per edge")
        XCTAssertEqual(Set(ferries.compactMap(\.id)), expectedFerries)
        var classes = Set<Int64>()
        for feature in network {
            guard case .int(let roadClass)? = feature["roadclass"] else { return XCTFail("roadclass not an integer: \(feature.properties)") }
            XCTAssert((1...9).contains(roadClass), "roadclass \(roadClass)")
            classes.insert(roadClass)
            XCTAssertEqual(feature.minZoom, VietMapTileSchema.roadMinZoom(roadClass: Int(roadClass), structure: feature.intValue("structure") ?? -1))
            XCTAssert([0, 1, 2].contains(feature.intValue("structure") ?? -1), "structure")
            XCTAssert([0, 1].contains(feature.intValue("oneway") ?? -1), "oneway")
            XCTAssertEqual(feature.intValue("undercons"), 0)
            guard case .lines(let lines) = feature.geometry else { return XCTFail("not a line") }
            XCTAssertEqual(lines.count, 1)
            XCTAssertGreaterThanOrEqual(lines[0].count, 2)
        }
        // A city has roads of most classes.
        XCTAssertGreaterThanOrEqual(classes.count, 7, "classes \(classes.sorted())")
    }

    /// The whole city (hcmc_2018, ~80k edges): every edge a line; time and memory printed, not asserted.
    func testWholeCityGraphGivesOneLinePerEdge() throws {
        let graph = try WholeCityGraph.load()
        let before = ProcessMemory.residentBytes() ?? 0
        let started = DispatchTime.now().uptimeNanoseconds
        let roads = MapLayerExtraction.roads(graph)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let grown = (ProcessMemory.residentBytes() ?? 0) - before
        let network = roads.filter { $0.layer == VietMapTileSchema.network }.count
        let labels = roads.filter { $0.layer == VietMapTileSchema.networkName }.count
        print(String(format: "whole city: %d edges → %d road lines, %d label lines, %d ferries in %.2f s, resident +%d MB",
                     graph.edgeCount, network, labels, roads.count - network - labels, seconds, grown >> 20))
        var lines = 0
        for edge in 0..<graph.edgeCount where Set(graph.edgeGeometry(edge)).count >= 2 { lines += 1 }
        XCTAssertEqual(roads.count - labels, lines, "one road or ferry line per edge")
        XCTAssertGreaterThan(graph.edgeCount, 50_000)
    }

    func testOneWayLinesRunTheWayTrafficMay() throws {
        let (graph, _, roads) = try Self.dataset()
        var checked = 0
        for feature in roads where feature.layer == VietMapTileSchema.network && feature.intValue("oneway") == 1 {
            let edge = Int(feature.id!)
            let (forward, backward) = MapLayerExtraction.directions(graph, edge: edge)
            XCTAssertNotEqual(forward, backward)
            let startNode = Int(forward ? graph.storage.edgeBaseNode[edge] : graph.storage.edgeAdjNode[edge])
            let start = graph.coordinate(ofNode: startNode)
            guard case .lines(let lines) = feature.geometry else { continue }
            XCTAssertEqual(lines[0].first, WorldPoint(latitude: start.latitude, longitude: start.longitude), "edge \(edge)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 100, "the city has one-way streets")
    }

    func testFamousStreetsOfDistrict1SplitIntoPrefixAndName() throws {
        let (_, _, roads) = try Self.dataset()
        // Lê Lợi and Nguyễn Huệ by Bến Thành (10.772…10.777 N, 106.698…106.705 E).
        let district1 = WorldBounds(enclosing: [WorldPoint(latitude: 10.765, longitude: 106.690),
                                                WorldPoint(latitude: 10.785, longitude: 106.710)])!
        for street in ["Lê Lợi", "Nguyễn Huệ"] {
            let found = roads.filter { feature in
                guard feature.layer == VietMapTileSchema.network, feature["name"] == .string(street),
                      case .lines(let lines) = feature.geometry, let first = lines.first?.first else { return false }
                return district1.intersects(WorldBounds(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y))
            }
            XCTAssertFalse(found.isEmpty, "\(street) in District 1")
            for feature in found { XCTAssertEqual(feature["prefix"], .string("Đường"), street) }
            let labels = roads.filter { $0.layer == VietMapTileSchema.networkName && $0["name"] == .string(street) }
            XCTAssertFalse(labels.isEmpty, "\(street) has label lines")
        }
    }

    func testStreetNamesSplitTheVietnameseWay() {
        func parts(_ text: String) -> [String?] {
            let p = StreetNameParts(roadName: text)
            return [p.prefix, p.name, p.routeNumber]
        }
        XCTAssertEqual(parts("Lê Lợi"), ["Đường", "Lê Lợi", nil])
        XCTAssertEqual(parts("Đường Nguyễn Huệ"), ["Đường", "Nguyễn Huệ", nil])
        XCTAssertEqual(parts("Phố Hàng Bạc"), ["Phố", "Hàng Bạc", nil])
        XCTAssertEqual(parts("Hẻm 113 Lê Lợi"), ["Hẻm", "113 Lê Lợi", nil])
        XCTAssertEqual(parts("hẻm 5"), ["Hẻm", "5", nil])
        XCTAssertEqual(parts("Hem 12 Nguyen Trai"), ["Hẻm", "12 Nguyen Trai", nil])
        XCTAssertEqual(parts("Quốc lộ 1A"), ["Quốc lộ", "1A", "QL.1A"])
        XCTAssertEqual(parts("Quốc Lộ 50"), ["Quốc lộ", "50", "QL.50"])
        XCTAssertEqual(parts("Cầu Thủ Thiêm"), ["Cầu", "Thủ Thiêm", nil])
        XCTAssertEqual(parts("Cầu vượt Quang Trung"), ["Cầu vượt", "Quang Trung", nil])
        XCTAssertEqual(parts("Hầm Thủ Thiêm"), ["Hầm", "Thủ Thiêm", nil])
        XCTAssertEqual(parts("Xa Lộ Hà Nội"), ["Xa lộ", "Hà Nội", nil])
        // A name that merely starts like a prefix without its accents is a street name.
        XCTAssertEqual(parts("Hàm Nghi"), ["Đường", "Hàm Nghi", nil])
        XCTAssertEqual(parts("Dương Bá Trạc"), ["Đường", "Dương Bá Trạc", nil])
        // A prefix alone is a name.
        XCTAssertEqual(parts("Cầu"), ["Đường", "Cầu", nil])
        XCTAssertEqual(parts(""), ["", "", nil])
        XCTAssertEqual(StreetNameParts(roadName: "Hẻm 113 Lê Lợi").label, "Hẻm 113 Lê Lợi")
        XCTAssertEqual(StreetNameParts(roadName: "Lê Lợi").label, "Lê Lợi")
    }

    func testRoadClassesFollowTheDocumentedMapping() {
        XCTAssertEqual(VietMapTileSchema.roadClass(.motorway), 1)
        XCTAssertEqual(VietMapTileSchema.roadClass(.trunk), 2)
        XCTAssertEqual(VietMapTileSchema.roadClass(.primaryLink), 3)
        XCTAssertEqual(VietMapTileSchema.roadClass(.secondary), 4)
        XCTAssertEqual(VietMapTileSchema.roadClass(.tertiary), 5)
        XCTAssertEqual(VietMapTileSchema.roadClass(.unclassified), 6)
        XCTAssertEqual(VietMapTileSchema.roadClass(.residential), 7)
        XCTAssertEqual(VietMapTileSchema.roadClass(.service), 8)
        XCTAssertEqual(VietMapTileSchema.roadClass(.footway), 9)
        XCTAssertEqual(VietMapTileSchema.roadClass(.residential, prefix: "Hẻm"), 9)
        XCTAssertEqual(VietMapTileSchema.roadClass(.primary, prefix: "Hẻm"), 3, "a major road keeps its class")
        XCTAssertNil(VietMapTileSchema.roadClass(.ferry))
        XCTAssertEqual(VietMapTileSchema.roadMinZoom(roadClass: 6, structure: 2), 10)
        XCTAssertEqual(VietMapTileSchema.roadMinZoom(roadClass: 9), 14)
    }

    func testPointClassesAndTiersFollowVietMaps() {
        XCTAssertEqual(VietMapTileSchema.pointClass(categories: ["6001"], name: "Chùa Vĩnh Nghiêm"), "pagoda")
        XCTAssertEqual(VietMapTileSchema.pointClass(categories: ["6001"], name: "Nhà thờ Đức Bà"), "church")
        XCTAssertEqual(VietMapTileSchema.pointClass(categories: ["6001"], name: "Đền Ngọc Sơn"), "temple")
        XCTAssertEqual(VietMapTileSchema.pointClass(categories: ["9104"], name: "Tân Sơn Nhất"), "airport")
        XCTAssertEqual(VietMapTileSchema.pointClass(categories: [], name: "x"), "other")
        XCTAssertEqual(VietMapTileSchema.pointMinZoom(class: "airport", rank: 1), 11)
        XCTAssertEqual(VietMapTileSchema.pointMinZoom(class: "airport", rank: 2), 16)
        XCTAssertEqual(VietMapTileSchema.pointMinZoom(class: "parking", rank: 2), 13)
        XCTAssertEqual(VietMapTileSchema.pointMinZoom(class: "hotel", rank: 2), 14)
        XCTAssertEqual(VietMapTileSchema.pointMinZoom(class: "church", rank: 2), 15)
        XCTAssertEqual(VietMapTileSchema.pointMinZoom(class: "cafe", rank: 2), 16)
        XCTAssertEqual(VietMapTileSchema.pointMinZoom(class: "company", rank: 1), 18)
        // Every category of the code set has its own class (localities and "Other" are "other"), and every class is an icon.
        for category in CategoryCodes.categories {
            let pointClass = VietMapTileSchema.pointClass(categories: [category.code], name: "")
            XCTAssert(VietMapTileSchema.iconNames.contains(pointClass), "\(category.code) → \(pointClass)")
            if !["9301", "9999"].contains(category.code) { XCTAssertNotEqual(pointClass, "other", category.name) }
        }
    }

    func testLabelLinesJoinEdgesOfOneStreet() throws {
        let (graph, _, roads) = try Self.dataset()
        let labels = roads.filter { $0.layer == VietMapTileSchema.networkName }
        let namedEdges = roads.filter { $0.layer == VietMapTileSchema.network && $0["name"] != nil }
        XCTAssertFalse(labels.isEmpty)
        XCTAssertLessThan(labels.count, namedEdges.count, "consecutive edges of a street are merged")
        var labelledLength = 0.0, edgeLength = 0.0
        func length(_ feature: MapFeature) -> Double {
            guard case .lines(let lines) = feature.geometry else { return 0 }
            return lines[0].indices.dropFirst().reduce(0) { sum, i in
                sum + hypot(lines[0][i].x - lines[0][i - 1].x, lines[0][i].y - lines[0][i - 1].y)
            }
        }
        for label in labels {
            XCTAssertNotNil(label.intValue("roadclass"))
            guard case .string(let name)? = label["name"] else { return XCTFail("label without name") }
            XCTAssertFalse(name.isEmpty)
            labelledLength += length(label)
        }
        for edge in namedEdges { edgeLength += length(edge) }
        // Merging keeps every piece: the label lines are as long as the named edges together.
        XCTAssertEqual(labelledLength, edgeLength, accuracy: edgeLength * 1e-9)
        _ = graph
    }

    func testPlacesBecomePointsAndASearchedPlaceIsInTheLayer() throws {
        let (_, search, _) = try Self.dataset()
        let points = MapLayerExtraction.points(search)
        XCTAssertGreaterThan(points.count, 1_000)
        let classes = Set(VietMapTileSchema.pointClasses)
        var seenClasses = Set<String>()
        for point in points {
            guard case .string(let pointClass)? = point["class"] else { return XCTFail("class") }
            XCTAssert(classes.contains(pointClass), pointClass)
            seenClasses.insert(pointClass)
            XCTAssertNotNil(point.intValue("vm_class"))
            XCTAssertEqual(point.minZoom, VietMapTileSchema.pointMinZoom(class: pointClass, rank: point.intValue("vm_class")!))
        }
        XCTAssertGreaterThan(seenClasses.count, 20)
        // Chợ Bến Thành, as autocomplete finds it, is in the layer under the id place v4 resolves.
        let results = try search.autocomplete(AutocompleteQuery(text: "Chợ Bến Thành", focus: nil, format: .new, limit: 5))
        let market = try XCTUnwrap(results.first { $0.place.kind == .poi })
        let feature = try XCTUnwrap(points.first { $0.id == UInt64(market.place.id) })
        guard case .string(let refID)? = feature["ref_id"] else { return XCTFail("ref_id") }
        XCTAssertEqual(RefID(decoding: refID)?.key, market.place.key)
        XCTAssertEqual(feature["shortname"], .string(market.place.name))
        XCTAssertEqual(feature["class"], .string("market"))
    }

    func testExtentOpensOnTheDatasetsCity() throws {
        let (graph, _, _) = try Self.dataset()
        let extent = try XCTUnwrap(MapExtent(graph: graph))
        let center = extent.center
        let inHCMC = (10.35...11.17).contains(center.latitude) && (106.35...107.05).contains(center.longitude)
        let inHanoi = (20.9...21.2).contains(center.latitude) && (105.7...106.0).contains(center.longitude)
        XCTAssert(inHCMC || inHanoi, "centre \(center.latitude), \(center.longitude)")
        let degrees = extent.degrees
        XCTAssertLessThan(degrees[0], degrees[2])
        XCTAssertLessThan(degrees[1], degrees[3])
        XCTAssert((degrees[1]...degrees[3]).contains(center.latitude) && (degrees[0]...degrees[2]).contains(center.longitude))
    }

    func testAdminUnitsBecomeLabelPoints() throws {
        let (_, search, _) = try Self.dataset()
        let points = MapLayerExtraction.adminPoints(search.admin)
        XCTAssertGreaterThan(points.count, 1_000)
        let hanoi = try XCTUnwrap(points.first { $0["name"] == .string("Hà Nội") })
        XCTAssertEqual(hanoi.intValue("class"), 1)
        XCTAssertEqual(hanoi.minZoom, 4)
        XCTAssertEqual(hanoi["abbrprefix"], .string("TP."))
        let province = try XCTUnwrap(points.first { $0["prefix"] == .string("Tỉnh") })
        XCTAssertEqual(province.intValue("class"), 2)
        let ward = try XCTUnwrap(points.first { $0["prefix"] == .string("Phường") })
        XCTAssertEqual(ward.intValue("class"), 4)
        XCTAssertEqual(ward["abbrprefix"], .string("P."))
        XCTAssertEqual(Set(points.compactMap { $0.intValue("class") }), [1, 2, 4])
    }
}

extension MapFeature {
    /// The attribute as an integer, nil when absent or not an integer.
    func intValue(_ key: String) -> Int? {
        if case .int(let value)? = self[key] { return Int(value) }
        return nil
    }
}
