import Zlib
import Foundation
import Platform

/// Detects a damaged dataset file before it is served.
///
/// At build, the finished file is *sealed*: the CRC-32 (zlib) of the whole file — computed with
/// header bytes 60–63 counted as zero — is written into those bytes (SQLite's `user_version`),
/// and header bytes 68–71 (`application_id`) are set to `VMSD`. Opening a dataset recomputes the
/// CRC: any changed byte anywhere (a flipped bit in a place or search-index page, a truncated
/// copy) is detected. The check reads the file once (~10 ms per 28 MB once it is in the page
/// cache), far cheaper than `PRAGMA quick_check` (55–170 ms on the same file), which is used only
/// for files built before sealing existed.
public enum DatasetIntegrity {
    /// `application_id` of a sealed dataset: "VMSD".
    static let sealMagic: UInt32 = 0x564D_5344
    static let checksumOffset = 60
    static let magicOffset = 68
    static let headerSize = 100

    /// What `verify` found.
    public enum Outcome: Sendable, Equatable {
        /// The file's CRC matches the sealed one.
        case intact
        /// The file carries no seal (built before sealing existed) but SQLite's quick check passed.
        case unsealedButConsistent
        /// The file is sealed; its whole-file checksum is yet to be compared (a large file).
        case sealedCheckDeferred
    }

