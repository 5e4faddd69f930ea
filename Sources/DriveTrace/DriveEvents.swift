/// What happens on a drive besides following the route, each at a moment of the trace's clock
/// (seconds after the first fix): stops, detours off the route and GPS gaps.
public struct DriveEvents: Sendable, Equatable {
    /// The vehicle stands still (speed 0) for `duration` seconds from `at`; the route resumes after.
    public struct Stop: Sendable, Equatable {
        public var at: Double
        public var duration: Double
        public init(at: Double, duration: Double) { self.at = at; self.duration = duration }
    }

    /// At `at` the vehicle leaves the route at a right angle (to the right of its course), drives
    /// `meters` away and comes back to where it left, at about its speed there (at least 5 m/s;
    /// each half lasts whole ticks, so a fix lands on the farthest point): enough for a navigation
    /// SDK to see it off route and reroute.
    public struct Detour: Sendable, Equatable {
        public var at: Double
        public var meters: Double
        public init(at: Double, meters: Double) { self.at = at; self.meters = meters }
    }

    /// No fixes with times in [`at`, `at + duration`) (a tunnel, a lost signal); the vehicle keeps moving.
    public struct Gap: Sendable, Equatable {
        public var at: Double
        public var duration: Double
        public init(at: Double, duration: Double) { self.at = at; self.duration = duration }
    }

    public var stops: [Stop]
    public var detours: [Detour]
    public var gaps: [Gap]

    public init(stops: [Stop] = [], detours: [Detour] = [], gaps: [Gap] = []) {
        self.stops = stops
        self.detours = detours
        self.gaps = gaps
    }
}
