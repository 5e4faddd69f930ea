/// A request quota (`"quota": {"limit": 100, "windowSeconds": 86400}`): per API key, the
/// first `limit` matching calls of a window pass; later ones get
/// `429 OVER_DAILY_LIMIT` with `Retry-After` (the seconds left in the window). The window
/// starts at the key's first call and restarts when it has passed.
struct QuotaSpec: Sendable, Equatable {
    var limit: Int
    var windowSeconds: Double
    /// Overrides the computed `Retry-After`.
    var retryAfterSeconds: Int?
}

/// The calls one API key made in the current quota window (part of a rule's state).
struct QuotaWindow: Sendable {
    var startNanoseconds: UInt64
    var calls: Int

    /// Counts a call at `now`: nil when it is within the quota, else the `Retry-After` seconds.
    static func consume(_ window: inout QuotaWindow?, spec: QuotaSpec, now: UInt64) -> Int? {
        let length = UInt64(spec.windowSeconds * 1e9)
        if window == nil || now >= (window?.startNanoseconds ?? 0) &+ length {
            window = QuotaWindow(startNanoseconds: now, calls: 0)
        }
        guard var current = window else { return nil }
        current.calls += 1
        window = current
        guard current.calls > spec.limit else { return nil }
        if let fixed = spec.retryAfterSeconds { return fixed }
        let remaining = current.startNanoseconds &+ length &- now
        return max(1, Int((Double(remaining) / 1e9).rounded(.up)))
    }
}
