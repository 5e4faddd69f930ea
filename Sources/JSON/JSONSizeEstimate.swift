/// The serialized size of a JSON value, estimated without serializing it and walking at most
/// until `limit` is passed — so the size of a value about to be copied is known before any
/// allocation. Strings count their UTF-8 bytes and quotes (escapes are not counted), numbers
/// their digits, containers their brackets and separators.
public enum JSONSizeEstimate {
    /// The estimate, or `limit + 1` as soon as it passes `limit`.
    public static func bytes(of value: JSONValue, limit: Int = .max) -> Int {
        var total = 0
        accumulate(value, into: &total, limit: limit)
        return min(total, limit == .max ? total : limit + 1)
    }

    private static func accumulate(_ value: JSONValue, into total: inout Int, limit: Int) {
        guard total <= limit else { return }
        switch value {
        case .null: total += 4
        case .bool(let flag): total += flag ? 4 : 5
        case .integer(let number): total += digits(number)
        case .number: total += 24
        case .string(let text): total += text.utf8.count + 2
        case .array(let items):
            total += 2 + max(items.count - 1, 0)
            for item in items {
                accumulate(item, into: &total, limit: limit)
                if total > limit { return }
            }
        case .object(let object):
            total += 2 + max(object.count - 1, 0)
            for member in object.members {
                total += member.key.utf8.count + 3
                accumulate(member.value, into: &total, limit: limit)
                if total > limit { return }
            }
        }
    }

    private static func digits(_ number: Int) -> Int {
        var count = number < 0 ? 2 : 1
        var rest = number.magnitude / 10
        while rest > 0 { count += 1; rest /= 10 }
        return count
    }
}
