/// The routing's one binary min-heap of (Double key, Int32 state), lazy deletion: A*, Dijkstra of the travel
/// matrices, both half-searches of a contraction-hierarchy query, the contraction's witness searches and its order
/// (the Int32 priority as a Double, exact). Entries of equal keys come out as `Ties` says. Pointer storage (no
/// exclusivity checks on the hot path).
final class KeyHeap<Ties: EqualKeyOrder> {
    var key: UnsafeMutablePointer<Double> = .allocate(capacity: 1)
    var state: UnsafeMutablePointer<Int32> = .allocate(capacity: 1)
    var count = 0
    var capacity = 1
    deinit { key.deallocate(); state.deallocate() }

    /// The smallest key; infinity when empty.
    @inline(__always) var minKey: Double { count > 0 ? key[0] : .infinity }

    /// Whether (k1, s1) comes out before (k2, s2): by key, then as `Ties` says (`EqualKeysAsLaid`: never, so
    /// this is `k1 < k2`, one comparison).
    @inline(__always) static func precedes(_ k1: Double, _ s1: Int32, _ k2: Double, _ s2: Int32) -> Bool {
        k1 < k2 || (k1 == k2 && Ties.before(s1, s2))
    }

    @inline(__always) func push(_ k: Double, _ s: Int32) {
        if count == capacity {
            let nc = capacity * 2 + 1024
            let nk = UnsafeMutablePointer<Double>.allocate(capacity: nc)
            let ns = UnsafeMutablePointer<Int32>.allocate(capacity: nc)
            nk.update(from: key, count: count); ns.update(from: state, count: count)
            key.deallocate(); state.deallocate()
            key = nk; state = ns; capacity = nc
        }
        var i = count
        count += 1
        while i > 0 {
            let p = (i - 1) >> 1
            if !Self.precedes(k, s, key[p], state[p]) { break }
            key[i] = key[p]; state[i] = state[p]
            i = p
        }
        key[i] = k; state[i] = s
    }

    /// Removes and returns the first (key, state); the heap must be non-empty.
    @inline(__always) func pop() -> (Double, Int32) {
        let top = (key[0], state[0])
        count -= 1
        let n = count
        if n > 0 {
            let k = key[n], s = state[n]
            var i = 0
            while true {
                var c = 2 * i + 1
                if c >= n { break }
                if c + 1 < n && Self.precedes(key[c + 1], state[c + 1], key[c], state[c]) { c += 1 }
                if !Self.precedes(key[c], state[c], k, s) { break }
                key[i] = key[c]; state[i] = state[c]
                i = c
            }
            key[i] = k; state[i] = s
        }
        return top
    }
}

/// How a `KeyHeap` orders two entries of equal keys (a type parameter: the choice costs nothing at run time).
protocol EqualKeyOrder {
    /// Whether state `a` comes out before state `b` when their keys are equal.
    static func before(_ a: Int32, _ b: Int32) -> Bool
}

/// Equal keys in the order the heap's layout gives them (a new entry after the equal ones above it): the
/// searches, where any order of equal keys finds the same distances and one comparison is cheapest.
enum EqualKeysAsLaid: EqualKeyOrder {
    @inline(__always) static func before(_ a: Int32, _ b: Int32) -> Bool { false }
}

/// Equal keys by state: a total order, so what comes out is fixed by what went in, not by the heap's layout. The
/// contraction order (and so a hierarchy's bytes) is made with it.
enum EqualKeysByState: EqualKeyOrder {
    @inline(__always) static func before(_ a: Int32, _ b: Int32) -> Bool { a < b }
}

/// The searches' heap.
typealias SearchHeap = KeyHeap<EqualKeysAsLaid>
