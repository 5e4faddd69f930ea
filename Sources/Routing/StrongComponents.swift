/// Iterative Tarjan SCC over a CSR graph (no recursion: a whole-city graph's DFS is far deeper than the stack
/// allows). Reusable for several runs on the same node count. After `run`: `component[v]` = component id of node
/// v, `size[c]` = node count of component c.
final class StrongComponents {
    let nodeCount: Int
    /// During `run`: the low-link of nodes still on the Tarjan stack; afterwards the component id.
    let component: UnsafeMutablePointer<Int32>
    private(set) var size: [Int32] = []
    /// DFS discovery order (-1 = unvisited, `Int32.max` = already in a component, so it never lowers a low-link),
    /// Tarjan stack, DFS call stack (node, next slot): each at most n deep.
    private let order: UnsafeMutablePointer<Int32>
    private let stack: UnsafeMutablePointer<Int32>
    private let callNode: UnsafeMutablePointer<Int32>
    private let callSlot: UnsafeMutablePointer<Int32>

    init(nodeCount: Int) {
        self.nodeCount = nodeCount
        let c = max(1, nodeCount)
        component = .allocate(capacity: c)
        order = .allocate(capacity: c)
        stack = .allocate(capacity: c)
        callNode = .allocate(capacity: c)
        callSlot = .allocate(capacity: c)
    }

    deinit {
        component.deallocate(); order.deallocate()
        stack.deallocate(); callNode.deallocate(); callSlot.deallocate()
    }

    /// Slots `adjStart[v] ..< adjStart[v + 1]` leave node v and lead to `slotHead[slot]`; only slots with
    /// `slotUsable[slot] & bit != 0` are arcs.
    func run(adjStart: UnsafePointer<Int32>, slotHead: UnsafePointer<Int32>, slotUsable: UnsafePointer<UInt8>,
             bit: UInt8) {
        let n = nodeCount
        let low = component, order = order, stack = stack, callNode = callNode, callSlot = callSlot
        var size = self.size
        self.size = []
        size.removeAll(keepingCapacity: true)
        order.update(repeating: -1, count: n)
        var counter: Int32 = 0
        var stackTop = 0, callTop = 0
        for root in 0..<n where order[root] < 0 {
            order[root] = counter; low[root] = counter; counter += 1
            stack[stackTop] = Int32(root); stackTop += 1
            callNode[0] = Int32(root); callSlot[0] = adjStart[root]; callTop = 1
            while callTop > 0 {
                let v = Int(callNode[callTop - 1])
                var slot = Int(callSlot[callTop - 1])
                let end = Int(adjStart[v + 1])
                var lowV = low[v]
                var descended = false
                while slot < end {
                    let usable = slotUsable[slot] & bit != 0
                    let w = Int(slotHead[slot])
                    slot += 1
                    guard usable else { continue }
                    let ow = order[w]
                    if ow < 0 {
                        callSlot[callTop - 1] = Int32(slot)
                        order[w] = counter; low[w] = counter; counter += 1
                        stack[stackTop] = Int32(w); stackTop += 1
                        callNode[callTop] = Int32(w); callSlot[callTop] = adjStart[w]; callTop += 1
                        descended = true
                        break
                    }
                    // Visited: on the Tarjan stack, or done (order Int32.max: no effect).
                    if ow < lowV { lowV = ow }
                }
                low[v] = lowV
                if descended { continue }
                callTop -= 1
                if lowV == order[v] {
                    // v is the root of a component: pop it (low-links of finished nodes are no longer needed).
                    let c = Int32(size.count)
                    var count: Int32 = 0
                    while true {
                        stackTop -= 1
                        let x = Int(stack[stackTop])
                        order[x] = .max
                        low[x] = c  // = component[x]
                        count += 1
                        if x == v { break }
                    }
                    size.append(count)
                }
                if callTop > 0 {
                    let p = Int(callNode[callTop - 1])
                    if lowV < low[p] { low[p] = lowV }
                }
            }
        }
        self.size = size
    }
}
