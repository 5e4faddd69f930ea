import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one call of an app's code (its `JSONDecoder` decoding, its polyline decoder) in a forked
/// child process, so that a trap — `fatalError`, a force-unwrap of nil, an index out of range,
/// an arithmetic overflow — becomes a finding instead of killing the test runner.
///
/// Why a child process: a Swift trap cannot be caught in-process (no exceptions; the runtime
/// stops the process), and the app's code is a closure compiled into the test process, so it
/// cannot run in a separate executable either. `fork()` gives the closure a copy of the process:
/// the child runs it, writes its small result to a pipe and `_exit`s; the parent reads with a
/// timeout and `waitpid`s. A signal (or the exit code 128+signal from the child's own handlers,
/// which also keep the Swift backtracer and core dumps out of it) is a crash, with the child's
/// stderr — the "Fatal error: …" line — as the message; no answer within `timeout` is a hang.
///
/// Cost: one fork + pipe round trip per call, about a millisecond for a test process holding an
/// in-process simulator (measured figure in `Contracts/README.md`); the run reports its total.
///
/// Concurrent calls (`runScenarios` runs several scenarios at once): pipe creation, the fork and the
/// parent's close of the child's pipe ends happen under one process-wide lock, so no child is
/// forked while another call's write end is still open in the parent; otherwise that child would
/// hold the other call's pipe open and the other call would wait for it (a false hang). The child
/// then closes every descriptor but 0, 1, its stderr pipe (2) and its result pipe (3) before it
/// runs the closure — the in-process server's listening and client sockets, other calls' read
/// ends — with `close_range(2)` (looked up at run time) or a loop up to `RLIMIT_NOFILE`.
/// All four pipe ends are also `FD_CLOEXEC`, for other code of the process that forks and execs.
///
/// Remaining caveat of `fork()` in a multi-threaded process: a lock held by another thread at the
/// moment of the fork (malloc's, the Swift runtime's, Foundation's) stays held in the child, and
/// the closure — ordinary Swift code, not async-signal-safe — may wait for it forever. A call
/// that hangs is therefore retried once in a new child before it is reported as a hang.
enum IsolatedCall {
    /// How a call ended.
    enum Outcome: Sendable, Equatable {
        /// The closure returned; its bytes.
        case returned(Data)
        /// The child was stopped by `signal`; `message` is what it wrote to stderr (last lines).
        case crashed(signal: Int32, message: String)
        /// No answer within the timeout (twice).
        case hung(seconds: Double)
        /// The child could not be started or ended in another way.
        case failed(String)
    }

    /// Runs `body` in a child; `statistics` counts the call and its time (fork to reap).
    static func run(timeout: TimeInterval, statistics: CallStatistics? = nil, _ body: () -> Data) -> Outcome {
        let first = runOnce(timeout: timeout, statistics: statistics, body).outcome
        if case .hung = first { return runOnce(timeout: timeout, statistics: statistics, body).outcome }
        return first
    }

    /// Runs `body` in a child that reports its progress as it goes: each `trace(line)` reaches the
    /// parent at once, so when the child crashes the last line says where it was. Returns how the
    /// call ended and the last line traced (no retry: a diagnosis, not a verdict).
    static func traced(timeout: TimeInterval, statistics: CallStatistics? = nil,
                       _ body: (_ trace: (String) -> Void) -> Void) -> (outcome: Outcome, lastTrace: String?) {
        let (outcome, bytes) = runOnce(timeout: timeout, statistics: statistics) {
            body { line in
                var text = Array((line + "\n").utf8)
                text.withUnsafeMutableBytes { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        let written = write(3, buffer.baseAddress! + offset, buffer.count - offset)
                        if written <= 0 { return }
                        offset += written
                    }
                }
            }
            return Data()
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        // The last complete line (a crash may cut the one being written).
        let complete = lines.dropLast()
        return (outcome, complete.last.map(String.init))
    }

