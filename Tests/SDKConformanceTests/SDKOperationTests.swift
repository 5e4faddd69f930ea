import Foundation
import JSON
import XCTest

/// Every operation of VietMap's JS SDK and Flutter plugin, re-enacted against the simulator: the
/// request built exactly as the SDK builds it (JSSDKRequests / FlutterRequests), sent over real
/// HTTP to the shared in-process simulator, and the answer held to the SDK's parsing rules
/// (JSSDKModelRules / FlutterModelRules): HTTP 200 and no violation. Route answers are also
/// decoded as the SDKs decode them and must run between the requested points.
///
/// The endpoints the simulator does not serve yet fail here with their status and body; that is
/// the list of what is missing (docs/sdk-operations.md).
final class SDKOperationTests: XCTestCase {
    private let key = SDKSimulator.apikey

    // Real inputs from the embedded data (HCMC District 1/3).
    private let text = "nha tho duc ba"
    private let focus = (10.7769, 106.7008)
    private let routeStart = (10.7725, 106.6980), routeEnd = (10.7798, 106.6990)
    private let thirdStop = (10.7769, 106.7008)
    private let oldAddress = "Phường 4, Quận 5, Thành phố Hồ Chí Minh"

    // MARK: - JS SDK

    func testJSSearch() throws {
        try nonEmptyList(JSSDKRequests.search(text: text, apikey: key, focus: focus), JSSDKModelRules.searchV3List)
    }

    func testJSAutoCompleteSearch() throws {
        try nonEmptyList(JSSDKRequests.autoCompleteSearch(text: text, apikey: key), JSSDKModelRules.searchV3List)
    }

    func testJSSearchV4() throws {
        try nonEmptyList(JSSDKRequests.searchV4(text: text, apikey: key, focus: focus, .init(displayType: 4)), JSSDKModelRules.searchV4List)
    }

    func testJSAutoCompleteSearchV4() throws {
        // Without a focus the SDK still sends `focus=`.
        try nonEmptyList(JSSDKRequests.autoCompleteSearchV4(text: text, apikey: key), JSSDKModelRules.searchV4List)
    }

    /// The SDK types `circleCenter` as one number, so an app that uses it sends `circleCenter=10.7769`
    /// (docs/sdk-operations.md, quirk 3): the simulator must not refuse the call for it.
    func testJSAutoCompleteSearchV4WithTheOneNumberCircleCenter() throws {
        try nonEmptyList(JSSDKRequests.autoCompleteSearchV4(text: text, apikey: key, focus: focus,
                                                            .init(displayType: 1, circleCenter: focus.0, circleRadius: 2000)),
                         JSSDKModelRules.searchV4List)
    }

    func testJSPlace() throws {
        let place = try realPlace()
        try answer(JSSDKRequests.place(refId: place.refId, apikey: key), JSSDKModelRules.place)
    }

    func testJSPlaceV4() throws {
        let place = try realPlace()
        guard let json = try answer(JSSDKRequests.placeV4(refId: place.refId, apikey: key), JSSDKModelRules.place) else { return }
        XCTAssertEqual(json["lat"]?.doubleValue, place.lat, "placeV4 with `refId=` answers another place than `refid=`")
    }

    func testJSReverse() throws {
        let place = try realPlace()
        try answer(JSSDKRequests.reverse(latitude: place.lat, longitude: place.lng, apikey: key), JSSDKModelRules.reverseV3)
    }

    func testJSReverseV4() throws {
        let place = try realPlace()
        try answer(JSSDKRequests.reverseV4(lat: place.lat, lng: place.lng, apikey: key), JSSDKModelRules.reverseV4)
        try answer(JSSDKRequests.reverseV4(lat: place.lat, lng: place.lng, apikey: key, displayType: 6), JSSDKModelRules.reverseV4)
    }

    func testJSRoute() throws {
        let points = [routeStart, routeEnd]
        guard let json = try answer(JSSDKRequests.route(points: points, .init(apikey: key)), JSSDKModelRules.route) else { return }
        assertPathRuns(json, from: routeStart, to: routeEnd, "JS route")
    }

    func testJSTSP() throws {
        let points = [routeStart, routeEnd, thirdStop]
        guard let json = try answer(JSSDKRequests.tsp(points: points, .init(apikey: key, optimize: true)), JSSDKModelRules.route) else { return }
        // round_trip=true (the SDK's default): the tour ends where it started.
        assertPathRuns(json, from: routeStart, to: routeStart, "JS tsp round_trip=true")
    }

