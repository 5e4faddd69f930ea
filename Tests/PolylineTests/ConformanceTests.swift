import XCTest
import Polyline

/// Runs every group of Fixtures/vectors.json. Each failure names the vector.
final class ConformanceTests: XCTestCase {

    func testVectors() throws {
        let group = Vectors.group("vectors")
        XCTAssertEqual(group.count, 47)
        var encodes = 0, decodes = 0
        for v in group {
            let name = v.name
            let precision = try XCTUnwrap(v.int("precision"), name)
            let encoded = try XCTUnwrap(v.string("encoded"), name)
            let points = try XCTUnwrap(v.points, name)
            let direction = try XCTUnwrap(v.string("direction"), name)
            XCTAssert(["both", "encode", "decode"].contains(direction), "\(name): direction \(direction)")
            if direction != "decode" {
                encodes += 1
                do {
                    let got = try Polyline.encode(points, precision: precision)
                    XCTAssertEqual(got, encoded, "[vectors] encode: \(name)")
                } catch {
                    XCTFail("[vectors] encode threw \(error): \(name)")
                }
            }
            if direction != "encode" {
                decodes += 1
                do {
                    let got = try Polyline.decode(encoded, precision: precision)
                    if let m = mismatch(got, points, tolerance: v.double("tolerance")) {
                        XCTFail("[vectors] decode \(m): \(name)")
                    }
                } catch {
                    XCTFail("[vectors] decode threw \(error): \(name)")
                }
            }
        }
        print("[vectors] \(group.count) vectors: \(encodes) encode checks, \(decodes) decode checks")
    }

    func testRoundtrip() throws {
        let group = Vectors.group("roundtrip")
        XCTAssertEqual(group.count, 4)
        for v in group {
            let name = v.name
            let precision = try XCTUnwrap(v.int("precision"), name)
            if let encoded = v.string("encoded") {
                do {
                    let decoded = try Polyline.decode(encoded, precision: precision)
                    XCTAssertEqual(try Polyline.encode(decoded, precision: precision), encoded,
                                   "[roundtrip] decode->encode: \(name)")
                    // The integer path agrees with the degree path.
                    let units = try Polyline.decodeUnits(encoded)
                    XCTAssertEqual(try Polyline.encode(units: units), encoded, "[roundtrip] units: \(name)")
                } catch {
                    XCTFail("[roundtrip] threw \(error): \(name)")
                }
            } else {
                let points = try XCTUnwrap(v.points, name)
                do {
                    let encoded = try Polyline.encode(points, precision: precision)
                    let decoded = try Polyline.decode(encoded, precision: precision)
                    XCTAssertNil(mismatch(decoded, points, tolerance: nil), "[roundtrip] encode->decode: \(name)")
                } catch {
                    XCTFail("[roundtrip] threw \(error): \(name)")
                }
            }
        }
    }

    func testDecodeChecks() throws {
        let group = Vectors.group("decode_checks")
        XCTAssertEqual(group.count, 7)
        for v in group {
            let name = v.name
            let precision = try XCTUnwrap(v.int("precision"), name)
            let encoded = try XCTUnwrap(v.string("encoded"), name)
            let decoded: [Coordinate2D]
            do { decoded = try Polyline.decode(encoded, precision: precision) } catch {
                XCTFail("[decode_checks] threw \(error): \(name)")
                continue
            }
            if let count = v.int("count") {
                XCTAssertEqual(decoded.count, count, "[decode_checks] count: \(name)")
            }
            let checks = v["checks"] as? [[String: Any]] ?? []
            for check in checks {
                let index = try XCTUnwrap(check.int("index"), name)
                let i = index < 0 ? decoded.count + index : index
                guard decoded.indices.contains(i) else {
                    XCTFail("[decode_checks] index \(index) out of range: \(name)")
                    continue
                }
                let tolerance = check.double("tolerance") ?? 1e-9
                if let lat = check.double("lat") {
                    XCTAssertEqual(decoded[i].lat, lat, accuracy: tolerance, "[decode_checks] lat[\(index)]: \(name)")
                }
                if let lng = check.double("lng") {
                    XCTAssertEqual(decoded[i].lng, lng, accuracy: tolerance, "[decode_checks] lng[\(index)]: \(name)")
                }
            }
        }
    }

