/// Visiting order for a travelling-salesman tour over a full (possibly asymmetric) cost matrix, and the drawable
/// route through the points in that order.
///
/// - n ≤ `exactLimit` (10): exact, Held–Karp dynamic programming, O(n²·2ⁿ) time and O(n·2ⁿ) memory
///   (10 points: 2⁹·9 states, well under a millisecond).
/// - n > `exactLimit`: nearest neighbour from the start, then 2-opt (segment reversal, costs re-evaluated in the
///   travelled direction, so one-ways count) and Or-opt (moving runs of 1–3 points, either way round) with
///   first improvement until a whole pass improves nothing or `maxImprovements` moves were made. Never worse than
///   the nearest-neighbour tour; not guaranteed optimal. Each pass is O(n³); meant for up to `maxPoints` (25, the
///   route limit) but it accepts any n.
///
/// The start is fixed (index 0 unless given). Round trips return to the start. An open tour may have a fixed end
/// ("destination = last"); an end equal to the start makes it a round trip. Unreachable pairs (+∞ costs) are
/// avoided where any alternative exists; a plan that still needs one has an infinite `cost`. Deterministic: ties go
/// to the lower index, so the same matrix always gives the same order.
public enum TourPlanner {
    /// Largest point count solved exactly.
    public static let exactLimit = 10
    /// The point count the heuristic is sized for (and `route`'s default limit through `RouteOptions.maxPoints`).
    public static let maxPoints = 25
    /// Bound on the improving moves of the heuristic (each strictly lowers the cost).
    public static let maxImprovements = 10_000

    /// A visiting order.
    public struct Plan: Sendable, Equatable {
        /// Every point index once, starting with the start (a round trip's return to it is not repeated).
        public var order: [Int]
        /// Sum of the matrix costs along the order (including the return for a round trip); +∞ if a leg has none.
        public var cost: Double
        /// True when Held–Karp proved the order optimal.
        public var isExact: Bool
    }

    /// A planned tour and its route.
    public struct Tour: Sendable, Equatable {
        public var plan: Plan
        /// The matrix the plan was made on (`points` × `points`).
        public var matrix: TravelMatrix
        /// `Router.route` through the points in `plan.order` (plus the start again for a round trip): via points
        /// give sign-5 instructions, its `weight` is `plan.cost`.
        public var route: Route
    }

    /// Plans the visiting order over `costs` (n × n, `costs[i][j]` = cost from i to j; the diagonal is ignored).
    /// - Precondition: `costs` is square, `start` and `end` are valid indexes.
    public static func plan(costs: [[Double]], roundTrip: Bool, start: Int = 0, end: Int? = nil) -> Plan {
        let n = costs.count
        precondition(costs.allSatisfy { $0.count == n }, "the cost matrix must be square")
        precondition(n == 0 || (start >= 0 && start < n), "start out of range")
        precondition(end.map { $0 >= 0 && $0 < n } ?? true, "end out of range")
        if n <= 1 { return Plan(order: Array(0..<n), cost: 0, isExact: true) }
        let problem = TourProblem(costs: costs, roundTrip: roundTrip || end == start, start: start,
                                  end: roundTrip || end == start ? nil : end)
        let order = n <= exactLimit ? problem.heldKarp() : problem.improved(problem.nearestNeighbour())
        return Plan(order: order, cost: problem.trueCost(order), isExact: n <= exactLimit)
    }

    /// Snaps `points`, computes their matrix, plans the order and routes through it.
    /// - Throws: `.tooFewPoints`, `.tooManyPoints` (more than `options.maxPoints`; a round trip's extra return
    ///   point does not count), `.pointNotFound(index:)` (index into `points`), `.noRoute(legIndex:)` (leg of the
    ///   route in tour order) when some point cannot be reached in any order.
    public static func route(_ graph: RoadGraph, points: [GeoPoint], vehicle: Vehicle,
                             options: RouteOptions = RouteOptions(), roundTrip: Bool, start: Int = 0, end: Int? = nil,
                             workspace: RouterWorkspace? = nil) throws(RoutingError) -> Tour {
        let snaps = try Router.snap(graph, points: points, vehicle: vehicle, options: options)
        let ws = workspace ?? RouterWorkspace(graph: graph)
        let matrix: TravelMatrix
        do {
            matrix = try TravelMatrix.compute(graph, sources: snaps, destinations: snaps, vehicle: vehicle,
                                              options: options, maxCells: snaps.count * snaps.count, workspace: ws)
        } catch {
            preconditionFailure("the limit is the matrix size")
        }
        let n = snaps.count
        let costs = (0..<n).map { i in (0..<n).map { j in matrix[i, j]?.seconds ?? .infinity } }
        let chosen = plan(costs: costs, roundTrip: roundTrip, start: start, end: end)
        var ordered = chosen.order.map { snaps[$0] }
        if roundTrip || end == start { ordered.append(snaps[chosen.order[0]]) }
        var routeOptions = options
        routeOptions.maxPoints = max(options.maxPoints, ordered.count)
        let route = try Router.route(graph, snaps: ordered, vehicle: vehicle, options: routeOptions, workspace: ws)
        return Tour(plan: chosen, matrix: matrix, route: route)
    }
}

/// One instance: costs with +∞ replaced by a large finite penalty (so comparisons and deltas stay finite).
struct TourProblem {
    let n: Int
    let cost: [Double]
    let original: [[Double]]
    let roundTrip: Bool
    let start: Int
    let end: Int?

