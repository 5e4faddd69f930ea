import Foundation
import TestExpectations
import Testing
import Polyline

/// Runs every group of Fixtures/vectors.json. Each failure names the vector.
@Suite final class ConformanceTests {

    @Test func testVectors() throws {
        let group = Vectors.group("vectors")
        expectEqual(group.count, 47)
        var encodes = 0, decodes = 0
        for v in group {
            let name = v.name
            let precision = try unwrap(v.int("precision"), name)
            let encoded = try unwrap(v.string("encoded"), name)
            let points = try unwrap(v.points, name)
            let direction = try unwrap(v.string("direction"), name)
            expectTrue(["both", "encode", "decode"].contains(direction), "\(name): direction \(direction)")
            if direction != "decode" {
                encodes += 1
                do {
                    let got = try Polyline.encode(points, precision: precision)
                    expectEqual(got, encoded, "[vectors] encode: \(name)")
                } catch {
                    fail("[vectors] encode threw \(error): \(name)")
                }
            }
            if direction != "encode" {
                decodes += 1
                do {
                    let got = try Polyline.decode(encoded, precision: precision)
                    if let m = mismatch(got, points, tolerance: v.double("tolerance")) {
                        fail("[vectors] decode \(m): \(name)")
                    }
                } catch {
                    fail("[vectors] decode threw \(error): \(name)")
                }
            }
        }
        print("[vectors] \(group.count) vectors: \(encodes) encode checks, \(decodes) decode checks")
    }

    @Test func testRoundtrip() throws {
        let group = Vectors.group("roundtrip")
        expectEqual(group.count, 4)
        for v in group {
            let name = v.name
            let precision = try unwrap(v.int("precision"), name)
            if let encoded = v.string("encoded") {
                do {
                    let decoded = try Polyline.decode(encoded, precision: precision)
                    expectEqual(try Polyline.encode(decoded, precision: precision), encoded,
                                   "[roundtrip] decode->encode: \(name)")
                    // The integer path agrees with the degree path.
                    let units = try Polyline.decodeUnits(encoded)
                    expectEqual(try Polyline.encode(units: units), encoded, "[roundtrip] units: \(name)")
                } catch {
                    fail("[roundtrip] threw \(error): \(name)")
                }
            } else {
                let points = try unwrap(v.points, name)
                do {
                    let encoded = try Polyline.encode(points, precision: precision)
                    let decoded = try Polyline.decode(encoded, precision: precision)
                    expectNil(mismatch(decoded, points, tolerance: nil), "[roundtrip] encode->decode: \(name)")
                } catch {
                    fail("[roundtrip] threw \(error): \(name)")
                }
            }
        }
    }

    @Test func testDecodeChecks() throws {
        let group = Vectors.group("decode_checks")
        expectEqual(group.count, 7)
        for v in group {
            let name = v.name
            let precision = try unwrap(v.int("precision"), name)
            let encoded = try unwrap(v.string("encoded"), name)
            let decoded: [Coordinate2D]
            do { decoded = try Polyline.decode(encoded, precision: precision) } catch {
                fail("[decode_checks] threw \(error): \(name)")
                continue
            }
            if let count = v.int("count") {
                expectEqual(decoded.count, count, "[decode_checks] count: \(name)")
            }
            let checks = v["checks"] as? [[String: Any]] ?? []
            for check in checks {
                let index = try unwrap(check.int("index"), name)
                let i = index < 0 ? decoded.count + index : index
                guard decoded.indices.contains(i) else {
                    fail("[decode_checks] index \(index) out of range: \(name)")
                    continue
                }
                let tolerance = check.double("tolerance") ?? 1e-9
                if let lat = check.double("lat") {
                    expectEqual(decoded[i].lat, lat, accuracy: tolerance, "[decode_checks] lat[\(index)]: \(name)")
                }
                if let lng = check.double("lng") {
                    expectEqual(decoded[i].lng, lng, accuracy: tolerance, "[decode_checks] lng[\(index)]: \(name)")
                }
            }
        }
    }

