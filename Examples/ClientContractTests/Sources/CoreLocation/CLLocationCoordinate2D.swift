// Linux stand-in for the one CoreLocation type the reference client's files use, so those files
// compile unchanged (`import CoreLocation`). Package.swift adds this target on Linux only; on
// Apple platforms the real framework is imported.

public typealias CLLocationDegrees = Double

public struct CLLocationCoordinate2D: Sendable, Equatable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees

    public init() {
        latitude = 0
        longitude = 0
    }

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
