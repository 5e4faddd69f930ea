/// The `code` of a Mapbox Directions v5 answer (`/api/navigations/route/directions/v5`): `Ok` and
/// the documented failures, with the statuses the simulator answers them with. The navigation
/// SDKs treat every code but `Ok` as a failure and name `NoRoute`/`NoSegment` (200) and
/// `ProfileNotFound` (404) specially.
public enum DirectionsCode: String, Sendable, CaseIterable {
    case ok = "Ok"
    /// No path between the waypoints (200).
    case noRoute = "NoRoute"
    /// A waypoint has no road within its radius (200).
    case noSegment = "NoSegment"
    /// The profile is none the simulator serves (404).
    case profileNotFound = "ProfileNotFound"
    /// Malformed coordinates or parameters (422).
    case invalidInput = "InvalidInput"
    /// A missing or refused key (401). Mapbox's own 401 body says only "Not Authorized - Invalid
    /// Token"; the code is the simulator's choice.
    case invalidToken = "InvalidToken"
    /// Over the key's quota (429; the simulator's choice of code).
    case rateLimited = "RateLimited"
    /// No such resource (404 of the front door; the simulator's choice of code).
    case notFound = "NotFound"
    /// A failure of the server or its upstream (5xx; the simulator's choice of code).
    case serverError = "ServerError"

    /// The status the simulator answers this code with.
    public var status: Int {
        switch self {
        case .ok, .noRoute, .noSegment: return 200
        case .profileNotFound, .notFound: return 404
        case .invalidInput: return 422
        case .invalidToken: return 401
        case .rateLimited: return 429
        case .serverError: return 500
        }
    }

    /// A Mapbox code as is; a VietMap code (`APIErrorCode`: from the front door, a scenario, an
    /// upstream) as its Mapbox counterpart; anything else as `ServerError`.
    public init(translating code: String) {
        if let own = DirectionsCode(rawValue: code) { self = own; return }
        switch APIErrorCode(code: code) {
        case .invalidRequest, .maxPointsExceed: self = .invalidInput
        case .zeroResults: self = .noRoute
        case .unauthorized: self = .invalidToken
        case .overDailyLimit: self = .rateLimited
        case .notFound: self = .notFound
        case .errorUnknown, .badGateway, .gatewayTimeout, nil: self = .serverError
        }
    }
}

extension APIError {
    /// A Directions v5 failure: `code` with its status.
    public static func directions(_ code: DirectionsCode, _ message: String) -> APIError {
        APIError(status: code.status, code: code.rawValue, message: message)
    }
}