    @Test func testIntegers() throws {
        let group = Vectors.group("integers")
        expectEqual(group.count, 11)
        for v in group {
            let name = v.name
            let value = try unwrap(Int64(try unwrap(v.string("value_string"))), name)
            let encoded = try unwrap(v.string("encoded"), name)
            let direction = v.string("direction") ?? "both"
            if direction != "decode" {
                expectEqual(Polyline.encodeInteger(value), encoded, "[integers] encode: \(name)")
            }
            if direction != "encode" {
                expectEqual(try Polyline.decodeInteger(encoded), value, "[integers] decode: \(name)")
                expectEqual(try Polyline.decodeInteger(bytes: Array(encoded.utf8)), value, "[integers] bytes: \(name)")
            }
        }
    }

    @Test func testUnsigned() throws {
        let group = Vectors.group("unsigned")
        expectEqual(group.count, 8)
        for v in group {
            let name = v.name
            let value = try unwrap(UInt64(try unwrap(v.string("value_string"))), name)
            let encoded = try unwrap(v.string("encoded"), name)
            let direction = v.string("direction") ?? "both"
            if direction != "decode" {
                expectEqual(Polyline.encodeUnsigned(value), encoded, "[unsigned] encode: \(name)")
            }
            if direction != "encode" {
                expectEqual(try Polyline.decodeUnsigned(encoded), value, "[unsigned] decode: \(name)")
            }
        }
    }

    @Test func testInvalid() throws {
        let group = Vectors.group("invalid")
        expectEqual(group.count, 29)
        var kinds: [String: Int] = [:]
        for v in group {
            let name = v.name
            let kind = try unwrap(v.string("kind"), name)
            let precision = try unwrap(v.int("precision"), name)
            kinds[kind, default: 0] += 1
            switch kind {
            case "decode", "decode-parameter":
                let bytes = try unwrap(v.inputBytes, name)
                var errors: [PolylineError] = []
                do {
                    let got = try Polyline.decode(bytes: bytes, precision: precision)
                    fail("[invalid] decode(bytes:) returned \(got.count) points instead of failing: \(name)")
                } catch { errors.append(error) }
                if let s = v.string("encoded"), !s.isEmpty || bytes.isEmpty {
                    // Same verdict through the String API whenever the input is valid UTF-8.
                    do {
                        let got = try Polyline.decode(s, precision: precision)
                        fail("[invalid] decode(String) returned \(got.count) points: \(name)")
                    } catch { errors.append(error) }
                }
                if errors.count == 2 { expectEqual(errors[0], errors[1], "[invalid] String vs bytes: \(name)") }
                if let e = errors.first {
                    if kind == "decode-parameter" {
                        expectEqual(e, PolylineError(.invalidPrecision(precision)), "[invalid] \(name)")
                    } else {
                        expectNotNil(e.offset, "[invalid] decode error without offset: \(name)")
                        if let o = e.offset { expectTrue(o >= 0 && o <= bytes.count, "[invalid] offset \(o): \(name)") }
                    }
                }
            case "encode", "encode-parameter":
                let points = try unwrap(v.points, name)
                do {
                    let got = try Polyline.encode(points, precision: precision)
                    fail("[invalid] encode returned \(got) instead of failing: \(name)")
                } catch {
                    if kind == "encode-parameter" {
                        expectEqual(error, PolylineError(.invalidPrecision(precision)), "[invalid] \(name)")
                    } else {
                        expectNotNil(error.index, "[invalid] encode error without index: \(name)")
                        switch error.reason {
                        case .latitudeOutOfRange, .longitudeOutOfRange: break
                        default: fail("[invalid] unexpected \(error): \(name)")
                        }
                    }
                }
            default:
                fail("[invalid] unknown kind \(kind): \(name)")
            }
        }
        print("[invalid] kinds: \(kinds.sorted { $0.key < $1.key })")
    }

    @Test func testNotErrors() throws {
        let group = Vectors.group("not_errors")
        expectEqual(group.count, 1)
        for v in group {
            let encoded = try unwrap(v.string("encoded"), v.name)
            expectEqual(try Polyline.decode(encoded), [], "[not_errors] \(v.name)")
            expectEqual(try Polyline.decode(bytes: Array(encoded.utf8)), [], "[not_errors] bytes: \(v.name)")
            expectEqual(try Polyline.decodeUnits(encoded).count, 0, "[not_errors] units: \(v.name)")
        }
    }
}
