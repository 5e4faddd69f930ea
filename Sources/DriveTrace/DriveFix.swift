import Routing

/// One GPS fix of a drive: where, when (seconds after the trace's start), how fast and which way.
public struct DriveFix: Sendable, Equatable {
    /// Seconds after the first fix (a multiple of 1 / rate).
    public var time: Double
    /// The reported position (with noise when the trace has any).
    public var point: GeoPoint
    /// Metres per second (0 while stopped).
    public var speed: Double
    /// Degrees [0, 360) clockwise from north.
    public var course: Double
    /// The first fix after a gap (GPX starts a new `<trkseg>` there).
    public var resumesAfterGap: Bool

    public init(time: Double, point: GeoPoint, speed: Double, course: Double, resumesAfterGap: Bool = false) {
        self.time = time
        self.point = point
        self.speed = speed
        self.course = course
        self.resumesAfterGap = resumesAfterGap
    }
}
