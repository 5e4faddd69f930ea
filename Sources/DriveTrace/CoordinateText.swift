import Foundation
/// Coordinates as the trace formats write them (GPX, KML).
enum CoordinateText {
    /// Degrees with 7 decimals (≈ 1 cm), the precision of the road graph.
    static func degrees(_ value: Double) -> String {
        String(format: "%.7f", value == 0 ? 0 : value)
    }
}
