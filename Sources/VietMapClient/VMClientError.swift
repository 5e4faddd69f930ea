import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A VietMap error body, decoded from either shape the API uses:
/// - autocomplete/place: `{"code":"NOT_FOUND","message":"…"}`;
/// - route: the envelope `{"license":"vietmap","code":"ZERO_RESULTS","messages":"…","paths":…}`
///   (`messages` may be a string, an array of strings or `null`; a singular `message` is also read).
public struct VMAPIError: Sendable, Equatable, Decodable {
    /// VietMap's code, e.g. `UNAUTHORIZED`, `INVALID_REQUEST`, `NOT_FOUND`, `ZERO_RESULTS`, `OVER_DAILY_LIMIT`.
    public var code: String?
    /// The human-readable text (`message`, else `messages`).
    public var message: String?
    /// `license` of a route envelope (`"vietmap"`); `nil` for the small error body.
    public var license: String?
    /// Whether the body was a route envelope (it had `license`, `messages` or `paths`).
    public var isRouteEnvelope: Bool

    public init(code: String?, message: String?, license: String? = nil, isRouteEnvelope: Bool = false) {
        self.code = code
        self.message = message
        self.license = license
        self.isRouteEnvelope = isRouteEnvelope
    }

    private enum Keys: String, CodingKey { case code, message, messages, license, paths }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        code = try? c.decodeIfPresent(String.self, forKey: .code)
        license = try? c.decodeIfPresent(String.self, forKey: .license)
        let single = try? c.decodeIfPresent(String.self, forKey: .message)
        let plural = (try? c.decodeIfPresent(String.self, forKey: .messages))
            ?? (try? c.decodeIfPresent([String].self, forKey: .messages))?.joined(separator: "; ")
        message = single ?? plural
        isRouteEnvelope = c.contains(.license) || c.contains(.messages) || c.contains(.paths)
        guard code != nil || message != nil else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "neither 'code' nor 'message(s)'"))
        }
    }

    /// Decodes `body` as a VietMap error body; `nil` when it is not a JSON object with a
    /// `code` or a `message`/`messages` text.
    public static func decode(from body: Data) -> VMAPIError? {
        try? JSONDecoder().decode(VMAPIError.self, from: body)
    }
}

/// Everything a typed call can fail with.
///
/// Route codes inside a 2xx answer: `"ZERO_RESULTS"` (no path between the points) is thrown as
/// `.noRoute` — the reference model `VMRouteResponse` cannot say *why* `paths` is empty, and
/// "no route" is an outcome an app must handle differently from a broken request. Any other
/// code than `"OK"` inside a 2xx route envelope (e.g. `OVER_DAILY_LIMIT`, which some clients see
/// with HTTP 200) is thrown as `.http` with that 2xx status.
public enum VMClientError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The call was refused before anything was sent (fewer than 2 route points, a non-finite
    /// coordinate, an empty `text`/`refId`, a base URL that cannot carry a query).
    case invalidArgument(String)
    /// No HTTP answer arrived: usually a `URLError` (offline, timeout, connection refused).
    case transport(any Error)
    /// The task was cancelled (`CancellationError` or `URLError.cancelled`).
    case cancelled
    /// The server said no: a non-2xx status (or a 2xx route envelope with an error code, see
    /// above). `apiError` is the decoded VietMap error body when there is one.
    case http(status: Int, body: Data, apiError: VMAPIError?)
    /// The route has no path between the points (route `code` `"ZERO_RESULTS"`, HTTP 200).
    case noRoute(VMAPIError)
    /// A 2xx answer whose body does not fit the reference model.
    case decoding(description: String, body: Data)
    /// `RecordedVietMapProvider` holds no recording for the request.
    case notRecorded(request: VMRequest, detail: String)

    /// The HTTP status for `.http`, else `nil`.
    public var status: Int? {
        if case .http(let status, _, _) = self { return status }
        return nil
    }

    /// The decoded VietMap error body for `.http` and `.noRoute`, else `nil`.
    public var apiError: VMAPIError? {
        switch self {
        case .http(_, _, let apiError): return apiError
        case .noRoute(let apiError): return apiError
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .invalidArgument(let text): return "invalid argument: \(text)"
        case .transport(let error): return "transport error: \(error)"
        case .cancelled: return "cancelled"
        case .http(let status, let body, let apiError):
            if let apiError {
                return "HTTP \(status): \(apiError.code ?? "?") \(apiError.message ?? "")"
            }
            return "HTTP \(status): \(String(decoding: body.prefix(200), as: UTF8.self))"
        case .noRoute(let apiError): return "no route: \(apiError.message ?? apiError.code ?? "ZERO_RESULTS")"
        case .decoding(let description, let body):
            return "undecodable answer (\(description)); body starts \(String(decoding: body.prefix(120), as: UTF8.self))"
        case .notRecorded(let request, let detail): return "no recording for \(request): \(detail)"
        }
    }

    public var errorDescription: String? { description }

    /// Wraps whatever a provider's `send` threw.
    static func wrapping(_ error: any Error) -> VMClientError {
        if let error = error as? VMClientError { return error }
        if error is CancellationError { return .cancelled }
        if let error = error as? URLError, error.code == .cancelled { return .cancelled }
        return .transport(error)
    }
}
