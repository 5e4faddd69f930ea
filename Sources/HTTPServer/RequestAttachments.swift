/// Values a responder in front hands to the responders behind it with the request (what
/// Hummingbird keeps in its request context), one per type — e.g. the endpoint and key the
/// scenario engine read, which the front door then does not read again.
public struct RequestAttachments: Sendable {
    /// The type of the first value attached, which keeps the inline slot `first` for good: most
    /// requests carry one value (the scenario engine's reading), so no dictionary is made or hashed
    /// per request. Values of other types go to `more`; each type lives in one place only.
    @usableFromInline var firstType: ObjectIdentifier?
    @usableFromInline var first: (any Sendable)?
    @usableFromInline var more: [ObjectIdentifier: any Sendable] = [:]

    public init() {}

    @inlinable
    public subscript<Value: Sendable>(_ type: Value.Type) -> Value? {
        get {
            let id = ObjectIdentifier(type)
            if firstType == id { return first as? Value }
            return more.isEmpty ? nil : more[id] as? Value
        }
        set {
            let id = ObjectIdentifier(type)
            if firstType == nil { firstType = id }
            if firstType == id { first = newValue } else { more[id] = newValue }
        }
    }
}
