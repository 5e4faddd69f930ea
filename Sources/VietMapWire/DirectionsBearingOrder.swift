/// The order of the two numbers of a Directions v5 `bearings` item, which VietMap's navigation
/// SDKs do not agree on:
///
/// - `degreesRange` — Mapbox's `degrees,range` (0–360, 0–180). VietMap's Android navigation SDK
///   sends this (its `MapboxDirections.Builder.addBearing(angle, tolerance)`, a reroute
///   `<course>,90`).
/// - `accuracyHeading` — VietMap's iOS fork `maps-sdk-directions-ios` (commit a67e6dc "change
///   config bearing") writes `Waypoint.headingDescription` as `min(accuracy, 180),heading` (0–180,
///   0–360), a reroute `90,<course>`.
///
/// Reading an item (`read`): an order in which the numbers are out of range cannot be meant, so a
/// pair valid in one order only is read in that one (`90,223` is a heading of 223 whoever sends it:
/// no range exceeds 180; `223,90` is a bearing of 223: no accuracy exceeds 180). A pair valid in
/// both (`90,43`) is read in the sender's order, which its User-Agent tells (`init(userAgent:)`).
public enum DirectionsBearingOrder: Sendable, Hashable {
    case degreesRange
    case accuracyHeading

    /// The order the client sending `userAgent` writes. The iOS fork sets the User-Agent its
    /// `MBDirections.swift` builds: `<app>/<version> <library>/<version> <system>/<x.y.z> (<chip>)`,
    /// `<library>` being `VietMapDirections` (its CocoaPods module) or `MapboxDirections` (its Xcode
    /// project's product name), absent when linked statically. Mapbox's own iOS SDK builds the same
    /// string but sends `access_token`, which this simulator refuses (the key is `apikey`), so every
    /// such User-Agent that gets here is the fork's. The Android SDKs send `MapboxJava/… <os>/… (<abi>)`
    /// (mapbox-java's `ApiCallHelper`), browsers and other clients anything else: Mapbox's order.
    public init(userAgent: String?) {
        self = Self.isIOSDirectionsLibrary(userAgent ?? "") ? .accuracyHeading : .degreesRange
    }

    /// Apple systems the iOS library names in its User-Agent.
    static let appleSystems: Set<Substring> = ["iOS", "macOS", "watchOS", "tvOS"]

    static func isIOSDirectionsLibrary(_ userAgent: String) -> Bool {
        let components = userAgent.split(separator: " ")
        if components.contains(where: { $0.hasPrefix("VietMapDirections/") || $0.hasPrefix("MapboxDirections/") }) { return true }
        // Linked statically: no library component, but the builder's `<system>/<x.y.z> (<chip>)` tail.
        guard components.count >= 2, let chip = components.last, chip.hasPrefix("("), chip.hasSuffix(")") else { return false }
        let system = components[components.count - 2].split(separator: "/", omittingEmptySubsequences: false)
        guard system.count == 2, appleSystems.contains(system[0]) else { return false }
        let version = system[1].split(separator: ".", omittingEmptySubsequences: false)
        return version.count == 3 && version.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// `first,second` read as Mapbox's `(degrees, range)`: in this order when the pair is valid in
    /// both, in the only order it is valid in otherwise; nil when it is valid in neither.
    public func read(_ first: Double, _ second: Double) -> (degrees: Double, range: Double)? {
        let asDegreesRange = (0...360).contains(first) && (0...180).contains(second)
        let asAccuracyHeading = (0...180).contains(first) && (0...360).contains(second)
        switch (asDegreesRange, asAccuracyHeading) {
        case (true, true): return self == .degreesRange ? (first, second) : (second, first)
        case (true, false): return (first, second)
        case (false, true): return (second, first)
        case (false, false): return nil
        }
    }
}
