public enum RoutingError: Error, Sendable, Equatable {
    /// Requested point `index` (0-based) has no usable road within the snapping radius.
    case pointNotFound(index: Int)
    /// No path for leg `legIndex` (between points legIndex and legIndex + 1).
    case noRoute(legIndex: Int)
    /// More points than `RouteOptions.maxPoints`.
    case tooManyPoints(max: Int)
    /// Fewer than 2 points.
    case tooFewPoints
}

/// One turn-by-turn step (GraphHopper semantics, Vietnamese text).
public struct Instruction: Sendable, Equatable {
    public static let uTurnUnknown = -98
    public static let uTurnLeft = -8
    public static let keepLeft = -7
    public static let leaveRoundabout = -6
    public static let turnSharpLeft = -3
    public static let turnLeft = -2
    public static let turnSlightLeft = -1
    public static let continueOnStreet = 0
    public static let turnSlightRight = 1
    public static let turnRight = 2
    public static let turnSharpRight = 3
    public static let finish = 4
    public static let reachedVia = 5
    public static let useRoundabout = 6
    public static let keepRight = 7
    public static let uTurnRight = 8

    public var sign: Int
    public var text: String
    /// The street the step follows ("Đường Không Tên" when unnamed; "" on finish/via instructions).
    public var streetName: String
    /// Metres, a multiple of 0.1 (cumulatively rounded: the steps sum exactly to `Route.distance`).
    public var distance: Double
    /// Milliseconds (cumulatively rounded: the steps sum exactly to `Route.time`).
    public var time: Int
    /// First and last index into `Route.points`; a step's last index is the next step's first.
    public var interval: ClosedRange<Int>
    /// Azimuth of the step's first segment, degrees [0, 360), 2 decimals (finish/via: of the arriving segment).
    public var heading: Double
    /// Only on the finish instruction: azimuth of the route's last segment.
    public var lastHeading: Double?
    /// Roundabouts: number of exits counted up to and including the one taken.
    public var exitNumber: Int?
    /// Roundabouts: GraphHopper's `turn_angle` (radians; negative = counter-clockwise), nil if unclear.
    public var turnAngle: Double?
    /// The graph node the instruction begins at, when it begins at a junction (turns, new names,
    /// roundabout entries); nil at a snapped point inside a road.
    public var node: Int?

    public init(sign: Int, text: String, streetName: String, distance: Double, time: Int,
                interval: ClosedRange<Int>, heading: Double, lastHeading: Double? = nil,
                exitNumber: Int? = nil, turnAngle: Double? = nil, node: Int? = nil) {
        self.node = node
        self.sign = sign
        self.text = text
        self.streetName = streetName
        self.distance = distance
        self.time = time
        self.interval = interval
        self.heading = heading
        self.lastHeading = lastHeading
        self.exitNumber = exitNumber
        self.turnAngle = turnAngle
    }
}

public struct RouteLeg: Sendable, Equatable {
    /// Metres (0.1 multiples; sum of the leg's instructions).
    public var distance: Double
    /// Milliseconds.
    public var time: Int
    /// Seconds, unrounded search cost of the leg.
    public var weight: Double
    /// Indexes into `Route.points` of the leg's start and end.
    public var interval: ClosedRange<Int>
    /// Search states settled for this leg.
    public var settledNodes: Int
}

public struct Route: Sendable, Equatable {
    /// Metres, rounded to 0.1 (= sum of instruction distances).
    public var distance: Double
    /// Milliseconds (= sum of instruction times).
    public var time: Int
    /// Seconds: the unrounded fastest-path cost (VietMap shows `time / 1000`; format as the API needs).
    public var weight: Double
    /// Full geometry: snapped start, every way point, snapped via points (once each), snapped end.
    public var points: [GeoPoint]
    /// The pieces of the path (one per edge travelled), in order: what ``segmentSeconds`` is made of.
    public var pieceTimes: [PieceTime]
    /// One snapped point per requested point.
    public var snappedWaypoints: [GeoPoint]
    public var instructions: [Instruction]
    public var legs: [RouteLeg]
    /// Total search states settled over all legs.
    public var settledNodes: Int

    /// Seconds of each segment `points[i]…points[i + 1]`: the time of the edge it lies on (its
    /// length at the edge's speed for the vehicle), unrounded; they sum to `time` up to the
    /// instructions' millisecond rounding. What a replayed drive follows (`DriveTrace`). Measured
    /// when asked: an answer that shows none does not pay for a long route's thousands of lengths.
    public var segmentSeconds: [Double] {
        var seconds = [Double](repeating: 0, count: max(0, points.count - 1))
        for piece in pieceTimes where piece.last > piece.first {
            let lengths = (piece.first..<piece.last).map { Geo.distance(points[$0], points[$0 + 1]) }
            let total = lengths.reduce(0, +)
            for (i, length) in lengths.enumerated() {
                seconds[piece.first + i] += total > 0 ? piece.seconds * length / total : piece.seconds / Double(lengths.count)
            }
        }
        return seconds
    }
}

/// One piece of a route's path: the range of its points (`first…last` in `Route.points`) and the
/// seconds it takes, spread over its segments by length (``Route/segmentSeconds``).
public struct PieceTime: Sendable, Equatable {
    public var first: Int
    public var last: Int
    public var seconds: Double
}
