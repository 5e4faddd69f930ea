import Foundation
import VietMapClient

/// An app's side of the contract: its own models (per endpoint), its polyline decoder and the
/// gaps it accepts. The app's code runs where the run's `AppCodeIsolation` says: in contract
/// workers (Linux, macOS) a trap is reported (query, input, function) instead of ending the test
/// run; in-process (iOS) inputs that could trap the polyline decoder are reported, not run.
/// Held by a type (`AppContractProvider`), the contract's closures can run in workers too.
///
/// ```swift
/// let app = AppContract(
///     autocomplete: .model([VMSearchItem].self),
///     place: .model(VMPlaceDetail.self),
///     route: .model(VMRouteResponse.self),
///     polyline: AppPolylineDecoder(named: "decodePolyline", decodePolyline) { ($0.latitude, $0.longitude) },
///     acceptedGaps: [AcceptedGap(path: "/paths/*/points", property: "VMRoutePath.points",
///                                reason: "the app always asks for points_encoded=true")])
/// let report = try await ContractSuite(target: .simulator(url)).verify(app)   // or verify(App.self)
/// ```
public struct AppContract: Sendable {
    /// The app's model per endpoint; endpoints without one are decoded with the reference models
    /// only where other queries need their answers.
    public var models: [VMEndpoint: ContractModel]
    public var polyline: AppPolylineDecoder?
    /// Findings the app accepts, for its own models only.
    public var acceptedGaps: [AcceptedGap]
    /// The mangled name of the `AppContractProvider` type holding this contract (set by the
    /// suite's `verify(App.self)` forms): a contract worker finds the app's closures through it.
    var providerTypeName: String?

    public init(autocomplete: ContractModel? = nil, place: ContractModel? = nil, route: ContractModel? = nil,
                polyline: AppPolylineDecoder? = nil, acceptedGaps: [AcceptedGap] = []) {
        var models: [VMEndpoint: ContractModel] = [:]
        models[.autocomplete] = autocomplete
        models[.place] = place
        models[.route] = route
        self.models = models
        self.polyline = polyline
        self.acceptedGaps = acceptedGaps
    }

    /// Every endpoint's answers through one decoder command (`vietmap-sim contract --decoder`).
    package init(decoder: ExternalDecoder, acceptedGaps: [AcceptedGap] = []) {
        let model = ContractModel(external: decoder)
        self.models = Dictionary(uniqueKeysWithValues: VMEndpoint.allCases.map { ($0, model) })
        self.polyline = nil
        self.acceptedGaps = acceptedGaps
    }

    /// The contract of `provider`, marked so that workers find its closures.
    static func held<App: AppContractProvider>(by provider: App.Type) -> AppContract {
        var contract = provider.contract
        contract.providerTypeName = _mangledTypeName(provider)
        return contract
    }

    /// The gap rules of this app: its accepted gaps, for its models (by type identity).
    var gapRules: [GapRule] {
        let ids = Set(models.values.map(\.typeID))
        return acceptedGaps.map {
            GapRule(modelIDs: ids, path: $0.path, property: $0.property, reason: $0.reason, declaredBy: "accepted by the app",
                    scenarios: $0.scenarios.map(Set.init), isApps: true, id: $0.id)
        }
    }
}

/// A finding an app accepts: at a response location (JSON pointer pattern, `*` = any element)
/// and a model property (`VMRoutePath.points`, as the report spells it: `Type.property`, the
/// app's own type name). Findings there are reported as accepted gaps instead of failures, and
/// every row that holds only through a gap names it.
///
/// A gap must earn its place: one that matches nothing in a run (a typo, a renamed property, a
/// fixed model) is itself a failure (`unused-gap`). A gap that only a scenario brings out names
/// that scenario (`scenarios: ["autocomplete-no-ref-id"]`): it then applies to those scenario
/// runs only and is held to account only when scenarios are run.
public struct AcceptedGap: Sendable, Equatable {
    public var path: String
    public var property: String
    public var reason: String
    /// The scenarios the gap applies to; nil: the contract run and every scenario.
    public var scenarios: [String]?

    public init(path: String, property: String, reason: String = "", scenarios: [String]? = nil) {
        self.path = path
        self.property = property
        self.reason = reason
        self.scenarios = scenarios
    }

    /// `VMRoutePath.points at /paths/*/points` — how reports name the gap.
    public var id: String { "\(property) at \(path)" }
}

/// A known or accepted gap, bound to model types by identity.
struct GapRule: Sendable {
    var modelIDs: Set<ObjectIdentifier>
    var path: String
    /// `Type.property`; nil = any property at `path`.
    var property: String?
    var reason: String
    /// `known gap of the reference client` / `accepted by the app`.
    var declaredBy: String
    /// The scenarios it applies to (nil: all runs).
    var scenarios: Set<String>? = nil
    /// Declared by the app (held to account when unused).
    var isApps = false
    /// How reports name it: `VMRoutePath.points at /paths/*/points` (`AcceptedGap.id`).
    var id: String

    func applies(toScenario scenario: String?) -> Bool {
        guard let scenarios else { return true }
        return scenario.map { scenarios.contains($0) } ?? false
    }

    func covers(model: ContractModel, pointer: String, field: String?) -> Bool {
        guard modelIDs.contains(model.typeID), ContractPointer.matches(path, pointer) else { return false }
        guard let property else { return true }
        guard let field else { return false }
        return field == property || field.hasPrefix(property + ":")
    }
}

/// An app's polyline decoder, `(String) -> [Coordinate]` for any coordinate type, with how to
/// read latitude and longitude from its coordinates:
///
/// ```swift
/// AppPolylineDecoder(named: "decodePolyline", decodePolyline) { ($0.latitude, $0.longitude) }
/// ```
///
/// The suite runs it (in a contract worker) on every encoded `points` of every route answer the
/// app's model decodes: a crash or hang is a finding naming the query, the input and `name`;
/// on a valid polyline its points must agree with the strict decoder's within 1e-5°.
public struct AppPolylineDecoder: Sendable {
    /// How findings name the function.
    public let name: String
    private let flat: @Sendable (String) -> [Double]

    public init<Coordinate>(named name: String = "decodePolyline", _ decode: @escaping @Sendable (String) -> [Coordinate],
                            coordinate: @escaping @Sendable (Coordinate) -> (latitude: Double, longitude: Double)) {
        self.name = name
        flat = { encoded in
            decode(encoded).flatMap { point -> [Double] in
                let (lat, lng) = coordinate(point)
                return [lat, lng]
            }
        }
    }

    enum Outcome: Sendable, Equatable {
        case points([LatLng])
        case crashed(signal: Int32, message: String)
        case hung(seconds: Double)
        case failed(String)
        /// Not given to the decoder (in-process: an input that could trap it); why.
        case notRun(String)
    }

    /// The decoder's points as flat latitude, longitude pairs (run in this process).
    func flatPoints(_ encoded: String) -> [Double] { flat(encoded) }

    /// Flat pairs back to points.
    static func pairs(_ values: [Double]) -> [LatLng] {
        stride(from: 0, to: values.count - 1, by: 2).map { LatLng(lat: values[$0], lng: values[$0 + 1]) }
    }
}
