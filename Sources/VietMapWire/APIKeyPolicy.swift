/// The one key check of the simulator's API endpoints, shared by the service, the scenario
/// engine and the capture/replay layer so they cannot disagree.
///
/// A key is valid when it is present and non-empty and, when keys are configured
/// (`serve --api-key`), one of them. Without configured keys any non-empty key is valid — a
/// bare `scenario:NAME` included. A missing or empty key is never valid.
public struct APIKeyPolicy: Sendable, Hashable {
    /// The configured keys; empty means any non-empty key.
    public let keys: Set<String>

    public init(keys: Set<String> = []) {
        self.keys = keys
    }

    /// Whether `key` passes the check.
    public func isValid(_ key: String?) -> Bool {
        guard let key, !key.isEmpty else { return false }
        return keys.isEmpty || keys.contains(key)
    }

    /// The key a request presents among its `apikey` values (in query order): the first non-empty one.
    public static func presentedKey(_ values: some Sequence<String>) -> String? {
        values.first { !$0.isEmpty }
    }
}