    /// Writes the seal into a finished dataset file that nothing has open.
    static func seal(path: String) throws {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, "cannot open the new dataset to seal it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard writeBigEndian(sealMagic, fd: fd, offset: magicOffset) else {
            throw failure(path, "cannot seal the new dataset: \(String(cString: strerror(errno)))")
        }
        let crc = try checksum(fd: fd, path: path)
        guard writeBigEndian(crc, fd: fd, offset: checksumOffset) else {
            throw failure(path, "cannot seal the new dataset: \(String(cString: strerror(errno)))")
        }
    }

    /// Files larger than this have their whole-file CRC checked after start, in the background
    /// (``verify(path:deferringAbove:)``): reading 2 GB takes seconds, start-up should not.
    public static let defaultDeferredCheckBytes = 256 << 20

    /// ``verify(path:)`` for a file of at most `limit` bytes; a larger sealed file only has its
    /// header read (`.sealedCheckDeferred`): the caller runs ``verify(path:)`` in the background.
    public static func verify(path: String, deferringAbove limit: Int) throws -> Outcome {
        var status = stat()
        guard stat(path, &status) == 0, Int(status.st_size) > limit else { return try verify(path: path) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DatasetError(.missingInput, file: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let header = try sqliteHeader(fd: fd, path: path)
        guard bigEndian(header, at: magicOffset) == sealMagic else { return try quickCheck(path: path) }
        return .sealedCheckDeferred
    }

    /// Runs ``verify(path:threads:)`` on a thread of its own at idle priority (Linux `SCHED_IDLE`,
    /// Darwin's background quality of service), reading with one thread, so a server answering on every core is
    /// not slowed by it; `damaged` is called with the problem if the file is damaged.
    public static func verifyInBackground(path: String, damaged: @escaping @Sendable (DatasetError) -> Void) {
        let thread = Thread {
            ThreadPriority.lowerCurrentThreadToIdle()
            do {
                try verify(path: path, threads: 1)
            } catch let error as DatasetError {
                damaged(error)
            } catch {
                damaged(DatasetError(.damaged, file: path, "\(error)"))
            }
        }
        thread.start()
    }

    /// Checks the dataset at `path` and throws a ``DatasetError`` (`.damaged`) that names the file
    /// and says what is wrong when it is damaged or not a dataset at all; a whole-file checksum
    /// reads the file on up to `threads` threads.
    @discardableResult
    public static func verify(path: String, threads: Int = 2) throws -> Outcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DatasetError(.missingInput, file: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let header = try sqliteHeader(fd: fd, path: path)
        let magic = bigEndian(header, at: magicOffset)
        guard magic == sealMagic else { return try quickCheck(path: path) }
        let recorded = bigEndian(header, at: checksumOffset)
        let actual = try checksum(fd: fd, path: path, threads: threads)
        guard actual == recorded else {
            throw DatasetError(.damaged, file: path, "the dataset is damaged (its checksum \(hex(actual)) is not the recorded \(hex(recorded)))")
        }
        return .intact
    }

    /// ``verify(path:threads:)`` for a cached dataset, whose folder keeps a
    /// ``DatasetVerificationRecord``: the whole-file checksum is skipped when the record vouches for
    /// the file as it is now (same device, inode, size, times to the nanosecond, sealed checksum);
    /// otherwise it is computed, and a file found intact and unchanged meanwhile gets a new record.
    /// A damaged file loses its record.
    @discardableResult
    public static func verifyUsingRecord(path: String) throws -> Outcome {
        guard let before = FileStatus(path: path) else { return try verify(path: path) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DatasetError(.missingInput, file: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let header = try sqliteHeader(fd: fd, path: path)
        guard bigEndian(header, at: magicOffset) == sealMagic else {
            DatasetVerificationRecord.remove(for: path)
            return try quickCheck(path: path)
        }
        let recorded = bigEndian(header, at: checksumOffset)
        // The status read before opening still the file's after: `fd` is the file it describes.
        let opened = FileStatus(path: path) == before
        if opened && DatasetVerificationRecord.vouches(for: path, status: before, checksum: recorded) { return .intact }
        let actual = try checksum(fd: fd, path: path)
        guard actual == recorded else {
            DatasetVerificationRecord.remove(for: path)
            throw DatasetError(.damaged, file: path, "the dataset is damaged (its checksum \(hex(actual)) is not the recorded \(hex(recorded)))")
        }
        if opened && FileStatus(path: path) == before {
            DatasetVerificationRecord.record(for: path, status: before, checksum: recorded)
        }
        return .intact
    }

    /// The file's first `headerSize` bytes, once they say it is a SQLite file.
    private static func sqliteHeader(fd: Int32, path: String) throws -> [UInt8] {
        var header = [UInt8](repeating: 0, count: headerSize)
        let got = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, headerSize, 0) }
        guard got == headerSize, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw DatasetError(.damaged, file: path, "not a SQLite dataset (the file header is missing or damaged)")
        }
        return header
    }

    /// CRC-32 of the file with bytes 60–63 counted as zero: its parts on up to `threads` threads, combined.
    private static func checksum(fd: Int32, path: String, threads: Int = 2) throws -> UInt32 {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure(path, "cannot read the dataset: \(String(cString: strerror(errno)))") }
        let size = Int(status.st_size)
        let parts = size >= 8 << 20 ? max(1, threads) : 1
        let partSize = (size + parts - 1) / parts
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<(crc: UInt32, error: Int32)>.allocate(capacity: parts)
        defer { results.deallocate() }
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let from = part * partSize
            results[part] = checksum(fd: fd, from: from, to: min(size, from + partSize))
        }
        var crc = CRC32.initial
        for part in 0..<parts {
            if results[part].error != 0 {
                throw failure(path, "cannot read the dataset: \(String(cString: strerror(results[part].error)))")
            }
            let length = min(size, (part + 1) * partSize) - part * partSize
            crc = part == 0 ? results[part].crc : CRC32.combine(crc, results[part].crc, secondLength: length)
        }
        return crc
    }

    /// CRC-32 of bytes `from..<to` of the file (bytes 60–63 as zero), or the `errno` of a failed read.
    private static func checksum(fd: Int32, from: Int, to: Int) -> (crc: UInt32, error: Int32) {
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var crc = CRC32.initial
        var offset = from
        while offset < to {
            let count = pread(fd, buffer.baseAddress, min(chunk, to - offset), off_t(offset))
            if count < 0 {
                if errno == EINTR { continue }
                return (crc, errno)
            }
            if count == 0 { break }
            if offset == 0 && count >= checksumOffset + 4 {
                for i in checksumOffset..<checksumOffset + 4 { buffer[i] = 0 }
            }
            crc = CRC32.update(crc, UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            offset += count
        }
        return (crc, 0)
    }

    /// The fallback for unsealed files: `PRAGMA quick_check` through the SQLite library.
    private static func quickCheck(path: String) throws -> Outcome {
        let problem: String?
        do {
            problem = try DatasetInfo.quickCheck(path: path)
        } catch {
            throw DatasetError(.damaged, file: path, "the dataset cannot be read (\(error))")
        }
        if let problem { throw DatasetError(.damaged, file: path, "the dataset is damaged (SQLite quick_check: \(problem.prefix(200)))") }
        return .unsealedButConsistent
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func writeBigEndian(_ value: UInt32, fd: Int32, offset: Int) -> Bool {
        let bytes: [UInt8] = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        return bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, 4, off_t(offset)) } == 4
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    private static func failure(_ path: String, _ message: String) -> DatasetError {
        DatasetError(.output, file: path, message)
    }
}
