/// Road classes stored per edge (`RoadGraph.Storage.edgeRoadClass`).
public enum RoadClass: UInt8, CaseIterable, Sendable {
    case other = 0
    case motorway, motorwayLink, trunk, trunkLink, primary, primaryLink, secondary, secondaryLink
    case tertiary, tertiaryLink, unclassified, residential, livingStreet, service, road, track
    case pedestrian, footway, path, cycleway, steps, bridleway, ferry

    /// The `highway=*` values that are routable; nil for the others (construction, proposed, platform, bus_stop…).
    public init?(highway: String) {
        switch highway {
        case "motorway": self = .motorway
        case "motorway_link": self = .motorwayLink
        case "trunk": self = .trunk
        case "trunk_link": self = .trunkLink
        case "primary": self = .primary
        case "primary_link": self = .primaryLink
        case "secondary": self = .secondary
        case "secondary_link": self = .secondaryLink
        case "tertiary": self = .tertiary
        case "tertiary_link": self = .tertiaryLink
        case "unclassified": self = .unclassified
        case "residential": self = .residential
        case "living_street": self = .livingStreet
        case "service": self = .service
        case "road": self = .road
        case "track": self = .track
        case "pedestrian": self = .pedestrian
        case "footway", "corridor": self = .footway
        case "path": self = .path
        case "cycleway": self = .cycleway
        case "steps": self = .steps
        case "bridleway": self = .bridleway
        default: return nil
        }
    }

    var isLink: Bool {
        self == .motorwayLink || self == .trunkLink || self == .primaryLink || self == .secondaryLink
            || self == .tertiaryLink
    }
}

/// Per-edge flag bits (`RoadGraph.Storage.edgeFlags`).
public enum EdgeFlag {
    public static let ferry: UInt8 = 1
    public static let toll: UInt8 = 2
    public static let roundabout: UInt8 = 4
    /// The way is a bridge (`bridge=*` other than `no`: yes, viaduct, boardwalk, movable…). A map flag:
    /// routing ignores it.
    public static let bridge: UInt8 = 8
    /// The way runs in a tunnel or under a building (`tunnel=*` other than `no`, including
    /// `building_passage` and `culvert`). A map flag: routing ignores it.
    public static let tunnel: UInt8 = 16
}

