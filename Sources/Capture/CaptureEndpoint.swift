import Foundation
import HTTPServer
import JSON
import Scenarios
import VietMapClient

/// What forwarding and replaying share beyond the wire protocol's front door: the request as
/// a `VMRequest`, the headers never copied, the fallback header.
enum CaptureEndpoint {
    /// The request as a `VMRequest` (every query item, the client's `apikey` included; the path
    /// segments after `endpoint.path` of an endpoint that takes them).
    static func vmRequest(_ request: HTTPRequest, endpoint: VMEndpoint) -> VMRequest {
        VMRequest(endpoint, request.query.items.map { VMParameter($0.name, $0.value) }, pathSuffix: pathSuffix(request, endpoint: endpoint))
    }

    /// What `request.path` carries after `endpoint.path` (Directions v5's profile and coordinates, a
    /// map resource's whole path), percent-encoded again for an upstream URL; empty for the others.
    static func pathSuffix(_ request: HTTPRequest, endpoint: VMEndpoint) -> String {
        guard endpoint.takesPathSegments, request.path.hasPrefix(endpoint.path) else { return "" }
        let suffix = request.path.dropFirst(endpoint.path.count)
        // RFC 3986 pchar and `/`: unreserved, sub-delims, `:`, `@`.
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~!$&'()*+,;=:@/")
        return suffix.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// Response headers that describe one connection, not the answer; never copied.
    static let hopByHopHeaders: Set<String> = [
        "connection", "keep-alive", "transfer-encoding", "content-length", "date", "proxy-connection", "upgrade", "te", "trailer",
        // URLSession hands over the decoded body, so its encoding no longer applies.
        "content-encoding",
    ]

    /// The header that says an answer came from the simulator instead of the upstream or a recording.
    static let fallbackHeader = ScenarioEngine.fallbackHeader
}
