@testable import Dataset
import Foundation
import XCTest

/// `DatasetTemporaryFiles`: the names builds write, which ones count as stale, and that a
/// failed build leaves none.
final class TemporaryFilesTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tmpfiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func testThePIDIsReadFromBuildTemporaryNamesOnly() {
        let made = URL(fileURLWithPath: DatasetTemporaryFiles.path(for: folder.appendingPathComponent("x.sqlite"))).lastPathComponent
        XCTAssertEqual(DatasetTemporaryFiles.pid(inName: made), getpid(), made)
        XCTAssertEqual(DatasetTemporaryFiles.pid(inName: ".a.b.sqlite.42.DEADBEEF.tmp-journal"), 42)
        for other in [".x.sqlite.tmp", "x.sqlite.42.DEADBEEF.tmp", ".x.42.NOTHEX00.tmp", ".x.-3.DEADBEEF.tmp", ".x.sqlite.42.DEADBEEF.tmp.bak",
                      ".quota.json.7D3C5E1A-0000-4000-8000-000000000000.tmp"] {
            XCTAssertNil(DatasetTemporaryFiles.pid(inName: other), other)
        }
    }

    func testRemoveStaleKeepsFilesOfRunningProcesses() throws {
        var dead: Int32 = 4_000_000
        while DatasetTemporaryFiles.isAlive(dead) { dead -= 1 }
        let names = [".x.sqlite.\(dead).00000001.tmp", ".x.sqlite.\(dead).00000001.tmp-journal", ".x.sqlite.\(getpid()).00000002.tmp", ".x.sqlite.1.00000003.tmp"]
        for name in names { try Data([1, 2, 3]).write(to: folder.appendingPathComponent(name)) }
        let removed = DatasetTemporaryFiles.removeStale(in: folder)
        XCTAssertEqual(removed.map(\.name), Array(names.prefix(2)))
        XCTAssertEqual(removed.first?.bytes, 3)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), Array(names.suffix(2)).sorted())
    }

    func testAFailedBuildLeavesNoTemporaryFile() throws {
        struct Boom: Error {}
        var seen: String?
        XCTAssertThrowsError(try DatasetBuilder.writeAtomically(to: folder.appendingPathComponent("x.sqlite")) { path in
            seen = path
            try Data([1]).write(to: URL(fileURLWithPath: path))
            try Data([1]).write(to: URL(fileURLWithPath: path + "-journal"))
            throw Boom()
        })
        XCTAssertNotNil(seen)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
        XCTAssertEqual(DatasetTemporaryFiles.removeInProgress(), 0, "no longer tracked")
    }

    func testAnInputThatIsNotARegularFileIsRefusedBeforeItIsOpened() throws {
        let fifo = folder.appendingPathComponent("pipe")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        for url in [fifo, URL(fileURLWithPath: "/dev/zero"), folder!] {
            XCTAssertThrowsError(try InputKind.detect(url)) { XCTAssertTrue("\($0)".contains("not a regular file"), "\($0)") }
        }
    }
}
