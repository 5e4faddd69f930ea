import Dispatch
import Foundation

/// SIGINT/SIGTERM handling for `serve`: the first signal starts a graceful stop, a second
/// one ends the process at once (exit code 1) without waiting for in-flight requests.
enum TerminationSignals {
    private static let state = SignalState()

    /// Blocks until the first SIGINT or SIGTERM.
    static func waitForFirst() {
        let first = DispatchSemaphore(value: 0)
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                if state.countSignal() == 1 {
                    first.signal()
                } else {
                    FileHandle.standardError.write(Data("vietmap-sim: second signal: exiting without draining\n".utf8))
                    exit(1)
                }
            }
            source.resume()
            state.keep(source)
        }
        first.wait()
    }

    private final class SignalState: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var sources: [DispatchSourceSignal] = []

        func countSignal() -> Int { lock.withLock { count += 1; return count } }
        func keep(_ source: DispatchSourceSignal) { lock.withLock { sources.append(source) } }
    }
}
