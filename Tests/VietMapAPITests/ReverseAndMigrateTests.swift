import Foundation
import HTTPServer
import JSON
import Search
import SeededRandom
import SimTesting
import SQLiteStore
@testable import VietMapAPI
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The shared simulator, for the reverse and migrate-address tests: requests carry a key unless they name one.
struct GeoHarness {
    static let shared = GeoHarness()
    let sim = SimulatorHarness.shared
    var databasePath: String { sim.databasePath }

    func get(_ path: String, _ items: [(String, String)]) async throws -> SimulatorHarness.Reply {
        try await sim.get(path, (items.contains { $0.0 == "apikey" } ? [] : [("apikey", "dev")]) + items)
    }
}

/// Reverse v4/v3 over real HTTP on the default dataset.
final class ReverseGeocodingTests: XCTestCase {
    let geo = GeoHarness.shared
    static let v4Keys = ["lat", "lng", "ref_id", "distance", "address", "name", "display", "boundaries", "categories",
                         "entry_points", "data_old", "data_new"]

    func reverse(_ lat: Double, _ lng: Double, _ extra: [(String, String)] = [], path: String = "/api/reverse/v4") async throws -> [JSONValue] {
        let reply = try await geo.get(path, [("lat", "\(lat)"), ("lng", "\(lng)")] + extra)
        XCTAssertEqual(reply.status, 200, String(decoding: reply.data, as: UTF8.self))
        return try XCTUnwrap(reply.json().arrayValue)
    }

    /// Every 50th ordinary place, its coordinate moved by ~20 m: the first result resolves through
    /// place/v4 to a place within 150 m of the query, in the format its ref_id carries.
    func testFirstResultResolvesNearTheQuery() async throws {
        let database = try Database(path: geo.databasePath)
        let statement = try database.prepare("SELECT lat, lng FROM place WHERE kind != 0 AND id % 50 = 0 ORDER BY id")
        var points: [Coordinate] = []
        while try statement.step() { points.append(Coordinate(lat: statement.double(0), lng: statement.double(1))) }
        XCTAssertGreaterThan(points.count, 300)
        var generator = SplitMix64(seed: 7)
        var timings: [Double] = []
        for (i, place) in points.enumerated() {
            // ~20 m in a pseudo-random direction.
            let angle = Double(generator.next() % 360) * .pi / 180
            let query = Coordinate(lat: place.lat + 0.00018 * sin(angle), lng: place.lng + 0.00018 * cos(angle))
            let started = DispatchTime.now().uptimeNanoseconds
            let direct = geo.sim.service.search.geocoder.reverse(ReverseQuery(point: query))
            timings.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
            XCTAssertEqual(direct.first?.match, .place)
            guard i % 5 == 0 else { continue }  // Every 250th over HTTP.
            let displayType = i % 2 == 0 ? "1" : "2"
            let items = try await reverse(query.lat, query.lng, [("display_type", displayType)])
            let first = try XCTUnwrap(items.first)
            let reply = try await geo.get("/api/place/v4", [("apikey", "dev"), ("refid", first["ref_id"]!.stringValue!)])
            XCTAssertEqual(reply.status, 200)
            let detail = try reply.json()
            let resolved = Coordinate(lat: detail["lat"]!.doubleValue!, lng: detail["lng"]!.doubleValue!)
            XCTAssertLessThan(query.distance(to: resolved), 150, "\(query)")
            XCTAssertEqual(detail["district_id"]?.intValue == 0, displayType == "1", "format follows display_type")
            // distance: planar degrees between the query and the place.
            let expected = ((resolved.lat - query.lat) * (resolved.lat - query.lat) + (resolved.lng - query.lng) * (resolved.lng - query.lng)).squareRoot()
            XCTAssertEqual(first["distance"]!.doubleValue!, expected, accuracy: 1e-9)
            XCTAssertEqual(first["lat"]?.doubleValue, query.lat)
            XCTAssertEqual(first["lng"]?.doubleValue, query.lng)
        }
        timings.sort()
        let p99 = timings[timings.count * 99 / 100], median = timings[timings.count / 2]
        print("reverse geocoding over \(timings.count) points: median \(median) ms, p99 \(p99) ms (debug build)")
    }

