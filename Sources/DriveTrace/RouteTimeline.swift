import Routing

/// A route's polyline with the time the router assigned to each of its segments
/// (`Route.segmentSeconds`: the edge's length at its speed), so a vehicle placed by this clock
/// drives each road at the router's speed for it and arrives exactly at `Route.time`.
public struct RouteTimeline: Sendable {
    /// Where the vehicle is at one moment of the route's own time.
    public struct Position: Sendable, Equatable {
        public var point: GeoPoint
        /// Index of the segment `points[segment]…points[segment + 1]` the point lies on.
        public var segment: Int
        /// Azimuth of that segment, degrees [0, 360) clockwise from north.
        public var course: Double
        /// Metres per second on that segment (0 on a zero-time segment).
        public var speed: Double
    }

    public let points: [GeoPoint]
    /// Seconds from the start at each point (`times.count == points.count`, non-decreasing).
    public let times: [Double]
    /// The route's duration in seconds (`Route.time / 1000`).
    public var duration: Double { times.last ?? 0 }

    public init(route: Route) {
        let points = route.points
        self.points = points
        // The router's per-edge times, scaled by (1 ± 1e-6) so they end exactly at `Route.time`.
        let seconds = route.segmentSeconds.prefix(max(0, points.count - 1))
        let sum = seconds.reduce(0, +)
        let scale = sum > 0 ? Double(route.time) / 1000 / sum : 0
        var times = [0.0]
        times.reserveCapacity(points.count)
        for t in seconds { times.append(times[times.count - 1] + t * scale) }
        while times.count < points.count { times.append(times[times.count - 1]) }
        self.times = Array(times.prefix(points.count))
    }

    /// A polyline with its own times (`times.count == points.count`, non-decreasing, from 0).
    public init(points: [GeoPoint], times: [Double]) {
        precondition(points.count == times.count, "one time per point")
        self.points = points
        self.times = times
    }

    /// The position at `seconds` of route time (clamped to the start and the end).
    public func position(at seconds: Double) -> Position {
        guard points.count >= 2 else {
            return Position(point: points.first ?? GeoPoint(0, 0), segment: 0, course: 0, speed: 0)
        }
        let t = min(max(seconds, 0), duration)
        // The last segment whose start time is ≤ t, skipping zero-time segments at t.
        var low = 0, high = points.count - 2
        while low < high {
            let mid = (low + high + 1) / 2
            if times[mid] <= t { low = mid } else { high = mid - 1 }
        }
        var segment = low
        while segment > 0 && times[segment + 1] - times[segment] <= 0 { segment -= 1 }
        let a = points[segment], b = points[segment + 1]
        let span = times[segment + 1] - times[segment]
        let f = span > 0 ? min(max((t - times[segment]) / span, 0), 1) : 1
        let point = GeoPoint(a.latitude + (b.latitude - a.latitude) * f, a.longitude + (b.longitude - a.longitude) * f)
        let length = Geo.distance(a, b)
        return Position(point: point, segment: segment, course: Geo.azimuth(a.latitude, a.longitude, b.latitude, b.longitude),
                        speed: span > 0 ? length / span : 0)
    }
}
