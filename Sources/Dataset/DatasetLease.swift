import Foundation

/// A shared lock on a dataset file, held for as long as a server reads it. Server threads open
/// their SQLite connections lazily, by path, so the file must stay where it is: the default
/// cache never deletes a file that somebody holds a lease on (`flock`, so this works across
/// processes — a newer build pruning old caches will skip a file an older server still uses).
public final class DatasetLease: Sendable {
    private let descriptor: Int32

    public init(path: String) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw DatasetError(.database, file: path, "cannot open the dataset: \(String(cString: strerror(errno)))")
        }
        flock(descriptor, LOCK_SH)
    }

    deinit { close(descriptor) }

    /// Whether nobody holds a lease on `path` (checked by taking the exclusive lock for a moment).
    static func isUnused(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) == 0
    }
}
