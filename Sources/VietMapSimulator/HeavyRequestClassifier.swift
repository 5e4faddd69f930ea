import HTTPServer
import Scenarios
import VietMapWire

/// Which requests a simulator serves on its heavy-work threads (``CostAwareServing``): those whose
/// endpoint and parameters make them heavy (`RequestCost`, the wire protocol's estimate), and those
/// whose scenario's `regex` conditions may cost much to test on their values
/// (`ScenarioEngine.heavyMatchingReason`). Everything here is linear in the request and runs no
/// search, route or pattern.
struct HeavyRequestClassifier: Sendable {
    let engine: ScenarioEngine

    /// Why `request` is heavy, nil when it is light.
    func reason(for request: HTTPRequest) -> String? {
        guard request.method == "GET" || request.method == "HEAD" else { return nil }
        let path = ScenarioEngine.innerPath(request.path)
        if let endpoint = APIEndpoint(path: path),
           case .heavy(let reason) = RequestCost.estimate(endpoint: endpoint, path: path, parameters: request.query.items) {
            return reason
        }
        return engine.heavyMatchingReason(for: request)
    }
}
