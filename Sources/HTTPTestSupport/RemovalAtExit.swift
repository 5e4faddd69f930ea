import Foundation
import Platform

/// Folders a test run made once for many tests, removed when the test process exits: Swift Testing has no
/// end-of-run hook (XCTest's `testBundleDidFinish`), `atexit` is the process's own.
public enum RemovalAtExit {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var folders: [URL] = []
    private static let registered: Void = { atexit { RemovalAtExit.removeAll() } }()

    /// Removes `folder` (and what it holds) when the process exits.
    public static func add(_ folder: URL) {
        _ = registered
        lock.lock()
        folders.append(folder)
        lock.unlock()
    }

    private static func removeAll() {
        lock.lock()
        let all = folders
        lock.unlock()
        for folder in all { try? FileManager.default.removeItem(at: folder) }
    }
}