    func testJSMigrateAddress() throws {
        guard let json = try answer(JSSDKRequests.migrateAddress(text: oldAddress, apikey: key), JSSDKModelRules.migrateAddress) else { return }
        assertNewWard(json, "JS migrateAddress")
    }

    // MARK: - Flutter plugin

    func testFlutterAutocompleteV4() throws {
        try nonEmptyList(FlutterRequests.autocompleteV4(text: text, apikey: key, .init(focus: focus, displayType: 5)),
                         FlutterModelRules.autocompleteV4List, flutter: true)
    }

    func testFlutterGeoCodeV4() throws {
        try nonEmptyList(FlutterRequests.geoCodeV4(text: text, apikey: key, .init(focus: focus)),
                         FlutterModelRules.autocompleteV4List, flutter: true)
    }

    func testFlutterAutocomplete() throws {
        try nonEmptyList(FlutterRequests.autocomplete(text: text, apikey: key, focus: focus), FlutterModelRules.autocompleteV3List, flutter: true)
    }

    func testFlutterGeoCode() throws {
        try nonEmptyList(FlutterRequests.geoCode(text: text, apikey: key), FlutterModelRules.autocompleteV3List, flutter: true)
    }

    func testFlutterPlaceV4() throws {
        let place = try realPlace()
        try answer(FlutterRequests.placeV4(refId: place.refId, apikey: key), FlutterModelRules.place, flutter: true)
    }

    func testFlutterPlace() throws {
        let place = try realPlace()
        try answer(FlutterRequests.place(placeId: place.refId, apikey: key), FlutterModelRules.place, flutter: true)
    }

    func testFlutterReverseV4() throws {
        let place = try realPlace()
        // The plugin's default display_type=6.
        try answer(FlutterRequests.reverseV4(lat: place.lat, lng: place.lng, apikey: key), FlutterModelRules.reverseV4, flutter: true)
    }

    func testFlutterReverse() throws {
        let place = try realPlace()
        try answer(FlutterRequests.reverse(lat: place.lat, lng: place.lng, apikey: key), FlutterModelRules.reverseV3, flutter: true)
    }

    func testFlutterRouting() throws {
        let request = FlutterRequests.routing(points: [routeStart, routeEnd], apikey: key)
        guard let json = try answer(request, FlutterModelRules.route, flutter: true) else { return }
        assertPathRuns(json, from: routeStart, to: routeEnd, "Flutter routing")
    }

    func testFlutterMatrix() throws {
        let request = FlutterRequests.matrix(points: [routeStart, routeEnd, thirdStop], apikey: key, sources: [0, 1], destinations: [1, 2])
        guard let json = try answer(request, FlutterModelRules.matrix, flutter: true) else { return }
        for table in ["durations", "distances"] {
            let rows = json[table]?.arrayValue
            XCTAssertEqual(rows?.count, 2, "\(table): one row per source (sources=0;1): \(request)")
            XCTAssertEqual(rows?.map { $0.arrayValue?.count ?? -1 }, [2, 2], "\(table): one column per destination (destinations=1;2)")
        }
    }

    func testFlutterMigrateAddress() throws {
        let request = FlutterRequests.migrateAddress(text: oldAddress, apikey: key, migrateType: 1)
        guard let json = try answer(request, FlutterModelRules.migrateAddress, flutter: true) else { return }
        assertNewWard(json, "Flutter migrateAddress")
    }

    // MARK: - Support

    /// A real place of the embedded data (ref_id and coordinate), found the way an app finds one:
    /// Flutter `autocompleteV4` then `placeV4` — both served today. Looked up once per run.
    private struct RealPlace: Sendable { let refId: String, lat: Double, lng: Double }

    private struct LookupError: Error, CustomStringConvertible { let description: String }

    private static let placeLookup: Result<RealPlace, LookupError> = Result {
        let simulator = try SDKSimulator.get()
        let search = simulator.sendOrNil(FlutterRequests.autocompleteV4(text: "nha tho duc ba", apikey: SDKSimulator.apikey,
                                                                          .init(focus: (10.7769, 106.7008))))
        guard let refId = search?.json.value?[0]?["ref_id"]?.stringValue else {
            throw LookupError(description: "real-place lookup: no ref_id from \(search.map(String.init(describing:)) ?? "no answer")")
        }
        let detail = simulator.sendOrNil(FlutterRequests.placeV4(refId: refId, apikey: SDKSimulator.apikey))
        guard let json = detail?.json.value, let lat = json["lat"]?.doubleValue, let lng = json["lng"]?.doubleValue else {
            throw LookupError(description: "real-place lookup: no lat/lng from \(detail.map(String.init(describing:)) ?? "no answer")")
        }
        return RealPlace(refId: refId, lat: lat, lng: lng)
    }.mapError { $0 as? LookupError ?? LookupError(description: "real-place lookup: \($0)") }

