import VietMapWire
import Foundation
import HTTPServer
import JSON
@testable import VietMapAPI
import XCTest

/// `MatrixEndpoint` and `TSPEndpoint` called directly (not through `VietMapService`) on the default
/// dataset's road graph, checked against `RouteEndpoint` for the same points.
final class MatrixTSPEndpointTests: XCTestCase {
    static let network = SimulatorHarness.shared.service.roadGraph.map(RoadNetwork.init(graph:))

    /// District 1: Bến Thành, Nhà thờ Đức Bà, Dinh Độc Lập, Nguyễn Huệ, Hồ Con Rùa.
    static let points = ["10.7725,106.6980", "10.7798,106.6990", "10.7770,106.6953", "10.7740,106.7038", "10.7826,106.6958"]

    func parameters(_ items: [(String, String)], points: [String] = MatrixTSPEndpointTests.points) -> RequestParameters {
        RequestParameters(query: QueryParameters(points.map { ("point", $0) } + items))
    }

    func matrixEndpoint(_ limits: MatrixEndpoint.Limits = .init()) -> MatrixEndpoint {
        MatrixEndpoint(network: Self.network, limits: limits)
    }

    func tspEndpoint() -> TSPEndpoint { TSPEndpoint(network: Self.network) }

    func routeEndpoint() -> RouteEndpoint {
        RouteEndpoint(network: Self.network, limits: .init())
    }

    /// Route v4's path for `points` (in that order).
    func routePath(_ points: [String]) throws -> JSONValue {
        let body = try JSONParser.parse(routeEndpoint().respond(parameters([("points_encoded", "false")], points: points)).body)
        return try XCTUnwrap(body["paths"]?[0])
    }

    /// An answer's body, parsed, its settled search states and its points order.
    func parsed(_ answer: EndpointAnswer) throws -> (body: JSONValue, settled: Int, order: [Int]) {
        (try JSONParser.parse(answer.body), try XCTUnwrap(answer.settledStates, "a road-graph answer reports its search"), answer.pointsOrder)
    }

    func expectError(_ items: [(String, String)], mentioning words: [String], code: String = "INVALID_REQUEST",
                     _ call: (RequestParameters) throws -> Void, file: StaticString = #filePath, line: UInt = #line) {
        do {
            try call(parameters(items))
            XCTFail("expected \(code)", file: file, line: line)
        } catch let error as APIError {
            XCTAssertEqual(error.status, 400, file: file, line: line)
            XCTAssertEqual(error.code, code, file: file, line: line)
            for w in words { XCTAssertTrue(error.message.contains(w), "'\(w)' not in \(error.message)", file: file, line: line) }
        } catch {
            XCTFail("not an APIError: \(error)", file: file, line: line)
        }
    }

    func testMatrixShapeAndCellsAgreeWithRoute() throws {
        let (body, settled, order) = try parsed(matrixEndpoint().respond(parameters([("api-version", "1.1"), ("sources", "0;1"),
                                                                                     ("destinations", "2;3;4"), ("vehicle", "car")])))
        XCTAssertEqual(order, [], "only TSP reports an order")
        XCTAssertEqual(body.objectValue?.keys, ["code", "messages", "durations", "distances"])
        XCTAssertEqual(body["code"], "OK")
        XCTAssertEqual(body["messages"], .null)
        XCTAssertGreaterThan(settled, 0)
        let durations = try XCTUnwrap(body["durations"]?.arrayValue), distances = try XCTUnwrap(body["distances"]?.arrayValue)
        XCTAssertEqual(durations.count, 2)
        XCTAssertEqual(distances.count, 2)
        for (i, source) in [0, 1].enumerated() {
            XCTAssertEqual(durations[i].arrayValue?.count, 3)
            for (j, destination) in [2, 3, 4].enumerated() {
                let seconds = try XCTUnwrap(durations[i][j]?.doubleValue), meters = try XCTUnwrap(distances[i][j]?.doubleValue)
                XCTAssertEqual(seconds, (seconds * 10).rounded() / 10, "one decimal")
                let path = try routePath([Self.points[source], Self.points[destination]])
                let time = try XCTUnwrap(path["time"]?.doubleValue) / 1000, distance = try XCTUnwrap(path["distance"]?.doubleValue)
                XCTAssertEqual(seconds, time, accuracy: 0.1 + time * 0.01, "\(source)->\(destination)")
                XCTAssertEqual(meters, distance, accuracy: 0.1 + distance * 0.01, "\(source)->\(destination)")
                XCTAssertGreaterThan(meters, 100)
            }
        }
    }

    func testMatrixDefaultsAnnotationsAndSeparators() throws {
        let all = try parsed(matrixEndpoint().respond(parameters([]))).body
        let durations = try XCTUnwrap(all["durations"]?.arrayValue)
        XCTAssertEqual(durations.count, 5)
        for i in 0..<5 {
            XCTAssertEqual(durations[i].arrayValue?.count, 5)
            XCTAssertEqual(durations[i][i]?.doubleValue, 0, "a point to itself")
        }
        XCTAssertEqual(try parsed(matrixEndpoint().respond(parameters([("sources", "all"), ("destinations", "0,1,2,3,4")]))).body, all)
        let onlyDistance = try parsed(matrixEndpoint().respond(parameters([("sources", "1"), ("annotation", "distance")]))).body
        XCTAssertEqual(onlyDistance.objectValue?.keys, ["code", "messages", "distances"])
        XCTAssertEqual(onlyDistance["distances"]?[0], all["distances"]?[1])
        let onlyDuration = try parsed(matrixEndpoint().respond(parameters([("sources", "3;3"), ("annotation", "duration")]))).body
        XCTAssertEqual(onlyDuration.objectValue?.keys, ["code", "messages", "durations"])
        XCTAssertEqual(onlyDuration["durations"]?[1], all["durations"]?[3])
    }