    /// Larger than any real tour (seconds): a leg without a path costs this.
    static let unreachable = 1e12

    init(costs: [[Double]], roundTrip: Bool, start: Int, end: Int?) {
        n = costs.count
        var flat = [Double](repeating: 0, count: n * n)
        for i in 0..<n {
            for j in 0..<n where i != j {
                let c = costs[i][j]
                flat[i * n + j] = c.isFinite && c >= 0 ? c : Self.unreachable
            }
        }
        cost = flat
        original = costs
        self.roundTrip = roundTrip
        self.start = start
        self.end = end
    }

    @inline(__always) func c(_ i: Int, _ j: Int) -> Double { cost[i * n + j] }

    func penalized(_ order: [Int]) -> Double {
        var total = 0.0
        for k in 1..<order.count { total += c(order[k - 1], order[k]) }
        if roundTrip { total += c(order[order.count - 1], order[0]) }
        return total
    }

    func trueCost(_ order: [Int]) -> Double {
        var total = 0.0
        func leg(_ i: Int, _ j: Int) -> Double {
            let v = original[i][j]
            return v.isFinite && v >= 0 ? v : .infinity
        }
        for k in 1..<order.count { total += leg(order[k - 1], order[k]) }
        if roundTrip { total += leg(order[order.count - 1], order[0]) }
        return total
    }

    /// Held–Karp over the points other than the start: `dp[mask][j]` = cheapest path from the start through the
    /// set `mask`, ending at its member `j`.
    func heldKarp() -> [Int] {
        let others = (0..<n).filter { $0 != start }
        let m = others.count
        let full = (1 << m) - 1
        var dp = [Double](repeating: .infinity, count: (1 << m) * m)
        var parent = [Int8](repeating: -1, count: (1 << m) * m)
        for j in 0..<m { dp[(1 << j) * m + j] = c(start, others[j]) }
        if m > 1 {
            for mask in 1...full {
                for j in 0..<m where mask & (1 << j) != 0 {
                    let here = dp[mask * m + j]
                    if here == .infinity { continue }
                    for k in 0..<m where mask & (1 << k) == 0 {
                        let next = mask | (1 << k)
                        let value = here + c(others[j], others[k])
                        if value < dp[next * m + k] {
                            dp[next * m + k] = value
                            parent[next * m + k] = Int8(j)
                        }
                    }
                }
            }
        }
        var last = -1
        var best = Double.infinity
        for j in 0..<m {
            if let end, others[j] != end { continue }
            let value = dp[full * m + j] + (roundTrip ? c(others[j], start) : 0)
            if value < best { best = value; last = j }
        }
        var reversed: [Int] = []
        var mask = full
        var j = last
        while j >= 0 {
            reversed.append(others[j])
            let p = Int(parent[mask * m + j])
            mask &= ~(1 << j)
            j = p
        }
        return [start] + reversed.reversed()
    }

    /// Greedy: always the cheapest unvisited point next (the fixed end, if any, last).
    func nearestNeighbour() -> [Int] {
        var visited = [Bool](repeating: false, count: n)
        visited[start] = true
        if let end { visited[end] = true }
        var order = [start]
        var current = start
        let free = n - 1 - (end == nil ? 0 : 1)
        for _ in 0..<free {
            var next = -1
            var best = Double.infinity
            for j in 0..<n where !visited[j] && c(current, j) < best {
                best = c(current, j); next = j
            }
            visited[next] = true
            order.append(next)
            current = next
        }
        if let end { order.append(end) }
        return order
    }

    /// 2-opt and Or-opt, first improvement, until a pass finds nothing (or `maxImprovements`).
    func improved(_ initial: [Int]) -> [Int] {
        var order = initial
        var current = penalized(order)
        // Positions that may move: 1 ... lastFree (the start stays first, a fixed end stays last).
        let lastFree = end == nil ? n - 1 : n - 2
        guard lastFree >= 2 else { return order }
        var candidate = order
        var improvements = 0
        func better(_ value: Double) -> Bool { value < current - 1e-9 * max(1, current) }
        var changed = true
        while changed && improvements < TourPlanner.maxImprovements {
            changed = false
            // 2-opt: reverse positions i...j.
            for i in 1..<lastFree {
                for j in (i + 1)...lastFree {
                    candidate = order
                    candidate[i...j].reverse()
                    let value = penalized(candidate)
                    if better(value) {
                        order = candidate; current = value; changed = true; improvements += 1
                    }
                }
            }
            // Or-opt: move the run at i..<i+length to another gap, as it is or reversed.
            for length in 1...3 {
                var i = 1
                while i + length - 1 <= lastFree {
                    let run = Array(order[i..<(i + length)])
                    var rest = order
                    rest.removeSubrange(i..<(i + length))
                    // Insert before rest[p]; p == rest.count appends (not allowed when the end is fixed).
                    let lastGap = end == nil ? rest.count : rest.count - 1
                    var moved = false
                    for p in 1...lastGap where p != i {
                        for reversedRun in length == 1 ? [false] : [false, true] {
                            candidate = rest
                            candidate.insert(contentsOf: reversedRun ? run.reversed() : run, at: p)
                            let value = penalized(candidate)
                            if better(value) {
                                order = candidate; current = value; changed = true; improvements += 1
                                moved = true
                                break
                            }
                        }
                        if moved { break }
                    }
                    i += 1
                }
            }
        }
        return order
    }
}
