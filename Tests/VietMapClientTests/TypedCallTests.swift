import Foundation
import VietMapClient
import XCTest

/// The reference client's three calls, over real HTTP against the in-process simulator.
final class TypedCallTests: XCTestCase {
    let sim = ClientTestSimulator.shared

    func testAutocompleteThenPlaceDetailThenRoute() async throws {
        let provider = sim.provider()
        let items = try await provider.autocomplete(text: "nha tho duc ba", focus: Places.focus)
        let cathedral = try XCTUnwrap(items.first)
        XCTAssertEqual(cathedral.name, "Nhà thờ Đức Bà")
        XCTAssertTrue(cathedral.refId.hasPrefix("auto:"))
        XCTAssertNotNil(cathedral.distance)

        let from = try await provider.placeDetail(refId: cathedral.refId)
        XCTAssertEqual(from.name, "Nhà thờ Đức Bà")
        let fromPoint = VMCoordinate(latitude: try XCTUnwrap(from.lat), longitude: try XCTUnwrap(from.lng))
        XCTAssertEqual(fromPoint.latitude, 10.78, accuracy: 0.01)
        XCTAssertEqual(fromPoint.longitude, 106.70, accuracy: 0.01)

        let markets = try await provider.autocomplete(text: "cho ben thanh", focus: Places.focus)
        let market = try XCTUnwrap(markets.first)
        XCTAssertEqual(market.name, "Chợ Bến Thành")
        let to = try await provider.placeDetail(refId: market.refId)
        let toPoint = VMCoordinate(latitude: try XCTUnwrap(to.lat), longitude: try XCTUnwrap(to.lng))

        let route = try await provider.route(points: [fromPoint, toPoint], vehicle: .motorcycle)
        let path = try XCTUnwrap(route.paths?.first)
        XCTAssertGreaterThan(path.distance, 300)
        XCTAssertLessThan(path.distance, 5_000)
        XCTAssertGreaterThan(path.time ?? 0, 0)
        let line = try decodePolylineStrict(path.points)
        XCTAssertGreaterThan(line.count, 1)
        // The line starts and ends near the two places (snapped onto the road).
        XCTAssertEqual(line.first!.latitude, fromPoint.latitude, accuracy: 0.003)
        XCTAssertEqual(line.last!.longitude, toPoint.longitude, accuracy: 0.003)

        // What arrived: apikey first, `point` repeated in order, 6-decimal coordinates.
        let lastRoute = try XCTUnwrap(sim.log.all.last { $0.path == "/api/route/v4" })
        XCTAssertEqual(lastRoute.items.first, VMParameter("apikey", ClientTestSimulator.apiKey))
        XCTAssertEqual(lastRoute.items.filter { $0.name == "point" }.map(\.value), [fromPoint.queryValue, toPoint.queryValue])
    }

    func testPercentEncodingRoundTrips() async throws {
        let provider = sim.provider()
        let long = String((0..<2_000).map { i -> Character in Array("ab &+#?=%/Đức;ổ")[i % 15] })
        XCTAssertEqual(long.count, 2_000)
        let texts = [
            "a&b", "1+1=2", "C# #tag", "what? where?", "100% /path", "Nhà thờ Đức Bà", "Phố Hàng Đào, Hoàn Kiếm",
            "Ðức (U+00D0) đ", "Nha\u{300} tho\u{31B}\u{300}", "emoji 🛵 & more", "  spaced  ", "apikey=stolen&text=x", long,
        ]
        for text in texts {
            let before = sim.log.all.count
            _ = try await provider.autocomplete(text: text, focus: Places.focus, additionalParameters: [VMParameter("x-echo", text)])
            let entry = try XCTUnwrap(sim.log.all.dropFirst(before).last)
            XCTAssertEqual(entry.path, "/api/autocomplete/v4")
            XCTAssertEqual(entry.items.filter { $0.name == "text" }.map(\.value), [text], "text \(text.prefix(40))")
            // An extra parameter the server ignores (`cats` codes are bounded to 32 characters).
            XCTAssertEqual(entry.items.filter { $0.name == "x-echo" }.map(\.value), [text])
            XCTAssertEqual(entry.items.filter { $0.name == "apikey" }.map(\.value), [ClientTestSimulator.apiKey])
        }
        // The URL itself: nothing that a server could read as a delimiter or a space.
        let url = try provider.url(for: try VMRequest.autocomplete(text: "a+b&c#d?e Đ"))
        let query = try XCTUnwrap(url.query)
        XCTAssertTrue(query.contains("text=a%2Bb%26c%23d%3Fe%20%C4%90"), query)
        XCTAssertNil(url.fragment)
        // Vietnamese text and its ASCII folding find the same place over the wire.
        let accented = try await provider.autocomplete(text: "Nhà thờ Đức Bà")
        XCTAssertEqual(accented.first?.name, "Nhà thờ Đức Bà")
    }

