/// A reusable heap buffer for one blob at a time; growing it discards its contents.
final class ByteBuffer {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int

    init(capacity: Int = 64 * 1024) {
        self.capacity = max(capacity, 1)
        base = .allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { base.deallocate() }

    /// The first `count` bytes, reallocating (without copying) if the buffer is smaller.
    func bytes(_ count: Int) -> UnsafeMutableRawBufferPointer {
        if count > capacity {
            base.deallocate()
            capacity = count
            base = .allocate(byteCount: capacity, alignment: 16)
        }
        return UnsafeMutableRawBufferPointer(start: base, count: count)
    }
}
