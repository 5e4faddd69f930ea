import Foundation

/// How much work `HARImport` and `scenarios from-har` may do for one HAR file, so that a small
/// hostile file (kilobytes of gzip that inflate to gigabytes) is refused quickly instead of
/// filling memory and disk:
///
/// - `maxInflatedBytes`: the decoded response bodies of all kept entries together (base64
///   decoded, then inflated). Checked before any body is kept: a first pass inflates each body
///   into a scratch buffer and only counts, so a refusal holds no bodies at all.
/// - `maxEntries`: the entries of `log.entries`, kept or not.
/// - `maxOutputBytes`: the scenario document written (`--out`) or printed.
///
/// The per-body limit (`HARImport.maxBodyBytes`, 64 MiB) and the file limit
/// (`HARImport.maxFileBytes`, 512 MiB) apply as well.
public struct HARBudget: Sendable, Equatable {
    public var maxInflatedBytes: Int
    public var maxEntries: Int
    public var maxOutputBytes: Int

    /// 128 MiB of bodies, 100 000 entries, 128 MiB of scenario.
    public static let standard = HARBudget(maxInflatedBytes: 128 << 20, maxEntries: 100_000, maxOutputBytes: 128 << 20)

    public init(maxInflatedBytes: Int, maxEntries: Int, maxOutputBytes: Int) {
        self.maxInflatedBytes = maxInflatedBytes
        self.maxEntries = maxEntries
        self.maxOutputBytes = maxOutputBytes
    }

    /// The fewest bytes `body` can take in a scenario file, whatever key holds it: its length
    /// when it could be JSON (`json` is never shorter than the compact bytes); with control
    /// characters no JSON has, its escaped `text` length (a NUL is 6 bytes) or, not being UTF-8,
    /// its `base64` length. Lets `from-har` refuse an output over budget before building it.
    public static func minimumScenarioBytes(of body: Data) -> Int {
        var escaped = body.count
        var controls = false
        for byte in body where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { controls = true }
            escaped += byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D ? 5 : 1
        }
        guard controls else { return body.count }
        return String(data: body, encoding: .utf8) != nil ? escaped : (body.count + 2) / 3 * 4
    }

    /// `134217728` → `128 MiB`, `1536` → `1.5 KiB`, `100` → `100 bytes`.
    public static func describe(bytes: Int) -> String {
        for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where bytes >= 1 << shift {
            let value = Double(bytes) / Double(1 << shift)
            return value == value.rounded() ? "\(Int(value)) \(unit)" : "\((value * 10).rounded() / 10) \(unit)"
        }
        return "\(bytes) byte\(bytes == 1 ? "" : "s")"
    }
}
