import Foundation
import HTTPServer
import JSON
import Polyline
import Scenarios
import SimTesting
import XCTest

/// The polyline-fault scenarios over real HTTP: each changes the real route's polylines as its
/// description says, and the malformed and truncated ones would trap the reference client's
/// `decodePolyline` (its checks reproduced by `ReferenceDecoder`, reporting instead of trapping).
final class PolylineFaultTests: XCTestCase {
    private var server: HTTPServer!

    override func setUpWithError() throws {
        server = try startServer(builtInEngine())
    }

    /// A longer route, so a half of its polyline has several points.
    private let query = "point=10.7769,106.7008&point=10.7626,106.6602&vehicle=car"

    private func path(_ key: String, extra: String = "") throws -> JSONObject {
        let response = try routeOrSkip(server, "/api/route/v4?apikey=\(key)&\(query)\(extra)")
        XCTAssertEqual(response.status, 200)
        return try XCTUnwrap(try response.json()["paths"]?[0]?.objectValue)
    }

    private func polylines(_ path: JSONObject) throws -> (points: String, waypoints: String) {
        (try XCTUnwrap(path["points"]?.stringValue), try XCTUnwrap(path["snapped_waypoints"]?.stringValue))
    }

    func testSwappedPolylineSwapsEveryPoint() throws {
        let real = try polylines(try path("dev"))
        let swapped = try polylines(try path("scenario:swapped-polyline"))
        for (original, changed) in [(real.points, swapped.points), (real.waypoints, swapped.waypoints)] {
            let originalUnits = try Polyline.decodeUnits(original)
            let changedUnits = try Polyline.decodeUnits(changed)
            XCTAssertGreaterThan(originalUnits.count, 1)
            XCTAssertEqual(changedUnits.map(\.0), originalUnits.map(\.1))
            XCTAssertEqual(changedUnits.map(\.1), originalUnits.map(\.0))
        }
        XCTAssertTrue(try Polyline.decode(swapped.points).allSatisfy { $0.lat > 100 && $0.lng < 12 }, "latitude ~106")
    }

    func testPolyline1e6IsTheSameRouteAtAnotherPrecision() throws {
        let real = try polylines(try path("dev"))
        let finer = try polylines(try path("scenario:polyline-1e6"))
        XCTAssertEqual(try Polyline.decode(finer.points, precision: 6), try Polyline.decode(real.points, precision: 5))
        XCTAssertEqual(try Polyline.decode(finer.waypoints, precision: 6), try Polyline.decode(real.waypoints, precision: 5))
        XCTAssertTrue(try Polyline.decode(finer.points).allSatisfy { $0.lat > 100 && $0.lng > 1000 }, "read at 1e5: 10× too large")
    }

    func testTruncatedPolylineIsCutInsideALatitude() throws {
        let real = try polylines(try path("dev"))
        let cut = try polylines(try path("scenario:truncated-polyline"))
        for (original, changed) in [(real.points, cut.points), (real.waypoints, cut.waypoints)] {
            XCTAssertTrue(original.hasPrefix(changed), "a prefix of the real polyline")
            XCTAssertLessThan(changed.count, original.count)
            let points = try Polyline.decodeUnits(original).count
            XCTAssertThrowsError(try Polyline.decodeUnits(changed)) { error in
                let reason = (error as? PolylineError)?.reason
                XCTAssertTrue(reason == .unterminatedValue || reason == .missingLongitude, "\(String(describing: reason))")
            }
            // The first half of the points decodes whole.
            let whole = try Polyline.decodeUnits(original).prefix(points / 2)
            XCTAssertEqual(ReferenceDecoder.decode(changed).trap, "String index is out of bounds", changed)
            XCTAssertTrue(try Polyline.decodeUnits(String(changed.prefix(Polyline.encodedLength(Array(whole)))))
                .elementsEqual(whole) { $0 == $1 })
        }
        XCTAssertNil(ReferenceDecoder.decode(real.points).trap, "the real polyline decodes")
    }

    func testMalformedPolylineTakesEachFormInTurnAndTrapsTheReferenceDecoder() throws {
        let expected = [("_p~iF", "String index is out of bounds"), ("abc def", "Arithmetic overflow"),
                        ("_p~iF~ps|U_", "String index is out of bounds"), ("_p~iF~ps|Ué", "Unexpectedly found nil")]
        for (value, trap) in expected + expected.prefix(1) {
            let malformed = try polylines(try path("scenario:malformed-polyline@turns"))
            XCTAssertEqual(malformed.points, value)
            XCTAssertEqual(malformed.waypoints, value)
            XCTAssertEqual(ReferenceDecoder.decode(value).trap, trap, value)
            XCTAssertThrowsError(try Polyline.decode(value), "our decoder reports it: \(value)")
        }
    }