/// Tag interpretation of the five profiles. The tables are the simulator's own choice (Vietnam, urban):
///
/// | highway                         | car | motorcycle | truck | bike | foot |
/// |---------------------------------|-----|------------|-------|------|------|
/// | motorway, motorway_link         | 90/45 | – (banned from expressways) | 70/35 | – | – |
/// | trunk, trunk_link               | 60/40 | 50/35 | 50/30 | 16/15 | 5 |
/// | primary, primary_link           | 40/30 | 42/30 | 32/25 | 15 | 5 |
/// | secondary, secondary_link       | 35/28 | 38/28 | 28/22 | 15 | 5 |
/// | tertiary, tertiary_link         | 30/25 | 33/25 | 24/20 | 15 | 5 |
/// | unclassified / residential / road | 25/25/20 | 28/28/22 | 20/18/16 | 15 | 5 |
/// | living_street                   | 10 | 12 | 8 | 12 | 5 |
/// | service (service=alley)         | 15 (10) | 18 (15) | 10 (6) | 14 | 5 |
/// | track                           | 12 | 15 | – | 12 | 5 |
/// | path, cycleway                  | – | – | – | 12, 18 | 5 |
/// | pedestrian, footway, steps, bridleway | – | – | – | – | 5 (steps 3) |
/// | route=ferry                     | 10 (or from `duration`) for every vehicle |
///
/// "–" means not allowed unless the vehicle's own key (`motorcar`, `motorcycle`, `hgv`, `bicycle`, `foot`) says
/// yes/designated/permissive/destination. Restrictions: the most specific present key of
/// motorcar|motorcycle|hgv|bicycle|foot → motor_vehicle → vehicle → access with a value
/// no/private/agricultural/forestry/restricted/military/emergency/permit forbids the way.
/// `maxspeed` caps the speed. One-way: `oneway=yes|1|true|-1|reverse|no`, implied by `junction=roundabout|circular`
/// and `highway=motorway|motorway_link`; `oneway:motorcycle|bicycle|motorcar|hgv|motor_vehicle|vehicle` override it
/// for those vehicles, `cycleway=opposite*` frees bikes; `oneway=reversible|alternating` blocks vehicles; foot
/// ignores one-ways.
public enum VehicleProfiles {
    // Rows follow RoadClass raw values; columns car, motorcycle, truck, bike, foot. 0 = not allowed by default.
    static let speedTable: [[UInt8]] = [
        [0, 0, 0, 0, 0],        // other
        [90, 0, 70, 0, 0],      // motorway
        [45, 0, 35, 0, 0],      // motorway_link
        [60, 50, 50, 16, 5],    // trunk
        [40, 35, 30, 15, 5],    // trunk_link
        [40, 42, 32, 15, 5],    // primary
        [30, 30, 25, 15, 5],    // primary_link
        [35, 38, 28, 15, 5],    // secondary
        [28, 28, 22, 15, 5],    // secondary_link
        [30, 33, 24, 15, 5],    // tertiary
        [25, 25, 20, 15, 5],    // tertiary_link
        [25, 28, 20, 15, 5],    // unclassified
        [25, 28, 18, 15, 5],    // residential
        [10, 12, 8, 12, 5],     // living_street
        [15, 18, 10, 14, 5],    // service
        [20, 22, 16, 15, 5],    // road
        [12, 15, 0, 12, 5],     // track
        [0, 0, 0, 0, 5],        // pedestrian
        [0, 0, 0, 0, 5],        // footway
        [0, 0, 0, 12, 5],       // path
        [0, 0, 0, 18, 5],       // cycleway
        [0, 0, 0, 0, 3],        // steps
        [0, 0, 0, 0, 5],        // bridleway
        [10, 10, 10, 10, 5],    // ferry
    ]
    /// Speed used when a vehicle's own key explicitly allows a class that it may not use by default.
    static let explicitlyAllowedSpeed: [UInt8] = [10, 12, 8, 10, 5]
    public static let defaultFerrySpeedKmh = 10.0

    /// Default speed (km/h) of a class for a vehicle; 0 when the vehicle may not use the class by default.
    public static func defaultSpeed(_ roadClass: RoadClass, _ vehicle: Vehicle) -> Double {
        Double(speedTable[Int(roadClass.rawValue)][vehicle.rawValue])
    }

    static let accessKeys: [[String]] = [
        ["motorcar", "motor_vehicle", "vehicle", "access"],
        ["motorcycle", "motor_vehicle", "vehicle", "access"],
        ["hgv", "motor_vehicle", "vehicle", "access"],
        ["bicycle", "vehicle", "access"],
        ["foot", "access"],
    ]
    static let onewayKeys: [[String]] = [
        ["oneway:motorcar", "oneway:motor_vehicle", "oneway:vehicle"],
        ["oneway:motorcycle", "oneway:motor_vehicle", "oneway:vehicle"],
        ["oneway:hgv", "oneway:motor_vehicle", "oneway:vehicle"],
        ["oneway:bicycle", "oneway:vehicle"],
        [],
    ]
    static let restrictedValues: Set<String> = [
        "no", "private", "agricultural", "forestry", "restricted", "military", "emergency", "permit",
    ]
    static let allowingValues: Set<String> = ["yes", "designated", "permissive", "destination", "customers",
                                               "delivery", "official", "public"]

