import Foundation
import TestExpectations
import Testing
import Polyline

/// Loads `Fixtures/vectors.json` (a copy of the shared conformance file; see its SOURCE.md).
enum Vectors {
    /// Loaded per call (a few ms; ~7 calls) so no non-Sendable global state is needed.
    static func root() -> [String: Any] {
        guard let url = Bundle.module.url(forResource: "vectors", withExtension: "json", subdirectory: "Fixtures")
                ?? Bundle.module.url(forResource: "vectors", withExtension: "json"),
              let data = try? Data(contentsOf: url),
              let object = try? JSONSerialization.jsonObject(with: data),
              let dict = object as? [String: Any]
        else { fatalError("PolylineTests: cannot load Fixtures/vectors.json") }
        return dict
    }

    static func group(_ name: String) -> [[String: Any]] {
        guard let list = root()[name] as? [[String: Any]] else { fatalError("missing group \(name)") }
        return list
    }
}

extension Dictionary where Key == String, Value == Any {
    var name: String { self["name"] as? String ?? (self["value_string"] as? String).map { "value \($0)" } ?? "?" }
    func string(_ key: String) -> String? { self[key] as? String }
    func int(_ key: String) -> Int? { (self[key] as? NSNumber)?.intValue }
    func double(_ key: String) -> Double? { (self[key] as? NSNumber)?.doubleValue }

    /// `[[lat, lng], ...]`, or nil when absent / null.
    var points: [Coordinate2D]? {
        guard let raw = self["points"] as? [[NSNumber]] else { return nil }
        return raw.map { Coordinate2D(lat: $0[0].doubleValue, lng: $0[1].doubleValue) }
    }

    /// The input bytes: `encoded_hex` when present (byte-exact, possibly not UTF-8), else `encoded`.
    var inputBytes: [UInt8]? {
        if let hex = string("encoded_hex") { return hexBytes(hex) }
        return string("encoded").map { Array($0.utf8) }
    }
}

func hexBytes(_ hex: String) -> [UInt8] {
    let chars = Array(hex.utf8)
    precondition(chars.count % 2 == 0)
    func nibble(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: preconditionFailure("bad hex")
        }
    }
    return stride(from: 0, to: chars.count, by: 2).map { nibble(chars[$0]) << 4 | nibble(chars[$0 + 1]) }
}


/// Compares decoded points with expected ones: exactly when `tolerance` is nil, else within it.
/// Returns a failure description or nil.
func mismatch(_ got: [Coordinate2D], _ want: [Coordinate2D], tolerance: Double?) -> String? {
    guard got.count == want.count else { return "count \(got.count) != \(want.count)" }
    for (i, (g, w)) in zip(got, want).enumerated() {
        let ok: Bool
        if let tolerance {
            ok = abs(g.lat - w.lat) <= tolerance && abs(g.lng - w.lng) <= tolerance
        } else {
            ok = g == w
        }
        if !ok { return "point \(i): got (\(g.lat), \(g.lng)), want (\(w.lat), \(w.lng))" }
    }
    return nil
}
