@testable import Dataset
import Foundation
import Platform
import SQLiteStore
import TestExpectations
import Testing

/// A damaged dataset is detected before it is served: flipped bytes in place and search-index
/// pages, a broken header, a file without a seal; a damaged cached default dataset is rebuilt.
@Suite final class DatasetIntegrityTests {
    /// A private copy of the shared dataset.
    func copyOfShared(_ name: String) throws -> String {
        let copy = try SharedDataset.scratch(name).appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: SharedDataset.get().url.path, toPath: copy)
        return copy
    }

    /// Pages (1-based) of the place table and both search indexes, from SQLite's `dbstat`.
    func placeAndIndexPages(_ path: String) throws -> [Int] {
        let db = try Database(path: path, mode: .readOnly)
        let pages = try db.rows("SELECT pageno FROM dbstat WHERE name IN ('place', 'place_fts_data', 'place_name_fts_data')", columns: 1)
        return pages.compactMap { Int($0[0]) }
    }

    func pageSize(_ path: String) throws -> Int {
        try Database(path: path, mode: .readOnly).scalarInt("PRAGMA page_size")
    }

    /// XORs `count` random bytes of random pages among `pages` with a non-zero mask.
    func flip(_ path: String, pages: [Int], pageSize: Int, count: Int, generator: inout SystemRandomNumberGenerator) throws {
        let handle = try unwrap(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        for _ in 0..<count {
            let page = pages.randomElement(using: &generator)!
            let offset = UInt64((page - 1) * pageSize + Int.random(in: 0..<pageSize, using: &generator))
            try handle.seek(toOffset: offset)
            let old = try unwrap(handle.read(upToCount: 1)).first!
            try handle.seek(toOffset: offset)
            try handle.write(contentsOf: Data([old ^ UInt8.random(in: 1...255, using: &generator)]))
        }
    }

    @Test func testABuiltDatasetIsSealedAndVerifies() throws {
        expectEqual(try DatasetIntegrity.verify(path: SharedDataset.get().url.path), .intact)
    }

    @Test func testFlippedBytesInPlaceAndIndexPagesAreDetected() throws {
        let original = try copyOfShared("flips")
        let pages = try placeAndIndexPages(original)
        expectGreaterThan(pages.count, 100, "the place table and indexes span many pages")
        let size = try pageSize(original)
        var generator = SystemRandomNumberGenerator()
        for trial in 0..<12 {
            let copy = original + ".\(trial)"
            try FileManager.default.copyItem(atPath: original, toPath: copy)
            defer { try? FileManager.default.removeItem(atPath: copy) }
            try flip(copy, pages: pages, pageSize: size, count: 1 + trial % 4, generator: &generator)
            expectThrowsError(try DatasetIntegrity.verify(path: copy), "trial \(trial)") { error in
                let error = error as? DatasetError
                expectEqual(error?.code, .damaged)
                expectTrue(error?.description.contains(copy) ?? false, "names the file: \(String(describing: error))")
                expectTrue(error?.description.contains("damaged") ?? false)
            }
        }
    }

    @Test func testABrokenHeaderIsNamedNotSQLiteError11() throws {
        let copy = try copyOfShared("header")
        let handle = try unwrap(FileHandle(forUpdatingAtPath: copy))
        try handle.write(contentsOf: Data(repeating: 0x55, count: 100))
        try handle.close()
        expectThrowsError(try DatasetIntegrity.verify(path: copy)) { error in
            expectEqual((error as? DatasetError)?.code, .damaged)
            expectTrue("\(error)".contains(copy), "\(error)")
            expectFalse("\(error)".contains("error 11"), "\(error)")
        }
    }

    @Test func testAnUnsealedFileFallsBackToQuickCheck() throws {
        let copy = try copyOfShared("unsealed")
        let handle = try unwrap(FileHandle(forUpdatingAtPath: copy))
        try handle.seek(toOffset: 68)
        try handle.write(contentsOf: Data([0, 0, 0, 0]))
        try handle.close()
        expectEqual(try DatasetIntegrity.verify(path: copy), .unsealedButConsistent)
        // Damage the unsealed file's b-tree structure: quick_check reports it.
        let pages = try placeAndIndexPages(copy)
        let size = try pageSize(copy)
        let writer = try unwrap(FileHandle(forUpdatingAtPath: copy))
        for page in pages.prefix(40) {
            try writer.seek(toOffset: UInt64((page - 1) * size))
            try writer.write(contentsOf: Data(repeating: 0xFF, count: 16))
        }
        try writer.close()
        expectThrowsError(try DatasetIntegrity.verify(path: copy)) { error in
            expectEqual((error as? DatasetError)?.code, .damaged, "\(error)")
        }
    }

    /// The verification record: written when the checksum finds the file intact; a file changed in
    /// place afterwards (even with its modification time set back) is checksummed again and found
    /// damaged, and loses its record. A record is trusted as it stands: one forged for a damaged
    /// file's current status passes, which is what shows that the checksum is then skipped.
    @Test func testAVerificationRecordIsTrustedOnlyForTheUnchangedFile() throws {
        let copy = try copyOfShared("record")
        let record = DatasetVerificationRecord.path(for: copy)
        expectFalse(FileManager.default.fileExists(atPath: record))
        expectEqual(try DatasetIntegrity.verifyUsingRecord(path: copy), .intact)
        expectTrue(FileManager.default.fileExists(atPath: record), "an intact file gets a record")
        expectEqual(try DatasetIntegrity.verifyUsingRecord(path: copy), .intact)

        let original = try unwrap(FileStatus(path: copy))
        var generator = SystemRandomNumberGenerator()
        try flip(copy, pages: try placeAndIndexPages(copy), pageSize: try pageSize(copy), count: 1, generator: &generator)
        expectTrue(FileStatus.setModificationTime(path: copy, nanoseconds: original.modifiedNanoseconds))
        let changed = try unwrap(FileStatus(path: copy))
        expectEqual(changed.modifiedNanoseconds, original.modifiedNanoseconds)
        expectEqual(changed.size, original.size)
        expectThrowsError(try DatasetIntegrity.verifyUsingRecord(path: copy)) { error in
            expectEqual((error as? DatasetError)?.code, .damaged, "\(error)")
        }
        expectFalse(FileManager.default.fileExists(atPath: record), "a damaged file loses its record")

        // A record of the damaged file as it is now, written once its status-change time lies in
        // an earlier clock tick than the record's (racy records are not trusted).
        let handle = try unwrap(FileHandle(forReadingAtPath: copy))
        let header = try unwrap(handle.read(upToCount: 64))
        try handle.close()
        let sealed = header[60..<64].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var attempts = 0
        repeat {
            DatasetVerificationRecord.record(for: copy, status: changed, checksum: sealed)
            attempts += 1
        } while (FileStatus(path: record)?.changedNanoseconds ?? 0) <= changed.changedNanoseconds && attempts < 100_000
        expectGreaterThan(try unwrap(FileStatus(path: record)).changedNanoseconds, changed.changedNanoseconds)
        expectEqual(try DatasetIntegrity.verifyUsingRecord(path: copy), .intact, "the record is trusted")
        expectThrowsError(try DatasetIntegrity.verify(path: copy), "the checksum finds the damage")
        // Another seal in the record, or a record older than the file's last change: the checksum again.
        DatasetVerificationRecord.record(for: copy, status: changed, checksum: sealed ^ 1)
        expectThrowsError(try DatasetIntegrity.verifyUsingRecord(path: copy))
    }

    /// The cache's handling of damage does not depend on the inputs: the 2025 units alone (3355
    /// places, their search indexes spanning many pages) keep its two builds short.
    @Test func testADamagedCachedDatasetIsRebuiltWithANotice() throws {
        let inputs = SharedDataset.unitInputs
        let cache = try SharedDataset.scratch("cache")
        let fingerprint = try DatasetFingerprint.compute(inputs: inputs)
        let cached = cache.appendingPathComponent("default-\(fingerprint).sqlite")
        var notices: [String] = []
        let first = try DatasetCache.ensureDefaultDataset(inputs: inputs, cacheDirectory: cache) { notices.append($0) }
        expectEqual(first.url, cached)
        expectNotNil(first.built, "an empty cache is built")
        let reused = try DatasetCache.ensureDefaultDataset(inputs: inputs, cacheDirectory: cache) { notices.append($0) }
        expectNil(reused.built, "an intact cached file is reused")
        expectEqual(notices, [])

        var generator = SystemRandomNumberGenerator()
        expectGreaterThan(try placeAndIndexPages(cached.path).count, 20, "the place table and indexes span many pages")
        try flip(cached.path, pages: try placeAndIndexPages(cached.path), pageSize: try pageSize(cached.path), count: 1, generator: &generator)
        let rebuilt = try DatasetCache.ensureDefaultDataset(inputs: inputs, cacheDirectory: cache) { notices.append($0) }
        expectNotNil(rebuilt.built, "the damaged file is rebuilt")
        expectEqual(notices.count, 1)
        expectTrue(notices.first?.contains(cached.path) ?? false, "\(notices)")
        expectTrue(notices.first?.contains("damaged") ?? false && notices.first?.contains("rebuilding") ?? false, "\(notices)")
        expectEqual(try DatasetIntegrity.verify(path: cached.path), .intact)
    }
}
