/// A type that holds an app's contract, so that a contract worker — a fresh copy of the test
/// process — finds the app's code (its decoding, its polyline decoder) without running a test:
///
/// ```swift
/// enum App: AppContractProvider {
///     static let contract = AppContract(route: .model(VMRouteResponse.self), polyline: …)
/// }
/// try await ContractSuite(target: .simulator(url)).verify(App.self, scenarios: …)
/// ```
///
/// A contract given as a value (`verify(App.contract)`) runs its models in workers too (they are
/// found by type), but its closures (a `decode:` closure, the polyline decoder) only in-process.
public protocol AppContractProvider {
    static var contract: AppContract { get }
}
