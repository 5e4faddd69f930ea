/// An ordered list of HTTP header fields with case-insensitive name lookup.
public struct HTTPHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The fields in order; names keep the spelling they were added with.
    public private(set) var fields: [(name: String, value: String)]

    public init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value for `name` (any case). Setting replaces every field called `name`
    /// with one field (or removes them all when set to `nil`).
    public subscript(name: String) -> String? {
        get { fields.first { Self.sameName($0.name, name) }?.value }
        set {
            if let newValue { set(name, newValue) } else { remove(name) }
        }
    }

    /// Every value for `name` (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool {
        fields.contains { Self.sameName($0.name, name) }
    }

    /// Appends a field, keeping existing fields with the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// Replaces every field called `name` by a single one, at the position of the first.
    public mutating func set(_ name: String, _ value: String) {
        if let index = fields.firstIndex(where: { Self.sameName($0.name, name) }) {
            fields[index] = (name, value)
            var next = fields.index(after: index)
            while next < fields.endIndex {
                if Self.sameName(fields[next].name, name) { fields.remove(at: next) } else { next += 1 }
            }
        } else {
            fields.append((name, value))
        }
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    public var count: Int { fields.count }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Room for `count` fields in all (a request's head says how many it has).
    public mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// ASCII case-insensitive comparison of header names (ASCII tokens), without allocating;
    /// over the two names' UTF-8 bytes in place (native strings, the usual case).
    public static func sameName(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        let inPlace = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                for i in x.indices where !sameLetter(x[i], y[i]) { return false }
                return true
            }
        }
        if let inPlace, let same = inPlace { return same }
        return a.utf8.elementsEqual(b.utf8, by: sameLetter)
    }

    /// Equal bytes, or the same ASCII letter in either case.
    @inline(__always) private static func sameLetter(_ x: UInt8, _ y: UInt8) -> Bool {
        x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= UInt8(ascii: "a") && (x | 0x20) <= UInt8(ascii: "z"))
    }
}
