/// Values a responder in front hands to the responders behind it with the request (what
/// Hummingbird keeps in its request context), one per type — e.g. the endpoint and key the
/// scenario engine read, which the front door then does not read again.
public struct RequestAttachments: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    public init() {}

    public subscript<Value: Sendable>(_ type: Value.Type) -> Value? {
        get { values[ObjectIdentifier(type)] as? Value }
        set { values[ObjectIdentifier(type)] = newValue }
    }
}
