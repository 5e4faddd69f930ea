/// The Directions v5 profiles VietMap's navigation SDKs name (the path segment(s) before the
/// coordinates): Mapbox's four and VietMap's `mapbox/motorcycle` (`vietmap-flutter-navigation`).
public enum DirectionsProfile: String, Sendable, CaseIterable {
    case driving = "mapbox/driving"
    case drivingTraffic = "mapbox/driving-traffic"
    case cycling = "mapbox/cycling"
    case walking = "mapbox/walking"
    case motorcycle = "mapbox/motorcycle"
}
