import Foundation
import JSON
import VietMapClient

/// One scenario's run of the corpus.
public struct ScenarioReport: Sendable {
    public var name: String
    public var results: [QueryResult]
    public var duration: TimeInterval
    /// The models (and decoder) the answers went through: `route: MyApp.VMRouteResponse (the app's)`.
    public var models: [String] = ["the reference client's models"]

    /// Kinds that break an app: a model that cannot decode a 200, its code crashing or hanging,
    /// its polyline decoder disagreeing with the strict one.
    public static let breakingKinds: Set<ContractFailure.Kind> = [.model, .crash, .hang, .polyline]

    /// What breaks the app: 200 answers a model could not decode, crashes and hangs of its code.
    public var modelBreaks: [ContractFailure] { results.flatMap { $0.failures.filter { Self.breakingKinds.contains($0.kind) } } }
    /// Crashes and hangs of the app's code.
    public var crashes: [ContractFailure] { results.flatMap { $0.failures.filter { $0.kind == .crash || $0.kind == .hang } } }
    /// Every contract failure (schema, status, semantic, transport, …).
    public var violations: [ContractFailure] { results.flatMap(\.failures) }
    public var transportErrors: Int { results.filter { $0.failures.contains { $0.kind == .transport } }.count }
    public var survives: Bool { modelBreaks.isEmpty }
    /// HTTP statuses seen, by count.
    public var statuses: [Int: Int] { results.compactMap(\.status).reduce(into: [:]) { $0[$1, default: 0] += 1 } }
}
