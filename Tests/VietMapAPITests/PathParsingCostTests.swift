import Foundation
import HTTPServer
import SimTesting
import VietMapWire
import XCTest

/// A request path costs time linear in its length, whatever its bytes: a Directions v5 path with
/// 16 KiB of trailing `/`s (which cost 0.9–3.7 s a request when each `/` was dropped with
/// `hasSuffix`/`dropLast`) is read like any other.
final class PathParsingCostTests: XCTestCase {
    let sim = SimulatorHarness.shared
    static let route = APIEndpoint.directionsV5.path + "/mapbox/driving/106.7008,10.7769;106.6990,10.7798.json"

    func testTrailingSlashesAreIgnored() {
        let parsed = DirectionsPath(path: Self.route + String(repeating: "/", count: 16_000))
        XCTAssertEqual(parsed, DirectionsPath(path: Self.route))
        XCTAssertEqual(parsed?.profile, "mapbox/driving")
        XCTAssertEqual(parsed?.coordinates, "106.7008,10.7769;106.6990,10.7798")
        XCTAssertNil(DirectionsPath(path: APIEndpoint.directionsV5.path + "/" + String(repeating: "/", count: 16_000)))
        XCTAssertNil(DirectionsPath(path: APIEndpoint.directionsV5.path + "/mapbox/driving/.json///"))
        XCTAssertEqual(DirectionsPath(path: APIEndpoint.directionsV5.path + "/mapbox/driving/1,2;3,4")?.coordinates, "1,2;3,4")
    }

    /// 8 clients × 2 requests with 16,000 trailing `/`s, and a normal request among them: every one
    /// is answered within a generous bound (before, in a debug build, one such request took ≈ 7 s
    /// of a server thread, so 16 of them on 4 threads took half a minute).
    func testManyPathsOfTrailingSlashesAreAnsweredLikeAnyOther() throws {
        let target = Self.route + String(repeating: "/", count: 16_000) + "?apikey=dev"
        let statuses = Locked<[Int]>([])
        let group = DispatchGroup()
        let port = sim.server.port
        for _ in 0..<8 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                for _ in 0..<2 {
                    let status = (try? RawHTTPClient(port: port)).flatMap { client in
                        (try? client.get(target)).flatMap { try? client.readResponse().status }
                    }
                    statuses.withLock { $0.append(status ?? 0) }
                }
            }
        }
        let normal = try sim.rawGet("/api/autocomplete/v4?apikey=dev&text=ben%20thanh")
        XCTAssertEqual(normal.status, 200)
        XCTAssertEqual(group.wait(timeout: .now() + 20), .success, "16 paths of 16 KiB answered within 20 s")
        XCTAssertEqual(statuses.withLock { $0 }, Array(repeating: 200, count: 16))
    }
}

/// A value behind a lock, for the test's threads.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&value) }
    }
}
