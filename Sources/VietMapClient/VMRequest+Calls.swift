import Foundation

/// A route `vehicle`. String-literal convertible, so the reference call `route(…, vehicle: "car")`
/// still reads the same; unknown names are passed through (the server judges them).
public struct VMVehicle: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    public static let car: VMVehicle = "car"
    public static let motorcycle: VMVehicle = "motorcycle"
    public static let truck: VMVehicle = "truck"
    public static let container: VMVehicle = "container"
    public static let bike: VMVehicle = "bike"
    public static let foot: VMVehicle = "foot"
}

extension VMCoordinate {
    /// `"lat,lng"` with 6 decimals (≈ 0.1 m), locale-independent — the form every request uses,
    /// so equal coordinates always make equal requests (route memo, recordings).
    public var queryValue: String { Self.format(latitude) + "," + Self.format(longitude) }

    var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    static func format(_ value: Double) -> String {
        // Integer arithmetic instead of String(format:) keeps the output identical on every platform.
        let micro = (value * 1e6).rounded()
        let sign = micro < 0 ? "-" : ""
        let magnitude = Int64(abs(micro))
        let fraction = String(magnitude % 1_000_000)
        return sign + String(magnitude / 1_000_000) + "." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}

extension VMRequest {
    /// `GET /api/autocomplete/v4`: `text`, then `focus` (when given), then `display_type`, then
    /// `additionalParameters` (`cityId`, `layers`, `circle_center`, … as documented) in order.
    public static func autocomplete(text: String, focus: VMCoordinate? = nil, displayType: Int = 1,
                                    additionalParameters: [VMParameter] = []) throws(VMClientError) -> VMRequest {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw .invalidArgument("autocomplete text is empty")
        }
        var parameters = [VMParameter("text", text)]
        if let focus {
            guard focus.isValid else { throw .invalidArgument("focus \(focus) is not a valid coordinate") }
            parameters.append(VMParameter("focus", focus.queryValue))
        }
        parameters.append(VMParameter("display_type", String(displayType)))
        parameters += additionalParameters
        return VMRequest(.autocomplete, parameters)
    }

    /// `GET /api/place/v4?refid=…`.
    public static func placeDetail(refId: String) throws(VMClientError) -> VMRequest {
        guard !refId.isEmpty else { throw .invalidArgument("refId is empty") }
        return VMRequest(.place, [VMParameter("refid", refId)])
    }

    /// `GET /api/route/v4`: `vehicle`, `points_encoded`, then one `point=lat,lng` per point in order,
    /// then `additionalParameters` (`avoid`, `capacity`, …).
    public static func route(points: [VMCoordinate], vehicle: VMVehicle = .car, pointsEncoded: Bool = true,
                             additionalParameters: [VMParameter] = []) throws(VMClientError) -> VMRequest {
        guard points.count >= 2 else { throw .invalidArgument("a route needs at least 2 points, got \(points.count)") }
        if let bad = points.firstIndex(where: { !$0.isValid }) {
            throw .invalidArgument("point \(bad) (\(points[bad])) is not a valid coordinate")
        }
        var parameters = [VMParameter("vehicle", vehicle.rawValue), VMParameter("points_encoded", pointsEncoded ? "true" : "false")]
        parameters += points.map { VMParameter("point", $0.queryValue) }
        parameters += additionalParameters
        return VMRequest(.route, parameters)
    }

    /// The parameters in matching order: `apikey` dropped, sorted by name (stable), values of a
    /// repeated name sorted too — except `point`, whose order is the route's. Two requests that
    /// differ only in parameter order (or key) have the same `canonicalParameters`.
    public var canonicalParameters: [VMParameter] {
        let kept = parameters.enumerated().filter { $0.element.name.lowercased() != "apikey" }
        return kept.sorted { a, b in
            if a.element.name != b.element.name { return a.element.name < b.element.name }
            if a.element.name == "point" || a.element.value == b.element.value { return a.offset < b.offset }
            return a.element.value < b.element.value
        }.map(\.element)
    }

    /// Whether the request carries its own `apikey` parameter (even an empty one).
    public var carriesKey: Bool { parameters.contains { $0.name.lowercased() == "apikey" } }

    /// How the request's own key is told apart in recordings, without the key: `nil` when the
    /// request carries no `apikey` (the provider's key is used), else ``VMKeyRedaction/token(for:)``
    /// of the first one (`<redacted:empty>`, `<redacted:key#1a2b3c>`).
    public var keyClass: String? {
        parameters.first { $0.name.lowercased() == "apikey" }.map { VMKeyRedaction.token(for: $0.value) }
    }

    /// The request with every `apikey` value replaced by its redaction token.
    public var redactingKey: VMRequest {
        VMRequest(endpoint, parameters.map { $0.name.lowercased() == "apikey" ? VMParameter($0.name, VMKeyRedaction.token(for: $0.value)) : $0 }, pathSuffix: pathSuffix)
    }

    /// The query string as sent: each name and value UTF-8 percent-encoded, keeping only RFC 3986
    /// unreserved characters plus `,` and `:` (readable `point=10.7,106.6`, `refid=auto:…`).
    /// `+`, `&`, `=`, `#`, `?`, `/`, `%`, spaces and all non-ASCII text are escaped, so any text
    /// reaches the server unchanged (a literal `+` would otherwise be read as a space).
    ///
    /// `apiKey` is sent first — unless the request carries its own `apikey` parameter: then that
    /// one is sent exactly as it is (an empty or a wrong key reaches the backend as written).
    public func percentEncodedQuery(apiKey: String? = nil) -> String {
        var items: [VMParameter] = []
        if !carriesKey, let apiKey, !apiKey.isEmpty { items.append(VMParameter("apikey", apiKey)) }
        items += parameters
        return items.map { VMQueryEncoding.encode($0.name) + "=" + VMQueryEncoding.encode($0.value) }.joined(separator: "&")
    }
}

/// Strict query-component percent-encoding (see `VMRequest.percentEncodedQuery`).
public enum VMQueryEncoding {
    private static let hex = Array("0123456789ABCDEF".utf8)

    public static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
                 UInt8(ascii: ","), UInt8(ascii: ":"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
