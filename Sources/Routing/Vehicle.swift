/// The routing profiles. Raw values index per-vehicle arrays (speeds, access bits) of `RoadGraph`.
public enum Vehicle: Int, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    case car = 0
    case motorcycle = 1
    case truck = 2
    case bike = 3
    case foot = 4

    /// The API names `car`, `motorcycle`, `truck`, `bike`, `foot` (case-sensitive, as VietMap documents them).
    public init?(name: String) {
        switch name {
        case "car": self = .car
        case "motorcycle": self = .motorcycle
        case "truck": self = .truck
        case "bike": self = .bike
        case "foot": self = .foot
        default: return nil
        }
    }

    public var name: String {
        switch self {
        case .car: "car"
        case .motorcycle: "motorcycle"
        case .truck: "truck"
        case .bike: "bike"
        case .foot: "foot"
        }
    }

    public var description: String { name }

    /// Turn restrictions without a vehicle-specific key apply to motor vehicles only.
    public var isMotorVehicle: Bool { self == .car || self == .motorcycle || self == .truck }
}

/// A set of vehicles (bit i = `Vehicle(rawValue: i)`).
public struct VehicleSet: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ vehicle: Vehicle) { self.rawValue = 1 << UInt8(vehicle.rawValue) }

    public static let car = VehicleSet(.car)
    public static let motorcycle = VehicleSet(.motorcycle)
    public static let truck = VehicleSet(.truck)
    public static let bike = VehicleSet(.bike)
    public static let foot = VehicleSet(.foot)
    public static let motorVehicles: VehicleSet = [.car, .motorcycle, .truck]
    public static let all: VehicleSet = [.car, .motorcycle, .truck, .bike, .foot]

    public func contains(_ vehicle: Vehicle) -> Bool { contains(VehicleSet(vehicle)) }
}

/// Per-request routing options.
public struct RouteOptions: Sendable, Hashable {
    /// `avoid=ferry`: ferry edges (`route=ferry`) are neither snapped to nor used.
    public var avoidFerry: Bool
    /// `avoid=toll`: `toll=yes` edges are neither snapped to nor used.
    public var avoidToll: Bool
    /// Truck gross weight in kg (`capacity`); edges whose `maxweight` is below it are forbidden for `truck`.
    public var truckCapacityKg: Int?
    /// Maximum number of points of one request (the API maps the error to `MAX_POINTS_EXCEED`).
    public var maxPoints: Int
    /// Snapping radius in metres.
    public var maxSnapDistanceMeters: Double

    public init(avoidFerry: Bool = false, avoidToll: Bool = false, truckCapacityKg: Int? = nil,
                maxPoints: Int = 25, maxSnapDistanceMeters: Double = 1000) {
        self.avoidFerry = avoidFerry
        self.avoidToll = avoidToll
        self.truckCapacityKg = truckCapacityKg
        self.maxPoints = maxPoints
        self.maxSnapDistanceMeters = maxSnapDistanceMeters
    }
}