    func testResultsAreNearestFirstAndAtMostTen() async throws {
        let items = try await reverse(10.7721, 106.6983)
        XCTAssertFalse(items.isEmpty)
        XCTAssertLessThanOrEqual(items.count, 10)
        let distances = items.map { $0["distance"]!.doubleValue! }
        XCTAssertEqual(distances, distances.sorted())
    }

    func testDisplayTypeShapes() async throws {
        let (lat, lng) = (10.7721, 106.6983)
        let new = try await reverse(lat, lng, [("display_type", "1")])
        let old = try await reverse(lat, lng, [("display_type", "2")])
        let both = try await reverse(lat, lng, [("display_type", "4")])
        let newOld = try await reverse(lat, lng, [("display_type", "5")])
        let oldNew = try await reverse(lat, lng, [("display_type", "6")])
        let omitted = try await reverse(lat, lng)
        for item in new + old + both + newOld + oldNew { XCTAssertEqual(item.objectValue?.keys, Self.v4Keys) }
        XCTAssertEqual(new.first?["boundaries"]?.arrayValue?.map { $0["type"]!.intValue! }, [2, 0])
        XCTAssertEqual(old.first?["boundaries"]?.arrayValue?.map { $0["type"]!.intValue! }, [2, 1, 0])
        XCTAssertEqual(new.first?["data_old"], .null)
        XCTAssertEqual(old.first?["data_new"], .null)
        // 4: one new and one old item per place.
        XCTAssertEqual(both.count, 2 * new.count)
        XCTAssertEqual(both[0]["boundaries"]?.arrayValue?.count, 2)
        XCTAssertEqual(both[1]["boundaries"]?.arrayValue?.count, 3)
        XCTAssertEqual(both[0]["name"], both[1]["name"])
        // 5: new on top, old nested; 6: the other way round. Nested items carry null data_*.
        let nestedOld = try XCTUnwrap(newOld.first?["data_old"]?.objectValue)
        XCTAssertEqual(newOld.first?["data_new"], .null)
        XCTAssertEqual(nestedOld.keys, Self.v4Keys)
        XCTAssertEqual(nestedOld["boundaries"]?.arrayValue?.count, 3)
        XCTAssertEqual(nestedOld["data_old"], .null)
        let nestedNew = try XCTUnwrap(oldNew.first?["data_new"]?.objectValue)
        XCTAssertEqual(oldNew.first?["data_old"], .null)
        XCTAssertEqual(nestedNew["boundaries"]?.arrayValue?.count, 2)
        XCTAssertEqual(newOld.first?["address"], new.first?["address"])
        XCTAssertEqual(oldNew.first?["address"], old.first?["address"])
        // Default: old format.
        XCTAssertEqual(omitted.first?["address"], old.first?["address"])
    }

    func testV3IsOldFormatInTheV3Keys() async throws {
        let items = try await reverse(10.7721, 106.6983, path: "/api/reverse/v3")
        let first = try XCTUnwrap(items.first?.objectValue)
        XCTAssertEqual(first.keys, ["lat", "lng", "ref_id", "distance", "address", "name", "display", "boundaries", "categories"])
        XCTAssertEqual(first["boundaries"]?.arrayValue?.count, 3)
    }

    func testFarFromEveryPlaceAnswersTheWard() async throws {
        // Central Highlands (Buôn Ma Thuột), far outside the dataset's places: the ward only.
        let items = try await reverse(12.6667, 108.0500, [("display_type", "4")])
        XCTAssertEqual(items.count, 2, "one new and one old ward")
        XCTAssertEqual(items.first?["boundaries"]?.arrayValue?.first?["type"]?.intValue, 2)
        for item in items {
            let reply = try await geo.get("/api/place/v4", [("apikey", "dev"), ("refid", item["ref_id"]!.stringValue!)])
            XCTAssertEqual(reply.status, 200, "the ward's ref_id resolves")
        }
        // The open sea far off the coast and another continent: nothing.
        let sea = try await reverse(5.0, 115.0)
        XCTAssertEqual(sea.count, 0)
        let paris = try await reverse(48.8566, 2.3522)
        XCTAssertEqual(paris.count, 0)
    }

