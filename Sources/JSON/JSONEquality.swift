/// JSON equality by value, the one rule of JSON Schema (`const`, `enum`, `uniqueItems`) and JSON Patch's
/// `test` (RFC 6902 §4.6): numbers by value (`1 == 1.0`), strings by code points, objects regardless of
/// member order. (`==` on `JSONValue` is structural: member order and `1` vs `1.0` count.)
public func jsonEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case let (.bool(x), .bool(y)): return x == y
    case let (.integer(x), .integer(y)): return x == y
    case let (.integer(x), .number(y)), let (.number(y), .integer(x)): return Double(x) == y
    case let (.number(x), .number(y)): return x == y
    // By code points: Swift's `==` would equate canonically equivalent strings ("é" and "e\u{301}").
    case let (.string(x), .string(y)): return x.utf8.elementsEqual(y.utf8)
    case let (.array(x), .array(y)):
        guard x.count == y.count else { return false }
        for i in x.indices where !jsonEqual(x[i], y[i]) { return false }
        return true
    case let (.object(x), .object(y)):
        guard x.count == y.count else { return false }
        for (key, value) in x {
            guard let other = y.members.first(where: { $0.key.utf8.elementsEqual(key.utf8) }),
                  jsonEqual(value, other.value) else { return false }
        }
        return true
    default: return false
    }
}

/// A hash consistent with `jsonEqual`.
public func jsonHash(_ value: JSONValue, into hasher: inout Hasher) {
    switch value {
    case .null: hasher.combine(0)
    case .bool(let b): hasher.combine(1); hasher.combine(b)
    case .integer(let i): hasher.combine(2); hasher.combine(Double(i))
    case .number(let d): hasher.combine(2); hasher.combine(d)
    case .string(let s): hasher.combine(3); hasher.combine(s)
    case .array(let items):
        hasher.combine(4); hasher.combine(items.count)
        for item in items { jsonHash(item, into: &hasher) }
    case .object(let object):
        hasher.combine(5); hasher.combine(object.count)
        var sum = 0
        for (key, member) in object {
            var h = Hasher()
            h.combine(key)
            jsonHash(member, into: &h)
            sum &+= h.finalize()
        }
        hasher.combine(sum)
    }
}

