/// The one key check of the simulator's API endpoints (those whose `APIEndpoint.requiresKey`;
/// glyphs and sprites need none), shared by the service, the scenario
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

    /// The 401 for a key that does not pass, saying what would (the status and code are the
    /// live service's; the message is the simulator's own, §8): any non-empty key when none are
    /// configured, else one of `serve --api-key`'s.
    public func refusal(of key: String?) -> APIError {
        let missing = key?.isEmpty ?? true
        if keys.isEmpty {
            return APIError(.unauthorized, message: "apikey is missing: add apikey=ANY-NON-EMPTY-KEY (this simulator accepts any non-empty key)")
        }
        return APIError(.unauthorized, message: missing
            ? "apikey is missing: this simulator accepts the keys it was started with (serve --api-key)"
            : "apikey is not valid: this simulator accepts only the keys it was started with (serve --api-key)")
    }

    /// The key a request presents among its `apikey` values (in query order): the first non-empty one.
    public static func presentedKey(_ values: some Sequence<String>) -> String? {
        values.first { !$0.isEmpty }
    }

    /// The query parameters that carry a key: `apikey`, and `apiKey` as VietMap's Flutter
    /// example spells it on style URLs (reference map-screens §2).
    public static let keyParameterNames: Set<String> = ["apikey", "apiKey"]

    /// Whether a query parameter named `name` carries a key (for reading and redacting it).
    public static func isKeyParameter(_ name: String) -> Bool {
        // `keyParameterNames`, compared without hashing (every query parameter of every request is asked).
        name == "apikey" || name == "apiKey"
    }
}
