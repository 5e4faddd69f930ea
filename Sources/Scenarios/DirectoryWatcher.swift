import Foundation

/// Polls a folder's scenario files every `interval` seconds (a `DispatchSourceTimer` on a
/// private queue, no thread held between polls) and calls `onChange` when a file appears,
/// disappears or has other content than at the last poll (`ScenarioFolderSnapshot`: one `stat`
/// per file a poll, and a read of the files whose status moved).
///
/// Real time on purpose, not the engine's `ScenarioClock`: this is file watching, not scenario
/// time, so a test's manual clock does not drive it.
///
/// `@unchecked Sendable`: `snapshot` is only touched on `queue`; `timer` is set once.
final class DirectoryWatcher: @unchecked Sendable {
    private let directory: URL
    private let queue = DispatchQueue(label: "vietmap-sim.scenarios.watcher")
    private let timer: any DispatchSourceTimer
    private var snapshot: ScenarioFolderSnapshot

    init(directory: URL, interval: TimeInterval, onChange: @escaping @Sendable () -> Void) {
        self.directory = directory
        self.snapshot = ScenarioFolderSnapshot(directory: directory)
        timer = DispatchSource.makeTimerSource(queue: queue)
        let milliseconds = max(10, Int(interval * 1000))
        timer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds),
                       leeway: .milliseconds(milliseconds / 10))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let look = self.snapshot.refreshed(directory: self.directory)
            self.snapshot = look.snapshot
            if look.changed { onChange() }
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
