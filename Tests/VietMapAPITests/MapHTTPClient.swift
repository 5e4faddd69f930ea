import Foundation
import HTTPServer
import JSON
import MapTiles
import SimTesting
import XCTest

/// Test support for the map endpoint tests: a client that talks to the shared simulator byte for byte (so `Host`,
/// `Accept-Encoding` and `If-None-Match` are exactly what the test sends — URLSession would add or strip them and
/// inflate gzip itself), follows absolute URLs a style names, and keeps each vector tile it fetched so a class asks
/// for a tile once.
final class MapHTTPClient: @unchecked Sendable {
    // @unchecked: `tiles` is guarded by `lock`.
    static let shared = MapHTTPClient(port: SimulatorHarness.shared.server.port)

    let port: UInt16
    private let lock = NSLock()
    private var tiles: [String: VectorTileReader] = [:]

    init(port: UInt16) { self.port = port }

    /// `GET target` with `headers` (a `Host` of the loopback address unless given).
    func get(_ target: String, headers: [String: String] = [:]) throws -> RawHTTPClient.Response {
        let client = try RawHTTPClient(port: port, receiveTimeout: 30)
        var head = "GET \(target) HTTP/1.1\r\n"
        var all = headers
        if all["Host"] == nil { all["Host"] = "127.0.0.1:\(port)" }
        for (name, value) in all.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        try client.write(head + "Connection: close\r\n\r\n")
        return try client.readResponse()
    }

    /// The path and query of an absolute URL (`http://host/a/b?c` → `/a/b?c`), to send it to this server.
    static func target(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        return String(rest[slash...])
    }

    /// A JSON answer's document.
    static func json(_ response: RawHTTPClient.Response) throws -> JSONValue {
        try JSONParser.parse(response.body)
    }

    /// The standard style as a client on this machine loads it, with key `k`.
    func style() throws -> JSONValue {
        let response = try get("/maps/styles/tm/style.json?apikey=k")
        XCTAssertEqual(response.status, 200)
        return try Self.json(response)
    }

    /// The vector tile template of the standard style (`…/{z}/{x}/{y}.pbf?apikey=k`).
    func vectorTemplate() throws -> String {
        let sources = try XCTUnwrap(style()["sources"]?.objectValue)
        let vector = try XCTUnwrap(sources.members.first { $0.value["type"]?.stringValue == "vector" }?.value)
        return try XCTUnwrap(vector["tiles"]?[0]?.stringValue)
    }

    /// The request path of tile `z/x/y` by the style's template.
    func vectorTarget(_ z: Int, _ x: Int, _ y: Int) throws -> String {
        let url = try vectorTemplate().replacingOccurrences(of: "{z}", with: "\(z)")
            .replacingOccurrences(of: "{x}", with: "\(x)").replacingOccurrences(of: "{y}", with: "\(y)")
        return try XCTUnwrap(Self.target(of: url))
    }

    /// The vector tile `z/x/y`, fetched once (200 decoded; 204 a tile with no layers).
    func vectorTile(_ z: Int, _ x: Int, _ y: Int) throws -> VectorTileReader {
        let key = "\(z)/\(x)/\(y)"
        if let tile = lock.withLock({ tiles[key] }) { return tile }
        let response = try get(try vectorTarget(z, x, y))
        XCTAssertTrue(response.status == 200 || response.status == 204, "\(key): \(response.status)")
        let tile = try VectorTileReader(response.body)
        lock.withLock { tiles[key] = tile }
        return tile
    }
}
