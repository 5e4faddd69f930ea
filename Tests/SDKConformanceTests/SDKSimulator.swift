import Foundation
import JSON
import SimTesting
import VietMapSimulator

/// One in-process simulator for the SDK conformance tests — a `SimulatorServer` on a free loopback
/// port with the embedded default data and the built-in scenarios — started on first use and
/// shared by every test of the target; requests go out byte-exact over a raw socket.
final class SDKSimulator: @unchecked Sendable {
    // @unchecked: immutable after init.
    private static let shared: Result<SDKSimulator, SetupError> = Result { try SDKSimulator() }
        .mapError { SetupError(description: "could not start the simulator: \($0)") }

    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    /// The API key the tests present (any non-empty key is accepted).
    static let apikey = "sdk-conformance"

    let server: SimulatorServer

    private init() throws {
        server = try SimulatorServer.start(.init(datasetCacheDirectory: TestDataset.cacheDirectory))
    }

    /// The shared simulator, or the test fails with why it could not start.
    static func get() throws -> SDKSimulator { try shared.get() }

    /// What came back for one SDK request.
    struct Exchange: CustomStringConvertible {
        let request: SDKRequest
        let status: Int
        let contentType: String?
        let body: Data
        /// The body parsed, or why it is not JSON.
        let json: Result<JSONValue, JSONParser.Error>

        var bodyText: String { String(decoding: body.prefix(400), as: UTF8.self) }
        var description: String { "\(request) → \(status) \(contentType ?? "(no Content-Type)") \(bodyText)" }
    }

    /// Sends `request.target` exactly as the SDK builds it (one connection, `Connection: close`).
    func send(_ request: SDKRequest) throws -> Exchange {
        let client = try RawHTTPClient(port: server.port, receiveTimeout: 30)
        try client.write("GET \(request.target) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAccept: application/json, text/plain, */*\r\nConnection: close\r\n\r\n")
        let response = try client.readResponse()
        let json = Result { () throws(JSONParser.Error) -> JSONValue in try JSONParser.parse(response.body) }
        return Exchange(request: request, status: response.status, contentType: response.header("Content-Type"),
                        body: response.body, json: json)
    }

    /// `send`, with a transport failure as nil (for look-ups whose caller reports the miss).
    func sendOrNil(_ request: SDKRequest) -> Exchange? { try? send(request) }
}

extension Result {
    /// The success value, nil on failure.
    var value: Success? { try? get() }
}
