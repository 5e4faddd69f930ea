import Dataset
import DefaultData
import Foundation
import HTTPServer
import JSON
import SimTesting
import VietMapAPI
import XCTest

/// Datasets at the edges of what `vietmap-sim import` accepts — no place at all (a POI CSV with
/// only its header), only the 2025 units — and extreme queries, served over real HTTP: every
/// answer is a well-formed one, never a crash.
final class EdgeDatasetTests: XCTestCase {
    /// Queries at the edges: one letter, a digit, 13 words, 64-letter words, scripts the data lacks,
    /// words FTS5 splits, the poles and the antimeridian, unit ids far outside the data.
    static let extremeQueries: [[(String, String)]] = {
        let long = String(repeating: "a", count: 64), longVietnamese = String(repeating: "đ", count: 64)
        var queries: [[(String, String)]] = [
            [("text", "a")], [("text", "1")], [("text", "phường bến nghé quận 1 hồ chí minh a b c d e f g h")],
            [("text", Array(repeating: long, count: 13).joined(separator: " "))], [("text", longVietnamese + " " + long)],
            [("text", "滨城市场")], [("text", "ресторан 😀")], [("text", "ben-thanh a.b l'an 3/2")], [("text", "\u{301}\u{301}")],
            [("text", "cafe"), ("focus", "90,180")], [("text", "thanh pho"), ("focus", "-90,-180")],
            [("text", "cho"), ("circle_center", "10.77,179.999"), ("circle_radius", "500000")],
            [("text", "cho"), ("circle_center", "89.99,0"), ("circle_radius", "100000000")],
            [("text", "ha"), ("cityId", "9223372036854775807")], [("text", "ha"), ("wardId", "-9223372036854775808")],
            [("text", "ha"), ("cityId", "4294967375"), ("display_type", "2")],
            [("text", "quan 1"), ("layers", "CITY,DIST,WARD"), ("cats", "1002-1")],
        ]
        queries = queries.map { [("apikey", "k")] + $0 }
        return queries
    }()

    /// Serves `databasePath` over HTTP and checks every extreme query gets 200 and a JSON array.
    private func assertServesExtremeQueries(_ databasePath: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let service = try VietMapService(databasePath: databasePath)
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, responder: service)
        try server.start()
        defer { server.stop() }
        for items in Self.extremeQueries {
            var components = URLComponents(string: "/api/autocomplete/v4")!
            components.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
            let client = try RawHTTPClient(port: server.port)
            try client.get(components.string!)
            let response = try client.readResponse()
            XCTAssertEqual(response.status, 200, "\(items)", file: file, line: line)
            guard case .array = try JSONParser.parse(response.body) else {
                return XCTFail("not an array: \(items)", file: file, line: line)
            }
        }
        let client = try RawHTTPClient(port: server.port)
        try client.get("/api/place/v4?apikey=k&refid=auto:AAAA")
        XCTAssertNotEqual(try client.readResponse().status, 500, file: file, line: line)
    }

    /// A dataset of the default input files called `names` (plus a POI CSV with only its header)
    /// and the number of places it holds.
    private func build(_ names: [String], csvHeaderOnly: Bool = false) throws -> (path: String, places: Int) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edge-dataset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        var inputs = DefaultData.inputFiles.filter { names.contains($0.lastPathComponent) }
        if csvHeaderOnly {
            let poiCSV = try XCTUnwrap(DefaultData.inputFiles.first { $0.lastPathComponent == "hcmc_pois_osm2018.csv" })
            let header = try XCTUnwrap(String(contentsOf: poiCSV, encoding: .utf8).components(separatedBy: "\r\n").first)
            let url = directory.appendingPathComponent("pois.csv")
            try (header + "\r\n").write(to: url, atomically: true, encoding: .utf8)
            inputs.append(url)
        }
        let output = directory.appendingPathComponent("edge.sqlite")
        let report = try DatasetBuilder().build(inputs: inputs, output: output)
        return (output.path, report.placeCounts.values.reduce(0, +))
    }

    func testADatasetWithoutPlacesAnswersEveryQuery() throws {
        let dataset = try build([], csvHeaderOnly: true)
        XCTAssertEqual(dataset.places, 0)
        try assertServesExtremeQueries(dataset.path)
    }

    func testADatasetOfOnlyTheUnitsAnswersEveryQuery() throws {
        let dataset = try build(["units_2025.json"])
        XCTAssertEqual(dataset.places, 34 + 3321)
        try assertServesExtremeQueries(dataset.path)
    }

    func testTheDefaultDatasetAnswersEveryExtremeQuery() throws {
        try assertServesExtremeQueries(try TestDataset.path())
    }
}
