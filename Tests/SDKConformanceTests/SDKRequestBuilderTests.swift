import XCTest

/// The re-enacted URL builders against targets worked out by hand from the SDK sources and their
/// HTTP libraries (axios 1.x `buildURL`, dio 5 `encodeMap`, Dart and JavaScript number printing).
/// No server: these pin the re-enactment itself.
final class SDKRequestBuilderTests: XCTestCase {
    private let stops = [(10.7725, 106.698), (10.7798, 106.699)]

    func testJSSearchAlwaysSendsFocusAndCamelCaseV4Names() {
        XCTAssertEqual(JSSDKRequests.autoCompleteSearchV4(text: "nha tho duc ba", apikey: "k").target,
                       "/api/autocomplete/v4?text=nha+tho+duc+ba&apikey=k&focus=")
        XCTAssertEqual(JSSDKRequests.searchV4(text: "nha tho", apikey: "k", focus: (10.7769, 106.7008),
                                              .init(displayType: 4, circleCenter: 10.7769, circleRadius: 200, cityId: 12, wardId: 3, distId: 7)).target,
                       "/api/search/v4?text=nha+tho&apikey=k&focus=10.7769,106.7008&displayType=4&circleCenter=10.7769&circleRadius=200&cityId=12&wardId=3&distId=7")
        XCTAssertEqual(JSSDKRequests.search(text: "a", apikey: "k").target, "/api/search/v3?text=a&apikey=k&focus=")
    }

    func testJSPlaceAndReverse() {
        XCTAssertEqual(JSSDKRequests.placeV4(refId: "vm:POI:1", apikey: "k").target, "/api/place/v4?refId=vm:POI:1&apikey=k")
        XCTAssertEqual(JSSDKRequests.reverse(latitude: 10.7769, longitude: 106.7008, apikey: "k").target,
                       "/api/reverse/v3?lat=10.7769&lng=106.7008&apikey=k")
        XCTAssertEqual(JSSDKRequests.reverseV4(lat: 10.7769, lng: 106.0, apikey: "k", displayType: 6).target,
                       "/api/reverse/v4?latitude=10.7769&longitude=106&apikey=k&displayType=6&lat=10.7769&lng=106")
    }

    func testJSRouteTSPAndMigrate() {
        XCTAssertEqual(JSSDKRequests.route(points: stops, .init(apikey: "k")).target,
                       "/api/route?api-version=1.1&point=10.7725,106.698&point=10.7798,106.699&apikey=k&optimize=false&vehicle=car&points_encoded=true")
        XCTAssertEqual(JSSDKRequests.route(points: stops, nil).target, "/api/route?api-version=1.1&point=10.7725,106.698&point=10.7798,106.699")
        XCTAssertEqual(JSSDKRequests.tsp(points: stops, .init(apikey: "k")).target,
                       "/api/tsp?api-version=1.1&point=10.7725,106.698&point=10.7798,106.699&round_trip=true&apikey=k&optimize=false&vehicle=car&points_encoded=true")
        XCTAssertEqual(JSSDKRequests.migrateAddress(text: "Phường 4", apikey: "k", focus: (10.75, 106.67), migrateType: 2).target,
                       "/api/migrate-address/v3?apikey=k&text=Ph%C6%B0%E1%BB%9Dng+4&focus=10.75,106.67&migrate_type=2")
    }

    func testFlutterQueryMapsEncodeCommasAndSpaces() {
        XCTAssertEqual(FlutterRequests.autocompleteV4(text: "nha tho", apikey: "k", .init(focus: (10.7769, 106.7008), displayType: 3, circleCenter: (10.0, 106.0), circleRadius: 200)).target,
                       "/api/autocomplete/v4?apikey=k&text=nha%20tho&focus=10.7769%2C106.7008&display_type=3&circle_center=10.0%2C106.0&circle_radius=200")
        XCTAssertEqual(FlutterRequests.geoCode(text: "a", apikey: "k").target, "/api/autocomplete/v3?apikey=k&text=a")
        XCTAssertEqual(FlutterRequests.placeV4(refId: "vm:POI:1", apikey: "k").target, "/api/place/v4?apikey=k&refid=vm%3APOI%3A1")
        XCTAssertEqual(FlutterRequests.reverseV4(lat: 10.7769, lng: 106.0, apikey: "k").target,
                       "/api/reverse/v4?apikey=k&lat=10.7769&lng=106.0&display_type=6")
        XCTAssertEqual(FlutterRequests.migrateAddress(text: "Phường 4", apikey: "k", migrateType: 1).target,
                       "/api/migrate-address/v3?apikey=k&text=Ph%C6%B0%E1%BB%9Dng%204&migrate_type=1")
    }

    func testFlutterRouteAndMatrixUseTheColonToEqualsTrick() {
        XCTAssertEqual(FlutterRequests.routing(points: stops, apikey: "k").target,
                       "/api/route?api-version=1.1&apikey=k&vehicle=car&optimize=false&point=10.7725,106.698&point=10.7798,106.699")
        XCTAssertEqual(FlutterRequests.matrix(points: stops, apikey: "k", sources: [0, 1], destinations: [1]).target,
                       "/api/matrix?apikey=k&api-version=1.1&sources=0;1&destinations=1&point=10.7725,106.698&point=10.7798,106.699")
        XCTAssertEqual(FlutterRequests.routing(points: stops, apikey: "a b,c").target.split(separator: "&")[1], "apikey=ab")
    }

    func testPolylineDecoderReadsLatitudeFirstAndRejectsTruncation() throws {
        // Google's documented example: (38.5,-120.2), (40.7,-120.95), (43.252,-126.453).
        let points = try SDKPolylineDecoder.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@", precision: 5)
        XCTAssertEqual(points.count, 3)
        XCTAssertEqual(points.last?.0 ?? 0, 43.252, accuracy: 1e-9)
        XCTAssertEqual(points.last?.1 ?? 0, -126.453, accuracy: 1e-9)
        XCTAssertThrowsError(try SDKPolylineDecoder.decode("_p~iF~ps|U_ulL", precision: 5))
    }
}