    func testBadCoordinatesAre400NamingTheParameter() async throws {
        for (items, name) in [([("lng", "106.7")], "lat"), ([("lat", "10.7")], "lng"), ([("lat", "abc"), ("lng", "106.7")], "lat"),
                              ([("lat", "10.7"), ("lng", "200")], "lng"), ([("lat", "nan"), ("lng", "106.7")], "lat")] {
            let reply = try await geo.get("/api/reverse/v4", items)
            XCTAssertEqual(reply.status, 400, "\(items)")
            let body = try reply.json()
            XCTAssertEqual(body["code"]?.stringValue, "INVALID_REQUEST")
            XCTAssertTrue(body["message"]?.stringValue?.contains("'\(name)'") == true, "\(body)")
        }
        let reply = try await geo.get("/api/reverse/v4", [("lat", "10.77"), ("lng", "106.69"), ("display_type", "3")])
        XCTAssertEqual(reply.status, 400)
    }
}

/// Migrate-address over real HTTP on the default dataset.
final class MigrateAddressTests: XCTestCase {
    let geo = GeoHarness.shared

    func migrate(_ text: String, _ type: Int? = nil, focus: String? = nil) async throws -> SimulatorHarness.Reply {
        var items = [("text", text)]
        if let type { items.append(("migrate_type", "\(type)")) }
        if let focus { items.append(("focus", focus)) }
        return try await geo.get("/api/migrate-address/v3", items)
    }

    func object(_ text: String, _ type: Int? = nil, focus: String? = nil) async throws -> JSONValue {
        let reply = try await migrate(text, type, focus: focus)
        XCTAssertEqual(reply.status, 200, String(decoding: reply.data, as: UTF8.self))
        return try reply.json()
    }

    func testOldToNewPhuong4Quan5IsChoQuan() async throws {
        let body = try await object("197 Trần Phú, Phường 4, Quận 5, Thành phố Hồ Chí Minh", 1)
        XCTAssertEqual(body.objectValue?.keys, ["address", "name", "display", "boundaries"])
        XCTAssertEqual(body["name"]?.stringValue, "197 Trần Phú")
        XCTAssertEqual(body["address"]?.stringValue, "Phường Chợ Quán,Thành Phố Hồ Chí Minh")
        XCTAssertEqual(body["display"]?.stringValue, "197 Trần Phú Phường Chợ Quán,Thành Phố Hồ Chí Minh")
        let boundaries = try XCTUnwrap(body["boundaries"]?.arrayValue)
        XCTAssertEqual(boundaries.map { $0["type"]!.intValue! }, [2, 0])
        XCTAssertEqual(boundaries[0]["name"]?.stringValue, "Chợ Quán")
        XCTAssertEqual(boundaries[0]["full_name"]?.stringValue, "Phường Chợ Quán")
        XCTAssertEqual(boundaries[0].objectValue?.keys, ["type", "id", "name", "prefix", "full_name"])
        // migrate_type defaults to 1.
        let defaulted = try await object("197 Trần Phú, Phường 4, Quận 5, Thành phố Hồ Chí Minh")
        XCTAssertEqual(defaulted["address"], body["address"])
    }

    func testUnaccentedAndAbbreviatedInput() async throws {
        for text in ["197 Tran Phu, Phuong 4, Quan 5, TP HCM", "197 Trần Phú, P.4, Q.5, TP.HCM", "197 Tran Phu P4 Q5 TPHCM",
                     "197 trần phú, phường 4, quận 5, hồ chí minh, Việt Nam"] {
            let body = try await object(text)
            XCTAssertEqual(body["address"]?.stringValue, "Phường Chợ Quán,Thành Phố Hồ Chí Minh", text)
            XCTAssertEqual(body["name"]?.stringValue?.lowercased().hasPrefix("197 tr"), true, "\(text): \(body)")
        }
    }

