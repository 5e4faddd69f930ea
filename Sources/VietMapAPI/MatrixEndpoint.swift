import VietMapWire
import Foundation
import HTTPServer
import Routing

/// `GET /api/matrix?api-version=1.1&point=lat,lng&point=…&sources=0;1&destinations=2;3&vehicle=car&annotation=…`:
/// travel times and distances of the fastest paths between points (`TravelMatrix`, one search per source).
///
/// Answer (`MatrixRenderer`, keys in this order, as the Flutter SDK's `VietmapMatrixModel` reads them):
/// `{"code":"OK","messages":null,"durations":[[s,…],…],"distances":[[m,…],…]}` — one row per source, one column
/// per destination, in the requested order. Durations are seconds and distances metres, both rounded to 0.1
/// (numbers, not integers); an unreachable pair is `null`.
///
/// Simulator decisions (the live limits and strictness are unknown):
/// - `sources` / `destinations`: point indexes separated by `;` (what the SDK sends) or `,`; absent or `all` = every
///   point; repeats allowed. A value that is not an index of a point is 400 INVALID_REQUEST naming it.
/// - `annotation` (alias `annotations`): `duration` and/or `distance` (plural accepted), `,` or `;` separated;
///   it selects which arrays appear, the other key is left out. Absent = both (the SDK never sends it and reads
///   both). Another value is 400.
/// - At least 2 and at most `Limits.maxPoints` points (more: MAX_POINTS_EXCEED, as route); more than
///   `Limits.maxCells` sources × destinations is 400 INVALID_REQUEST. Only points that are sources or destinations
///   are snapped; one without a road is 400 "Cannot find point i" as in route.
/// - `vehicle`, `avoid`, `capacity` as route v4 (`RoutingQuery`); `points_encoded` is validated and has no effect.
struct MatrixEndpoint {
    /// Limits an operator may set.
    struct Limits: Sendable {
        var maxPoints = 100
        /// 50 × 50; each source costs one one-to-many search (a few ms on a whole-city graph).
        var maxCells = 2_500
        var maxSnapDistanceMeters = 1_000.0
    }

    /// nil: the dataset has no roads.
    let network: RoadNetwork?
    let limits: Limits
    /// Sources searched at once: a matrix is one request's latency, and its searches are independent.
    /// One on a heavy-work thread (`HeavyWorkExecutor`): its priority and thread count bound what
    /// heavy work takes from light requests, which helper threads at normal priority would not keep.
    static let parallelism = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))

    static var currentParallelism: Int {
        HeavyWorkExecutor.isCurrentThreadWorker ? 1 : parallelism
    }

    init(network: RoadNetwork?, limits: Limits = Limits()) {
        self.network = network
        self.limits = limits
    }

    /// The matrix (`MatrixRenderer`) and the search states settled.
    func respond(_ parameters: RequestParameters) throws(APIError) -> EndpointAnswer {
        let query = try RoutingQuery(parameters, minPoints: 2, maxPoints: limits.maxPoints,
                                     maxSnapDistanceMeters: limits.maxSnapDistanceMeters)
        let count = query.points.count
        let sources = try indexes(parameters, .sources, count: count)
        let destinations = try indexes(parameters, .destinations, count: count)
        let cells = sources.count * destinations.count
        guard cells <= limits.maxCells else {
            throw .invalidRequest("too many matrix cells: \(sources.count) sources × \(destinations.count) destinations = \(cells), at most \(limits.maxCells)")
        }
        let (durations, distances) = try annotations(parameters)
        let network = try RoadNetwork.required(network, firstPoint: query.pointTexts[0])
        let graph = network.graph

        var snapOf: [Int: Snap] = [:]
        for i in (sources + destinations).sorted() where snapOf[i] == nil { snapOf[i] = try query.snap(graph, i) }
        let matrix: TravelMatrix
        do {
            matrix = try TravelMatrix.compute(graph, sources: sources.map { snapOf[$0]! }, destinations: destinations.map { snapOf[$0]! },
                                              vehicle: query.vehicle, options: query.options, maxCells: limits.maxCells,
                                              workspace: network.workspace, parallelism: Self.currentParallelism,
                                              threadWorkspace: { network.workspace })
        } catch {
            throw .invalidRequest("too many matrix cells: \(error.requested), at most \(error.maxCells)")
        }
        return EndpointAnswer(body: MatrixRenderer.answer(matrix, durations: durations, distances: distances),
                              settledStates: matrix.settledStates)
    }

    /// The point indexes of `name`: all points when absent or `all`.
    func indexes(_ parameters: RequestParameters, _ parameter: APIParameter, count: Int) throws(APIError) -> [Int] {
        let name = parameter.name
        guard let text = parameters.string(parameter), RequestParameters.trimmed(text).lowercased() != "all" else {
            return Array(0..<count)
        }
        let items = try parameters.list(parameter, limit: limits.maxCells, noun: "indexes", separators: { $0 == ";" || $0 == "," })
        guard !items.isEmpty else { throw .invalidRequest("parameter '\(name)' must list point indexes separated by ';', got '\(text.prefix(40))'") }
        var out: [Int] = []
        out.reserveCapacity(items.count)
        for item in items {
            guard let index = Int(item), index >= 0, index < count else {
                throw .invalidRequest("parameter '\(name)': '\(item.prefix(20))' is not a point index (0…\(count - 1))")
            }
            out.append(index)
        }
        return out
    }

    /// Which arrays to answer: (durations, distances).
    func annotations(_ parameters: RequestParameters) throws(APIError) -> (Bool, Bool) {
        let words = try parameters.list(.annotation, limit: 4, noun: "values", separators: { $0 == "," || $0 == ";" })
        guard !words.isEmpty else { return (true, true) }
        var durations = false, distances = false
        for word in words {
            switch word.lowercased() {
            case "duration", "durations": durations = true
            case "distance", "distances": distances = true
            default: throw .invalidRequest("parameter 'annotation' must be duration and/or distance, got '\(word.prefix(20))'")
            }
        }
        return (durations, distances)
    }
}
