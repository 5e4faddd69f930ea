import Foundation
import SeededRandom
import TestExpectations
import Testing
@testable import Routing

/// The routing's one heap: with `EqualKeysByState` it pops in (key, state) order whatever the order of the pushes
/// (the contraction order, and so a hierarchy's bytes, depends on it); the searches' `SearchHeap` pops by key.
@Suite final class KeyHeapTests {
    @Test func testPopsByKeyThenStateWhateverThePushOrder() {
        var random = SeededGenerator(seed: 38)
        for round in 0..<50 {
            // Few distinct keys (integers as the contraction's priorities, halves as costs): many ties.
            let pairs = (0..<(round * 16 + 1)).map { _ in
                (Double(Int.random(in: -20...20, using: &random)) / 2, Int32.random(in: 0..<100, using: &random))
            }
            let heap = KeyHeap<EqualKeysByState>()
            // Interleaved pushes and pops, as the searches do: each pop is the first of what is in, by key then state.
            var inside: [(Double, Int32)] = []
            var pushed = 0
            while pushed < pairs.count || heap.count > 0 {
                if pushed < pairs.count && (heap.count == 0 || Bool.random(using: &random) || Bool.random(using: &random)) {
                    heap.push(pairs[pushed].0, pairs[pushed].1)
                    inside.append(pairs[pushed])
                    pushed += 1
                    continue
                }
                let first = inside.indices.min { inside[$0].0 < inside[$1].0 || (inside[$0].0 == inside[$1].0 && inside[$0].1 < inside[$1].1) }!
                expectEqual(heap.minKey, inside[first].0)
                let top = heap.pop()
                expectEqual(top.0, inside[first].0, "round \(round)")
                expectEqual(top.1, inside[first].1, "round \(round)")
                inside.remove(at: first)
            }
            expectEqual(heap.count, 0)
            expectEqual(heap.minKey, .infinity)
            // Pushed all at once, they come out sorted by key then state.
            for (k, s) in pairs.shuffled(using: &random) { heap.push(k, s) }
            var popped: [(Double, Int32)] = []
            while heap.count > 0 { popped.append(heap.pop()) }
            let sorted = pairs.sorted { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
            expectEqual(popped.map(\.0), sorted.map(\.0), "round \(round)")
            expectEqual(popped.map(\.1), sorted.map(\.1), "round \(round)")
        }
    }

    @Test func testTheSearchHeapPopsByKey() {
        var random = SeededGenerator(seed: 36)
        for round in 0..<50 {
            let heap = SearchHeap()
            var inside: [Double] = []
            for _ in 0..<(round * 16 + 1) {
                if heap.count == 0 || Bool.random(using: &random) || Bool.random(using: &random) {
                    let k = Double(Int.random(in: -20...20, using: &random)) / 2
                    heap.push(k, Int32.random(in: 0..<100, using: &random))
                    inside.append(k)
                    continue
                }
                let least = inside.min()!
                expectEqual(heap.minKey, least)
                expectEqual(heap.pop().0, least, "round \(round)")
                inside.remove(at: inside.firstIndex(of: least)!)
            }
            var last = -Double.infinity
            while heap.count > 0 {
                let (k, _) = heap.pop()
                expectGreaterThanOrEqual(k, last)
                last = k
                inside.remove(at: inside.firstIndex(of: k)!)
            }
            expectTrue(inside.isEmpty)
        }
    }
}