    /// The shared real place; a failed lookup fails the test with its reason.
    private func realPlace() throws -> RealPlace { try Self.placeLookup.get() }

    /// Sends `request`, expects 200 and a JSON body the SDK's `rules` accept; returns the body, or
    /// nil after recording a failure that names the request, the status and the first violations.
    @discardableResult
    private func answer(_ request: SDKRequest, _ rules: (JSONValue) -> [String], flutter: Bool = false,
                        file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue? {
        let exchange = try SDKSimulator.get().send(request)
        guard exchange.status == 200 else {
            XCTFail("\(request)\n  → HTTP \(exchange.status) (the SDK throws on non-2xx): \(exchange.bodyText)", file: file, line: line)
            return nil
        }
        let json: JSONValue
        switch exchange.json {
        case .success(let value): json = value
        case .failure(let error):
            XCTFail("\(request)\n  → 200 but not JSON (\(error)): \(exchange.bodyText)", file: file, line: line)
            return nil
        }
        var violations = rules(json)
        if flutter, !(exchange.contentType ?? "").lowercased().contains("json") {
            violations.insert("Content-Type \(exchange.contentType ?? "absent"): dio does not decode it, every fromJson throws on a String", at: 0)
        }
        if !violations.isEmpty {
            XCTFail("\(request)\n  → 200 with \(violations.count) \(request.sdk) model violation(s):\n    "
                    + violations.prefix(8).joined(separator: "\n    ") + "\n  body: \(exchange.bodyText)", file: file, line: line)
            return nil
        }
        return json
    }

    /// `answer`, and the list must not be empty (the rules hold vacuously for `[]`).
    private func nonEmptyList(_ request: SDKRequest, _ rules: (JSONValue) -> [String], flutter: Bool = false,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        guard let json = try answer(request, rules, flutter: flutter, file: file, line: line) else { return }
        XCTAssertFalse(json.arrayValue?.isEmpty ?? true, "\(request) → [] for a place that exists", file: file, line: line)
    }

    /// The first path's `points`, decoded as the SDKs decode them (precision 5, lat first), start
    /// and end within 300 m of the requested points.
    private func assertPathRuns(_ json: JSONValue, from start: (Double, Double), to end: (Double, Double), _ what: String,
                                file: StaticString = #filePath, line: UInt = #line) {
        guard let encoded = json["paths"]?[0]?["points"]?.stringValue else {
            return XCTFail("\(what): no paths[0].points in \(JSONSerializer.string(json).prefix(300))", file: file, line: line)
        }
        let points: [(Double, Double)]
        do { points = try SDKPolylineDecoder.decode(encoded, precision: 5) } catch {
            return XCTFail("\(what): points do not decode: \(error)", file: file, line: line)
        }
        guard let first = points.first, let last = points.last else {
            return XCTFail("\(what): points decode to nothing", file: file, line: line)
        }
        XCTAssertLessThan(metres(first, start), 300, "\(what): path starts at \(first), requested \(start)", file: file, line: line)
        XCTAssertLessThan(metres(last, end), 300, "\(what): path ends at \(last), requested \(end)", file: file, line: line)
    }

    /// Old ward "Phường 4, Quận 5" is in the 2025 ward Chợ Quán.
    private func assertNewWard(_ json: JSONValue, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let text = [json["address"], json["display"]].compactMap { $0?.stringValue }.joined(separator: " | ")
        XCTAssertTrue(text.contains("Chợ Quán"), "\(what): old→new should give Phường Chợ Quán, got \(text)", file: file, line: line)
    }

    private func metres(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let rad = Double.pi / 180, dLat = (b.0 - a.0) * rad, dLng = (b.1 - a.1) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.0 * rad) * cos(b.0 * rad) * sin(dLng / 2) * sin(dLng / 2)
        return 2 * 6_371_000 * asin(min(1, sqrt(h)))
    }
}
