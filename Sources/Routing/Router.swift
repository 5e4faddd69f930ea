import ArrayBlob
/// Route computation: snapping, one fastest-path search per leg, geometry and instructions.
///
/// Algorithm: unidirectional A* (bound = planar straight-line distance × 0.99 / the vehicle's fastest speed in the
/// graph) over a hybrid state space — one state per graph node, plus one state per arriving edge only at
/// turn-restriction via nodes (edge-based exactly where restrictions exist). Measured (release, 1 core, car,
/// random node pairs): HCMC Q1+Q3 extract (16k OSM nodes → 6.3k graph nodes) p50 0.13 ms / p99 0.45 ms, 1.3k states
/// settled at p50 (plain Dijkstra: 0.28 ms, 2.9k); whole HCMC 2018 (378k OSM nodes → 59k graph nodes, 51
/// restrictions) p50 2.1 ms / p99 7.8 ms, 15k settled (Dijkstra 3.6 ms, 27k). That is 10–25× inside the targets, so
/// bidirectional search, landmarks or contraction hierarchies (extra preprocessing and storage per vehicle) are
/// not needed for a city; for a country (issue #21) a `ContractionHierarchy` built at import replaces the A* when
/// attached to the graph and the options allow it (`RoadGraph.leg`); `Router.travelTime` and
/// `RouteLeg.settledNodes` expose the numbers to re-check on larger data.
public enum Router {
    /// Routes through `points` (≥ 2, ≤ `options.maxPoints`) in order.
    public static func route(_ graph: RoadGraph, points: [GeoPoint], vehicle: Vehicle,
                             options: RouteOptions = RouteOptions(),
                             workspace: RouterWorkspace? = nil) throws(RoutingError) -> Route {
        let snaps = try snap(graph, points: points, vehicle: vehicle, options: options)
        return try route(graph, snaps: snaps, vehicle: vehicle, options: options, workspace: workspace)
    }

    /// `points` (≥ 2, ≤ `options.maxPoints`) snapped for `vehicle`; the first that has no road is `.pointNotFound`.
    public static func snap(_ graph: RoadGraph, points: [GeoPoint], vehicle: Vehicle,
                            options: RouteOptions) throws(RoutingError) -> [Snap] {
        guard points.count >= 2 else { throw .tooFewPoints }
        guard points.count <= options.maxPoints else { throw .tooManyPoints(max: options.maxPoints) }
        var snaps: [Snap] = []
        snaps.reserveCapacity(points.count)
        for (i, p) in points.enumerated() {
            guard let s = graph.snap(latitude: p.latitude, longitude: p.longitude, vehicle: vehicle,
                                     options: options) else { throw .pointNotFound(index: i) }
            snaps.append(s)
        }
        return snaps
    }

    /// Tuple convenience: `points` as (lat, lon).
    public static func route(_ graph: RoadGraph, points: [(lat: Double, lon: Double)], vehicle: Vehicle,
                             options: RouteOptions = RouteOptions(),
                             workspace: RouterWorkspace? = nil) throws(RoutingError) -> Route {
        try route(graph, points: points.map { GeoPoint($0.lat, $0.lon) }, vehicle: vehicle, options: options,
                  workspace: workspace)
    }

    /// Routes through already snapped positions (e.g. `graph.position(ofNode:)`).
    public static func route(_ graph: RoadGraph, snaps: [Snap], vehicle: Vehicle,
                             options: RouteOptions = RouteOptions(),
                             workspace: RouterWorkspace? = nil) throws(RoutingError) -> Route {
        guard snaps.count >= 2 else { throw .tooFewPoints }
        guard snaps.count <= options.maxPoints else { throw .tooManyPoints(max: options.maxPoints) }
        let ws = workspace ?? RouterWorkspace(graph: graph)
        var legs: [LegSearchResult] = []
        for i in 0..<(snaps.count - 1) {
            guard let leg = graph.leg(from: snaps[i], to: snaps[i + 1], vehicle: vehicle, options: options,
                                      workspace: ws) else { throw .noRoute(legIndex: i) }
            legs.append(leg)
        }
        return RouteAssembler(graph: graph, vehicle: vehicle, options: options).assemble(snaps: snaps, legs: legs)
    }

