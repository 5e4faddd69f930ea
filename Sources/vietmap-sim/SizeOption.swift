/// Parses the size values of options like `--max-inflated 128M`.
enum SizeOption {
    /// `1048576`, `512K`, `128M`, `1G` (also `KiB`/`MiB`/`GiB`, any case; powers of 1024), from 1 byte to 64 GiB.
    static func bytes(_ text: String, option: String) throws(UsageError) -> Int {
        let lower = text.lowercased()
        var digits = Substring(lower)
        var shift = 0
        for (suffix, value) in [("kib", 10), ("mib", 20), ("gib", 30), ("k", 10), ("m", 20), ("g", 30), ("b", 0)] where digits.hasSuffix(suffix) {
            digits = digits.dropLast(suffix.count)
            shift = value
            break
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int(digits), number >= 1, number <= (64 << 30) >> shift else {
            throw UsageError("--\(option) must be a size from 1 byte to 64G (bytes, or with K, M or G), got '\(text.prefix(40))'")
        }
        return number << shift
    }
}
