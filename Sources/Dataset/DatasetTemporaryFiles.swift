import Foundation

/// The temporary files a dataset build writes next to its output (`.NAME.PID.RAND.tmp`, plus
/// SQLite's `-journal`, `-wal`, `-shm` beside it): named, tracked while in progress so that a
/// signal handler can remove them, and — when a killed build left some — found again by the
/// PID in their name and removed once that process is gone.
public enum DatasetTemporaryFiles {
    /// SQLite's companions of a database file.
    static let companionSuffixes = ["", "-journal", "-wal", "-shm"]

    private static let inProgress = Registry()

    /// `.NAME.PID.RAND.tmp` in `output`'s folder (RAND: 8 hex digits).
    static func path(for output: URL) -> String {
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16, uppercase: true)
        let name = ".\(output.lastPathComponent).\(getpid()).\(String(repeating: "0", count: 8 - random.count) + random).tmp"
        return output.deletingLastPathComponent().appendingPathComponent(name).path
    }

    static func register(_ path: String) { inProgress.insert(path) }

    /// Forgets `path`, removing it and its companions unless `keep` (it was renamed into place).
    static func finish(_ path: String, keep: Bool) {
        inProgress.remove(path)
        if !keep { for suffix in companionSuffixes { unlink(path + suffix) } }
    }

    /// Removes every temporary file of a build in progress in this process (for SIGINT/SIGTERM
    /// handlers: afterwards the process should exit). Returns how many builds had one.
    @discardableResult
    public static func removeInProgress() -> Int {
        let paths = inProgress.drain()
        for path in paths { for suffix in companionSuffixes { unlink(path + suffix) } }
        return paths.count
    }

    /// A file left behind by an interrupted build: its name and the PID in it.
    public struct Stale: Sendable, Equatable {
        public let name: String
        public let pid: Int32
        public let bytes: Int64
    }

    /// The PID in a temporary file's name (`.NAME.PID.RAND.tmp[-journal|-wal|-shm]`), or nil for other names.
    static func pid(inName name: String) -> Int32? {
        guard name.hasPrefix(".") else { return nil }
        var base = Substring(name)
        for suffix in companionSuffixes.dropFirst() where base.hasSuffix(".tmp" + suffix) { base = base.dropLast(suffix.count) }
        guard base.hasSuffix(".tmp") else { return nil }
        let parts = base.dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 4, let random = parts.last, random.count == 8, random.allSatisfy(\.isHexDigit),
              let pidText = parts.dropLast().last, !pidText.isEmpty, pidText.allSatisfy(\.isASCII),
              let pid = Int32(pidText), pid > 0 else { return nil }
        return pid
    }

    /// Whether process `pid` exists (`kill(pid, 0)`; a process of another user counts as existing).
    static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Removes the temporary files in `directory` whose process is gone; returns them.
    /// Files of running processes (another import under way) are left alone.
    public static func removeStale(in directory: URL) -> [Stale] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        var removed: [Stale] = []
        for name in names.sorted() {
            guard let pid = pid(inName: name), pid != getpid(), !isAlive(pid) else { continue }
            let path = directory.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            if unlink(path) == 0 { removed.append(Stale(name: name, pid: pid, bytes: Int64(status.st_size))) }
        }
        return removed
    }

    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: Set<String> = []
        func insert(_ path: String) { lock.withLock { _ = paths.insert(path) } }
        func remove(_ path: String) { lock.withLock { _ = paths.remove(path) } }
        func drain() -> [String] { lock.withLock { defer { paths.removeAll() }; return Array(paths) } }
    }
}