    /// Only the fastest travel time in seconds between two positions (nil = unreachable), plus settled states.
    /// Cheaper than `route` (no geometry, no instructions); meant for matrices and tests.
    public static func travelTime(_ graph: RoadGraph, from: Snap, to: Snap, vehicle: Vehicle,
                                  options: RouteOptions = RouteOptions(),
                                  workspace: RouterWorkspace) -> (seconds: Double, settledNodes: Int)? {
        guard let leg = graph.leg(from: from, to: to, vehicle: vehicle, options: options, workspace: workspace)
        else { return nil }
        return (leg.cost, leg.settled)
    }
}

extension RoadGraph {
    /// One leg: through the vehicle's contraction hierarchy when one is attached and the options allow it
    /// (`ContractionHierarchy.canAnswer`), else the A* (`searchLeg`). Same cost either way.
    func leg(from: Snap, to: Snap, vehicle: Vehicle, options: RouteOptions,
             workspace: RouterWorkspace) -> LegSearchResult? {
        if let ch = usableHierarchy(vehicle, options) {
            return searchLegCH(ch, from: from, to: to, vehicle: vehicle, options: options, workspace: workspace)
        }
        return searchLeg(from: from, to: to, vehicle: vehicle, options: options, workspace: workspace)
    }
}

// MARK: - Assembly

struct PieceInfo {
    var dirEdge: Int32
    var edge: Int
    var forward: Bool
    var first: Int
    var last: Int
    var distance: Double
    var time: Double
    /// Name index (`RoadGraph.Storage.name(at:)`): compared as indices and bytes, built as a String only for
    /// the instructions it ends up in.
    var name: Int32
    var roundabout: Bool
    var tailNode: Int?
    var headNode: Int?
}

struct RawInstruction {
    var sign: Int
    /// Name index; -1 = none ("").
    var name: Int32
    var first: Int
    var last: Int
    var distance = 0.0
    var time = 0.0
    var exitNumber: Int?
    var turnAngle: Double?
    var isRoundabout = false
    var viaNumber = 0
    /// The junction node the instruction begins at (nil at a snapped point).
    var node: Int?
}

struct RouteAssembler {
    let graph: RoadGraph
    let vehicle: Vehicle
    let options: RouteOptions

    static let unnamed = "Đường Không Tên"

