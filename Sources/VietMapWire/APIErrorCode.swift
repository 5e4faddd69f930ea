/// VietMap's error codes with the statuses and messages the simulator answers them with
/// (reference §4 and §8.6) — the one error vocabulary of the API layer, scenarios
/// (`"respond": {"error": "ZERO_RESULTS"}`) and capture/replay.
public enum APIErrorCode: String, Sendable, CaseIterable {
    case invalidRequest = "INVALID_REQUEST"
    case zeroResults = "ZERO_RESULTS"
    case overDailyLimit = "OVER_DAILY_LIMIT"
    case maxPointsExceed = "MAX_POINTS_EXCEED"
    case errorUnknown = "ERROR_UNKNOWN"
    case unauthorized = "UNAUTHORIZED"
    case notFound = "NOT_FOUND"
    /// An upstream that could not be reached or answered badly (`serve --upstream`).
    case badGateway = "BAD_GATEWAY"
    /// An upstream that did not answer in time.
    case gatewayTimeout = "GATEWAY_TIMEOUT"

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
        case .badGateway: return 502
        case .gatewayTimeout: return 504
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
        case .badGateway: return "the upstream did not answer"
        case .gatewayTimeout: return "the upstream did not answer in time"
        }
    }
}
