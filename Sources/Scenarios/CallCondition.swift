import SeededRandom

/// When a matching request is acted upon (`"when"`), counting the calls that matched the
/// rule's `match` (and `state`) so far, this one included. Every key given must hold:
///
/// | key | acts on |
/// |---|---|
/// | `nth` | the Nth matching call only |
/// | `from`, `to` | calls N…M (either bound optional, both inclusive) |
/// | `first` | the first N calls |
/// | `every` | every Kth call (K, 2K, …) |
/// | `probability` | each call with probability p (seeded) |
/// | `burst` | calls that are at least the `count`th within the last `withinMs` ms |
struct CallCondition: Sendable {
    var nth: Int?
    var from: Int?
    var to: Int?
    var first: Int?
    var every: Int?
    var probability: Double?
    var burst: Burst?

    /// `count` matching calls within `withinMs` milliseconds.
    struct Burst: Sendable {
        var count: Int
        var withinMs: Int
    }

    static let always = CallCondition()

    /// Whether the `call`th matching call is selected. `recentCalls` is the number of matching
    /// calls within the burst window (this one included); `random` is drawn from only when
    /// every other condition holds, so the draws depend on the request order alone.
    func holds(call: Int, recentCalls: Int, random: inout SeededGenerator) -> Bool {
        if let nth, call != nth { return false }
        if let from, call < from { return false }
        if let to, call > to { return false }
        if let first, call > first { return false }
        if let every, call % every != 0 { return false }
        if let burst, recentCalls < burst.count { return false }
        if let probability, !(random.nextUnit() < probability) { return false }
        return true
    }
}