    /// Parses `maxspeed` in km/h: "50", "50 km/h", "30 mph", "VN:urban" (50), "VN:rural" (80),
    /// "VN:motorway" (120), "walk" (5); nil for "none", "signals" or garbage. Several values ("40;60") → the first.
    public static func parseMaxSpeed(_ raw: String) -> Double? {
        var s = (raw.split(separator: ";").first.map(String.init) ?? "").trimmed.lowercased()
        switch s {
        case "vn:urban": return 50
        case "vn:rural": return 80
        case "vn:motorway": return 120
        case "vn:living_street": return 20
        case "walk": return 5
        default: break
        }
        var factor = 1.0
        if s.hasSuffix("mph") { factor = 1.609344; s.removeLast(3) }
        else if s.hasSuffix("km/h") { s.removeLast(4) }
        else if s.hasSuffix("kmh") || s.hasSuffix("kph") { s.removeLast(3) }
        else if s.hasSuffix("knots") { factor = 1.852; s.removeLast(5) }
        guard let v = Double(s.trimmed), v > 0, v.isFinite else { return nil }
        return v * factor
    }

    /// Parses `maxweight` into kilograms: "10" (tonnes), "5.5 t", "10t", "10000 kg", "20000 lbs", "3 st".
    public static func parseMaxWeightKg(_ raw: String) -> Double? {
        var s = (raw.split(separator: ";").first.map(String.init) ?? "").trimmed.lowercased()
        s = s.replacingComma()
        var factor = 1000.0
        for (suffix, f) in [("tonnes", 1000.0), ("tons", 1000.0), ("kg", 1.0), ("lbs", 0.45359237), ("st", 907.18474),
                            ("t", 1000.0)] where s.hasSuffix(suffix) {
            factor = f
            s.removeLast(suffix.count)
            break
        }
        guard let v = Double(s.trimmed), v > 0, v.isFinite else { return nil }
        return v * factor
    }

    /// Parses a ferry `duration` ("HH:MM", "HH:MM:SS", or minutes) into seconds.
    public static func parseDurationSeconds(_ raw: String) -> Double? {
        let parts = raw.trimmed.split(separator: ":").map { Double(String($0).trimmed) }
        if parts.contains(where: { $0 == nil }) { return nil }
        let p = parts.map { $0! }
        switch p.count {
        case 1: return p[0] > 0 ? p[0] * 60 : nil
        case 2: let v = p[0] * 3600 + p[1] * 60; return v > 0 ? v : nil
        case 3: let v = p[0] * 3600 + p[1] * 60 + p[2]; return v > 0 ? v : nil
        default: return nil
        }
    }

    struct WayProfile {
        var roadClass: RoadClass
        /// bit 2v = forward allowed, bit 2v+1 = backward allowed.
        var access: UInt16
        var speeds: [UInt8]
        var flags: UInt8
        var maxWeightKg: Double?
        var name: String
        var ferryDurationSeconds: Double?
    }

    static func firstToken(_ v: String) -> String {
        (v.split(separator: ";").first.map(String.init) ?? "").trimmed.lowercased()
    }

    /// Whether a `bridge`/`tunnel` value says the structure is there: anything but no/false/0/empty.
    static func isPresent(_ raw: String) -> Bool {
        let v = firstToken(raw)
        return !(v.isEmpty || v == "no" || v == "false" || v == "0")
    }

    /// Forward/backward permission from a oneway value; nil when not understood.
    static func onewayValue(_ raw: String) -> (Bool, Bool)? {
        switch firstToken(raw) {
        case "yes", "1", "true": return (true, false)
        case "-1", "reverse": return (false, true)
        case "no", "0", "false": return (true, true)
        case "reversible", "alternating": return (false, false)
        default: return nil
        }
    }

    /// Every tag key ``interpret(tags:)`` reads: a way's other tags do not change its profile, so an
    /// importer may drop them (`RoadWay.routingTags`). Keep in step with `interpret`.
    static let tagKeys: Set<String> = Set(["route", "highway", "area", "toll", "junction", "maxspeed", "maxweight",
                                           "maxweight:hgv", "service", "oneway", "oneway:bicycle", "cycleway",
                                           "cycleway:left", "cycleway:right", "cycleway:both", "name", "name:vi",
                                           "ref", "duration", "bridge", "tunnel"] + accessKeys.joined() + onewayKeys.joined())

