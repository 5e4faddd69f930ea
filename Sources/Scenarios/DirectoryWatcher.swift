import Foundation

/// Polls a folder's scenario files every `interval` seconds (a `DispatchSourceTimer` on a
/// private queue, no thread held between polls) and calls `onChange` when their names,
/// modification times or sizes differ from the last poll.
///
/// Real time on purpose, not the engine's `ScenarioClock`: this is file watching, not scenario
/// time, so a test's manual clock does not drive it.
///
/// `@unchecked Sendable`: `lastFingerprint` is only touched on `queue`; `timer` is set once.
final class DirectoryWatcher: @unchecked Sendable {
    private let directory: URL
    private let queue = DispatchQueue(label: "vietmap-sim.scenarios.watcher")
    private let timer: DispatchSourceTimer
    private var lastFingerprint: [String]

    init(directory: URL, interval: TimeInterval, onChange: @escaping @Sendable () -> Void) {
        self.directory = directory
        self.lastFingerprint = ScenarioFiles.fingerprint(of: directory)
        timer = DispatchSource.makeTimerSource(queue: queue)
        let milliseconds = max(10, Int(interval * 1000))
        timer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds),
                       leeway: .milliseconds(milliseconds / 10))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let fingerprint = ScenarioFiles.fingerprint(of: self.directory)
            guard fingerprint != self.lastFingerprint else { return }
            self.lastFingerprint = fingerprint
            onChange()
        }
        timer.resume()
    }

    deinit {
        timer.cancel()
    }

    func stop() {
        timer.cancel()
    }
}