    func assemble(snaps: [Snap], legs: [LegSearchResult]) -> Route {
        var points: [GeoPoint] = []
        @discardableResult func add(_ p: GeoPoint) -> Int {
            if points.last != p { points.append(p) }
            return points.count - 1
        }
        add(snaps[0].point)
        var raw: [RawInstruction] = []
        var legIntervals: [ClosedRange<Int>] = []
        var pieceTimes: [PieceTime] = []
        for (li, leg) in legs.enumerated() {
            let legStart = points.count - 1
            var infos: [PieceInfo] = []
            for piece in leg.pieces {
                if let info = appendPiece(piece, add: add) { infos.append(info) }
            }
            let legEnd = add(snaps[li + 1].point)
            if var last = infos.last, last.last != legEnd {
                // Defensive: the snapped end must close the last piece.
                last.last = legEnd
                infos[infos.count - 1] = last
            }
            raw.append(contentsOf: legInstructions(infos, points: points))
            // Each piece's time, spread over its segments by length when asked (`Route.segmentSeconds`).
            for info in infos where info.last > info.first {
                pieceTimes.append(PieceTime(first: info.first, last: info.last, seconds: info.time))
            }
            let endSign = li == legs.count - 1 ? Instruction.finish : Instruction.reachedVia
            var end = RawInstruction(sign: endSign, name: -1, first: legEnd, last: legEnd)
            end.viaNumber = li + 1
            raw.append(end)
            legIntervals.append(legStart...legEnd)
        }

        // Cumulative rounding: steps sum exactly to the totals (0.1 m, 1 ms).
        var instructions: [Instruction] = []
        var cumDist = 0.0, cumTime = 0.0
        var prevDm: Int64 = 0, prevMs: Int64 = 0
        var legDm = [Int64](repeating: 0, count: legs.count), legMs = [Int64](repeating: 0, count: legs.count)
        var legIndex = 0
        let lastIndex = points.count - 1
        let lastHeading = lastIndex > 0 ? headingOf(points[lastIndex - 1], points[lastIndex]) : 0
        for r in raw {
            cumDist += r.distance
            cumTime += r.time * 1000
            let dm = Int64((cumDist * 10).rounded()), ms = Int64(cumTime.rounded())
            let stepDm = dm - prevDm, stepMs = ms - prevMs
            prevDm = dm; prevMs = ms
            legDm[legIndex] += stepDm
            legMs[legIndex] += stepMs
            var heading: Double
            if r.sign == Instruction.finish || r.sign == Instruction.reachedVia || r.first >= lastIndex {
                heading = r.first > 0 ? headingOf(points[r.first - 1], points[r.first]) : lastHeading
                if r.first == 0 && lastIndex > 0 { heading = headingOf(points[0], points[1]) }
            } else {
                heading = headingOf(points[r.first], points[r.first + 1])
            }
            let street: String
            if r.sign == Instruction.finish || r.sign == Instruction.reachedVia { street = "" } else {
                street = graph.storage.nameIsEmpty(r.name) ? Self.unnamed : graph.storage.name(at: Int(r.name))
            }
            instructions.append(Instruction(
                sign: r.sign, text: Self.text(sign: r.sign, street: street, exit: r.exitNumber ?? 0, via: r.viaNumber),
                streetName: street, distance: Double(stepDm) / 10, time: Int(stepMs), interval: r.first...r.last,
                heading: heading, lastHeading: r.sign == Instruction.finish ? lastHeading : nil,
                exitNumber: r.exitNumber, turnAngle: r.turnAngle, node: r.node))
            if r.sign == Instruction.reachedVia { legIndex += 1 }
        }
        var routeLegs: [RouteLeg] = []
        for (i, leg) in legs.enumerated() {
            routeLegs.append(RouteLeg(distance: Double(legDm[i]) / 10, time: Int(legMs[i]), weight: leg.cost,
                                      interval: legIntervals[i], settledNodes: leg.settled))
        }
        return Route(distance: Double(prevDm) / 10, time: Int(prevMs), weight: legs.reduce(0) { $0 + $1.cost },
                     points: points, pieceTimes: pieceTimes, snappedWaypoints: snaps.map(\.point),
                     instructions: instructions, legs: routeLegs, settledNodes: legs.reduce(0) { $0 + $1.settled })
    }

    func headingOf(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        (Geo.azimuth(a.latitude, a.longitude, b.latitude, b.longitude) * 100).rounded() / 100
    }

    /// Appends a piece's geometry; nil for zero-length pieces.
    func appendPiece(_ piece: PathPiece, add: (GeoPoint) -> Int) -> PieceInfo? {
        let s = graph.storage
        let e = Int(piece.dirEdge >> 1)
        let forward = piece.dirEdge & 1 == 0
        let m = graph.segmentCount(edge: e)
        let length = s.edgeDistance[e]
        let startAlong = piece.start?.distanceAlong ?? (forward ? 0 : length)
        let endAlong = piece.end?.distanceAlong ?? (forward ? length : 0)
        let distance = max(0, forward ? endAlong - startAlong : startAlong - endAlong)
        let startPoint = piece.start?.point ?? graph.point(edge: e, index: forward ? 0 : m)
        let endPoint = piece.end?.point ?? graph.point(edge: e, index: forward ? m : 0)
        if distance == 0 && startPoint == endPoint { return nil }
        let first = add(startPoint)
        if forward {
            let from = piece.start.map { $0.segment + 1 } ?? 1
            let to = piece.end.map { $0.segment } ?? m - 1
            if from <= to { for i in from...to { _ = add(graph.point(edge: e, index: i)) } }
        } else {
            let from = piece.start.map { $0.segment } ?? m - 1
            let to = piece.end.map { $0.segment + 1 } ?? 1
            if from >= to { for i in stride(from: from, through: to, by: -1) { _ = add(graph.point(edge: e, index: i)) } }
        }
        let last = add(endPoint)
        let kmh = graph.speedKmh(edge: e, vehicle: vehicle)
        let base = Int(s.edgeBaseNode[e]), adj = Int(s.edgeAdjNode[e])
        return PieceInfo(dirEdge: piece.dirEdge, edge: e, forward: forward, first: first, last: last,
                         distance: distance, time: kmh > 0 ? distance * 3.6 / kmh : 0,
                         name: s.edgeNameIndex[e], roundabout: s.edgeFlags[e] & EdgeFlag.roundabout != 0,
                         tailNode: piece.start == nil ? (forward ? base : adj) : nil,
                         headNode: piece.end == nil ? (forward ? adj : base) : nil)
    }

