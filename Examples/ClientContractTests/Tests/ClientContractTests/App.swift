import ContractKit
@testable import VietMapGoogleClient

/// The app's side of the contract: its own models, its own polyline decoder, and the one finding
/// it accepts (it never asks for points_encoded=false, whose GeoJSON `points` its
/// `VMRoutePath.points: String` cannot hold). Held by a type (`AppContractProvider`) so that the
/// contract workers — copies of this test process — find the decoder without running a test.
enum App: AppContractProvider {
    static let contract = AppContract(
        autocomplete: .model([VMSearchItem].self),
        place: .model(VMPlaceDetail.self),
        route: .model(VMRouteResponse.self),
        polyline: AppPolylineDecoder(named: "decodePolyline", decodePolyline) { ($0.latitude, $0.longitude) },
        acceptedGaps: [AcceptedGap(path: "/paths/*/points", property: "VMRoutePath.points",
                                   reason: "the app always asks for points_encoded=true")])
}
