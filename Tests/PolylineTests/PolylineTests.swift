import Foundation
import SeededRandom
import TestExpectations
import Testing
import Polyline

@Suite final class PolylineTests {

    // MARK: - Errors: reason and offset

    private func decodeError(_ s: String, precision: Int = 5) -> PolylineError? {
        do { _ = try Polyline.decode(s, precision: precision); return nil } catch { return error }
    }

    private func decodeError(bytes: [UInt8]) -> PolylineError? {
        do { _ = try Polyline.decode(bytes: bytes); return nil } catch { return error }
    }

    @Test func testDecodeErrorReasonsAndOffsets() {
        expectEqual(decodeError(">"), PolylineError(.invalidByte(0x3E), offset: 0))
        expectEqual(decodeError(" "), PolylineError(.invalidByte(0x20), offset: 0))
        expectEqual(decodeError(bytes: [0x80]), PolylineError(.invalidByte(0x80), offset: 0))
        expectEqual(decodeError(bytes: [0x7F]), PolylineError(.invalidByte(0x7F), offset: 0))
        expectEqual(decodeError("_p~iF~ps|U_p~iF>"), PolylineError(.invalidByte(0x3E), offset: 15))
        expectEqual(decodeError("_p~iF~ps|U_uéF"), PolylineError(.invalidByte(0xC3), offset: 12))
        expectEqual(decodeError("_"), PolylineError(.unterminatedValue, offset: 0))
        expectEqual(decodeError("~~~~~~~~~~~~"), PolylineError(.unterminatedValue, offset: 0))
        expectEqual(decodeError("_p~iF~ps|U_p~iF~ps|"), PolylineError(.unterminatedValue, offset: 15))
        expectEqual(decodeError("~~~~~~~~~~~~O"), PolylineError(.valueOverflow, offset: 12))
        expectEqual(decodeError("~~~~~~~~~~~~_"), PolylineError(.valueOverflow, offset: 12))
        expectEqual(decodeError("~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~"), PolylineError(.valueOverflow, offset: 12))
        expectEqual(decodeError("_p~iF"), PolylineError(.missingLongitude, offset: 0))
        expectEqual(decodeError("_p~iF~ps|U_p~iF"), PolylineError(.missingLongitude, offset: 10))
        // lat = Int64.max, then +1 → the running sum overflows at the second latitude (byte 14).
        let big = Polyline.encodeInteger(.max) + "?" + "A" + "?"
        expectEqual(decodeError(big), PolylineError(.coordinateOverflow, offset: 14))
        expectEqual(try Polyline.decodeUnits(Polyline.encodeInteger(.max) + "?").map(\.0), [Int.max])
        expectEqual(decodeError("??", precision: 11), PolylineError(.invalidPrecision(11)))
        expectEqual(decodeError("??", precision: -1), PolylineError(.invalidPrecision(-1)))
        // Precision errors win over content errors (checked first, even for "").
        expectEqual(decodeError("", precision: 99), PolylineError(.invalidPrecision(99)))
    }

    @Test func testSingleValueErrors() {
        expectThrowsError(try Polyline.decodeUnsigned("")) {
            expectEqual($0 as? PolylineError, PolylineError(.emptyInput, offset: 0))
        }
        expectThrowsError(try Polyline.decodeInteger("??")) {
            expectEqual($0 as? PolylineError, PolylineError(.trailingBytes, offset: 1))
        }
        expectThrowsError(try Polyline.decodeInteger("_")) {
            expectEqual($0 as? PolylineError, PolylineError(.unterminatedValue, offset: 0))
        }
        expectEqual(try Polyline.decodeUnsigned("a?"), 2)  // non-canonical padding accepted
    }

    @Test func testEncodeErrors() {
        func encodeError(_ pts: [Coordinate2D], precision: Int = 5) -> PolylineError? {
            do { _ = try Polyline.encode(pts, precision: precision); return nil } catch { return error }
        }
        let ok = Coordinate2D(lat: 1, lng: 2)
        expectEqual(encodeError([ok, Coordinate2D(lat: .nan, lng: 0)]), PolylineError(.nonFiniteCoordinate, index: 1))
        expectEqual(encodeError([Coordinate2D(lat: 0, lng: -.infinity)]), PolylineError(.nonFiniteCoordinate, index: 0))
        expectEqual(encodeError([ok, ok, Coordinate2D(lat: 90.000001, lng: 0)]),
                       PolylineError(.latitudeOutOfRange(90.000001), index: 2))
        expectEqual(encodeError([Coordinate2D(lat: 0, lng: -180.5)]),
                       PolylineError(.longitudeOutOfRange(-180.5), index: 0))
        expectEqual(encodeError([ok], precision: 11), PolylineError(.invalidPrecision(11)))
        expectEqual(encodeError([], precision: -3), PolylineError(.invalidPrecision(-3)))
        expectThrowsError(try Polyline.encode(units: [(Int.max, 0), (Int.min, 0)])) {
            expectEqual($0 as? PolylineError, PolylineError(.deltaOverflow, index: 1))
        }
        // Errors print something useful.
        expectEqual(PolylineError(.invalidByte(0x3E), offset: 3).description,
                       "polyline error: invalid byte 0x3E (polyline characters are '?'...'~') at byte 3")
    }

