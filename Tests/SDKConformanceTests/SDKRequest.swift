/// One request exactly as a VietMap SDK puts it on the wire: the request target (path and query,
/// percent-encoding included) that the SDK's HTTP library sends to `maps.vietmap.vn`. The tests
/// send the same target, byte for byte, to the simulator.
struct SDKRequest: Sendable, CustomStringConvertible {
    /// `JS` or `Flutter`.
    let sdk: String
    /// The SDK's method name, e.g. `autoCompleteSearchV4`.
    let operation: String
    /// Path and query as sent, e.g. `/api/route?api-version=1.1&point=10.7725,106.698&apikey=k`.
    let target: String

    var description: String { "\(sdk) \(operation): GET \(target)" }
}
