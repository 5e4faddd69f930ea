import Foundation
import HTTPServer
import VietMapAPI
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
import JSON
#endif

/// The response cache (repeated autocomplete/place requests) over real HTTP: a repeated request
/// gets exactly what a server without the cache answers, parameters that differ are not mixed up,
/// and the key is still checked before a cached answer goes out.
final class ResponseCacheTests: XCTestCase {
    let sim = SimulatorHarness.shared

    /// A second server on the same dataset without the cache (only the key check restricted).
    static let uncached: (server: HTTPServer, base: URL) = {
        do {
            let service = try VietMapService(databasePath: SimulatorHarness.shared.databasePath, apiKeys: ["k1", "k2"],
                                             responseCacheBytes: 0)
            var configuration = HTTPServerConfiguration()
            configuration.port = 0
            let server = HTTPServer(configuration: configuration, responder: service)
            try server.start()
            return (server, URL(string: "http://127.0.0.1:\(server.port)")!)
        } catch { fatalError("could not start the uncached server: \(error)") }
    }()

    func body(_ base: URL, _ query: String) async throws -> (Int, Data) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: base.absoluteString + query)!)
        return ((response as! HTTPURLResponse).statusCode, data)
    }

    func testRepeatedRequestsAnswerAsWithoutTheCache() async throws {
        let found = try await sim.get("/api/autocomplete/v4", [("apikey", "a"), ("text", "cho ben thanh")])
        let refID = try XCTUnwrap(found.json().arrayValue?.first?["ref_id"]?.stringValue)
        let queries = [
            "/api/autocomplete/v4?text=ben%20thanh", "/api/autocomplete/v4?text=ben%20thanh&display_type=2",
            "/api/autocomplete/v4?text=ben%20thanh&display_type=5&focus=21.0285,105.8542",
            "/api/autocomplete/v4?text=ben%20than", "/api/autocomplete/v4?text=ben%20thanh&layers=STREET",
            "/api/autocomplete/v4/?text=ben%20thanh&cityId=1", "/api/autocomplete/v4?text=cafe&focus=10.7769,106.7008",
            "/api/place/v4?refid=\(refID)", "/api/autocomplete/v4?text=ben&display_type=9",
        ]
        var answers: [Data] = []
        for query in queries {
            let (_, expected) = try await body(Self.uncached.base, query + "&apikey=k1")
            for key in ["x", "y", "x"] {
                let (status, data) = try await body(sim.baseURL, query + "&apikey=" + key)
                XCTAssertEqual(data, expected, "\(query) (\(status)) as the uncached server answers it")
            }
            answers.append(expected)
        }
        XCTAssertEqual(Set(answers).count, answers.count, "every query has its own answer")
    }

    func testTheKeyIsCheckedBeforeACachedAnswer() async throws {
        let service = try VietMapService(databasePath: sim.databasePath, apiKeys: ["good"])
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, responder: service)
        try server.start()
        defer { server.stop() }
        let base = URL(string: "http://127.0.0.1:\(server.port)")!
        let (ok, _) = try await body(base, "/api/autocomplete/v4?text=le%20loi&apikey=good")
        let (refused, _) = try await body(base, "/api/autocomplete/v4?text=le%20loi&apikey=bad")
        XCTAssertEqual([ok, refused], [200, 401])
    }
}
