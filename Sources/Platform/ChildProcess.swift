import Foundation
#if canImport(MachO)
import MachO  // _NSGetExecutablePath (mach-o/dyld.h) is a module of its own in Apple's SDKs
#endif

/// Starting and reaping child processes without `fork()` (unavailable to Swift on Darwin, and
/// unsafe in a multi-threaded process anyway): `posix_spawn`, whose file-actions type is a struct
/// on Glibc and an optional pointer on Darwin. iOS, tvOS and watchOS processes cannot spawn:
/// `canSpawn` is false there and `spawn` fails with ENOTSUP.
public enum ChildProcess {
    /// How a child ended.
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Whether this platform lets a process start others.
    public static var canSpawn: Bool {
        #if os(Linux) || os(macOS)
        true
        #else
        false
        #endif
    }

    /// Serialises pipe creation (with close-on-exec set) and spawns, so that no child inherits a
    /// descriptor another thread made for its own child (Darwin has no `pipe2(O_CLOEXEC)`).
    public static let lock = NSLock()

    /// A pipe whose two ends are close-on-exec (a child gets one only through `spawn`'s
    /// `descriptors`); nil and `errno` on failure.
    public static func pipe() -> (read: Int32, write: Int32)? {
        lock.lock()
        defer { lock.unlock() }
        var ends: [Int32] = [-1, -1]
        #if canImport(Glibc)
        guard Glibc.pipe(&ends) == 0 else { return nil }
        #elseif canImport(Musl)
        guard Musl.pipe(&ends) == 0 else { return nil }
        #else
        guard Darwin.pipe(&ends) == 0 else { return nil }
        #endif
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Starts `path` with `arguments` (without argv[0], which is `path`) and exactly
    /// `environment`. `descriptors` are the child's descriptors as parent descriptors
    /// (`[0: stdinRead, 2: errorsWrite]`); a child descriptor 0–2 not named there reads or
    /// writes `/dev/null`. Returns the pid, or the `errno` of the failure.
    public static func spawn(path: String, arguments: [String], environment: [String: String],
                             descriptors: [Int32: Int32]) -> Result<pid_t, SpawnError> {
        #if os(Linux) || os(macOS)
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (child, parent) in descriptors.sorted(by: { $0.key < $1.key }) {
            posix_spawn_file_actions_adddup2(&actions, parent, child)
        }
        for standard: Int32 in 0...2 where descriptors[standard] == nil {
            posix_spawn_file_actions_addopen(&actions, standard, "/dev/null", standard == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var pid: pid_t = 0
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        lock.lock()
        let result = posix_spawn(&pid, path, &actions, nil, argv, envp)
        lock.unlock()
        return result == 0 ? .success(pid) : .failure(SpawnError(code: result))
        #else
        return .failure(SpawnError(code: ENOTSUP))
        #endif
    }

    /// Waits for `pid` to end (retrying on EINTR); nil if it is not this process' child.
    public static func wait(_ pid: pid_t) -> Termination? {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return nil }
        }
        return termination(status)
    }

    /// Reaps `pid` if it has ended (WNOHANG): nil while it runs.
    public static func poll(_ pid: pid_t) -> Termination? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return termination(status)
    }

    /// A `waitpid` status decoded (the W* macros are not imported into Swift; the layout is the
    /// same on Linux and Darwin).
    public static func termination(_ status: Int32) -> Termination {
        let signalled = status & 0x7f
        return signalled != 0 ? .signalled(signalled) : .exited((status >> 8) & 0xff)
    }

    /// The running executable's path (Linux `/proc/self/exe`, Darwin `_NSGetExecutablePath`).
    public static var executablePath: String? {
        #if os(Linux)
        return try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #elseif canImport(Darwin)
        var size: UInt32 = 0
        _ = _NSGetExecutablePath(nil, &size)
        var buffer = [CChar](repeating: 0, count: Int(size) + 1)
        guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
        return URL(fileURLWithPath: String(cString: buffer)).standardizedFileURL.path
        #else
        return nil
        #endif
    }

    /// Closes every descriptor from `lowest` up (a child about to run untrusted code):
    /// `close_range(2)` where the C library has it, else one by one up to the open-file limit.
    public static func closeDescriptors(from lowest: Int32) {
        if let closeRange = closeRangeFunction, closeRange(UInt32(lowest), UInt32.max, 0) == 0 { return }
        let limit = Int32(min(ResourceLimits.openFileLimit ?? 65_536, 65_536))
        var fd = lowest
        while fd < limit { close(fd); fd += 1 }
    }

    private static let closeRangeFunction = ProcessMemory.symbol("close_range", as: (@convention(c) (UInt32, UInt32, Int32) -> Int32).self)
}

/// Why a child could not be started: the `errno` of `posix_spawn`.
public struct SpawnError: Error, Sendable, CustomStringConvertible {
    public let code: Int32
    public init(code: Int32) { self.code = code }
    public var description: String { String(cString: strerror(code)) }
}