    /// Interprets a way's tags; nil when no vehicle may use it.
    static func interpret(tags: [String: String]) -> WayProfile? {
        let roadClass: RoadClass
        var flags: UInt8 = 0
        if tags["route"] == "ferry" {
            roadClass = .ferry
            flags |= EdgeFlag.ferry
        } else if let h = tags["highway"], let c = RoadClass(highway: h) {
            roadClass = c
        } else {
            return nil
        }
        if let area = tags["area"], area == "yes" { return nil }
        if let toll = tags["toll"], firstToken(toll) == "yes" { flags |= EdgeFlag.toll }
        if let j = tags["junction"], j == "roundabout" || j == "circular" { flags |= EdgeFlag.roundabout }
        if let b = tags["bridge"], isPresent(b) { flags |= EdgeFlag.bridge }
        if let t = tags["tunnel"], isPresent(t) { flags |= EdgeFlag.tunnel }

        var maxSpeed: Double?
        if let ms = tags["maxspeed"] { maxSpeed = parseMaxSpeed(ms) }
        var maxWeight: Double?
        for key in ["maxweight", "maxweight:hgv"] {
            if let raw = tags[key], let kg = parseMaxWeightKg(raw) { maxWeight = min(maxWeight ?? kg, kg) }
        }
        let isAlley = roadClass == .service && tags["service"] == "alley"

        // Generic one-way.
        var generic: (Bool, Bool) = (true, true)
        if let raw = tags["oneway"], let v = onewayValue(raw) {
            generic = v
        } else if flags & EdgeFlag.roundabout != 0 || roadClass == .motorway || roadClass == .motorwayLink {
            generic = (true, false)
        }

        var access: UInt16 = 0
        var speeds = [UInt8](repeating: 0, count: Vehicle.allCases.count)
        for vehicle in Vehicle.allCases {
            let vi = vehicle.rawValue
            var speed = speedTable[Int(roadClass.rawValue)][vi]
            if isAlley { speed = [10, 15, 6, 14, 5][vi] }
            // Access: most specific key present decides.
            var decided: Bool?
            for (i, key) in accessKeys[vi].enumerated() {
                guard let raw = tags[key] else { continue }
                let v = firstToken(raw)
                if restrictedValues.contains(v) { decided = false; break }
                if allowingValues.contains(v) || v == "dismount" {
                    // Only the vehicle's own key may open a class closed by default.
                    if speed == 0 && i == 0 { speed = explicitlyAllowedSpeed[vi] }
                    decided = speed > 0
                    break
                }
            }
            let allowed = decided ?? (speed > 0)
            guard allowed, speed > 0 else { continue }
            if let cap = maxSpeed, cap >= 1 { speed = UInt8(min(Double(speed), max(1, cap.rounded()))) }
            speeds[vi] = speed

            var dir = generic
            if vehicle == .foot {
                dir = (true, true)
            } else {
                for key in onewayKeys[vi] {
                    if let raw = tags[key], let v = onewayValue(raw) { dir = v; break }
                }
                if vehicle == .bike, tags["oneway:bicycle"] == nil {
                    for key in ["cycleway", "cycleway:left", "cycleway:right", "cycleway:both"] {
                        if let c = tags[key], c.hasPrefix("opposite") { dir = (true, true) }
                    }
                }
            }
            if dir.0 { access |= 1 << UInt16(2 * vi) }
            if dir.1 { access |= 1 << UInt16(2 * vi + 1) }
        }
        if access == 0 { return nil }
        let name = tags["name"] ?? tags["name:vi"] ?? tags["ref"] ?? ""
        var duration: Double?
        if roadClass == .ferry, let d = tags["duration"] { duration = parseDurationSeconds(d) }
        return WayProfile(roadClass: roadClass, access: access, speeds: speeds, flags: flags,
                          maxWeightKg: maxWeight, name: name, ferryDurationSeconds: duration)
    }
}

extension String {
    func replacingComma() -> String { String(self.map { $0 == "," ? "." : $0 }) }
}
