import Foundation
import JSON
import VietMapClient

/// One reason a query (or fixture, or model) does not hold.
public struct ContractFailure: Sendable, Equatable, CustomStringConvertible {
    /// What kind of check failed.
    public enum Kind: String, Sendable {
        /// No HTTP answer (connection reset, timeout, …).
        case transport
        /// Another HTTP status than expected.
        case status
        /// A status the OpenAPI document does not declare for the operation.
        case undocumentedStatus = "undocumented-status"
        /// A response header the document requires is missing, or the Content-Type is not JSON.
        case header
        /// The body is not JSON.
        case json
        /// The body does not match the JSON Schema.
        case schema
        /// The body's `code` is not the expected one.
        case code
        /// A semantic check failed.
        case semantic
        /// The model cannot decode the response (or would crash on the contract).
        case model
        /// A `$from` parameter could not be resolved.
        case dependency
        /// The app's code (its decoding, its polyline decoder) trapped on this answer.
        case crash
        /// The app's code did not return on this answer.
        case hang
        /// The app's polyline decoder and the strict decoder disagree on a valid polyline.
        case polyline
        /// A scenario's outcome differs from the app's baseline (`ScenarioBaseline`).
        case baseline
        /// An accepted gap matched nothing in the run.
        case unusedGap = "unused-gap"
        /// Not a failure: the app's code was not given an input because the run is in-process and
        /// the input could trap it (`AppCodeIsolation.inProcess`); listed apart (`unobserved`).
        case notIsolated = "not-isolated"
    }

    /// Query, fixture (`fixture:NAME`) or model (`model:NAME`).
    public var query: String
    public var kind: Kind
    /// JSON pointer into the response (`""`: the whole response).
    public var pointer: String
    public var reason: String
    /// The app's model property the finding is about (`VMPlaceDetail.lat`), for `model` findings.
    public var property: String?
    /// The app's function that crashed or hung (`decodePolyline`), for `crash` / `hang` findings.
    public var function: String?

    public init(query: String, kind: Kind, pointer: String = "", reason: String, property: String? = nil, function: String? = nil) {
        self.query = query
        self.kind = kind
        self.pointer = pointer
        self.reason = reason
        self.property = property
        self.function = function
    }

    /// `QUERY POINTER: [KIND] REASON`; findings about a whole run (baseline, gaps) have no pointer.
    public var description: String {
        let location = pointer.isEmpty ? (kind == .baseline || kind == .unusedGap ? "" : " /") : " " + pointer
        return "\(query)\(location): [\(kind.rawValue)] \(reason)"
    }
}

/// The outcome of one query (or fixture).
public struct QueryResult: Sendable {
    public var name: String
    public var endpoint: VMEndpoint
    /// The request as sent (parameters resolved), nil when it could not be built.
    public var request: VMRequest?
    public var status: Int?
    public var body: JSONValue?
    public var duration: TimeInterval
    public var failures: [ContractFailure]
    /// Information: known model gaps met, ignored keys, …
    public var notes: [String]
    /// The model the body was decoded with, and whether `JSONDecoder` could decode it.
    public var model: String?
    public var modelDecodes: Bool?
    /// Why the query was not run (e.g. simulator-only query against the live service).
    public var skipped: String?
    /// The gaps (`AcceptedGap.id`, or a known gap of the reference client) that turned findings of
    /// this answer into notes: the row holds only through them.
    public var gapsUsed: [String] = []
    /// Calls of the app's code not made because they could trap it in-process (kind
    /// `not-isolated`): never failures, but a crash there cannot be ruled out.
    public var unobserved: [ContractFailure] = []

    public var passed: Bool { failures.isEmpty }
}

/// Thrown by `ContractSuite.verify` when the contract (or a scenario's expected outcome) does not
/// hold. `description` starts with the findings, one line per kind and query (`report.summary()`
/// has everything, the scenario table included).
public struct ContractViolation: Error, CustomStringConvertible, Sendable {
    public let report: ContractReport
    public var description: String {
        let lines = report.failureLines()
        let count = report.allFailures.count
        return lines.joined(separator: "\n")
            + "\n(\(count) finding\(count == 1 ? "" : "s") against \(report.target); report.summary() has the details)"
    }
}
