import HTTPServer
import XCTest

/// `RouteTable` in-process, through the responder: patterns, 404/405/400 and the guard.
final class RouteTableTests: XCTestCase {
    /// Answers with the route's name and its path parameters, sorted.
    private func named(_ name: String) -> any HTTPResponder {
        ClosureResponder { request, reply in
            let parameters = request.pathParameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            reply.send(.text(([name] + parameters).joined(separator: " ")))
        }
    }

    private func table(open: Set<String> = []) -> RouteTable {
        RouteTable([
            HTTPRoute(["GET"], "/x/items", allowsTrailingSlash: true, named("list")),
            HTTPRoute(["GET", "HEAD"], "/x/items/*name", named("item")),
            HTTPRoute(["POST"], "/x/items/*name/save", named("save")),
            HTTPRoute(["DELETE"], "/x/items/:name", named("delete")),
            HTTPRoute(["GET"], "/x/log/#seq", named("entry")),
            HTTPRoute(["GET"], "/x/page/", isOpen: true, ignoresQuery: true, named("page")),
        ], admission: { request, isOpen in
            request.headers["Token"] == nil && !isOpen ? HTTPResponse(status: 401) : nil
        }, failure: { _, failure in
            switch failure {
            case .notFound: return HTTPResponse(status: 404)
            case .methodNotAllowed(let allowed): return HTTPResponse(status: 405, headers: ["Allow": allowed])
            case .malformedQuery(let problem): return .text("\(problem)", status: 400)
            }
        })
    }

    private func answer(_ method: String, _ target: String, token: Bool = true) -> HTTPResponse {
        let answered = Answered()
        let headers: HTTPHeaders = token ? ["Token": "t"] : [:]
        table().respond(to: HTTPRequest(method: method, target: target, headers: headers)) { answered.set($0) }
        return answered.response ?? HTTPResponse(status: 0)
    }

    private func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    func testPatternsPickTheRouteAndItsParameters() {
        XCTAssertEqual(text(answer("GET", "/x/items")), "list")
        XCTAssertEqual(text(answer("GET", "/x/items/")), "list", "a trailing slash where the route allows one")
        XCTAssertEqual(text(answer("GET", "/x/items/a/b")), "item name=a/b", "* takes the rest, slashes included")
        XCTAssertEqual(text(answer("POST", "/x/items/a/b/save")), "save name=a/b", "literal parts after *")
        XCTAssertEqual(text(answer("DELETE", "/x/items/a")), "delete name=a")
        XCTAssertEqual(text(answer("GET", "/x/log/12")), "entry seq=12")
        XCTAssertEqual(answer("GET", "/x/log/twelve").status, 404, "# takes integers only")
        XCTAssertEqual(answer("GET", "/x/items/a/b/c/").status, 200)
        XCTAssertEqual(answer("GET", "/x/other").status, 404)
        XCTAssertEqual(answer("GET", "/x/page").status, 404, "no trailing-slash forgiveness the other way")
    }

    func testAMethodThePathDoesNotTakeIsA405ListingThePathsMethods() {
        let response = answer("DELETE", "/x/items/a/b")
        XCTAssertEqual(response.status, 405)
        XCTAssertEqual(response.headers["Allow"], "GET, HEAD")
        XCTAssertEqual(answer("PUT", "/x/items/a").headers["Allow"], "GET, HEAD, DELETE")
    }

    func testTheGuardComesFirstAndOpenRoutesNeedNoToken() {
        XCTAssertEqual(answer("GET", "/x/items", token: false).status, 401)
        XCTAssertEqual(answer("GET", "/x/nowhere", token: false).status, 401, "unknown paths are guarded too")
        XCTAssertEqual(text(answer("GET", "/x/page/", token: false)), "page")
    }

    func testAMalformedQueryIsA400UnlessTheRouteIgnoresIt() {
        let response = answer("GET", "/x/items?a=%zz")
        XCTAssertEqual(response.status, 400)
        XCTAssertTrue(text(response).contains("%zz"), text(response))
        XCTAssertEqual(text(answer("GET", "/x/page/?a=%zz")), "page")
    }
}

/// The one response a responder sent.
private final class Answered: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: HTTPResponse?
    func set(_ response: HTTPResponse) { lock.withLock { stored = response } }
    var response: HTTPResponse? { lock.withLock { stored } }
}
