import Foundation
@_exported import VietMapWire

/// The VietMap endpoints a request can name: the wire protocol's one list (`APIEndpoint`).
public typealias VMEndpoint = APIEndpoint

/// One request to a VietMap endpoint, without the API key (the provider adds it).
/// Parameters keep their order and may repeat (`point` does).
public struct VMRequest: Sendable, Hashable, CustomStringConvertible {
    public var endpoint: VMEndpoint
    public var parameters: [VMParameter]
    /// Path segments after `endpoint.path` for endpoints that take them (`takesPathSegments`:
    /// Directions v5's `/mapbox/driving/106.70,10.77;106.69,10.78.json`), percent-encoded; else "".
    public var pathSuffix: String

    public init(_ endpoint: VMEndpoint, _ parameters: [VMParameter], pathSuffix: String = "") {
        self.endpoint = endpoint
        self.parameters = parameters
        self.pathSuffix = pathSuffix
    }

    /// The request path: `endpoint.path` and `pathSuffix`.
    public var path: String { endpoint.path + pathSuffix }

    public var description: String {
        path + "?" + parameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
    }
}

/// A query parameter.
public struct VMParameter: Sendable, Hashable, Codable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A response as received: status, headers (names lower-cased) and the raw body.
public struct VMRawResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Where VietMap answers come from: the live service, the simulator, recorded fixtures — the
/// same code (an app's, or the contract suite) runs against each.
///
/// Backends implement only `send`; the typed calls are built on it.
public protocol VietMapProvider: Sendable {
    /// Sends `request` and returns whatever came back; throws only when no HTTP answer arrived.
    func send(_ request: VMRequest) async throws -> VMRawResponse
}
