import DefaultData
import Foundation
import XCTest

/// The data embedded in the code (the `EmbedResources` plugin, unpacked by `EmbeddedFolder`) is
/// the source tree's `Sources/DefaultData/Resources/data`, file for file and byte for byte.
final class EmbeddedDataTests: XCTestCase {
    func testTheUnpackedDataIsTheSourceTreesFolder() throws {
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
        XCTAssertGreaterThan(expected.count, 10)
        XCTAssertEqual(Set(unpacked.keys), Set(expected.keys))
        for (path, data) in expected { XCTAssertEqual(unpacked[path], data, path) }
        XCTAssertFalse(DefaultData.directory.path.contains(".resources"), "not a resource bundle: \(DefaultData.directory.path)")
    }
}
