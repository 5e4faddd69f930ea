import JSON

/// Three-way numeric comparison; exact for two integers. `nil` if either is not a number.
func compareNumbers(_ a: JSONValue, _ b: JSONValue) -> Int? {
    if case .integer(let x) = a, case .integer(let y) = b { return x < y ? -1 : (x > y ? 1 : 0) }
    guard let x = a.doubleValue, let y = b.doubleValue else { return nil }
    return x < y ? -1 : (x > y ? 1 : 0)
}

/// Short JSON text for messages (truncated).
func brief(_ value: JSONValue, limit: Int = 60) -> String {
    let text = JSONSerializer.string(value)
    guard text.count > limit else { return text }
    return String(text.prefix(limit - 1)) + "…"
}
