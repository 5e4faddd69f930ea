import Capture
import Foundation
import HTTPServer
import Scenarios
import SimTesting
import VietMapAPI
import VietMapClient
import TestExpectations
import Testing

/// The endpoints VietMap's SDKs call beyond the reference client's three go through the capture
/// layer like those: forwarded, recorded under their own names, replayed byte for byte, and
/// refused by the same front door as the simulator (one 405 with one `Allow`).
extension CaptureTests {
    static let sdkSession = [
        "/api/reverse/v4?apikey=\(clientKey)&lat=10.7798&lng=106.6989&display_type=6",
        "/api/reverse/v3?apikey=\(clientKey)&lat=10.7798&lng=106.6989",
        "/api/search/v4?apikey=\(clientKey)&text=nha%20tho%20duc%20ba",
        "/api/autocomplete/v3?apikey=\(clientKey)&text=ben%20thanh",
        "/api/route?api-version=1.1&apikey=\(clientKey)&vehicle=car&point=10.7725,106.6980&point=10.7769,106.7009",
        "/api/route/v3?apikey=\(clientKey)&point=10.7725,106.6980&point=10.7769,106.7009",
        "/api/migrate-address/v3?apikey=\(clientKey)&text=Ph%C6%B0%E1%BB%9Dng%204%2C%20Qu%E1%BA%ADn%205%2C%20TP%20HCM&migrate_type=1",
    ]

    @Test func testTheSDKEndpointsAreRecordedAndReplayedUnderTheirNames() throws {
        let upstream = try startUpstream()
        let directory = try temporaryDirectory()
        let recording = try proxy(to: Self.url(upstream), record: directory)
        let live = try Self.sdkSession.map { try get(recording, $0) }
        expectEqual(live.map(\.status), Array(repeating: 200, count: Self.sdkSession.count),
                       live.map { String(decoding: $0.body.prefix(200), as: UTF8.self) }.joined(separator: "\n"))
        upstream.stop()
        recording.stop()

        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let names = files.map { $0.split(separator: "-").dropFirst().dropLast().joined(separator: "-") }
        expectEqual(names, ["reverse", "reverse-v3", "search", "autocomplete-v3", "route-1.1", "route-v3", "migrate-address"])
        let recordings = try VMRecording.load(directory: directory)
        expectEqual(recordings.map(\.request.endpoint), [.reverse, .reverseV3, .search, .autocompleteV3, .routeV1, .routeV3, .migrateAddress])

        let replay = try start(ReplayResponder(directory: directory))
        let replayed = try Self.sdkSession.map { try get(replay, $0) }
        expectEqual(replayed.map(\.body), live.map(\.body), "byte-identical bodies")
        // Not recorded: 404 in the endpoint's envelope (route 1.1: the route envelope).
        let missing = try get(replay, "/api/route?api-version=1.1&apikey=x&point=10.7725,106.6980&point=10.7800,106.7009")
        expectEqual(missing.status, 404)
        expectTrue(String(decoding: missing.body, as: UTF8.self).contains("\"paths\":null"))
    }

    @Test func testOneFrontDoorForTheSimulatorUpstreamAndReplay() throws {
        let upstream = try startUpstream()
        let forwarding = try proxy(to: Self.url(upstream))
        let replay = try start(ReplayResponder(directory: try temporaryDirectory()))
        let service = try Self.service.get()
        let simulator = try start(service)
        for server in [simulator, forwarding, replay] {
            let client = try RawHTTPClient(port: server.port, receiveTimeout: 15)
            try client.write("POST /api/reverse/v4?apikey=k&lat=10.77&lng=106.69 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
            let post = try client.readResponse()
            expectEqual(post.status, 405)
            expectEqual(post.headers.first { $0.name.lowercased() == "allow" }?.value, "GET, HEAD, OPTIONS")
            let version = try get(server, "/api/matrix?api-version=2&apikey=k&point=10.77,106.69&point=10.78,106.70")
            expectEqual(version.status, 400)
            expectTrue(String(decoding: version.body, as: UTF8.self).contains("\"durations\":null"), "the matrix envelope")
            expectEqual(try get(server, "/api/tsp/v3/?apikey=").status, 401, "trailing slash, empty key")
            expectEqual(try get(server, "/api/nothing?apikey=k").status, 404)
        }
    }

    /// Endpoints whose request data is in the path (Directions v5, the map resources) reach the
    /// upstream with that path — percent-encoded again — and are recorded and replayed by it.
    @Test func testPathCarryingEndpointsAreForwardedWithTheirPath() throws {
        let upstream = try startUpstream()
        let directory = try temporaryDirectory()
        let recording = try proxy(to: Self.url(upstream), record: directory)
        let directions = "/api/navigations/route/directions/v5/mapbox/driving/106.6980,10.7725;106.7009,10.7769.json?apikey=\(Self.clientKey)"
        let live = try get(recording, directions)
        expectEqual(live.status, 200, String(decoding: live.body.prefix(300), as: UTF8.self))
        expectTrue(String(decoding: live.body, as: UTF8.self).contains("\"code\":\"Ok\""))
        // The upstream read the tile from the forwarded path: its 400 names the impossible tile.
        let tile = try get(recording, "/api/tm/3/9/0.png?apikey=\(Self.clientKey)")
        expectEqual(tile.status, 400)
        expectTrue(String(decoding: tile.body, as: UTF8.self).contains("tile 3/9/0 does not exist"))
        // A stack with spaces and a comma gets through the upstream URL (not a 502).
        let glyphs = try get(recording, "/mt/fonts/Roboto%20Regular%2cRoboto%20Medium/0-255.pbf")
        expectNotEqual(glyphs.status, 502, String(decoding: glyphs.body.prefix(300), as: UTF8.self))
        expectNotEqual(glyphs.status, 404, String(decoding: glyphs.body.prefix(300), as: UTF8.self))
        upstream.stop()
        recording.stop()

        let recordings = try VMRecording.load(directory: directory)
        expectEqual(Set(recordings.map(\.request.endpoint)), [.directionsV5, .rasterTile, .glyphs])
        expectEqual(recordings.first { $0.request.endpoint == .rasterTile }?.request.path, "/api/tm/3/9/0.png")
        let replay = try start(ReplayResponder(directory: directory))
        expectEqual(try get(replay, directions).body, live.body, "byte-identical")
        expectEqual(try get(replay, "/api/tm/3/9/0.png?apikey=x").body, tile.body)
        expectEqual(try get(replay, "/api/tm/3/9/1.png?apikey=x").status, 404, "another tile was not recorded")
    }
}
