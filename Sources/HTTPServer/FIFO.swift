/// A first-in first-out queue with O(1) push and pop (amortized).
struct FIFO<Element> {
    private var items: [Element?] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }

    mutating func push(_ item: Element) {
        items.append(item)
    }

    mutating func pop() -> Element? {
        guard head < items.count else { return nil }
        let item = items[head]
        items[head] = nil
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return item
    }
}