    func testURLBuilding() throws {
        let proxy = HTTPVietMapProvider(baseURL: URL(string: "https://proxy.example.com/vietmap/")!, apiKey: nil)
        let request = try VMRequest.route(points: [Places.benThanhMarket, Places.q3], vehicle: "car")
        XCTAssertEqual(try proxy.url(for: request).absoluteString,
                       "https://proxy.example.com/vietmap/api/route/v4?vehicle=car&points_encoded=true&point=10.772500,106.698000&point=10.779800,106.699000")
        let live = HTTPVietMapProvider.live(apiKey: "k&y")
        XCTAssertEqual(try live.url(for: try VMRequest.placeDetail(refId: "auto:abc_-=")).absoluteString,
                       "https://maps.vietmap.vn/api/place/v4?apikey=k%26y&refid=auto:abc_-%3D")
        XCTAssertEqual(VMCoordinate(latitude: -0.0000004, longitude: -106.5).queryValue, "0.000000,-106.500000")
    }

    func testInvalidArgumentsAreRefusedBeforeSending() async {
        let counting = CountingProvider(sim.provider())
        for call in [
            { () async throws in _ = try await counting.route(points: [Places.focus]) },
            { () async throws in _ = try await counting.route(points: [Places.focus, VMCoordinate(latitude: .nan, longitude: 1)]) },
            { () async throws in _ = try await counting.route(points: [Places.focus, VMCoordinate(latitude: 91, longitude: 1)]) },
            { () async throws in _ = try await counting.autocomplete(text: "  ") },
            { () async throws in _ = try await counting.placeDetail(refId: "") },
        ] {
            let error = await assertThrowsClientError(call)
            guard case .invalidArgument = error else { return XCTFail("\(String(describing: error))") }
        }
        XCTAssertEqual(counting.count, 0)
    }

