import Foundation
import JSON
import VietMapClient

/// One reason a query (or fixture, or model) does not hold.
public struct ContractFailure: Sendable, Equatable, CustomStringConvertible {
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
    }

    /// Query, fixture (`fixture:NAME`) or model (`model:NAME`).
    public var query: String
    public var kind: Kind
    /// JSON pointer into the response (`""`: the whole response).
    public var pointer: String
    public var reason: String

    public init(query: String, kind: Kind, pointer: String = "", reason: String) {
        self.query = query
        self.kind = kind
        self.pointer = pointer
        self.reason = reason
    }

    public var description: String { "\(query) \(pointer.isEmpty ? "/" : pointer): [\(kind.rawValue)] \(reason)" }
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

    public var passed: Bool { failures.isEmpty }
}

/// Thrown by `ContractSuite.verify` when the contract does not hold; `description` lists every failure.
public struct ContractViolation: Error, CustomStringConvertible, Sendable {
    public let report: ContractReport
    public var description: String {
        "contract does not hold against \(report.target):\n" + report.allFailures.map { "  " + $0.description }.joined(separator: "\n")
    }
}
