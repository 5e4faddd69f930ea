/// An immutable array read in place from a ``ByteRegion`` (a mapped dataset file, or a heap
/// copy): what the road graph and the search index hold instead of `[T]`, so that `serve` maps
/// a country's arrays instead of copying them. Indexing is bounds-checked like `Array`'s.
@frozen
public struct StoredArray<Element: BitwiseCopyable>: RandomAccessCollection {
    /// The first element (a valid, aligned address even when `count` is 0).
    public let base: UnsafePointer<Element>
    public let count: Int
    /// Keeps the bytes alive.
    @usableFromInline let owner: ByteRegion

    /// A view of `count` elements at `base`, inside `owner`'s bytes.
    @inlinable
    public init(base: UnsafePointer<Element>, count: Int, owner: ByteRegion) {
        (self.base, self.count, self.owner) = (base, count, owner)
    }

    /// A copy of `array` in a region of its own.
    public init(_ array: [Element]) {
        let region = array.withUnsafeBytes { ByteRegion(copying: $0) }
        self.init(base: region.bytes.baseAddress!.assumingMemoryBound(to: Element.self), count: array.count, owner: region)
    }

    /// No elements.
    public init() { self.init([]) }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable
    public subscript(position: Int) -> Element {
        precondition(UInt(bitPattern: position) < UInt(bitPattern: count), "StoredArray index out of range")
        return base[position]
    }

    /// The elements as a buffer (valid inside `body` only).
    @inlinable
    public func withUnsafeBufferPointer<R, E: Error>(_ body: (UnsafeBufferPointer<Element>) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(owner) { () throws(E) -> R in try body(UnsafeBufferPointer(start: base, count: count)) }
    }

    /// The elements' bytes (valid inside `body` only).
    @inlinable
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(owner) { () throws(E) -> R in
            try body(UnsafeRawBufferPointer(start: UnsafeRawPointer(base), count: count * MemoryLayout<Element>.stride))
        }
    }

    /// Bytes the elements occupy.
    public var byteCount: Int { count * MemoryLayout<Element>.stride }

    /// Whether the elements are a mapped file's pages (``ByteRegion/isMapped``) rather than a heap copy.
    public var isMapped: Bool { owner.isMapped }
}

extension StoredArray: @unchecked Sendable {}

extension StoredArray: Equatable where Element: Equatable {
    public static func == (a: StoredArray, b: StoredArray) -> Bool { a.elementsEqual(b) }
}

extension StoredArray: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Element...) { self.init(elements) }
}
