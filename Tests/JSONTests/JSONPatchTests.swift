import Foundation
import JSON
import TestExpectations
import Testing

/// JSON Pointer (RFC 6901) and JSON Patch (RFC 6902, with the `*` and `x-reverse` extensions).
@Suite final class JSONPatchTests {
    private func pointer(_ text: String) throws -> JSONPointer { try JSONPointer(parsing: text) }

    private func apply(_ operations: [JSONPatch.Operation], to document: String) throws -> JSONValue {
        try JSONPatch(operations).apply(to: JSONParser.parse(document))
    }

    private func assertPatch(_ document: String, _ operations: [JSONPatch.Operation], gives expected: String,
                             filePath: String = #filePath, line: Int = #line) throws {
        expectEqual(try apply(operations, to: document), try JSONParser.parse(expected), filePath: filePath, line: line)
    }

    @Test func testPointerEscapesAndRoundTrip() throws {
        // RFC 6901 §5 examples.
        let document = try JSONParser.parse(#"{"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\j":5,"k\"l":6," ":7,"m~n":8}"#)
        let cases: [(String, JSONValue)] = [("/foo/0", "bar"), ("/", 0), ("/a~1b", 1), ("/c%d", 2), ("/e^f", 3),
                                            ("/g|h", 4), ("/i\\j", 5), ("/k\"l", 6), ("/ ", 7), ("/m~0n", 8)]
        for (text, expected) in cases {
            let parsed = try pointer(text)
            expectEqual(parsed.description, text)
            expectEqual(try JSONPatch([.test(path: parsed, value: expected)]).apply(to: document), document, text)
        }
        expectEqual(try pointer("/m~01").tokens, ["m~1"], "~01 is '~' then '1', not '/'")
        expectEqual(try pointer("").tokens, [])
        expectThrowsError(try pointer("foo"))
        expectThrowsError(try pointer("/a~2b"))
        expectThrowsError(try pointer("/a~"))
    }

    @Test func testRFC6902AppendixExamples() throws {
        // A.1–A.2 add to an object and insert into an array.
        try assertPatch(#"{"foo":"bar"}"#, [.add(path: pointer("/baz"), value: "qux")], gives: #"{"baz":"qux","foo":"bar"}"#)
        try assertPatch(#"{"foo":["bar","baz"]}"#, [.add(path: pointer("/foo/1"), value: "qux")],
                        gives: #"{"foo":["bar","qux","baz"]}"#)
        // A.3–A.4 remove.
        try assertPatch(#"{"baz":"qux","foo":"bar"}"#, [.remove(path: pointer("/baz"))], gives: #"{"foo":"bar"}"#)
        try assertPatch(#"{"foo":["bar","qux","baz"]}"#, [.remove(path: pointer("/foo/1"))], gives: #"{"foo":["bar","baz"]}"#)
        // A.5 replace; A.6–A.7 move.
        try assertPatch(#"{"baz":"qux","foo":"bar"}"#, [.replace(path: pointer("/baz"), value: "boo")],
                        gives: #"{"baz":"boo","foo":"bar"}"#)
        try assertPatch(#"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#,
                        [.move(from: pointer("/foo/waldo"), path: pointer("/qux/thud"))],
                        gives: #"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#)
        try assertPatch(#"{"foo":["all","grass","cows","eat"]}"#, [.move(from: pointer("/foo/1"), path: pointer("/foo/3"))],
                        gives: #"{"foo":["all","cows","eat","grass"]}"#)
        // A.8 test success, A.9 test failure.
        try assertPatch(#"{"baz":"qux","foo":["a",2,"c"]}"#,
                        [.test(path: pointer("/baz"), value: "qux"), .test(path: pointer("/foo/1"), value: 2)],
                        gives: #"{"baz":"qux","foo":["a",2,"c"]}"#)
        expectThrowsError(try apply([.test(path: pointer("/baz"), value: "bar")], to: #"{"baz":"qux"}"#))
        // A.10 add a nested member; A.12 add to a nonexistent target fails.
        try assertPatch(#"{"foo":"bar"}"#, [.add(path: pointer("/child"), value: ["grandchild": [:]])],
                        gives: #"{"foo":"bar","child":{"grandchild":{}}}"#)
        expectThrowsError(try apply([.add(path: pointer("/baz/bat"), value: "qux")], to: #"{"foo":"bar"}"#))
        // A.14 ~1 escape; A.15 numbers compare by value; A.16 append with "-".
        try assertPatch(#"{"/":9,"~1":10}"#, [.test(path: pointer("/~01"), value: 10)], gives: #"{"/":9,"~1":10}"#)
        try assertPatch(#"{"n":1}"#, [.test(path: pointer("/n"), value: 1.0)], gives: #"{"n":1}"#)
        try assertPatch(#"{"foo":["bar"]}"#, [.add(path: pointer("/foo/-"), value: ["abc", "def"])],
                        gives: #"{"foo":["bar",["abc","def"]]}"#)
        // copy, whole-document replace, out-of-range and leading-zero indices.
        try assertPatch(#"{"a":{"b":1}}"#, [.copy(from: pointer("/a"), path: pointer("/c"))], gives: #"{"a":{"b":1},"c":{"b":1}}"#)
        try assertPatch(#"{"a":1}"#, [.replace(path: pointer(""), value: [])], gives: "[]")
        expectThrowsError(try apply([.add(path: pointer("/2"), value: 1)], to: "[0]"))
        expectThrowsError(try apply([.remove(path: pointer("/01"))], to: "[0,1]"))
        expectThrowsError(try apply([.move(from: pointer("/a"), path: pointer("/a/b"))], to: #"{"a":{}}"#))
    }

    @Test func testFailedPatchChangesNothingAndNamesTheOperation() throws {
        let document = try JSONParser.parse(#"{"a":1}"#)
        let patch = JSONPatch([.replace(path: try pointer("/a"), value: 2), .remove(path: try pointer("/missing"))])
        do {
            _ = try patch.apply(to: document)
            fail("expected a failure")
        } catch {
            expectEqual(error.operationIndex, 1)
            expectTrue(error.description.contains("/missing"), error.description)
        }
        expectEqual(document, try JSONParser.parse(#"{"a":1}"#))
    }

    @Test func testWildcardAppliesToEveryArrayElement() throws {
        let items = #"[{"ref_id":"a","name":"x"},{"ref_id":"b","name":"y"}]"#
        try assertPatch(items, [.remove(path: pointer("/*/ref_id"))], gives: #"[{"name":"x"},{"name":"y"}]"#)
        try assertPatch(items, [.replace(path: pointer("/*/name"), value: nil)], gives: #"[{"ref_id":"a","name":null},{"ref_id":"b","name":null}]"#)
        try assertPatch(items, [.move(from: pointer("/*/name"), path: pointer("/*/title"))],
                        gives: #"[{"ref_id":"a","title":"x"},{"ref_id":"b","title":"y"}]"#)
        try assertPatch("[1,2,3]", [.remove(path: pointer("/*"))], gives: "[]")
        try assertPatch("[]", [.remove(path: pointer("/*/ref_id"))], gives: "[]")
        // Nested wildcards and x-reverse: GeoJSON [lng,lat] pairs into bare [lat,lng] arrays.
        let route = #"{"paths":[{"points":{"type":"LineString","coordinates":[[106.7,10.7],[106.8,10.8]]}}]}"#
        try assertPatch(route, [.reverse(path: pointer("/paths/*/points/coordinates/*")),
                                .move(from: pointer("/paths/*/points/coordinates"), path: pointer("/paths/*/points"))],
                        gives: #"{"paths":[{"points":[[10.7,106.7],[10.8,106.8]]}]}"#)
        // On an object '*' is the member named "*" (RFC 6901).
        try assertPatch(#"{"*":1}"#, [.remove(path: pointer("/*"))], gives: "{}")
        expectThrowsError(try apply([.remove(path: pointer("/*/ref_id"))], to: #"[{"name":"x"}]"#))
    }
}