    func testMatrixErrors() {
        let matrix = matrixEndpoint()
        expectError([("sources", "0;7")], mentioning: ["sources", "'7'"]) { try _ = matrix.respond($0) }
        expectError([("destinations", "1;x")], mentioning: ["destinations", "'x'"]) { try _ = matrix.respond($0) }
        expectError([("destinations", "-1")], mentioning: ["destinations"]) { try _ = matrix.respond($0) }
        expectError([("annotation", "speed")], mentioning: ["annotation", "speed"]) { try _ = matrix.respond($0) }
        expectError([("vehicle", "plane")], mentioning: ["vehicle"]) { try _ = matrix.respond($0) }
        let small = matrixEndpoint(.init(maxPoints: 100, maxCells: 6))
        expectError([("sources", "0;1"), ("destinations", "0;1;2;3")], mentioning: ["cells", "8", "6"]) { try _ = small.respond($0) }
        XCTAssertNoThrow(try small.respond(parameters([("sources", "0;1"), ("destinations", "0;1;2")])))
        do throws(APIError) {
            _ = try matrix.respond(parameters([], points: ["10.7725,106.6980"] + Array(repeating: "10.7798,106.6990", count: 100)))
            XCTFail("101 points")
        } catch { XCTAssertEqual(error.code, "MAX_POINTS_EXCEED") }
        do throws(APIError) {
            _ = try matrix.respond(parameters([], points: ["10.7725,106.6980", "0.5,0.5"]))
            XCTFail("point in the sea")
        } catch { XCTAssertTrue(error.message.hasPrefix("Cannot find point 1"), error.message) }
    }

    func testTSPRoundTripIsARouteNoSlowerThanTheGivenOrder() throws {
        let (body, settled, order) = try parsed(tspEndpoint().respond(parameters([("api-version", "1.1"), ("vehicle", "car"),
                                                                                  ("points_encoded", "false")])))
        XCTAssertEqual(body.objectValue?.keys, ["license", "code", "messages", "paths"])
        XCTAssertEqual(body["code"], "OK")
        XCTAssertGreaterThan(settled, 0)
        XCTAssertEqual(order.first, 0)
        XCTAssertEqual(order.sorted(), [0, 1, 2, 3, 4])
        let path = try XCTUnwrap(body["paths"]?[0])
        // Exactly route v4's rendering of the same points in the tour order.
        let ordered = (order + [0]).map { Self.points[$0] }
        XCTAssertEqual(path, try routePath(ordered))
        let snapped = try XCTUnwrap(path["snapped_waypoints"]?["coordinates"]?.arrayValue)
        XCTAssertEqual(snapped.count, 6)
        XCTAssertEqual(snapped.first, snapped.last, "back at the start")
        let vias = try XCTUnwrap(path["instructions"]?.arrayValue).filter { $0["sign"] == .integer(5) }
        XCTAssertEqual(vias.count, 4)
        let given = try XCTUnwrap(routePath(Self.points + [Self.points[0]])["time"]?.intValue)
        XCTAssertLessThanOrEqual(try XCTUnwrap(path["time"]?.intValue), given + 5)
        // Deterministic; `roundtrip` is the same switch.
        XCTAssertEqual(try tspEndpoint().respond(parameters([("points_encoded", "false"), ("roundtrip", "true")])).pointsOrder, order)
    }

    func testTSPOneWayWithStartAndEnd() throws {
        let (body, _, order) = try parsed(tspEndpoint().respond(parameters([("roundtrip", "false"), ("sources", "1"),
                                                                            ("destinations", "3"), ("points_encoded", "false")])))
        XCTAssertEqual(order.first, 1)
        XCTAssertEqual(order.last, 3)
        XCTAssertEqual(order.sorted(), [0, 1, 2, 3, 4])
        let path = try XCTUnwrap(body["paths"]?[0])
        XCTAssertEqual(path, try routePath(order.map { Self.points[$0] }))
        XCTAssertEqual(path["snapped_waypoints"]?["coordinates"]?.arrayValue?.count, 5)
        // Encoded by default, as route v4.
        let encoded = try parsed(tspEndpoint().respond(parameters([("round_trip", "false")]))).body
        XCTAssertEqual(encoded["paths"]?[0]?["points_encoded"], .bool(true))
        XCTAssertNotNil(encoded["paths"]?[0]?["points"]?.stringValue)
    }

    func testTSPErrors() {
        let tsp = tspEndpoint()
        expectError([("round_trip", "false"), ("destinations", "9")], mentioning: ["destinations", "9"]) { try _ = tsp.respond($0) }
        expectError([("sources", "0;1")], mentioning: ["sources"]) { try _ = tsp.respond($0) }
        expectError([("round_trip", "maybe")], mentioning: ["round_trip"]) { try _ = tsp.respond($0) }
        do throws(APIError) {
            _ = try tsp.respond(parameters([], points: Array(repeating: "10.7725,106.6980", count: 26)))
            XCTFail("26 points")
        } catch { XCTAssertEqual(error.code, "MAX_POINTS_EXCEED") }
        do throws(APIError) {
            _ = try tsp.respond(parameters([], points: ["10.7725,106.6980"]))
            XCTFail("1 point")
        } catch { XCTAssertEqual(error.code, "INVALID_REQUEST") }
    }
}
