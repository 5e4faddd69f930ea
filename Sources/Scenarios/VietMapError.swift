import Foundation
import HTTPServer
import JSON

/// VietMap's error codes with the simulator's statuses and bodies (reference §4 and §8.6),
/// for the ready-made error answers of scenarios (`"respond": {"error": "ZERO_RESULTS"}`).
///
/// Bodies follow the endpoint: route errors use the route envelope
/// `{"license":"vietmap","code":…,"messages":…,"paths":null}` (`"paths":[]` for
/// `ZERO_RESULTS`), every other endpoint `{"code":…,"message":…}`.
public enum VietMapError: String, Sendable, CaseIterable {
    case invalidRequest = "INVALID_REQUEST"
    case zeroResults = "ZERO_RESULTS"
    case overDailyLimit = "OVER_DAILY_LIMIT"
    case maxPointsExceed = "MAX_POINTS_EXCEED"
    case errorUnknown = "ERROR_UNKNOWN"
    case unauthorized = "UNAUTHORIZED"
    case notFound = "NOT_FOUND"

    /// Accepts the code, or `"401"` for `UNAUTHORIZED`.
    public init?(code: String) {
        if code == "401" { self = .unauthorized; return }
        self.init(rawValue: code)
    }

    /// The status the simulator answers this code with.
    public var defaultStatus: Int {
        switch self {
        case .invalidRequest, .maxPointsExceed: return 400
        case .zeroResults: return 200
        case .overDailyLimit: return 429
        case .errorUnknown: return 500
        case .unauthorized: return 401
        case .notFound: return 404
        }
    }

    public var defaultMessage: String {
        switch self {
        case .invalidRequest: return "invalid request"
        case .zeroResults: return "no result found"
        case .overDailyLimit: return "API key has reached its daily request limit"
        case .maxPointsExceed: return "too many points for this plan"
        case .errorUnknown: return "internal error"
        case .unauthorized: return "apikey is missing or not valid"
        case .notFound: return "not found"
        }
    }

    /// The error body in the shape of `endpoint`.
    public func body(message: String? = nil, endpoint: APIEndpoint) -> JSONValue {
        let text = JSONValue.string(message ?? defaultMessage)
        guard endpoint == .route else { return ["code": .string(rawValue), "message": text] }
        let paths: JSONValue = self == .zeroResults ? .array([]) : .null
        return ["license": "vietmap", "code": .string(rawValue), "messages": text, "paths": paths]
    }

    /// A complete response: JSON body, `Content-Type`, the CORS header except on a 401 (as
    /// live) and `Retry-After` on a 429.
    public func response(message: String? = nil, status: Int? = nil, endpoint: APIEndpoint,
                         retryAfterSeconds: Int = 3600) -> HTTPResponse {
        let status = status ?? defaultStatus
        var response = HTTPResponse.json(Data(JSONSerializer.bytes(body(message: message, endpoint: endpoint))),
                                         status: status)
        if status != 401 { response.headers.set("Access-Control-Allow-Origin", "*") }
        if status == 429 { response.headers.set("Retry-After", String(max(1, retryAfterSeconds))) }
        return response
    }
}
