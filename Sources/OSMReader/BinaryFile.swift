import Platform

/// A read-only C stdio file with a running byte offset, for the PBF blob stream.
final class BinaryFile {
    let path: String
    private let handle: UnsafeMutablePointer<FILE>
    /// Bytes consumed so far.
    private(set) var offset = 0

    init(path: String) throws(OSMReadError) {
        guard let handle = fopen(path, "rb") else {
            throw .io(path: path, reason: String(cString: strerror(errno)))
        }
        self.path = path
        self.handle = handle
    }

    deinit { fclose(handle) }

    /// Reads up to `buffer.count` bytes; returns fewer only at end of file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(OSMReadError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let count = fread(base, 1, buffer.count, handle)
        if count < buffer.count, ferror(handle) != 0 {
            throw .io(path: path, reason: String(cString: strerror(errno)))
        }
        offset += count
        return count
    }
}
