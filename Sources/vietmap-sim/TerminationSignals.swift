import Dispatch
import Foundation
import Platform

/// SIGINT/SIGTERM handling for `serve`: the first signal starts a graceful stop, a second
/// one ends the process at once (exit code 1) without waiting for in-flight requests.
///
/// `install()` runs before the server starts, so a signal sent right after the ready line
/// (or during start-up) is never lost; `waitForFirst()` then returns at once.
enum TerminationSignals {
    private static let state = SignalState()

    /// Takes over SIGINT and SIGTERM (idempotent).
    static func install() {
        guard state.markInstalled() else { return }
        let sources = Signals.onTermination { _ in
            if state.countSignal() == 1 {
                state.first.signal()
            } else {
                FileHandle.standardError.write(Data("vietmap-sim: second signal: exiting without draining\n".utf8))
                exit(1)
            }
        }
        for source in sources { state.keep(source) }
    }

    /// Blocks until the first SIGINT or SIGTERM (installing the handlers if needed).
    static func waitForFirst() {
        install()
        state.first.wait()
    }

    private final class SignalState: @unchecked Sendable {
        let first = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var installed = false
        private var count = 0
        private var sources: [any DispatchSourceSignal] = []

        func markInstalled() -> Bool { lock.withLock { defer { installed = true }; return !installed } }
        func countSignal() -> Int { lock.withLock { count += 1; return count } }
        func keep(_ source: any DispatchSourceSignal) { lock.withLock { sources.append(source) } }
    }
}