    func testIntegers() throws {
        let group = Vectors.group("integers")
        XCTAssertEqual(group.count, 11)
        for v in group {
            let name = v.name
            let value = try XCTUnwrap(Int64(try XCTUnwrap(v.string("value_string"))), name)
            let encoded = try XCTUnwrap(v.string("encoded"), name)
            let direction = v.string("direction") ?? "both"
            if direction != "decode" {
                XCTAssertEqual(Polyline.encodeInteger(value), encoded, "[integers] encode: \(name)")
            }
            if direction != "encode" {
                XCTAssertEqual(try Polyline.decodeInteger(encoded), value, "[integers] decode: \(name)")
                XCTAssertEqual(try Polyline.decodeInteger(bytes: Array(encoded.utf8)), value, "[integers] bytes: \(name)")
            }
        }
    }

    func testUnsigned() throws {
        let group = Vectors.group("unsigned")
        XCTAssertEqual(group.count, 8)
        for v in group {
            let name = v.name
            let value = try XCTUnwrap(UInt64(try XCTUnwrap(v.string("value_string"))), name)
            let encoded = try XCTUnwrap(v.string("encoded"), name)
            let direction = v.string("direction") ?? "both"
            if direction != "decode" {
                XCTAssertEqual(Polyline.encodeUnsigned(value), encoded, "[unsigned] encode: \(name)")
            }
            if direction != "encode" {
                XCTAssertEqual(try Polyline.decodeUnsigned(encoded), value, "[unsigned] decode: \(name)")
            }
        }
    }

    func testInvalid() throws {
        let group = Vectors.group("invalid")
        XCTAssertEqual(group.count, 29)
        var kinds: [String: Int] = [:]
        for v in group {
            let name = v.name
            let kind = try XCTUnwrap(v.string("kind"), name)
            let precision = try XCTUnwrap(v.int("precision"), name)
            kinds[kind, default: 0] += 1
            switch kind {
            case "decode", "decode-parameter":
                let bytes = try XCTUnwrap(v.inputBytes, name)
                var errors: [PolylineError] = []
                do {
                    let got = try Polyline.decode(bytes: bytes, precision: precision)
                    XCTFail("[invalid] decode(bytes:) returned \(got.count) points instead of failing: \(name)")
                } catch { errors.append(error) }
                if let s = v.string("encoded"), !s.isEmpty || bytes.isEmpty {
                    // Same verdict through the String API whenever the input is valid UTF-8.
                    do {
                        let got = try Polyline.decode(s, precision: precision)
                        XCTFail("[invalid] decode(String) returned \(got.count) points: \(name)")
                    } catch { errors.append(error) }
                }
                if errors.count == 2 { XCTAssertEqual(errors[0], errors[1], "[invalid] String vs bytes: \(name)") }
                if let e = errors.first {
                    if kind == "decode-parameter" {
                        XCTAssertEqual(e, PolylineError(.invalidPrecision(precision)), "[invalid] \(name)")
                    } else {
                        XCTAssertNotNil(e.offset, "[invalid] decode error without offset: \(name)")
                        if let o = e.offset { XCTAssert(o >= 0 && o <= bytes.count, "[invalid] offset \(o): \(name)") }
                    }
                }
            case "encode", "encode-parameter":
                let points = try XCTUnwrap(v.points, name)
                do {
                    let got = try Polyline.encode(points, precision: precision)
                    XCTFail("[invalid] encode returned \(got) instead of failing: \(name)")
                } catch {
                    if kind == "encode-parameter" {
                        XCTAssertEqual(error, PolylineError(.invalidPrecision(precision)), "[invalid] \(name)")
                    } else {
                        XCTAssertNotNil(error.index, "[invalid] encode error without index: \(name)")
                        switch error.reason {
                        case .latitudeOutOfRange, .longitudeOutOfRange: break
                        default: XCTFail("[invalid] unexpected \(error): \(name)")
                        }
                    }
                }
            default:
                XCTFail("[invalid] unknown kind \(kind): \(name)")
            }
        }
        print("[invalid] kinds: \(kinds.sorted { $0.key < $1.key })")
    }

    func testNotErrors() throws {
        let group = Vectors.group("not_errors")
        XCTAssertEqual(group.count, 1)
        for v in group {
            let encoded = try XCTUnwrap(v.string("encoded"), v.name)
            XCTAssertEqual(try Polyline.decode(encoded), [], "[not_errors] \(v.name)")
            XCTAssertEqual(try Polyline.decode(bytes: Array(encoded.utf8)), [], "[not_errors] bytes: \(v.name)")
            XCTAssertEqual(try Polyline.decodeUnits(encoded).count, 0, "[not_errors] units: \(v.name)")
        }
    }
}
