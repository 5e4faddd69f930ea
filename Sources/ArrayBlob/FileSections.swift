import Platform

/// Named blobs appended to a file, each at an aligned offset so that it is memory-mapped and read
/// in place (``ByteRegion/map(path:offset:count:)``). A dataset keeps the structures `serve`
/// reads in place — the road graph, its contraction hierarchies, the search index — after its
/// SQLite pages: SQLite BLOBs live in overflow pages, which are not contiguous.
///
/// Layout, after the file's own bytes (SQLite reads only the pages its header counts, so a
/// dataset stays an ordinary database for `sqlite3` and every reader here):
///
///     [SQLite pages][zeros to 64 KiB][section][zeros to 64 KiB][section]…[directory][footer]
///
/// The directory is one line per section, `name offset length` (decimal, from the file's start);
/// the footer is the file's last 32 bytes: `VMSDSECT`, the directory's offset and length
/// (`UInt64`, little-endian), and 8 zero bytes. A dataset's whole-file seal covers the sections
/// like every other byte.
public enum FileSections {
    /// The file's sections cannot be read or written: says why, naming nothing but the problem.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        /// Whether the file is damaged (rather than unreadable or unwritable).
        public let isDamage: Bool
    }

    /// Sections start at multiples of this (a page on every platform: 4 KiB, 16 KiB, 64 KiB).
    static let alignment = 1 << 16
    static let footerMagic = Array("VMSDSECT".utf8)
    static let footerSize = 32

    /// Appends `sections` to the finished file at `path` (nothing may have it open).
    public static func append(to path: String, _ sections: [(name: String, bytes: [UInt8])]) throws {
        guard !sections.isEmpty else { return }
        let appender = try Appender(path: path)
        for section in sections { try appender.append(name: section.name, section.bytes) }
        try appender.finish()
    }

    /// Appends sections to a finished file one at a time, as each is made (an import need not hold
    /// them all at once), then the directory and footer (``finish()``). Without `finish()` the
    /// file has no directory: a reader sees no sections (or, once damaged, refuses them).
    public final class Appender {
        private let fd: Int32
        private var size: Int
        private var directory = ""

        /// Opens the finished file at `path` to append to it (nothing else may have it open).
        public init(path: String) throws {
            fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
            guard fd >= 0 else { throw failure("cannot open the new dataset to add its sections: \(String(cString: strerror(errno)))") }
            size = Int(lseek(fd, 0, SEEK_END))
        }

        deinit { close(fd) }

        /// Appends one section at the next aligned offset.
        public func append(name: String, _ bytes: [UInt8]) throws {
            precondition(!name.contains(where: \.isWhitespace))
            try padToAlignment()
            directory += "\(name) \(size) \(bytes.count)\n"
            try bytes.withUnsafeBytes { try put($0) }
        }

        /// Writes the directory and the footer.
        public func finish() throws {
            let directoryOffset = size
            let text = Array(directory.utf8)
            try text.withUnsafeBytes { try put($0) }
            var footer = footerMagic
            withUnsafeBytes(of: UInt64(directoryOffset).littleEndian) { footer += $0 }
            withUnsafeBytes(of: UInt64(text.count).littleEndian) { footer += $0 }
            footer += [UInt8](repeating: 0, count: 8)
            try footer.withUnsafeBytes { try put($0) }
        }

        private func put(_ bytes: UnsafeRawBufferPointer) throws {
            var done = 0
            while done < bytes.count {
                let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw failure("cannot write the dataset's sections: \(String(cString: strerror(errno)))") }
                done += n
            }
            size += bytes.count
        }

        private func padToAlignment() throws {
            let gap = (alignment - size % alignment) % alignment
            if gap > 0 { try [UInt8](repeating: 0, count: gap).withUnsafeBytes { try put($0) } }
        }
    }

    /// The sections of the file at `path` by name (byte ranges of the file); empty for a file
    /// without sections (a dataset built before they existed keeps its structures in tables).
    public static func directory(path: String) throws(Failure) -> [String: Range<Int>] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw damaged("cannot be read") }
        let size = Int(status.st_size)
        guard size >= footerSize else { return [:] }
        var footer = [UInt8](repeating: 0, count: footerSize)
        guard footer.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, footerSize, off_t(size - footerSize)) }) == footerSize else {
            throw damaged("cannot be read")
        }
        guard footer.starts(with: footerMagic) else { return [:] }
        func number(at offset: Int) -> Int {
            Int(truncatingIfNeeded: footer[offset..<offset + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        }
        let start = number(at: 8), length = number(at: 16)
        guard start >= 0, length >= 0, length <= 1 << 20, start <= size - footerSize - length else {
            throw damaged("its section directory is damaged")
        }
        var text = [UInt8](repeating: 0, count: length)
        guard text.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, length, off_t(start)) }) == length else {
            throw damaged("cannot be read")
        }
        var sections: [String: Range<Int>] = [:]
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 3, let offset = Int(fields[1]), let count = Int(fields[2]),
                  offset >= 0, count >= 0, offset % 8 == 0, offset <= start - count else {
                throw damaged("its section directory is damaged")
            }
            sections[String(fields[0])] = offset..<offset + count
        }
        return sections
    }

    /// The section `name` of the file at `path`, mapped; `nil` when the file has no such section.
    public static func map(path: String, name: String, in directory: [String: Range<Int>]) throws(Failure) -> ByteRegion? {
        guard let range = directory[name] else { return nil }
        do {
            return try ByteRegion.map(path: path, offset: range.lowerBound, count: range.count)
        } catch {
            throw failure(error.description)
        }
    }

    /// The section `name` of the file at `path`, mapped, or `nil` when it has none.
    public static func map(path: String, name: String) throws(Failure) -> ByteRegion? {
        try map(path: path, name: name, in: directory(path: path))
    }

    private static func damaged(_ message: String) -> Failure { Failure(description: message, isDamage: true) }

    private static func failure(_ message: String) -> Failure { Failure(description: message, isDamage: false) }
}