    private static func runOnce(timeout: TimeInterval, statistics: CallStatistics?, _ body: () -> Data) -> (outcome: Outcome, bytes: Data) {
        let started = DispatchTime.now().uptimeNanoseconds
        defer { statistics?.add(nanoseconds: DispatchTime.now().uptimeNanoseconds - started) }
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        let closeRange = Self.closeRange, descriptorLimit = Self.descriptorLimit  // resolved before any fork
        forkLock.lock()
        guard pipe(&output) == 0 else {
            forkLock.unlock()
            return (.failed("pipe: \(String(cString: strerror(errno)))"), Data())
        }
        guard pipe(&errors) == 0 else {
            close(output[0]); close(output[1])
            forkLock.unlock()
            return (.failed("pipe: \(String(cString: strerror(errno)))"), Data())
        }
        for fd in output + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        fflush(nil)  // buffered output must not be written twice
        let pid = fork()
        if pid == 0 {
            // Only async-signal-safe calls until `body`: the pipe ends to 2 (stderr) and 3 (the
            // result), moved out of the way first in case they are low numbers; then all else closed.
            let result = output[1] > 3 ? output[1] : fcntl(output[1], F_DUPFD, 4)
            let stderrPipe = errors[1] > 3 ? errors[1] : fcntl(errors[1], F_DUPFD, 4)
            guard result >= 0, stderrPipe >= 0, dup2(stderrPipe, 2) == 2, dup2(result, 3) == 3 else { _exit(4) }
            if closeRange?(4, UInt32.max, 0) != 0 {
                var fd: Int32 = 4
                while fd < descriptorLimit { close(fd); fd += 1 }
            }
            var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
            setrlimit(Int32(RLIMIT_CORE.rawValue), &noCore)
            for sig in [SIGTRAP, SIGILL, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] {
                signal(sig) { received in _exit(128 + received) }
            }
            let data = body()
            data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = write(3, buffer.baseAddress! + offset, buffer.count - offset)
                    if written <= 0 { _exit(3) }
                    offset += written
                }
            }
            _exit(0)
        }
        close(output[1])
        close(errors[1])
        forkLock.unlock()
        defer { close(output[0]); close(errors[0]) }
        guard pid > 0 else { return (.failed("fork: \(String(cString: strerror(errno)))"), Data()) }

        var result = Data(), stderrText = Data()
        var open = [output[0]: true, errors[0]: true]
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while open.values.contains(true) {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                waitpid(pid, &status, 0)
                return (.hung(seconds: timeout), result)
            }
            var fds = open.filter(\.value).map { pollfd(fd: $0.key, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0 && errno != EINTR { break }
            for fd in fds where fd.revents != 0 {
                let count = read(fd.fd, &buffer, buffer.count)
                if count > 0 {
                    if fd.fd == output[0] { result.append(contentsOf: buffer[0..<count]) } else if stderrText.count < 65_536 { stderrText.append(contentsOf: buffer[0..<count]) }
                } else if count == 0 || errno != EINTR {
                    open[fd.fd] = false
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let message = String(decoding: stderrText, as: UTF8.self)
            .split(separator: "\n").suffix(3).joined(separator: " | ")
        let signalled = status & 0x7f, code = (status >> 8) & 0xff
        if signalled != 0 { return (.crashed(signal: signalled, message: message), result) }
        if code == 0 { return (.returned(result), result) }
        if code > 128 && code < 128 + 65 { return (.crashed(signal: code - 128, message: message), result) }
        return (.failed("the child exited with code \(code)\(message.isEmpty ? "" : ": " + message)"), result)
    }

    /// Held from `pipe` to the parent's close of the child's ends (see the type's comment).
    static let forkLock = NSLock()

    private typealias CloseRange = @convention(c) (UInt32, UInt32, Int32) -> Int32
    /// glibc's `close_range` (2.34+; Linux 5.9+), which Swift's Glibc module does not export;
    /// nil where it is missing (the child then closes descriptors one by one).
    private static let closeRange: CloseRange? = {
        #if os(Linux)
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "close_range") else { return nil }
        return unsafeBitCast(symbol, to: CloseRange.self)
        #else
        return nil
        #endif
    }()

    /// Upper bound of the fallback close loop: the soft `RLIMIT_NOFILE`, at most 65 536.
    private static var descriptorLimit: Int32 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 65_536 }
        return Int32(min(limit.rlim_cur, 65_536))
    }

    /// `SIGILL (illegal instruction)`.
    static func describe(signal: Int32) -> String {
        let names: [Int32: String] = [SIGTRAP: "SIGTRAP", SIGILL: "SIGILL", SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS",
                                      SIGABRT: "SIGABRT", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL"]
        return names[signal] ?? "signal \(signal)"
    }
}

/// Counts isolated calls and their total time (thread-safe).
package final class CallStatistics: @unchecked Sendable {
    // @unchecked: state under `lock`.
    private let lock = NSLock()
    private var calls = 0
    private var nanoseconds: UInt64 = 0

    func add(nanoseconds elapsed: UInt64) {
        lock.withLock {
            calls += 1
            nanoseconds += elapsed
        }
    }

    package init() {}

    /// Calls so far and their total wall-clock time in seconds.
    package var snapshot: (calls: Int, seconds: Double) { lock.withLock { (calls, Double(nanoseconds) / 1e9) } }
}