    func testNewToOldWithFocus() async throws {
        // Chợ Quán was made of old Phường 1, 2 and 4 of Quận 5; the focus picks the one the
        // dataset's nearest place lies in: 75 Trần Nhân Tôn (Phường 4), 460 An Dương Vương (Phường 2).
        let text = "197 Trần Phú, Phường Chợ Quán, Thành phố Hồ Chí Minh"
        let body = try await object(text, 2, focus: "10.76028,106.67527")
        let boundaries = try XCTUnwrap(body["boundaries"]?.arrayValue)
        XCTAssertEqual(boundaries.map { $0["type"]!.intValue! }, [2, 1, 0])
        XCTAssertEqual(boundaries[0]["full_name"]?.stringValue, "Phường 4")
        XCTAssertEqual(boundaries[1]["full_name"]?.stringValue, "Quận 5")
        XCTAssertEqual(body["name"]?.stringValue, "197 Trần Phú")
        XCTAssertEqual(body["address"]?.stringValue, "Phường 4,Quận 5,Thành Phố Hồ Chí Minh")
        let other = try await object(text, 2, focus: "10.75846,106.67654")
        XCTAssertEqual(other["address"]?.stringValue, "Phường 2,Quận 5,Thành Phố Hồ Chí Minh")
        // Round trip.
        let back = try await object("197 Trần Phú, " + body["address"]!.stringValue!, 1)
        XCTAssertEqual(back["address"]?.stringValue, "Phường Chợ Quán,Thành Phố Hồ Chí Minh")
    }

    func testSplitWardDecidedByFocus() async throws {
        // Old Phường Đa Kao (Quận 1) went partly to Phường Tân Định and partly to Phường Sài Gòn.
        let text = "10 Đinh Tiên Hoàng, Phường Đa Kao, Quận 1, TP HCM"
        let north = try await object(text, 1, focus: "10.7915,106.6935")
        XCTAssertEqual(north["address"]?.stringValue, "Phường Tân Định,Thành Phố Hồ Chí Minh")
        let south = try await object(text, 1, focus: "10.7850,106.7025")
        XCTAssertEqual(south["address"]?.stringValue, "Phường Sài Gòn,Thành Phố Hồ Chí Minh")
        // Without a focus: the target holding most of the old ward's places.
        let none = try await object(text, 1)
        XCTAssertEqual(none["address"]?.stringValue, "Phường Tân Định,Thành Phố Hồ Chí Minh")
    }

    func testBadInputs() async throws {
        let missing = try await geo.get("/api/migrate-address/v3", [])
        XCTAssertEqual(missing.status, 400)
        XCTAssertTrue(try missing.json()["message"]?.stringValue?.contains("'text'") == true)
        let badType = try await migrate("Phường 4, Quận 5, TP HCM", 3)
        XCTAssertEqual(badType.status, 400)
        XCTAssertTrue(try badType.json()["message"]?.stringValue?.contains("'migrate_type'") == true)
        let noFocus = try await migrate("Phường Chợ Quán, TP HCM", 2)
        XCTAssertEqual(noFocus.status, 400)
        XCTAssertTrue(try noFocus.json()["message"]?.stringValue?.contains("'focus'") == true)
        let badFocus = try await migrate("Phường Chợ Quán, TP HCM", 2, focus: "north")
        XCTAssertEqual(badFocus.status, 400)
        let nothing = try await migrate("hello world", 1)
        XCTAssertEqual(nothing.status, 404)
        XCTAssertEqual(try nothing.json()["code"]?.stringValue, "NOT_FOUND")
        // A new-scheme-only ward asked old→new: not an old address.
        let wrongScheme = try await migrate("Phường Chợ Quán, TP HCM", 1)
        XCTAssertEqual(wrongScheme.status, 404)
    }
}
