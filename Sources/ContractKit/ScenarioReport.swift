import Foundation
import JSON
import VietMapClient

/// One scenario's run of the corpus: what it did to the app's models and code.
public struct ScenarioReport: Sendable {
    public var name: String
    public var results: [QueryResult]
    public var duration: TimeInterval
    /// The models (and decoder) the answers went through: `route: MyApp.VMRouteResponse (the app's)`.
    public var models: [String] = ["the reference client's models"]
    /// The client tag the run used (`scenario:NAME@TAG`), derived from the suite's seed.
    public var tag: String = ""
    /// False when the target's scenario states could not be reset before the run (no admin API):
    /// stateful and seeded scenarios may then differ from run to run.
    public var reproducible = true
    /// Where the app's code ran: `worker` (a crash is observed) or `inProcess`.
    public var isolation: AppCodeIsolation = .worker

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

    /// Survives, breaks the models, or crashes the app's code (a crash or hang outweighs a model break).
    public var outcome: ScenarioBaseline.Outcome {
        if !crashes.isEmpty { return .crashes }
        return survives ? .survives : .breaksModels
    }
    /// The model properties (`VMPlaceDetail.lat`) that broke, sorted.
    public var breakingProperties: [String] {
        Array(Set(modelBreaks.filter { $0.kind == .model || $0.kind == .polyline }.compactMap { $0.kind == .polyline ? $0.function : $0.property })).sorted()
    }
    /// Calls of the app's code not made in-process because the input could trap it.
    public var unobserved: [ContractFailure] { results.flatMap(\.unobserved) }
    /// The app's functions given no input in-process where a crash could not be ruled out, sorted.
    public var unobservedFunctions: [String] { Array(Set(unobserved.compactMap(\.function))).sorted() }
    /// The app's functions that crashed or hung, sorted.
    public var crashingFunctions: [String] { Array(Set(crashes.compactMap(\.function))).sorted() }
    /// The gaps findings of this run were accepted through (`VMRoutePath.points at /paths/*/points`), sorted.
    public var gapsUsed: [String] { Array(Set(results.flatMap(\.gapsUsed))).sorted() }
}