    func testGeoJSONRoutesAreLeftAlone() throws {
        let real = try path("dev", extra: "&points_encoded=false")
        for name in ["malformed-polyline", "truncated-polyline", "swapped-polyline", "polyline-1e6"] {
            let answer = try path("scenario:\(name)@geojson", extra: "&points_encoded=false")
            XCTAssertEqual(answer["points"], real["points"], name)
            XCTAssertEqual(answer["snapped_waypoints"], real["snapped_waypoints"], name)
        }
    }

    func testATransformThatCannotApplyIsNoted() throws {
        let engine = try makeEngine(#"""
            {"name": "t", "description": "d", "rules": [
              {"match": {"endpoint": "autocomplete"}, "transform": {"polyline": "swap-latlng"}},
              {"match": {"endpoint": "route"}, "respond": {"json": {"paths": [{"points": "abc def"}]}}, "transform": {"polyline": "truncate"}}
            ]}
            """#)
        let server = try startServer(engine)
        XCTAssertEqual(try get(server, "/api/autocomplete/v4?apikey=scenario:t&text=ben").status, 200)
        XCTAssertEqual(try get(server, "/api/route/v4?apikey=scenario:t&\(query)").json()["paths"]?[0]?["points"], "abc def")
        let notes = engine.journal.entries().map(\.note)
        XCTAssertEqual(notes[0], "polyline swap-latlng: no encoded polyline in the answer")
        XCTAssertTrue(notes[1]?.hasPrefix("polyline truncate: /paths/0/points is not a valid polyline") ?? false, "\(notes)")
    }

    /// A polyline whose latitude is 2^62 units (valid, 64-bit) cannot be scaled ×10: the answer is
    /// left as it was and the journal says why — the server does not trap.
    func testPolyline1e6OfAHugeValueIsNotedNotATrap() throws {
        let huge = "____________G?"
        XCTAssertEqual(try Polyline.decodeUnits(huge).first?.0, 1 << 62)
        let engine = try makeEngine(#"""
            {"name": "t", "description": "d", "rules": [
              {"match": {"endpoint": "route"}, "respond": {"json": {"paths": [{"points": "____________G?"}]}}, "transform": {"polyline": "precision-1e6"}}
            ]}
            """#)
        let server = try startServer(engine)
        let response = try get(server, "/api/route/v4?apikey=scenario:t&\(query)")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(try response.json()["paths"]?[0]?["points"], .string(huge))
        let note = engine.journal.entries().last?.note
        XCTAssertTrue(note?.hasPrefix("polyline precision-1e6: /paths/0/points is not a valid polyline") ?? false, "\(String(describing: note))")
        XCTAssertTrue(note?.contains("overflows") ?? false, "\(String(describing: note))")
        XCTAssertEqual(try get(server, "/api/route/v4?apikey=scenario:t&\(query)").status, 200, "the server is still up")
    }
}

extension Polyline {
    /// Characters of the canonical encoding of `units` (for comparing prefixes).
    static func encodedLength(_ units: [(Int, Int)]) throws -> Int {
        try encode(units: units).count
    }
}

/// The reference iOS client's `decodePolyline` (shared/seeds/vietmap-google-ios-client.md §6),
/// step for step, with each operation that would trap reported instead: reading at `endIndex`,
/// `asciiValue!` on a non-ASCII character, `UInt8 - 63` below zero.
enum ReferenceDecoder {
    static func decode(_ encoded: String) -> (points: [(Double, Double)], trap: String?) {
        var coords: [(Double, Double)] = []
        var index = encoded.startIndex
        var lat = 0
        var lng = 0
        var trap: String?
        func value() -> Int? {
            var result = 0
            var shift = 0
            var byte: Int
            repeat {
                guard index < encoded.endIndex else { trap = "String index is out of bounds"; return nil }
                guard let ascii = encoded[index].asciiValue else { trap = "Unexpectedly found nil"; return nil }
                guard ascii >= 63 else { trap = "Arithmetic overflow"; return nil }
                byte = Int(ascii - 63)
                index = encoded.index(after: index)
                result |= (byte & 0x1F) << shift
                shift += 5
            } while byte >= 0x20 && index < encoded.endIndex
            return (result & 1) != 0 ? ~(result >> 1) : (result >> 1)
        }
        func add(_ delta: Int, to total: inout Int) -> Bool {
            let (sum, overflow) = total.addingReportingOverflow(delta)
            if overflow { trap = "Arithmetic overflow" }
            total = sum
            return !overflow
        }
        while index < encoded.endIndex {
            guard let dlat = value(), add(dlat, to: &lat) else { return (coords, trap) }
            guard let dlng = value(), add(dlng, to: &lng) else { return (coords, trap) }
            coords.append((Double(lat) / 1e5, Double(lng) / 1e5))
        }
        return (coords, nil)
    }
}
