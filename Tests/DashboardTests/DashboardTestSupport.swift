import Dashboard
import Foundation
import HTTPServer
import JSON
import Scenarios
import SimTesting
import VietMapAPI
import XCTest

/// The simulator over the shared test dataset behind the scenario engine (admin on, the
/// repository's scenarios) with the dashboard in front — as `serve --admin` wires it.
enum DashboardSimulator {
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    private static let serviceResult: Result<VietMapService, SetupError> = Result {
        try VietMapService(databasePath: try TestDataset.path())
    }.mapError { SetupError(description: "could not open the test dataset: \($0)") }

    static func service() throws -> VietMapService {
        try serviceResult.get()
    }

    static let scenariosDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenarios")
}

extension XCTestCase {
    /// Starts the wired server on an ephemeral port until the test ends.
    func startDashboardServer() throws -> (server: HTTPServer, engine: ScenarioEngine, service: VietMapService) {
        let service = try DashboardSimulator.service()
        let engine = ScenarioEngine(configuration: .init(directory: DashboardSimulator.scenariosDirectory, adminEnabled: true))
        let dashboard = Dashboard(roadGraph: service.roadGraph) { refid in
            service.respond(to: HTTPRequest(method: "GET", path: "/api/place/v4", query: QueryParameters([("apikey", "k"), ("refid", refid)])))
        }
        let server = HTTPServer(configuration: HTTPServerConfiguration(threads: 2),
                                responder: engine.wrap(service, adminRoutes: dashboard.routes))
        try server.start()
        addTeardownBlock { server.stop() }
        return (server, engine, service)
    }

    /// One request on a fresh connection.
    func send(_ server: HTTPServer, _ target: String, method: String = "GET",
              headers: [String: String] = [:]) throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(port: server.port)
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        try client.write("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(extra)Content-Length: 0\r\n\r\n")
        return try client.readResponse()
    }
}

extension RawHTTPClient.Response {
    func json() throws -> JSONValue {
        try JSONParser.parse(body)
    }
}