    // MARK: - Behaviour

    @Test func testLimitsAndPrecisions() throws {
        let corners = [Coordinate2D(lat: -90, lng: -180), Coordinate2D(lat: 90, lng: 180), Coordinate2D(lat: 0, lng: 0)]
        for p in Polyline.precisionRange {
            let s = try Polyline.encode(corners, precision: p)
            expectEqual(try Polyline.decode(s, precision: p), corners, "precision \(p)")
        }
        expectEqual(try Polyline.encode([], precision: 0), "")
    }

    @Test func testFloorRoundingOption() throws {
        func enc(_ lat: Double, _ r: Polyline.Rounding) throws -> String {
            try Polyline.encode([Coordinate2D(lat: lat, lng: 0)], precision: 5, rounding: r)
        }
        expectEqual(try enc(0.000015, .halfAwayFromZero), "C?")
        expectEqual(try enc(0.000015, .floor), "A?")
        expectEqual(try enc(0.000019, .floor), "A?")
        expectEqual(try enc(-0.000014, .halfAwayFromZero), "@?")
        expectEqual(try enc(-0.000014, .floor), "B?")  // floor(-1.4) = -2
    }

    @Test func testIncrementalEncoderMatchesBatch() throws {
        var e = try PolylineEncoder(precision: 5)
        try e.append(lat: 38.5, lng: -120.2)
        try e.append(latUnits: 4_070_000, lngUnits: -12_095_000)
        try e.append(Coordinate2D(lat: 43.252, lng: -126.453))
        expectEqual(e.string, "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        expectEqual(e.count, 3)
        // A failed append leaves the encoder unchanged.
        expectThrowsError(try e.append(lat: 91, lng: 0))
        expectThrowsError(try e.append(latUnits: Int.min, lngUnits: 0))
        expectEqual(e.string, "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        expectEqual(e.count, 3)
        e.removeAll()
        try e.append(lat: 38.5, lng: -120.2)
        expectEqual(e.string, "_p~iF~ps|U")
        expectEqual(try Polyline.encode(units: [(3_850_000, -12_020_000), (4_070_000, -12_095_000), (4_325_200, -12_645_300)]),
                       "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        expectThrowsError(try PolylineEncoder(precision: 11))
    }

    @Test func testSubstringAndNonContiguousInput() throws {
        let s = "xx_p~iF~ps|U"
        let sub = s.dropFirst(2)
        expectEqual(try Polyline.decode(String(sub)), [Coordinate2D(lat: 38.5, lng: -120.2)])
        expectEqual(try Polyline.decode(bytes: sub.utf8), [Coordinate2D(lat: 38.5, lng: -120.2)])
        // A non-contiguous collection goes through the copying path.
        let lazy = Array(s.utf8).lazy.dropFirst(2).map { $0 }
        expectEqual(try Polyline.decode(bytes: lazy), [Coordinate2D(lat: 38.5, lng: -120.2)])
    }

    // MARK: - Property test: exact round trips on the grid

    @Test func testRandomRoundTripsOnGrid() throws {
        var rng = SplitMix64(seed: 0x5EED_0001_D00D_F00D)
        for list in 0..<10_000 {
            let precision = list.isMultiple(of: 2) ? 5 : 6
            let factor = precision == 5 ? 100_000 : 1_000_000
            let n = Int.random(in: 0...24, using: &rng)
            var units: [(Int, Int)] = []
            units.reserveCapacity(n)
            for _ in 0..<n {
                // Mostly small steps (like a route), sometimes jumps across the whole range.
                if let last = units.last, Int.random(in: 0..<4, using: &rng) != 0 {
                    let lat = min(90 * factor, max(-90 * factor, last.0 + Int.random(in: -3000...3000, using: &rng)))
                    let lng = min(180 * factor, max(-180 * factor, last.1 + Int.random(in: -3000...3000, using: &rng)))
                    units.append((lat, lng))
                } else {
                    units.append((Int.random(in: -90 * factor...90 * factor, using: &rng),
                                  Int.random(in: -180 * factor...180 * factor, using: &rng)))
                }
            }
            let points = units.map { Coordinate2D(lat: Double($0.0) / Double(factor), lng: Double($0.1) / Double(factor)) }
            let s = try Polyline.encode(points, precision: precision)
            let fromUnits = try Polyline.encode(units: units)
            guard s == fromUnits else { return fail("list \(list): degree and unit encodings differ") }
            let decoded = try Polyline.decode(s, precision: precision)
            guard decoded == points else { return fail("list \(list) (p\(precision)): round trip mismatch for \(s)") }
            let decodedUnits = try Polyline.decodeUnits(s)
            guard decodedUnits.elementsEqual(units, by: { $0 == $1 }) else {
                return fail("list \(list): unit round trip mismatch")
            }
        }
    }

    @Test func testRandomSingleValues() throws {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            let bits = Int.random(in: 0...63, using: &rng)
            let u = rng.next() >> UInt64(bits)
            expectEqual(try Polyline.decodeUnsigned(Polyline.encodeUnsigned(u)), u)
            let i = Int64(bitPattern: u)
            expectEqual(try Polyline.decodeInteger(Polyline.encodeInteger(i)), i)
        }
    }

    // MARK: - Fuzz: random bytes never crash, never hang

    @Test func testFuzzDecodeRandomBytes() {
        var rng = SplitMix64(seed: 0xF022_F022)
        var ok = 0, failed = 0
        var bytes: [UInt8] = []
        for _ in 0..<100_000 {
            bytes.removeAll(keepingCapacity: true)
            let n = Int.random(in: 0...40, using: &rng)
            let mode = rng.next() % 4
            for _ in 0..<n {
                let r = rng.next()
                switch mode {
                case 0: bytes.append(UInt8(truncatingIfNeeded: r))                       // anything
                case 1: bytes.append(63 &+ UInt8(truncatingIfNeeded: r % 64))            // valid alphabet
                case 2: bytes.append(r % 3 == 0 ? 126 : 63 &+ UInt8(truncatingIfNeeded: r % 64))  // long values
                default: bytes.append(r % 50 == 0 ? UInt8(truncatingIfNeeded: r >> 8) : 63 &+ UInt8(truncatingIfNeeded: r % 32)) // short values
                }
            }
            let precision = Int(rng.next() % 11)
            do {
                let points = try Polyline.decode(bytes: bytes, precision: precision)
                ok += 1
                // Whatever decodes must re-encode (via units) to something that decodes to the same units.
                let units = try Polyline.decodeUnits(bytes: bytes)
                expectEqual(units.count, points.count)
                let again = try Polyline.decodeUnits(Polyline.encode(units: units))
                if !again.elementsEqual(units, by: { $0 == $1 }) { fail("re-encode mismatch for \(bytes)") }
            } catch {
                failed += 1
                if let o = error.offset, !(0...bytes.count).contains(o) { fail("offset \(o) outside input \(bytes)") }
                if error.offset == nil { fail("decode error without offset: \(error)") }
            }
            _ = try? Polyline.decodeUnsigned(bytes: bytes)
            _ = try? Polyline.decodeInteger(bytes: bytes)
            if let s = String(validating: bytes, as: UTF8.self) { _ = try? Polyline.decode(s, precision: precision) }
        }
        expectGreaterThan(ok, 1000)
        expectGreaterThan(failed, 1000)
        print("[fuzz] 100000 inputs: \(ok) decoded, \(failed) rejected")
    }

    // MARK: - Performance

    @Test func testEncodeTenThousandPointsIsFast() throws {
        var rng = SplitMix64(seed: 7)
        var lat = 2_100_000, lng = 10_580_000
        var units: [(Int, Int)] = []
        for _ in 0..<10_000 {
            lat += Int.random(in: -500...500, using: &rng)
            lng += Int.random(in: -500...500, using: &rng)
            units.append((lat, lng))
        }
        let points = units.map { Coordinate2D(lat: Double($0.0) / 1e5, lng: Double($0.1) / 1e5) }
        var s = ""
        let clock = ContinuousClock()
        var best = Duration.seconds(1000), bestUnits = Duration.seconds(1000), bestDecode = Duration.seconds(1000)
        for _ in 0..<5 {
            best = min(best, try clock.measure { s = try Polyline.encode(points) })
            bestUnits = min(bestUnits, try clock.measure { _ = try Polyline.encode(units: units) })
            bestDecode = min(bestDecode, try clock.measure { _ = try Polyline.decode(s) })
        }
        expectEqual(try Polyline.decode(s), points)
        print("[perf] 10k points (\(s.utf8.count) bytes): encode \(best), encode(units:) \(bestUnits), decode \(bestDecode)")
        // Generous bound: debug build on a shared 2-core machine. Release is far below 1 ms.
        expectLessThan(best, .milliseconds(50))
    }
}
