import VietMapWire
import Foundation

/// One request to a VietMap endpoint and what came back, as captured somewhere (a HAR file,
/// a recording, the journal): the input of `ReplayScenario`.
public struct CapturedExchange: Sendable {
    /// What the client got.
    public enum Outcome: Sendable, Equatable {
        /// An HTTP answer.
        case response(CapturedResponse)
        /// The connection was reset before any answer (replayed as the `reset` fault).
        case reset
        /// The connection closed without a byte (replayed as the `empty` fault).
        case emptyReply
    }

    public var endpoint: APIEndpoint
    /// The decoded query, in order, repeated names kept (`apikey` is never matched on).
    public var query: [(name: String, value: String)]
    public var outcome: Outcome
    /// How long the answer took, in milliseconds (replayed as a fixed `delay`).
    public var latencyMilliseconds: Double
    /// Where it came from, for rule names and messages: `"entry 3"`, `"journal 17"`.
    public var origin: String

    public init(endpoint: APIEndpoint, query: [(name: String, value: String)], outcome: Outcome,
                latencyMilliseconds: Double, origin: String) {
        self.endpoint = endpoint
        self.query = query
        self.outcome = outcome
        self.latencyMilliseconds = latencyMilliseconds
        self.origin = origin
    }
}

/// An HTTP answer as captured: status, headers (all of them; `ReplayScenario` keeps those
/// listed in `ReplayScenario.replayedHeaders`), the complete body, and how it travelled.
public struct CapturedResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    /// The body as the client decoded it (no content encoding).
    public var body: Data
    /// The body stopped after this many bytes although the full length was announced.
    public var truncatedAfterBytes: Int?
    /// A `Content-Length` that did not match the body.
    public var announcedContentLength: Int?
    /// The body came in `chunks` pieces spread over `overMs` milliseconds.
    public var dribble: (chunks: Int, overMs: Int)?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data(),
                truncatedAfterBytes: Int? = nil, announcedContentLength: Int? = nil, dribble: (chunks: Int, overMs: Int)? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.truncatedAfterBytes = truncatedAfterBytes
        self.announcedContentLength = announcedContentLength
        self.dribble = dribble
    }

    public static func == (lhs: CapturedResponse, rhs: CapturedResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.truncatedAfterBytes == rhs.truncatedAfterBytes
            && lhs.announcedContentLength == rhs.announcedContentLength
            && lhs.dribble?.chunks == rhs.dribble?.chunks && lhs.dribble?.overMs == rhs.dribble?.overMs
            && lhs.headers.elementsEqual(rhs.headers) { $0.name == $1.name && $0.value == $1.value }
    }
}
