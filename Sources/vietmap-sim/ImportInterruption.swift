import Dataset
import Dispatch
import Foundation
import Platform

/// SIGINT/SIGTERM during `vietmap-sim import`: the temporary dataset file being written is
/// removed, one line says so, and the process exits with 128 + the signal number (130, 143).
/// (SIGKILL cannot be caught: the next `import` removes what it left, see `DatasetTemporaryFiles`.)
enum ImportInterruption {
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Takes over SIGINT and SIGTERM for the rest of the process (call once, from the main thread).
    static func install() {
        guard sources.isEmpty else { return }
        sources = Signals.onTermination { sig in
            let removed = DatasetTemporaryFiles.removeInProgress()
            let line = "vietmap-sim: import interrupted (signal \(sig))\(removed > 0 ? "; removed its temporary file" : ""); nothing written\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            _exit(128 + sig)
        }
    }
}
