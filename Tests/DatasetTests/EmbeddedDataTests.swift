import Dataset
import DefaultData
import EmbeddedFiles
import Foundation
import Platform
import StableHashing
import TestExpectations
import Testing

/// The data embedded in the code (the `EmbedResources` plugin, unpacked by `EmbeddedFolder`) is
/// the source tree's `Sources/DefaultData/Resources/data`, file for file and byte for byte.
@Suite final class EmbeddedDataTests {
    @Test func testTheUnpackedDataIsTheSourceTreesFolder() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/DefaultData/Resources/data").standardizedFileURL
        func files(_ root: URL) -> [String: Data] {
            var result: [String: Data] = [:]
            let base = root.resolvingSymlinksInPath().path
            let walker = FileManager.default.enumerator(at: root.resolvingSymlinksInPath(), includingPropertiesForKeys: [.isRegularFileKey],
                                                        options: [.skipsHiddenFiles])
            while let url = walker?.nextObject() as? URL {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                result[String(url.resolvingSymlinksInPath().path.dropFirst(base.count))] = try? Data(contentsOf: url)
            }
            return result
        }
        let expected = files(source), unpacked = files(DefaultData.directory)
        expectGreaterThan(expected.count, 10)
        expectEqual(Set(unpacked.keys), Set(expected.keys))
        for (path, data) in expected { expectEqual(unpacked[path], data, path) }
        expectFalse(DefaultData.directory.path.contains(".resources"), "not a resource bundle: \(DefaultData.directory.path)")
    }

    /// The content hashes the plugin computed at build time are those of the embedded bytes, and
    /// the default dataset's fingerprint made with them is the one made by reading every input.
    @Test func testTheBuildTimeDigestsAreTheHashesOfTheEmbeddedBytes() throws {
        let inputs = DefaultData.inputFiles
        let digests = DefaultData.inputDigests
        expectGreaterThan(inputs.count, 10)
        for url in inputs {
            let digest = try unwrap(digests[url.standardizedFileURL.path], url.path)
            let data = try Data(contentsOf: url)
            var hash = FNV1a64()
            data.withUnsafeBytes { hash.update($0) }
            expectEqual(digest.size, data.count, url.path)
            expectEqual(digest.hash, hash.hex, url.path)
        }
        expectEqual(try DatasetFingerprint.compute(inputs: inputs, knownContents: digests), try DatasetFingerprint.compute(inputs: inputs))
        // The inputs listed from the build-time table are the unpacked folder's files.
        var walked: [String] = []
        let walker = FileManager.default.enumerator(at: DefaultData.directory.standardizedFileURL, includingPropertiesForKeys: [.isRegularFileKey],
                                                    options: [.skipsHiddenFiles])
        while let url = walker?.nextObject() as? URL {
            if ["csv", "json", "osm"].contains(url.pathExtension), (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                walked.append(url.standardizedFileURL.path)
            }
        }
        expectEqual(inputs.map(\.path), walked.sorted())
    }

    /// A file written after the folder's completion marker, or of another size, has no trusted
    /// digest (it is hashed instead).
    @Test func testAFileChangedAfterUnpackingLosesItsDigest() throws {
        let folder = try SharedDataset.scratch("unpacked-digests")
        let (a, b) = (folder.appendingPathComponent("a.csv"), folder.appendingPathComponent("b.csv"))
        try Data("one".utf8).write(to: a)
        try Data("two".utf8).write(to: b)
        try Data().write(to: folder.appendingPathComponent(".complete"))
        let digests: [String: (size: Int, hash: String)] = ["a.csv": (3, "aaaa"), "b.csv": (4, "bbbb"), "c.csv": (1, "cccc")]
        expectEqual(Set(EmbeddedFolder.unchangedDigests(in: folder, digests).keys), [a.standardizedFileURL.path], "b has another size, c is missing")
        let marker = try unwrap(FileStatus(path: folder.appendingPathComponent(".complete").path))
        var attempts = 0
        repeat {
            try Data("uno".utf8).write(to: a)
            attempts += 1
        } while (FileStatus(path: a.path)?.changedNanoseconds ?? 0) <= marker.changedNanoseconds && attempts < 100_000
        expectEqual(EmbeddedFolder.unchangedDigests(in: folder, digests).count, 0, "a was written after the marker")
    }
}
