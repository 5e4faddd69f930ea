import Foundation
import SimTesting
import VietMapSimulator
import XCTest

/// The dashboard's paths behind the admin API's guard, in the whole simulator: a foreign `Host`
/// is refused everywhere; with an admin token the page's files load without it (a browser
/// navigates to them) but its data (roads, place lookups) and the admin API need it.
final class DashboardGuardTests: XCTestCase {
    private func status(_ port: UInt16, _ path: String, headers: [String] = []) throws -> Int {
        let client = try RawHTTPClient(port: port)
        try client.write("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n" + headers.map { $0 + "\r\n" }.joined() + "Connection: close\r\n\r\n")
        return try client.readResponse().status
    }

    func testTokenAndHostGuardTheDashboardData() throws {
        let simulator = try SimulatorServer.start(.init(datasetCacheDirectory: TestDataset.cacheDirectory,
                                                        includeBuiltInScenarios: false, adminToken: "s3cret"))
        defer { simulator.stop() }
        let port = simulator.port
        let roads = "/__sim/roads?bbox=106.69,10.77,106.70,10.78"
        XCTAssertEqual(try status(port, "/__sim/ui/"), 200, "the page loads without the token")
        XCTAssertEqual(try status(port, "/__sim/ui/dashboard.js"), 200)
        XCTAssertEqual(try status(port, roads), 401, "road data needs the token")
        XCTAssertEqual(try status(port, roads, headers: ["Authorization: Bearer s3cret"]), 200)
        XCTAssertEqual(try status(port, roads, headers: ["Authorization: Bearer wrong"]), 401)
        XCTAssertEqual(try status(port, "/__sim/journal", headers: ["Authorization: Bearer s3cret"]), 200)

        // DNS rebinding: a page served as evil.example reaches the loopback port with its own Host.
        let client = try RawHTTPClient(port: port)
        try client.write("GET /__sim/ui/ HTTP/1.1\r\nHost: evil.example:\(port)\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 403)
        let other = try RawHTTPClient(port: port)
        try other.write("GET \(roads) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nOrigin: http://evil.example\r\nAuthorization: Bearer s3cret\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(try other.readResponse().status, 403, "cross-origin reads of road data are refused")
    }
}
