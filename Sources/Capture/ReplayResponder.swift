import VietMapWireHTTP
import VietMapWire
import Dispatch
import Foundation
import HTTPServer
import VietMapClient

/// `serve --replay DIR`: answers the three endpoints from recordings (`VMRecording` files, as
/// `serve --record` or `RecordingVietMapProvider` write them), with the recorded status, headers
/// and body — and, with `timing`, after the recorded latency (clamped on load to 0…600 s; a
/// latency that is not a finite number counts as 0).
///
/// Requests match as in `RecordedVietMapProvider` (endpoint, parameters in any order except
/// `point`s, key class). A request recorded several times gets the answers in the recorded order,
/// then the last one again. A request with no recording gets a 404 in the endpoint's error shape
/// naming the nearest recording and how it differs — or, with `fallback`, the simulator's answer
/// with `X-VietMap-Sim-Fallback`.
public final class ReplayResponder: HTTPResponder, @unchecked Sendable {
    // @unchecked: `cursors` only under `lock`; the rest is immutable.
    public let recordings: RecordedVietMapProvider
    public let timing: Bool
    public let apiKeys: Set<String>
    private let fallback: (any HTTPResponder)?
    private let lock = NSLock()
    private var cursors: [String: Int] = [:]

    public init(recordings: RecordedVietMapProvider, timing: Bool = false, apiKeys: Set<String> = [],
                fallback: (any HTTPResponder)? = nil) {
        self.recordings = RecordedVietMapProvider(recordings: recordings.recordings.map { recording in
            var clamped = recording
            clamped.latencyMilliseconds = recording.latencyMilliseconds.map(Self.replayedLatency)
            return clamped
        })
        self.timing = timing
        self.apiKeys = apiKeys
        self.fallback = fallback
    }

    /// Loads every `.json` recording in `directory` (file-name order is replay order).
    public convenience init(directory: URL, timing: Bool = false, apiKeys: Set<String> = [],
                            fallback: (any HTTPResponder)? = nil) throws {
        self.init(recordings: try RecordedVietMapProvider(directory: directory), timing: timing, apiKeys: apiKeys, fallback: fallback)
    }

    /// The longest recorded latency replayed (ms): 600 s, as for scenarios built from captures.
    public static let maxLatencyMilliseconds = 600_000.0

    /// A recorded latency as replayed: negative, NaN or infinite → 0, at most `maxLatencyMilliseconds`
    /// (a hand-edited `"latencyMs": 1e300` would otherwise trap or suspend the answer forever).
    static func replayedLatency(_ milliseconds: Double) -> Double {
        guard milliseconds.isFinite, milliseconds > 0 else { return 0 }
        return min(milliseconds, maxLatencyMilliseconds)
    }

    public func respond(to request: HTTPRequest, reply: ResponseHandle) {
        let endpoint: VMEndpoint
        switch FrontDoor(apiKeys: apiKeys).admit(request) {
        case .answered(let response): return reply.send(response)
        case .admitted(let admitted): endpoint = admitted
        }

        let vmRequest = CaptureEndpoint.vmRequest(request, endpoint: endpoint)
        let matches = recordings.matchingRecordings(for: vmRequest)
        guard let first = matches.first else {
            let detail = recordings.unmatchedDescription(for: vmRequest)
            if let fallback { return UpstreamProxy.answer(from: fallback, request, reason: "no recording", reply: reply) }
            return reply.send(APIResponses.error(.notFound("no recording for this request: \(detail)"), for: endpoint))
        }
        let position: Int = lock.withLock {
            let key = first.suggestedFileName
            let current = cursors[key, default: 0]
            cursors[key] = current + 1
            return min(current, matches.count - 1)
        }
        let recording = matches[position]
        var response = HTTPResponse(status: recording.response.status, body: request.method == "HEAD" ? Data() : recording.response.body)
        for (name, value) in recording.response.headers.sorted(by: { $0.key < $1.key })
        where !CaptureEndpoint.hopByHopHeaders.contains(name) {
            response.headers.set(name, value)
        }
        response.headers.set("X-VietMap-Sim-Replay", "\(position + 1)/\(matches.count)")
        if timing, let latency = recording.latencyMilliseconds, latency > 0 {
            let delayed = response
            DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int(latency * 1000)), execute: { reply.send(delayed) })
        } else {
            reply.send(response)
        }
    }
}
