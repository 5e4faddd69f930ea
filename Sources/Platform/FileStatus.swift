import Foundation

/// What `stat(2)` says of a file, with the fields whose names differ by platform (`st_mtim` on
/// Linux, `st_mtimespec` on Darwin) read in one place: identity (device, inode), size, and the
/// modification and status-change times in nanoseconds. The status-change time (ctime) moves on
/// every write, rename into place or attribute change, and no user call can set it back — unlike
/// the modification time, which `cp -p`, `rsync -t` and `tar x` restore.
public struct FileStatus: Sendable, Equatable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    /// Modification time, nanoseconds since 1970.
    public var modifiedNanoseconds: Int64
    /// Status-change time, nanoseconds since 1970.
    public var changedNanoseconds: Int64

    /// The status of the file at `path` (links followed); nil when it cannot be read.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modifiedNanoseconds = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        changedNanoseconds = Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
        modifiedNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changedNanoseconds = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
    }

    /// Sets the file's access and modification times (`utimensat`), as `cp -p` or `touch -d`
    /// do; the status-change time moves to now regardless. Returns false on failure.
    @discardableResult
    public static func setModificationTime(path: String, nanoseconds: Int64) -> Bool {
        var times = [timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000)),
                     timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))]
        return utimensat(AT_FDCWD, path, &times, 0) == 0
    }
}