    // MARK: Instructions (after GraphHopper's InstructionsFromEdges)

    static let ignore = Int.min

    func legInstructions(_ infos: [PieceInfo], points: [GeoPoint]) -> [RawInstruction] {
        var out: [RawInstruction] = []
        guard !infos.isEmpty else { return out }
        var prevInstructionPrevOrientation = Double.nan
        var roundaboutOrientation = 0.0   // GH prevOrientation while in a roundabout
        var clockwise = 0
        var inRoundabout = false
        var prevName: Int32 = -1
        var prevInstructionName: Int32 = -1
        let names = graph.storage

        func orientation(_ a: GeoPoint, _ b: GeoPoint) -> Double {
            Geo.orientation(a.latitude, a.longitude, b.latitude, b.longitude)
        }
        func setDirOfRotation(_ delta: Double) {
            let c = delta > 0 ? 1 : -1
            if clockwise == 0 { clockwise = c } else if clockwise != c { clockwise = 2 }
        }
        func countExit(at node: Int?) {
            guard let node else { return }
            if hasExit(at: node, excludingNeighbour: nil) { out[out.count - 1].exitNumber! += 1 }
        }

        for (i, p) in infos.enumerated() {
            if i == 0 {
                if p.roundabout {
                    var ins = RawInstruction(sign: Instruction.useRoundabout, name: p.name, first: p.first, last: p.last)
                    ins.exitNumber = 0
                    ins.isRoundabout = true
                    out.append(ins)
                    roundaboutOrientation = orientation(points[p.first], points[p.first + 1])
                    clockwise = 0
                    inRoundabout = true
                    countExit(at: p.headNode)
                } else {
                    out.append(RawInstruction(sign: Instruction.continueOnStreet, name: p.name, first: p.first,
                                              last: p.last))
                }
                prevName = p.name
                out[out.count - 1].distance += p.distance
                out[out.count - 1].time += p.time
                out[out.count - 1].last = p.last
                continue
            }
            let prev = infos[i - 1]
            let vIdx = p.first
            var b = prev.last - 1
            while b > 0 && points[b] == points[vIdx] { b -= 1 }
            let before = points[b], here = points[vIdx]
            let after = points[min(points.count - 1, p.first + 1)]
            let inOrientation = orientation(before, here)
            let outRaw = orientation(here, after)
            let delta = Geo.alignOrientation(inOrientation, outRaw) - inOrientation

            if p.roundabout {
                if !inRoundabout {
                    var ins = RawInstruction(sign: Instruction.useRoundabout, name: p.name, first: p.first,
                                             last: p.last)
                    ins.exitNumber = 0
                    ins.isRoundabout = true
                    ins.node = p.tailNode
                    prevInstructionPrevOrientation = inOrientation
                    out.append(ins)
                    // An exit at the entry node itself (GraphHopper counts it).
                    if let v = p.tailNode, hasExit(at: v, excludingNeighbour: prev.dirEdge ^ 1) {
                        out[out.count - 1].exitNumber! += 1
                    }
                    roundaboutOrientation = inOrientation
                    clockwise = 0
                    setDirOfRotation(delta)
                    inRoundabout = true
                }
                countExit(at: p.headNode)
            } else if inRoundabout {
                out[out.count - 1].name = p.name
                let deltaInOut = Geo.alignOrientation(roundaboutOrientation, outRaw) - roundaboutOrientation
                setDirOfRotation(delta)
                if abs(clockwise) == 1 {
                    out[out.count - 1].turnAngle = ((Double.pi * Double(clockwise) - deltaInOut) * 100).rounded() / 100
                }
                if out[out.count - 1].exitNumber == 0 { out[out.count - 1].exitNumber = 1 }
                inRoundabout = false
                prevInstructionName = prevName
                prevName = p.name
            } else {
                let sign = turnSign(prev: prev, cur: p, inOrientation: inOrientation, delta: delta,
                                    here: here, prevName: prevName)
                if sign != Self.ignore {
                    var isUTurn = false
                    var uTurnType = Instruction.uTurnUnknown
                    if p.dirEdge == prev.dirEdge ^ 1 {
                        isUTurn = false
                    } else if !prevInstructionPrevOrientation.isNaN, let prevIns = out.last,
                              prevIns.distance < 35, (sign < 0) == (prevIns.sign < 0),
                              [1, 2, 3].contains(abs(sign)), [1, 2, 3].contains(abs(prevIns.sign)),
                              isOneway(p), !names.nameIsEmpty(prevInstructionName),
                              names.namesEqual(prevInstructionName, p.name) {
                        let diff = abs(prevInstructionPrevOrientation - outRaw)
                        if diff > Double.pi * 0.9 && diff < Double.pi * 1.1 {
                            isUTurn = true
                            uTurnType = sign < 0 ? Instruction.uTurnLeft : Instruction.uTurnRight
                        }
                    }
                    if isUTurn {
                        out[out.count - 1].sign = uTurnType
                        out[out.count - 1].name = p.name
                    } else {
                        let s = p.dirEdge == prev.dirEdge ^ 1 ? Instruction.uTurnUnknown : sign
                        prevInstructionPrevOrientation = inOrientation
                        prevInstructionName = prevName
                        var ins = RawInstruction(sign: s, name: p.name, first: p.first, last: p.last)
                        ins.node = p.tailNode
                        out.append(ins)
                    }
                }
                prevName = p.name
            }
            out[out.count - 1].distance += p.distance
            out[out.count - 1].time += p.time
            out[out.count - 1].last = p.last
        }
        if inRoundabout, let last = infos.last {
            // Ends inside the roundabout.
            var b = last.last - 1
            while b > 0 && points[b] == points[last.last] { b -= 1 }
            let o = orientation(points[b], points[last.last])
            let radian = Geo.alignOrientation(roundaboutOrientation, o) - roundaboutOrientation
            if abs(clockwise) == 1 {
                out[out.count - 1].turnAngle = ((Double.pi * Double(clockwise) - radian) * 100).rounded() / 100
            }
        }
        return out
    }

