import Foundation
import HTTPServer
import JSON

/// A broken answer (`"fault"`: one of these, or an array of several):
///
/// | JSON | the client sees |
/// |---|---|
/// | `"empty"` | the connection closed without a byte (empty reply) |
/// | `"reset"` | a TCP RST (ECONNRESET) |
/// | `"malformed-json"` | a complete HTTP answer whose body is the first half of the JSON |
/// | `{"truncate": {"bytes": N}}` / `{"truncate": {"fraction": 0.5}}` | headers announcing the full length, then the body cut |
/// | `{"contentLength": {"delta": 100}}` / `{"contentLength": {"value": 10}}` | a wrong `Content-Length` (the connection then closes) |
/// | `{"contentType": "text/html"}` | another `Content-Type` |
enum TransportFault: Sendable, Equatable {
    case emptyReply
    case reset
    case malformedJSON
    case truncate(Truncation)
    case contentLength(ContentLength)
    case contentType(String)

    enum Truncation: Sendable, Equatable {
        case bytes(Int)
        case fraction(Double)
    }

    enum ContentLength: Sendable, Equatable {
        case value(Int)
        case delta(Int)
    }

    /// The name the journal shows.
    var label: String {
        switch self {
        case .emptyReply: return "empty"
        case .reset: return "reset"
        case .malformedJSON: return "malformed-json"
        case .truncate: return "truncate"
        case .contentLength: return "content-length"
        case .contentType: return "content-type"
        }
    }

    /// Whether the fault replaces the whole answer on the wire (nothing else can apply).
    var endsConnection: Bool {
        self == .emptyReply || self == .reset
    }

    func apply(to response: inout HTTPResponse) {
        switch self {
        case .emptyReply:
            response.transport = .closeWithoutResponse
        case .reset:
            response.transport = .reset
        case .malformedJSON:
            response.body = Self.malformed(response.body)
        case .truncate(.bytes(let count)):
            response.transport = .truncate(afterBytes: max(0, count))
        case .truncate(.fraction(let fraction)):
            response.transport = .truncate(afterBytes: Int(Double(response.body.count) * fraction))
        case .contentLength(.value(let value)):
            response.headers.set("Content-Length", String(max(0, value)))
        case .contentLength(.delta(let delta)):
            response.headers.set("Content-Length", String(max(0, response.body.count + delta)))
        case .contentType(let type):
            response.headers.set("Content-Type", type)
        }
    }

    /// The first half of `body`, made sure not to parse as JSON.
    static func malformed(_ body: Data) -> Data {
        var cut = Data(body.prefix(body.count / 2))
        if cut.isEmpty || (try? JSONParser.parse(cut)) != nil { cut.append(contentsOf: Array(#"{"truncated":"#.utf8)) }
        return cut
    }
}
