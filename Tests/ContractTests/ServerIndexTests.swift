import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SimTesting
import VietMapSimulator
import VietMapWire
import XCTest

/// The simulator explains itself where a newcomer looks first: `GET /` is an index of every
/// endpoint with the dashboard's state; `/__sim/…` with the admin API off says how to turn it on.
final class ServerIndexTests: XCTestCase {
    private func get(_ url: URL) async throws -> (Int, String, String?) {
        let (data, response) = try await URLSession(configuration: .ephemeral).data(from: url)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, String(decoding: data, as: UTF8.self), http?.value(forHTTPHeaderField: "Content-Type"))
    }

    func testTheRootIsAnIndexAndAnAdminPathSaysHowToTurnItOn() async throws {
        let simulator = try SimulatorServer.start(.init(datasetCacheDirectory: TestDataset.cacheDirectory, adminEnabled: false))
        defer { simulator.stop() }
        let (status, body, type) = try await get(URL(string: "/", relativeTo: simulator.baseURL)!)
        XCTAssertEqual(status, 200)
        XCTAssertEqual(type?.hasPrefix("text/plain"), true, type ?? "no Content-Type")
        XCTAssertTrue(body.contains("Endpoints (\(APIEndpoint.allCases.count)):"), body)
        for endpoint in APIEndpoint.allCases {
            XCTAssertTrue(body.contains(endpoint.documentedPath), "\(endpoint.name) missing")
        }
        XCTAssertTrue(body.contains("apikey=ANY-NON-EMPTY-KEY"), body)
        XCTAssertTrue(body.contains("Dashboard: off"), body)

        let (uiStatus, uiBody, _) = try await get(URL(string: "/__sim/ui/", relativeTo: simulator.baseURL)!)
        XCTAssertEqual(uiStatus, 404)
        XCTAssertTrue(uiBody.contains("vietmap-sim serve --admin"), uiBody)
        // The suggested example answers.
        let (exampleStatus, example, _) = try await get(URL(string: "/api/autocomplete/v4?apikey=ANY-NON-EMPTY-KEY&text=nha%20tho%20duc%20ba",
                                                            relativeTo: simulator.baseURL)!)
        XCTAssertEqual(exampleStatus, 200, example)
    }

    func testWithTheAdminAPIOnTheIndexPointsAtTheDashboard() async throws {
        let simulator = try SimulatorServer.start(.init(datasetCacheDirectory: TestDataset.cacheDirectory, adminEnabled: true))
        defer { simulator.stop() }
        let (status, body, _) = try await get(URL(string: "/", relativeTo: simulator.baseURL)!)
        XCTAssertEqual(status, 200)
        XCTAssertTrue(body.contains("Dashboard: /__sim/ui/"), body)
    }
}
