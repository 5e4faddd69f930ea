import Foundation
import Platform
@testable import Scenarios
import XCTest

/// What the folder watcher reads on a poll: nothing but `stat`s while the files are old and
/// unchanged; a file only when its status moved; a change only when the content did.
final class ScenarioFolderSnapshotTests: XCTestCase {
    private func folder() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    func testAPollReadsOnlyWhatMovedAndReportsOnlyNewContent() throws {
        let directory = try folder()
        let file = directory.appendingPathComponent("a.json")
        try Data(#"{"x": 1}"#.utf8).write(to: file)
        try Data(#"{"y": 2}"#.utf8).write(to: directory.appendingPathComponent("b.json"))
        // Past the window in which a status-change time is too recent to be trusted.
        Thread.sleep(forTimeInterval: Double(ScenarioFolderSnapshot.untrustedWindowNanoseconds) / 1e9 + 0.2)
        let first = ScenarioFolderSnapshot(directory: directory)

        let quiet = first.refreshed(directory: directory)
        XCTAssertFalse(quiet.changed)
        XCTAssertEqual(quiet.bytesRead, 0, "old, unchanged files: one stat each, no read")

        // A touch (status moves, content does not): read again, nothing to reload.
        let status = try XCTUnwrap(FileStatus(path: file.path))
        XCTAssertTrue(FileStatus.setModificationTime(path: file.path, nanoseconds: status.modifiedNanoseconds + 1_000_000_000))
        let touched = quiet.snapshot.refreshed(directory: directory)
        XCTAssertFalse(touched.changed)
        XCTAssertEqual(touched.bytesRead, 8, "only the touched file is read")

        // Other content of the same size with the modification time restored: a change.
        try Data(#"{"x": 3}"#.utf8).write(to: file)
        XCTAssertTrue(FileStatus.setModificationTime(path: file.path, nanoseconds: status.modifiedNanoseconds + 1_000_000_000))
        XCTAssertTrue(touched.snapshot.refreshed(directory: directory).changed)

        // Replaced by another file (rsync's rename into place) with the same times and size: a change.
        let replaced = touched.snapshot.refreshed(directory: directory).snapshot
        let staged = directory.appendingPathComponent(".b.json.tmp")
        try Data(#"{"y": 4}"#.utf8).write(to: staged)
        let bStatus = try XCTUnwrap(FileStatus(path: directory.appendingPathComponent("b.json").path))
        XCTAssertTrue(FileStatus.setModificationTime(path: staged.path, nanoseconds: bStatus.modifiedNanoseconds))
        XCTAssertEqual(rename(staged.path, directory.appendingPathComponent("b.json").path), 0)
        let renamed = replaced.refreshed(directory: directory)
        XCTAssertTrue(renamed.changed)

        // A file that goes away.
        try FileManager.default.removeItem(at: file)
        XCTAssertTrue(renamed.snapshot.refreshed(directory: directory).changed)
    }
}
