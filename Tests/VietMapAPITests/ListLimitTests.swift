import Foundation
import HTTPServer
import JSON
import SimTesting
import SQLiteStore
@testable import VietMapAPI
import VietMapWire
import XCTest

/// Every list parameter is bounded: an oversized list is a 400 in the endpoint's error shape that
/// names the parameter and the limit, refused before any search runs.
final class ListLimitTests: XCTestCase {
    let sim = SimulatorHarness.shared

    private func message(_ reply: SimulatorHarness.Reply, key: String = "message") throws -> String {
        try XCTUnwrap(reply.json()[key]?.stringValue)
    }

    func testCategoriesAreBoundedAt50() async throws {
        let fifty = (1...50).map { "\(1000 + $0)-1" }.joined(separator: ",")
        let ok = try await sim.get("/api/autocomplete/v4", [("apikey", "dev"), ("text", "pho"), ("cats", fifty)])
        XCTAssertEqual(ok.status, 200)

        // 51, the 995 that used to exceed SQLite's expression depth (an unlogged 500), and 3000.
        for count in [51, 995, 3_000] {
            let cats = (1...count).map { "\($0 % 10)" }.joined(separator: ",")
            let reply = try await sim.get("/api/autocomplete/v4", [("apikey", "dev"), ("text", "pho"), ("cats", cats)])
            XCTAssertEqual(reply.status, 400, "\(count) codes")
            XCTAssertEqual(try reply.json()["code"], "INVALID_REQUEST")
            XCTAssertEqual(try message(reply), "parameter 'cats' has \(count) category codes, at most 50")
        }
    }

    func testOverlongCategoryCodeIs400() async throws {
        let reply = try await sim.get("/api/autocomplete/v4", [("apikey", "dev"), ("text", "pho"), ("cats", String(repeating: "9", count: 33))])
        XCTAssertEqual(reply.status, 400)
        let text = try message(reply)
        XCTAssertTrue(text.contains("longer than 32"), text)
    }

    func testCategoryCodesArePlainCodesNotPatterns() async throws {
        for code in ["%", "10_1", "1001;DROP"] {
            let reply = try await sim.get("/api/autocomplete/v4", [("apikey", "dev"), ("text", "pho"), ("cats", "1001," + code)])
            XCTAssertEqual(reply.status, 400, code)
            let text = try message(reply)
            XCTAssertTrue(text.contains("letters, digits and '-'"), text)
        }
    }

    func testLayersAreBoundedAt8() async throws {
        let eight = ["POI", "ADDRESS", "STREET", "WARD", "DIST", "CITY", "VILLAGE", "BUILDING"].joined(separator: ",")
        let ok = try await sim.get("/api/autocomplete/v4", [("apikey", "dev"), ("text", "ben thanh"), ("layers", eight)])
        XCTAssertEqual(ok.status, 200)
        let nine = try await sim.get("/api/autocomplete/v4", [("apikey", "dev"), ("text", "ben thanh"), ("layers", eight + ",POI")])
        XCTAssertEqual(nine.status, 400)
        XCTAssertEqual(try message(nine), "parameter 'layers' has 9 layers, at most 8")
    }

    func testAvoidIsBoundedInTheRouteEnvelope() async throws {
        let points = [("point", "10.7725,106.6980"), ("point", "10.7769,106.7009")]
        let many = Array(repeating: "toll", count: 9).joined(separator: ",")
        let reply = try await sim.get("/api/route/v4", [("apikey", "dev")] + points + [("avoid", many)])
        XCTAssertEqual(reply.status, 400)
        XCTAssertEqual(try message(reply, key: "messages"), "parameter 'avoid' has 9 values, at most 8")
        XCTAssertEqual(try reply.json()["paths"], .null)
    }

    func testTooManyPointsIsRefused() async throws {
        let points = (0..<300).map { ("point", "10.77\($0 % 10),106.69") }
        let reply = try await sim.get("/api/route/v4", [("apikey", "dev")] + points)
        XCTAssertEqual(reply.status, 400)
        XCTAssertEqual(try reply.json()["code"], "MAX_POINTS_EXCEED")
    }
}

/// A 500 is logged with its cause: method, path and what failed, on one line.
final class InternalErrorLogTests: XCTestCase {
    final class Lines: @unchecked Sendable {
        // @unchecked: `lines` only under `lock`.
        private let lock = NSLock()
        private var stored: [String] = []
        func append(_ line: String) { lock.lock(); stored.append(line); lock.unlock() }
        var lines: [String] { lock.lock(); defer { lock.unlock() }; return stored }
    }

    func testA500IsLoggedWithMethodPathAndCause() throws {
        // (No request can fail inside search any more: the index, the exact names, the name starts and
        // the typo vocabulary are all read at start. The line a failure writes, from a real SQLite error.)
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("log500-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try Database(path: directory.appendingPathComponent("x.sqlite").path, mode: .create)
        var failure: (any Error)?
        do { _ = try db.prepare("SELECT term FROM place_name_fts\n WHERE 1") } catch { failure = error }
        let error = APIError.internalFailure(try XCTUnwrap(failure))
        XCTAssertEqual(error.status, 500)
        let line = VietMapService.failureLine(error, method: "GET", path: "/api/autocomplete/v4")
        XCTAssertTrue(line.hasPrefix("vietmap-sim: 500 GET /api/autocomplete/v4: ERROR_UNKNOWN: "), line)
        XCTAssertTrue(line.contains("place_name_fts"), "the cause names what failed: \(line)")
        XCTAssertFalse(line.contains("\n"))
    }
}
