import HTTPServer
import VietMapWire

/// What a request's URL says before any check: the endpoint its path names and the key it
/// presents. Read once by the first responder that needs them (the scenario engine) and handed
/// down with the request (`HTTPRequest.reading`), so the front door does not read them again.
public struct RequestReading: Sendable {
    /// The endpoint the path names (nil: none, a 404).
    public let endpoint: APIEndpoint?
    /// The first non-empty `apikey` (or `apiKey`) value (`APIKeyPolicy.presentedKey`).
    public let presentedKey: String?

    public init(endpoint: APIEndpoint?, presentedKey: String?) {
        self.endpoint = endpoint
        self.presentedKey = presentedKey
    }

    /// Reads `request`'s path and query.
    public init(_ request: HTTPRequest) {
        self.init(endpoint: APIEndpoint(path: request.path), presentedKey: FrontDoor.presentedKey(request))
    }
}

extension HTTPRequest {
    /// The reading a responder in front handed down; nil: none was (the front door reads the request).
    public var reading: RequestReading? {
        get { attachments[RequestReading.self] }
        set { attachments[RequestReading.self] = newValue }
    }
}