    func isOneway(_ p: PieceInfo) -> Bool {
        graph.isAccessible(edge: p.edge, forward: p.forward, vehicle: vehicle)
            != graph.isAccessible(edge: p.edge, forward: !p.forward, vehicle: vehicle)
    }

    /// Whether node `v` has an allowed outgoing non-roundabout edge (other than `excluded`'s directed edge).
    func hasExit(at v: Int, excludingNeighbour excluded: Int32?) -> Bool {
        let idx = graph.index
        for slot in Int(idx.adjStart[v])..<Int(idx.adjStart[v + 1]) {
            let d = idx.adjDirEdge[slot]
            if let excluded, d == excluded { continue }
            let e = Int(d >> 1)
            if graph.storage.edgeFlags[e] & EdgeFlag.roundabout != 0 { continue }
            if graph.directedWeight(d, vehicle: vehicle, options: options) != nil { return true }
        }
        return false
    }

    static func calculateSign(_ delta: Double) -> Int {
        let a = abs(delta)
        if a < 0.2 { return Instruction.continueOnStreet }
        if a < 0.8 { return delta > 0 ? Instruction.turnSlightLeft : Instruction.turnSlightRight }
        if a < 1.8 { return delta > 0 ? Instruction.turnLeft : Instruction.turnRight }
        return delta > 0 ? Instruction.turnSharpLeft : Instruction.turnSharpRight
    }

