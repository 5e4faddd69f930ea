import Foundation
import HTTPServer
import Scenarios
import VietMapWire
import VietMapWireHTTP
import XCTest

/// The engine reads a request's endpoint and key once and hands them down (`HTTPRequest.reading`);
/// the front door behind it takes them from there instead of reading the request again.
final class RequestReadingTests: XCTestCase {
    private final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var requests: [HTTPRequest] = []
        func add(_ request: HTTPRequest) { lock.withLock { requests.append(request) } }
        var last: HTTPRequest? { lock.withLock { requests.last } }
    }

    private func forwarded(_ target: String, engine: ScenarioEngine) throws -> HTTPRequest {
        let seen = Seen()
        let responder = engine.wrap(ClosureResponder { request, reply in
            seen.add(request)
            reply.send(.json(Data("{}".utf8)))
        })
        responder.respond(to: HTTPRequest(method: "GET", target: target), reply: ResponseHandle { _ in })
        return try XCTUnwrap(seen.last, "the inner responder was asked")
    }

    func testTheEngineHandsDownTheEndpointAndTheRealKey() throws {
        let engine = try makeEngine(#"{"name": "quiet", "description": "d", "rules": [{"match": {"endpoint": "route"}, "delay": 1}]}"#,
                                    configuration: .init(apiKeys: ["real"]))
        let byPath = try forwarded("/__scenario/quiet/api/place/v4?apikey=real&refid=x", engine: engine)
        XCTAssertEqual(byPath.path, "/api/place/v4")
        XCTAssertEqual(byPath.reading?.endpoint, .place)
        XCTAssertEqual(byPath.reading?.presentedKey, "real")

        let byKey = try forwarded("/api/autocomplete/v4?apikey=scenario:quiet:real&text=a", engine: engine)
        XCTAssertEqual(byKey.reading?.endpoint, .autocomplete)
        XCTAssertEqual(byKey.reading?.presentedKey, "real", "the real key the scenario key carries")
        XCTAssertEqual(byKey.query.first("apikey"), "real")
        XCTAssertEqual(byKey.rawQuery, "apikey=real&text=a", "one query: its text follows the rewritten key")

        let unknown = try forwarded("/api/nowhere?apikey=real", engine: engine)
        XCTAssertNotNil(unknown.reading)
        XCTAssertNil(unknown.reading?.endpoint)
    }

    func testTheFrontDoorTakesTheReadingItIsHanded() {
        var request = HTTPRequest(method: "GET", target: "/api/place/v4?apikey=wrong&refid=x")
        let door = FrontDoor(apiKeys: ["real"])
        guard case .answered(let refused) = door.admit(request) else { return XCTFail("a wrong key is refused") }
        XCTAssertEqual(refused.status, 401)
        request.reading = RequestReading(endpoint: .placeV3, presentedKey: "real")
        guard case .admitted(let endpoint) = door.admit(request) else { return XCTFail("the handed-down key is checked") }
        XCTAssertEqual(endpoint, .placeV3, "the handed-down endpoint, not the path read again")
    }
}