    func testTypedErrors() async throws {
        let provider = sim.provider()

        // 401: a key the simulator does not accept.
        var error = await assertThrowsClientError { () async throws in
            try await self.sim.provider(apiKey: "wrong").autocomplete(text: "ben thanh")
        }
        XCTAssertEqual(error?.status, 401)
        XCTAssertEqual(error?.apiError?.code, "UNAUTHORIZED")
        XCTAssertEqual(error?.apiError?.isRouteEnvelope, false)

        // 400: display_type 7 is defined nowhere (4 is read as 3, the JS SDK's "as input").
        error = await assertThrowsClientError { () async throws in
            try await provider.autocomplete(text: "ben thanh", displayType: 7)
        }
        XCTAssertEqual(error?.status, 400)
        XCTAssertEqual(error?.apiError?.code, "INVALID_REQUEST")
        XCTAssertTrue(error?.apiError?.message?.contains("display_type") == true)

        // 404: a damaged ref_id.
        error = await assertThrowsClientError { () async throws in
            try await provider.placeDetail(refId: "auto:not-a-real-ref-id")
        }
        XCTAssertEqual(error?.status, 404)
        XCTAssertEqual(error?.apiError?.code, "NOT_FOUND")
        guard case .http(_, let body, _)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertFalse(body.isEmpty)

        // Route 400: the route envelope, decoded.
        error = await assertThrowsClientError { () async throws in
            try await provider.route(points: [VMCoordinate(latitude: 0, longitude: 0), Places.focus])
        }
        XCTAssertEqual(error?.status, 400)
        XCTAssertEqual(error?.apiError, VMAPIError(code: "INVALID_REQUEST", message: error?.apiError?.message,
                                                   license: "vietmap", isRouteEnvelope: true))
        XCTAssertTrue(error?.apiError?.message?.hasPrefix("Cannot find point 0") == true, "\(String(describing: error))")
        error = await assertThrowsClientError { () async throws in
            try await provider.route(points: [Places.benThanhMarket, Places.q3], vehicle: "plane")
        }
        XCTAssertEqual(error?.status, 400)
        XCTAssertEqual(error?.apiError?.code, "INVALID_REQUEST")

        // Route ZERO_RESULTS (HTTP 200): no road between Ho Chi Minh City and Hà Nội in the dataset.
        error = await assertThrowsClientError { () async throws in
            try await provider.route(points: [Places.focus, Places.hoanKiem])
        }
        guard case .noRoute(let apiError)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(apiError.code, "ZERO_RESULTS")
        XCTAssertNotNil(apiError.message)
        XCTAssertNil(error?.status)

        // Transport: nothing listens there.
        error = await assertThrowsClientError { () async throws in
            try await HTTPVietMapProvider.simulator(baseURL: URL(string: "http://127.0.0.1:9")!, session: self.sim.session)
                .autocomplete(text: "x")
        }
        guard case .transport? = error else { return XCTFail("\(String(describing: error))") }
    }

    func testDecodingErrorsAndRouteCodesInside200() async throws {
        func answer(_ endpoint: VMEndpoint, _ body: String, status: Int = 200) -> RecordedVietMapProvider {
            let request: VMRequest = switch endpoint {
            case .autocomplete: try! .autocomplete(text: "x")
            case .place: try! .placeDetail(refId: "r")
            case .route: try! .route(points: [Places.benThanhMarket, Places.q3])
            default: VMRequest(endpoint, [])
            }
            return RecordedVietMapProvider(recordings: [VMRecording(request: request, response: VMRawResponse(status: status, body: Data(body.utf8)))])
        }
        var error = await assertThrowsClientError { () async throws in
            try await answer(.autocomplete, #"{"not":"an array"}"#).autocomplete(text: "x")
        }
        guard case .decoding(let description, let body)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertFalse(description.isEmpty)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), #"{"not":"an array"}"#)

        error = await assertThrowsClientError { () async throws in
            try await answer(.route, #"{"license":"vietmap","code":"OVER_DAILY_LIMIT","messages":["quota","exceeded"],"paths":null}"#)
                .route(points: [Places.benThanhMarket, Places.q3])
        }
        XCTAssertEqual(error?.status, 200)
        XCTAssertEqual(error?.apiError?.code, "OVER_DAILY_LIMIT")
        XCTAssertEqual(error?.apiError?.message, "quota; exceeded")

        // An error status with a body that is not VietMap's: still .http, apiError nil.
        error = await assertThrowsClientError { () async throws in
            try await answer(.place, "<html>Bad gateway</html>", status: 502).placeDetail(refId: "r")
        }
        XCTAssertEqual(error?.status, 502)
        XCTAssertNil(error?.apiError)

        // A route answer without `code` (the reference model's minimal shape) is fine.
        let route = try await answer(.route, #"{"paths":[{"distance":12.5,"points":"_p~iF~ps|U"}]}"#)
            .route(points: [Places.benThanhMarket, Places.q3])
        XCTAssertEqual(route.paths?.first?.distance, 12.5)
    }
}
