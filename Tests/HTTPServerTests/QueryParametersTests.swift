import HTTPServer
import XCTest

final class QueryParametersTests: XCTestCase {
    func testKeepsOrderAndRepeatedNames() throws {
        let query = try QueryParameters(parsing: "point=1,2&text=a&point=3,4&point=5,6")
        XCTAssertEqual(query.all("point"), ["1,2", "3,4", "5,6"])
        XCTAssertEqual(query.first("point"), "1,2")
        XCTAssertEqual(query.items.map(\.name), ["point", "text", "point", "point"])
        XCTAssertEqual(query.all("missing"), [])
        XCTAssertNil(query.first("missing"))
    }

    func testDecodesPlusPercentAndUTF8() throws {
        let query = try QueryParameters(parsing: "text=Nh%C3%A0%20th%E1%BB%9D&q=a+b%2Bc&k%65y=v")
        XCTAssertEqual(query.first("text"), "Nhà thờ")
        XCTAssertEqual(query.first("q"), "a b+c")
        XCTAssertEqual(query.first("key"), "v")
    }

    func testEmptyPairsAndValues() throws {
        let query = try QueryParameters(parsing: "a=&&b&c=1=2&")
        XCTAssertEqual(query.items.count, 3)
        XCTAssertEqual(query.first("a"), "")
        XCTAssertEqual(query.first("b"), "")
        XCTAssertEqual(query.first("c"), "1=2")
        XCTAssertTrue(try QueryParameters(parsing: "").isEmpty)
    }

    /// The query is split on its bytes: unescaped UTF-8 passes through, and a combining mark
    /// after `&` or `=` (one Character with it) does not hide the delimiter.
    func testRawUTF8AndDelimitersBeforeCombiningMarks() throws {
        let query = try QueryParameters(parsing: "text=Nhà thờ&\u{301}x=\u{301}1")
        XCTAssertEqual(query.first("text"), "Nhà thờ")
        XCTAssertEqual(query.first("\u{301}x"), "\u{301}1")
        XCTAssertEqual(query.items.count, 2)
    }

    func testAliases() throws {
        let query = try QueryParameters(parsing: "displayType=5&display_type=1")
        XCTAssertEqual(query.first(anyOf: ["display_type", "displayType"]), "5")
        XCTAssertNil(query.first(anyOf: ["x", "y"]))
    }

    func testInvalidEscapesThrow() {
        XCTAssertThrowsError(try QueryParameters(parsing: "a=%G1")) { error in
            XCTAssertEqual(error as? QueryParseError, .invalidPercentEscape(component: "%G1"))
        }
        XCTAssertThrowsError(try QueryParameters(parsing: "a=1&b=%4"))
        XCTAssertThrowsError(try QueryParameters(parsing: "a%=1"))
        XCTAssertThrowsError(try QueryParameters(parsing: "text=%E1%BB")) { error in
            XCTAssertEqual(error as? QueryParseError, .invalidUTF8(component: "%E1%BB"))
        }
        XCTAssertThrowsError(try QueryParameters(parsing: "x=%FF"))
    }

    func testRequestFromTarget() {
        let request = HTTPRequest(method: "GET", target: "/api/place%20name/v4?point=1&point=2")
        XCTAssertEqual(request.path, "/api/place name/v4")
        XCTAssertEqual(request.rawQuery, "point=1&point=2")
        XCTAssertEqual(request.query.receivedText, "point=1&point=2")
        XCTAssertEqual(request.query.all("point"), ["1", "2"])
        XCTAssertNil(request.queryError)

        let bad = HTTPRequest(method: "GET", target: "/p%ZZ?x=%G1")
        XCTAssertEqual(bad.path, "/p%ZZ", "path decoding is lenient")
        XCTAssertTrue(bad.query.isEmpty)
        XCTAssertEqual(bad.queryError, .invalidPercentEscape(component: "%G1"))
    }
}

final class HTTPHeadersTests: XCTestCase {
    func testCaseInsensitiveLookupKeepsOrder() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        headers.add("X-Trace", "1")
        headers.add("x-trace", "2")
        XCTAssertEqual(headers["content-type"], "text/plain")
        XCTAssertEqual(headers["X-TRACE"], "1")
        XCTAssertEqual(headers.values(for: "x-Trace"), ["1", "2"])
        XCTAssertEqual(headers.fields.map(\.name), ["Content-Type", "X-Trace", "x-trace"])

        headers.set("X-Trace", "3")
        XCTAssertEqual(headers.values(for: "x-trace"), ["3"])
        XCTAssertEqual(headers.fields.map(\.name), ["Content-Type", "X-Trace"])

        headers["content-type"] = nil
        XCTAssertFalse(headers.contains("Content-Type"))
        XCTAssertEqual(headers.count, 1)
        XCTAssertNil(headers["Content-Typf"])
    }

    func testJSONResponseSetsContentType() {
        let response = HTTPResponse.json(Data("{}".utf8), status: 201)
        XCTAssertEqual(response.status, 201)
        XCTAssertEqual(response.headers["content-type"], "application/json; charset=utf-8")
        XCTAssertEqual(response.transport, .normal)
    }

    func testOneQueryTheTextGoesWhenTheItemsChange() throws {
        var request = HTTPRequest(method: "GET", target: "/p?apikey=scenario%3Aslow&text=a%20b")
        XCTAssertEqual(request.rawQuery, "apikey=scenario%3Aslow&text=a%20b", "as received")
        request.query.items[0].value = "k 1"
        XCTAssertNil(request.query.receivedText, "no stale copy of the query")
        XCTAssertEqual(request.rawQuery, "apikey=k%201&text=a%20b", "the items, encoded")
        XCTAssertEqual(try QueryParameters(parsing: request.rawQuery), request.query)
    }

    func testSameNameIsASCIICaseInsensitiveOnly() {
        let pairs: [(String, String, Bool)] = [
            ("Content-Type", "content-type", true), ("CONTENT-TYPE", "content-type", true),
            ("X-VietMap-Sim-Virtual-Delay", "x-vietmap-sim-virtual-delay", true),  // a heap string (> 15 bytes)
            ("Host", "Hosts", false), ("Host", "Hose", false), ("", "", true),
            // 0x20 apart but not letters: different.
            ("X@", "X`", false), ("X[", "X{", false), ("X-1", "X\r1", false),
            // Non-ASCII bytes compare as they are.
            ("Ví", "VÍ", false), ("Ví", "ví", true),
        ]
        for (a, b, same) in pairs {
            XCTAssertEqual(HTTPHeaders.sameName(a, b), same, "\(a) vs \(b)")
            XCTAssertEqual(HTTPHeaders.sameName(b, a), same, "\(b) vs \(a)")
            // A name cut from a longer text (a substring's copy) compares the same.
            let cut = String(("__" + a).dropFirst(2))
            XCTAssertEqual(HTTPHeaders.sameName(cut, b), same, "\(cut) vs \(b)")
        }
    }

    func testReservedCapacityKeepsTheFields() {
        var headers = HTTPHeaders([(name: "Host", value: "h")])
        headers.reserveCapacity(8)
        headers.add("Accept", "*/*")
        XCTAssertEqual(headers.fields.map(\.name), ["Host", "Accept"])
        XCTAssertEqual(headers["accept"], "*/*")
    }
}
