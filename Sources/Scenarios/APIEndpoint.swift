/// The VietMap endpoints a scenario rule can target, recognised by path. This is all the
/// engine knows of the API's routes.
public enum APIEndpoint: String, Sendable, CaseIterable {
    case autocomplete
    case place
    case route
    /// Any other path (unknown endpoints, the admin API when disabled, …).
    case other

    /// The endpoint of a request path (a trailing `/` is ignored, as the simulator does).
    public init(path: String) {
        let trimmed = path.utf8.count > 1 && path.utf8.last == UInt8(ascii: "/") ? String(path.dropLast()) : path
        switch trimmed {
        case "/api/autocomplete/v4": self = .autocomplete
        case "/api/place/v4": self = .place
        case "/api/route/v4": self = .route
        default: self = .other
        }
    }

    /// The endpoint's path ("" for `other`).
    public var path: String {
        switch self {
        case .autocomplete: return "/api/autocomplete/v4"
        case .place: return "/api/place/v4"
        case .route: return "/api/route/v4"
        case .other: return ""
        }
    }
}
