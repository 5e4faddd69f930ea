import Foundation

/// Answers from recordings (see `VMRecording` for the file format): no network, no key.
///
/// A request matches a recording with the same endpoint, the same `canonicalParameters`
/// (parameter order does not matter except among repeated `point`s) and the same key class
/// (`VMRequest.keyClass`): a request with `apikey=` gets the answer recorded for `apikey=` (a
/// 401), not the one recorded with the provider's key. A request carrying a non-empty key that
/// has no recording of its own falls back to the recording made with the provider's key (no
/// `apikey` pair). When several recordings match, the first (in file-name order) answers. A
/// request with no recording throws `VMClientError.notRecorded`, naming the nearest recording's
/// differences.
public struct RecordedVietMapProvider: VietMapProvider {
    public let recordings: [VMRecording]
    /// Positions of the recordings of each request, in order.
    private let index: [MatchKey: [Int]]

    private struct MatchKey: Hashable {
        let endpoint: VMEndpoint
        let pathSuffix: String
        let parameters: [VMParameter]
        let keyClass: String?
        init(_ request: VMRequest, keyClass: String?? = nil) {
            endpoint = request.endpoint
            pathSuffix = request.pathSuffix
            parameters = request.canonicalParameters
            self.keyClass = keyClass ?? request.keyClass
        }
    }

    public init(recordings: [VMRecording]) {
        self.recordings = recordings
        var index: [MatchKey: [Int]] = [:]
        for (position, recording) in recordings.enumerated() {
            index[MatchKey(recording.request), default: []].append(position)
        }
        self.index = index
    }

    /// Loads every `.json` fixture in `directory`.
    public init(directory: URL) throws(VMFixtureError) {
        self.init(recordings: try VMRecording.load(directory: directory))
    }

    /// The recording that answers `request`, if any.
    public func recording(for request: VMRequest) -> VMRecording? {
        matchingRecordings(for: request).first
    }

    /// Every recording that answers `request`, in recorded order (a request that got different
    /// answers over time has several).
    public func matchingRecordings(for request: VMRequest) -> [VMRecording] {
        if let exact = index[MatchKey(request)] { return exact.map { recordings[$0] } }
        // A non-empty key without a recording of its own: the recordings made with the provider's key.
        guard let key = request.parameters.first(where: { $0.name.lowercased() == "apikey" })?.value,
              !key.isEmpty, !VMKeyRedaction.isToken(key) else { return [] }
        return (index[MatchKey(request, keyClass: .some(nil))] ?? []).map { recordings[$0] }
    }

    /// Why no recording answers `request`: the nearest recording of the endpoint and how it differs.
    public func unmatchedDescription(for request: VMRequest) -> String {
        unmatchedDetail(request)
    }

    public func send(_ request: VMRequest) async throws -> VMRawResponse {
        if let recording = recording(for: request) { return recording.response }
        throw VMClientError.notRecorded(request: request, detail: unmatchedDetail(request))
    }

    private func unmatchedDetail(_ request: VMRequest) -> String {
        let wanted = request.canonicalParameters
        let sameEndpoint = recordings.filter { $0.request.endpoint == request.endpoint }
        guard !sameEndpoint.isEmpty else {
            return "no recordings for \(request.endpoint.path) among \(recordings.count)"
        }
        func describe(_ list: [VMParameter]) -> String {
            list.isEmpty ? "nothing" : list.map { "\($0.name)=\($0.value.prefix(60))" }.joined(separator: "&")
        }
        // The nearest recording: fewest parameters in one but not the other (order-insensitive multiset).
        func difference(_ a: [VMParameter], _ b: [VMParameter]) -> [VMParameter] {
            var rest = b
            return a.filter { item in
                if let i = rest.firstIndex(of: item) { rest.remove(at: i); return false }
                return true
            }
        }
        let nearest = sameEndpoint.min { x, y in
            let dx = difference(wanted, x.request.canonicalParameters).count + difference(x.request.canonicalParameters, wanted).count
            let dy = difference(wanted, y.request.canonicalParameters).count + difference(y.request.canonicalParameters, wanted).count
            return dx < dy
        }!.request.canonicalParameters
        let missing = difference(wanted, nearest), extra = difference(nearest, wanted)
        if missing.isEmpty && extra.isEmpty {
            let classes = sameEndpoint.filter { $0.request.canonicalParameters == nearest }.map { $0.request.keyClass ?? "the provider's key" }
            if nearest == wanted, !classes.isEmpty, !classes.contains(request.keyClass ?? "the provider's key") {
                return "the nearest recording for \(request.endpoint.path) has the same parameters but was made with \(classes[0]), this request with \(request.keyClass ?? "the provider's key")"
            }
            return "\(sameEndpoint.count) recording(s) for \(request.endpoint.path); the nearest has the same parameters with the 'point's in another order"
        }
        return "\(sameEndpoint.count) recording(s) for \(request.endpoint.path); the nearest has \(describe(extra)) where this request has \(describe(missing))"
    }
}

/// Sends through another provider and records every answer received (transport failures are
/// not answers and are not recorded), so a team can record the live service once and replay it
/// in CI with `RecordedVietMapProvider`. The provider's key is never recorded; a key the request
/// carries itself is recorded only as its redaction token (see `VMRecording`). One recording is
/// kept per canonical request and key class: the latest answer.
public actor RecordingVietMapProvider: VietMapProvider {
    /// Headers that differ on every answer or describe the transport, not the API.
    public static let defaultDroppedHeaders: Set<String> = [
        "date", "connection", "keep-alive", "content-length", "transfer-encoding", "server-timing",
    ]

    public let wrapped: any VietMapProvider
    public let droppedHeaders: Set<String>
    private var stored: [VMRecording] = []
    private var positions: [String: Int] = [:]

    public init(wrapping provider: any VietMapProvider, droppedHeaders: Set<String> = defaultDroppedHeaders) {
        wrapped = provider
        self.droppedHeaders = Set(droppedHeaders.map { $0.lowercased() })
    }

    /// What was recorded so far, in order of first request.
    public var recordings: [VMRecording] { stored }

    public func send(_ request: VMRequest) async throws -> VMRawResponse {
        let response = try await wrapped.send(request)
        var kept = response
        kept.headers = response.headers.filter { !droppedHeaders.contains($0.key.lowercased()) }
        let recording = VMRecording(request: request, response: kept)
        let key = recording.suggestedFileName
        if let position = positions[key] {
            stored[position] = recording
        } else {
            positions[key] = stored.count
            stored.append(recording)
        }
        return response
    }

    /// Writes one fixture file per recording into `directory` (created if needed), named by
    /// `VMRecording.suggestedFileName`; returns the files written.
    @discardableResult
    public func write(to directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try stored.map { recording in
            let file = directory.appendingPathComponent(recording.suggestedFileName)
            try recording.fixtureData().write(to: file, options: .atomic)
            return file
        }
    }
}
