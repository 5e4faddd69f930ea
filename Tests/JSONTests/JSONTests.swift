import Foundation
import TestExpectations
import Testing
import JSON

@Suite final class JSONTests {
    @Test func testRoundTripKeepsKeyOrderAndIntegers() throws {
        let text = #"{"license":"vietmap","code":"OK","messages":null,"paths":[{"distance":2194.4,"time":351400,"bbox":[106.70594,10.79479],"ok":true}]}"#
        let value = try JSONParser.parse(text)
        expectEqual(JSONSerializer.string(value), text)
        expectEqual(value["paths"]?[0]?["time"], .integer(351400))
        expectEqual(value.objectValue?.keys, ["license", "code", "messages", "paths"])
    }

    @Test func testStringsEscapeAndUnicode() throws {
        let value: JSONValue = .string("Nhà thờ \"Đức Bà\"\n\\ \u{01}")
        let text = JSONSerializer.string(value)
        expectEqual(text, #""Nhà thờ \"Đức Bà\"\n\\ \u0001""#)
        expectEqual(try JSONParser.parse(text), value)
        expectEqual(try JSONParser.parse(#""\ud83d\ude00 \u0110""#), .string("😀 Đ"))
    }

    /// The writer's bytes equal the serializer's for the same document: nesting, commas,
    /// escapes (runs before, between and after escaped bytes), numbers and null.
    @Test func testWriterMatchesSerializer() throws {
        let document: JSONValue = [
            "a": .string("x\"y\\z\u{1F}\t end"), "empty": .array([]),
            "items": .array([.object(JSONObject([("n", .number(2194.4)), ("i", .integer(-7)), ("z", .null)])), .string("")]),
            "nested": .object(JSONObject([("o", .object(JSONObject([]))), ("v", .bool(true))])),
        ]
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("a"); writer.string("x\"y\\z\u{1F}\t end")
        writer.key("empty"); writer.beginArray(); writer.endArray()
        writer.key("items"); writer.beginArray()
        writer.beginObject()
        writer.key("n"); writer.number(2194.4)
        writer.key("i"); writer.integer(-7)
        writer.key("z"); writer.null()
        writer.endObject()
        writer.string("")
        writer.endArray()
        writer.key("nested"); writer.beginObject()
        writer.key("o"); writer.beginObject(); writer.endObject()
        writer.key("v"); writer.value(.bool(true))
        writer.endObject()
        writer.endObject()
        expectEqual(String(decoding: writer.bytes, as: UTF8.self), JSONSerializer.string(document))
        expectEqual(JSONSerializer.string(.string("\u{1F}\"")), #""\u001f\"""#)
    }

    /// The writer prints every number, boolean and string exactly as the serializer prints the same `JSONValue`
    /// (the route, matrix, TSP and Directions answers moved from trees to the writer and must not change a byte):
    /// integral doubles below 1e15 without a fraction, from 1e15 Swift's `description` ("1000000000000000.0", an
    /// exponent beyond 2^53), -0 as "0", non-finite as null, the shortest round-tripping digits otherwise;
    /// integers as `String(Int)`.
    @Test func testWriterPrintsValuesAsTheSerializer() {
        let doubles: [Double] = [0, -0.0, 1, -1, 0.5, 4999.1, -2.42, 0.1 + 0.2, 1e-7, .leastNonzeroMagnitude, 106.700812, 10.776923,
                                 999_999_999_999_999, 1e15, -1e15, 1.5e15, 2e20, 9_007_199_254_740_992, .greatestFiniteMagnitude,
                                 .nan, .infinity, -.infinity, (4.999_95 * 10).rounded() / 10, Double(351_400) / 1000]
        let expected = ["0", "0", "1", "-1", "0.5", "4999.1", "-2.42", "0.30000000000000004", "1e-07", "5e-324", "106.700812",
                        "10.776923", "999999999999999", "1000000000000000.0", "-1000000000000000.0", "1500000000000000.0", "2e+20",
                        "9007199254740992.0", "1.7976931348623157e+308", "null", "null", "null", "5", "351.4"]
        for (value, text) in zip(doubles, expected) {
            var writer = JSONWriter()
            writer.number(value)
            expectEqual(String(decoding: writer.bytes, as: UTF8.self), text, "\(value)")
            expectEqual(writer.bytes, JSONSerializer.bytes(.number(value)), "\(value)")
        }
        for value in [0, -7, 351_400, Int.max, Int.min] {
            var writer = JSONWriter()
            writer.integer(value)
            expectEqual(writer.bytes, JSONSerializer.bytes(.integer(value)))
            expectEqual(String(decoding: writer.bytes, as: UTF8.self), String(value))
        }
        var writer = JSONWriter()
        writer.beginArray()
        writer.bool(true); writer.bool(false)
        writer.string("Đường \"Lê Lợi\"\u{7F}\u{0}/"); writer.null()
        writer.beginObject(); writer.member("exited", true); writer.member("n", number: -0.0); writer.endObject()
        writer.endArray()
        expectEqual(writer.bytes, JSONSerializer.bytes([.bool(true), .bool(false), .string("Đường \"Lê Lợi\"\u{7F}\u{0}/"), .null,
                                                           .object(JSONObject([("exited", .bool(true)), ("n", .number(-0.0))]))]))
        expectEqual(String(decoding: writer.bytes, as: UTF8.self), #"[true,false,"Đường \"Lê Lợi\"\#u{7F}\u0000/",null,{"exited":true,"n":0}]"#)
    }

    @Test func testNumbers() throws {
        expectEqual(JSONSerializer.string(.number(0.06911172534949989)), "0.06911172534949989")
        expectEqual(JSONSerializer.string(.number(12)), "12")
        expectEqual(JSONSerializer.string(.number(.nan)), "null")
        expectEqual(try JSONParser.parse("-1.5e3"), .number(-1500))
        expectEqual(try JSONParser.parse("0"), .integer(0))
    }

    @Test func testMalformedInputIsAnErrorNotACrash() {
        for bad in ["", "{", "[1,", #"{"a" 1}"#, "01", "1.", "-", "tru", #""\x""#, #""\ud800""#, "[1]]", "{\"a\":1,}", "\"a\u{01}\""] {
            expectThrowsError(try JSONParser.parse(bad), "should reject \(bad)")
        }
        let deep = String(repeating: "[", count: 10_000)
        expectThrowsError(try JSONParser.parse(deep))
    }

    @Test func testObjectSubscriptReplacesInPlace() {
        var object = JSONObject([("a", 1), ("b", 2)])
        object["a"] = 3
        object["c"] = nil
        object["b"] = nil
        expectEqual(object.keys, ["a"])
        expectEqual(object["a"], .integer(3))
    }
}