    /// GraphHopper's getTurn, with one deliberate difference: a change of street name always starts a new step.
    func turnSign(prev: PieceInfo, cur: PieceInfo, inOrientation: Double, delta: Double, here: GeoPoint,
                  prevName: Int32) -> Int {
        let sign = Self.calculateSign(delta)
        if cur.dirEdge == prev.dirEdge ^ 1 { return Instruction.uTurnUnknown }
        guard let v = cur.tailNode else { return Self.ignore }
        let s = graph.storage
        let idx = graph.index
        let sameName = s.namesEqual(cur.name, prevName)
        var allowed = 0, visible = 0
        var maxSurrounding = -1.0
        var otherContinue: (delta: Double, name: Int32, roadClass: UInt8)?
        for slot in Int(idx.adjStart[v])..<Int(idx.adjStart[v + 1]) {
            let d = idx.adjDirEdge[slot]
            let e = Int(d >> 1)
            if e == cur.edge || e == prev.edge { continue }
            let forwardOK = graph.directedWeight(d, vehicle: vehicle, options: options) != nil
            let backwardOK = graph.directedWeight(d ^ 1, vehicle: vehicle, options: options) != nil
            if forwardOK || backwardOK { visible += 1 }
            guard forwardOK else { continue }
            allowed += 1
            maxSurrounding = max(maxSurrounding, graph.speedKmh(edge: e, vehicle: vehicle))
            if otherContinue == nil {
                let m = graph.segmentCount(edge: e)
                let q = graph.point(edge: e, index: d & 1 == 0 ? 1 : m - 1)
                let o = Geo.orientation(here.latitude, here.longitude, q.latitude, q.longitude)
                let otherDelta = Geo.alignOrientation(inOrientation, o) - inOrientation
                if abs(Self.calculateSign(otherDelta)) <= 1 {
                    otherContinue = (otherDelta, s.edgeNameIndex[e], s.edgeRoadClass[e])
                }
            }
        }
        func slower(_ factor: Double) -> Bool {
            let pathSpeed = graph.speedKmh(edge: prev.edge, vehicle: vehicle)
            let curSpeed = graph.speedKmh(edge: cur.edge, vehicle: vehicle)
            if abs(pathSpeed - curSpeed) >= 1 { return false }
            return (maxSurrounding * factor).rounded() < pathSpeed.rounded()
        }
        if allowed == 0 {
            if abs(sign) > 1 && visible > 0 { return sign }
            return sameName ? Self.ignore : sign
        }
        if abs(sign) > 1 {
            if sameName && slower(2) { return Self.ignore }
            return sign
        }
        let outgoingSlower = slower(1)
        if let other = otherContinue {
            let prevClass = s.edgeRoadClass[prev.edge], curClass = s.edgeRoadClass[cur.edge]
            if !sameName || s.namesEqual(other.name, prevName) || prevClass != curClass || prevClass == other.roadClass
                || !outgoingSlower {
                if abs(delta) < 0.1 && abs(other.delta) > 0.15 && sameName { return Self.ignore }
                return other.delta < delta ? Instruction.keepLeft : Instruction.keepRight
            }
        }
        if !sameName { return sign }
        if !outgoingSlower && abs(delta) > 0.6 { return sign }
        return Self.ignore
    }

    static func text(sign: Int, street: String, exit: Int, via: Int) -> String {
        switch sign {
        case Instruction.continueOnStreet: return "Tiếp tục theo \(street)"
        case Instruction.turnSlightLeft: return "Rẽ nhẹ sang trái vào \(street)"
        case Instruction.turnSlightRight: return "Rẽ nhẹ sang phải vào \(street)"
        case Instruction.turnLeft: return "Rẽ trái vào \(street)"
        case Instruction.turnRight: return "Rẽ phải vào \(street)"
        case Instruction.turnSharpLeft: return "Rẽ gắt sang trái vào \(street)"
        case Instruction.turnSharpRight: return "Rẽ gắt sang phải vào \(street)"
        case Instruction.keepLeft: return "Đi về bên trái vào \(street)"
        case Instruction.keepRight: return "Đi về bên phải vào \(street)"
        case Instruction.uTurnLeft, Instruction.uTurnRight, Instruction.uTurnUnknown: return "Quay đầu"
        case Instruction.useRoundabout: return "Đi tiếp qua vòng xuyến, lối ra thứ \(max(1, exit))"
        case Instruction.leaveRoundabout: return "Ra khỏi vòng xuyến"
        case Instruction.reachedVia: return "Đã đến điểm trung gian \(via)"
        case Instruction.finish: return "Đến nơi"
        default: return "Tiếp tục theo \(street)"
        }
    }
}
