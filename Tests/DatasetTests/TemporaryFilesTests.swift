@testable import Dataset
import Foundation
import TestExpectations
import Testing

/// `DatasetTemporaryFiles`: the names builds write, which ones count as stale, and that a
/// failed build leaves none.
@Suite final class TemporaryFilesTests {
    private var folder: URL!

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tmpfiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    @Test func testThePIDIsReadFromBuildTemporaryNamesOnly() {
        let made = URL(fileURLWithPath: DatasetTemporaryFiles.path(for: folder.appendingPathComponent("x.sqlite"))).lastPathComponent
        expectEqual(DatasetTemporaryFiles.pid(inName: made), getpid(), made)
        expectEqual(DatasetTemporaryFiles.pid(inName: ".a.b.sqlite.42.DEADBEEF.tmp-journal"), 42)
        for other in [".x.sqlite.tmp", "x.sqlite.42.DEADBEEF.tmp", ".x.42.NOTHEX00.tmp", ".x.-3.DEADBEEF.tmp", ".x.sqlite.42.DEADBEEF.tmp.bak",
                      ".quota.json.7D3C5E1A-0000-4000-8000-000000000000.tmp"] {
            expectNil(DatasetTemporaryFiles.pid(inName: other), other)
        }
    }

    @Test func testRemoveStaleKeepsFilesOfRunningProcesses() throws {
        var dead: Int32 = 4_000_000
        while DatasetTemporaryFiles.isAlive(dead) { dead -= 1 }
        let names = [".x.sqlite.\(dead).00000001.tmp", ".x.sqlite.\(dead).00000001.tmp-journal", ".x.sqlite.\(getpid()).00000002.tmp", ".x.sqlite.1.00000003.tmp"]
        for name in names { try Data([1, 2, 3]).write(to: folder.appendingPathComponent(name)) }
        let removed = DatasetTemporaryFiles.removeStale(in: folder)
        expectEqual(removed.map(\.name), Array(names.prefix(2)))
        expectEqual(removed.first?.bytes, 3)
        expectEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), Array(names.suffix(2)).sorted())
    }

    @Test func testAFailedBuildLeavesNoTemporaryFile() throws {
        struct Boom: Error {}
        var seen: String?
        expectThrowsError(try DatasetBuilder.writeAtomically(to: folder.appendingPathComponent("x.sqlite")) { path in
            seen = path
            try Data([1]).write(to: URL(fileURLWithPath: path))
            try Data([1]).write(to: URL(fileURLWithPath: path + "-journal"))
            throw Boom()
        })
        expectNotNil(seen)
        expectEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
        expectEqual(DatasetTemporaryFiles.removeInProgress(), 0, "no longer tracked")
    }

    @Test func testAnInputThatIsNotARegularFileIsRefusedBeforeItIsOpened() throws {
        let fifo = folder.appendingPathComponent("pipe")
        expectEqual(mkfifo(fifo.path, 0o600), 0)
        for url in [fifo, URL(fileURLWithPath: "/dev/zero"), folder!] {
            expectThrowsError(try InputKind.detect(url)) { expectTrue("\($0)".contains("not a regular file"), "\($0)") }
        }
    }
}
