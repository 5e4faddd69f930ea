import HTTPServer
import XCTest

final class ConditionalRequestTests: XCTestCase {
    private func request(_ ifNoneMatch: String?) -> HTTPRequest {
        var headers = HTTPHeaders()
        if let ifNoneMatch { headers.set("If-None-Match", ifNoneMatch) }
        return HTTPRequest(method: "GET", target: "/x", headers: headers)
    }

    func testIfNoneMatchComparesWeaklyAndHonoursTheWildcard() {
        let tag = "\"0123456789abcdef\""
        XCTAssertFalse(request(nil).ifNoneMatchHolds(tag))
        XCTAssertTrue(request(tag).ifNoneMatchHolds(tag))
        XCTAssertTrue(request("\"other\", \(tag)").ifNoneMatchHolds(tag))
        XCTAssertTrue(request("W/\(tag)").ifNoneMatchHolds(tag))
        XCTAssertTrue(request("*").ifNoneMatchHolds(tag))
        XCTAssertFalse(request("\"other\"").ifNoneMatchHolds(tag))
        XCTAssertFalse(request("0123456789abcdef").ifNoneMatchHolds(tag), "an unquoted value is another tag")
    }
}
