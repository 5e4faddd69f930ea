import Foundation
import HTTPServer
import JSON
import Scenarios
import VietMapClient

/// What forwarding and replaying share beyond the wire protocol's front door: the request as
/// a `VMRequest`, the headers never copied, the fallback header.
enum CaptureEndpoint {
    /// The request as a `VMRequest` (every query item, the client's `apikey` included).
    static func vmRequest(_ request: HTTPRequest, endpoint: VMEndpoint) -> VMRequest {
        VMRequest(endpoint, request.query.items.map { VMParameter($0.name, $0.value) })
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
