import VietMapWire
import Foundation
import HTTPServer
import JSON
import Scenarios
import VietMapClient

/// Recordings (`serve --record DIR`, `RecordingVietMapProvider`) as a scenario that replays them
/// for any client (`vietmap-sim scenarios from-recording`). Each recording becomes a
/// `CapturedExchange` and `ReplayScenario` — the builder `scenarios from-har` and
/// `GET /__sim/journal/SEQ/scenario` use too — makes the rules: exact request matching
/// (`apikey` left out), the recorded status, headers, body bytes and latency, a sequence where
/// one request was recorded several times (its last answer then repeats).
public enum ReplayScenarioBuilder {
    public struct Output: Sendable {
        /// The scenario document.
        public let scenario: JSONValue
        /// The document as written (indented).
        public let text: String
        /// How many recordings it replays.
        public let exchanges: Int
    }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The recordings as captured exchanges, in the given order (`recording 1`, `recording 2`, …).
    public static func exchanges(from recordings: [VMRecording]) -> [CapturedExchange] {
        recordings.enumerated().map { index, recording in
            let response = CapturedResponse(status: recording.response.status,
                                            headers: recording.response.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                                            body: recording.response.body)
            return CapturedExchange(endpoint: recording.request.endpoint,
                                    query: recording.request.parameters.map { ($0.name, $0.value) },
                                    outcome: .response(response), latencyMilliseconds: recording.latencyMilliseconds ?? 0,
                                    origin: "recording \(index + 1)")
        }
    }

    /// - Parameters:
    ///   - name: the scenario's name (letters, digits, `.`, `_`, `-`).
    ///   - source: shown in the description (the recordings' folder).
    public static func build(recordings: [VMRecording], name: String, source: String) throws(Failure) -> Output {
        guard !recordings.isEmpty else { throw Failure(description: "no recordings in \(source)") }
        let description = "Replays \(recordings.count) VietMap exchange\(recordings.count == 1 ? "" : "s") recorded in \(source); other requests get normal answers."
        do {
            let document = try ReplayScenario.document(for: exchanges(from: recordings), options: .init(name: name, description: description))
            return Output(scenario: document, text: JSONPrettyPrinter.string(document), exchanges: recordings.count)
        } catch {
            throw Failure(description: "\(source): \(error)")
        }
    }
}
