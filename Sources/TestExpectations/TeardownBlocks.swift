/// A Swift Testing suite class's `addTeardownBlock`: Swift Testing makes one instance per test and releases it
/// when the test ends, so the blocks run then, last added first, as XCTest runs them after the test.
open class TeardownBlocks {
    private var blocks: [() -> Void] = []

    public init() {}

    /// Runs `block` when this test ends.
    public func addTeardownBlock(_ block: @escaping () -> Void) { blocks.append(block) }

    deinit {
        for block in blocks.reversed() { block() }
    }
}
