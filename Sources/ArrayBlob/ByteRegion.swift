import Platform

/// Read-only bytes that ``StoredArray`` views point into: a range of a file mapped into memory
/// (read in place: pages are read when first touched and the kernel may drop them again, so
/// they do not add to the process's own memory) or a heap copy (blobs held elsewhere, tests).
/// The bytes live as long as the region does.
public final class ByteRegion: @unchecked Sendable {
    /// The region's bytes (16-byte aligned at least).
    public let bytes: UnsafeRawBufferPointer
    private let mapping: (base: UnsafeMutableRawPointer, length: Int)?

    /// A heap copy of `source`.
    public init(copying source: UnsafeRawBufferPointer) {
        bytes = Self.heapCopy(of: source)
        mapping = nil
    }

    /// A heap copy of `source`. (The copy is made inside `withUnsafeBytes`: a pointer taken out of it is not valid
    /// after it returns — optimised code may free a temporary array right there.)
    public init(copying source: [UInt8]) {
        bytes = source.withUnsafeBytes { Self.heapCopy(of: $0) }
        mapping = nil
    }

    /// `source` copied into memory of its own, 16-byte aligned (at least 16 bytes allocated, so the base address
    /// is never nil); `deinit` frees it.
    private static func heapCopy(of source: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(16, source.count), alignment: 16)
        if let from = source.baseAddress, source.count > 0 { memory.baseAddress!.copyMemory(from: from, byteCount: source.count) }
        return UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(memory)[0..<source.count])
    }

    private init(mapped base: UnsafeMutableRawPointer, length: Int, skip: Int, count: Int) {
        bytes = UnsafeRawBufferPointer(start: base + skip, count: count)
        mapping = (base, length)
    }

    /// Why a file could not be mapped.
    public struct MappingFailed: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// `count` bytes of the file at `path` from byte `offset`, mapped read-only. The file must
    /// not be truncated while mapped (datasets are replaced by a rename, which keeps the old
    /// file's pages readable).
    public static func map(path: String, offset: Int, count: Int) throws(MappingFailed) -> ByteRegion {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MappingFailed(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, offset >= 0, count >= 0, offset <= Int(status.st_size) - count else {
            throw MappingFailed(description: "\(path) is shorter than the region it should hold")
        }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = offset / page * page
        let length = max(1, offset - start + count)
        guard let base = mmap(nil, length, PROT_READ, MAP_SHARED, fd, off_t(start)), base != MAP_FAILED else {
            throw MappingFailed(description: "cannot map \(path): \(String(cString: strerror(errno)))")
        }
        return ByteRegion(mapped: base, length: length, skip: offset - start, count: count)
    }

    /// Whether the bytes are a file's pages rather than a heap copy.
    public var isMapped: Bool { mapping != nil }

    deinit {
        if let mapping {
            munmap(mapping.base, mapping.length)
        } else {
            UnsafeMutableRawPointer(mutating: bytes.baseAddress!).deallocate()
        }
    }
}
