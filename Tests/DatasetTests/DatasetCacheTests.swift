import Dataset
import Foundation
import SQLiteStore
import TestExpectations
import Testing

@Suite final class DatasetCacheTests {
    @Test func testCacheDirectoryFromEnvironment() {
        expectEqual(DatasetCache.defaultDirectory(environment: ["VIETMAP_SIM_CACHE": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"]).path, "/c")
        expectEqual(DatasetCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"]).path, "/x/vietmap-sim")
        expectEqual(DatasetCache.defaultDirectory(environment: ["HOME": "/h"]).path, "/h/.cache/vietmap-sim")
    }

    /// Two concurrent first starts both end with the same complete file; a later start reuses
    /// it without building (no build report, the file untouched); the build is stable (same keys
    /// and ids as an independent build of the same inputs). The cache's behaviour does not depend
    /// on the inputs: the small input set (Hoàn Kiếm and the admin units) keeps the three builds short.
    @Test func testConcurrentBuildsThenReuseAndStableKeys() throws {
        let inputs = SharedDataset.smallInputs
        let cache = try SharedDataset.scratch("cache")
        // A stale dataset of an older fingerprint is pruned after a build, unless a server
        // (here: a lease) still uses it.
        try Data("old".utf8).write(to: cache.appendingPathComponent("default-0000000000000000.sqlite"))
        let inUse = cache.appendingPathComponent("default-1111111111111111.sqlite")
        try Data("old, served".utf8).write(to: inUse)
        let lease = try DatasetLease(path: inUse.path)

        // The independent build of the stability check below runs meanwhile (another file, no cache).
        let independent = try SharedDataset.scratch("independent").appendingPathComponent("small.sqlite")
        let independentBuild = ResultBox()
        let independentDone = DispatchGroup()
        DispatchQueue.global().async(group: independentDone) {
            independentBuild.set(0, Result { (independent, try DatasetBuilder().build(inputs: inputs, output: independent)) })
        }
        let results = ResultBox()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            results.set(index, Result { try DatasetCache.ensureDefaultDataset(inputs: inputs, cacheDirectory: cache) })
        }
        let first = try results.get(0), second = try results.get(1)
        expectEqual(first.url, second.url)
        expectTrue(first.url.lastPathComponent.hasPrefix("default-") && first.url.lastPathComponent.hasSuffix(".sqlite"))
        expectEqual(try FileManager.default.contentsOfDirectory(atPath: cache.path).sorted(),
                       [inUse.lastPathComponent, first.url.lastPathComponent].sorted(),
                       "the finished dataset and the one still in use remain")
        withExtendedLifetime(lease) {}
        try FileManager.default.removeItem(at: inUse)
        let info = try DatasetInfo.validate(path: first.url.path)
        expectEqual(info.count(DatasetSchema.MetaKey.adminCount(scheme: .new, level: .ward)), 3321)

        expectNotNil(first.built ?? second.built, "a fresh cache is built")
        let modified = try FileManager.default.attributesOfItem(atPath: first.url.path)[.modificationDate] as? Date
        let inode = try FileManager.default.attributesOfItem(atPath: first.url.path)[.systemFileNumber] as? Int
        // Reuse is shown by what happened (no build report, the same file untouched), not by a
        // wall-clock bound.
        let again = try DatasetCache.ensureDefaultDataset(inputs: inputs, cacheDirectory: cache)
        expectNil(again.built, "reused, not rebuilt")
        expectEqual(again.url, first.url)
        expectEqual(try FileManager.default.attributesOfItem(atPath: first.url.path)[.modificationDate] as? Date, modified)
        expectEqual(try FileManager.default.attributesOfItem(atPath: first.url.path)[.systemFileNumber] as? Int, inode,
                       "not replaced by a rename")
        expectEqual(try DatasetCache.ensureDefault(inputs: inputs, cacheDirectory: cache), first.url)

        // Stability: the same (id, key) sequence as an independent build of the same inputs.
        independentDone.wait()
        _ = try independentBuild.get(0)
        let reference = try Database(path: independent.path, mode: .readOnly)
        let cached = try Database(path: first.url.path, mode: .readOnly)
        let sql = "SELECT id, key FROM place ORDER BY id"
        let rows = try cached.rows(sql, columns: 2)
        expectGreaterThan(rows.count, 3321 + 1000, "admin units and the Hoàn Kiếm places")
        expectEqual(rows, try reference.rows(sql, columns: 2))
    }

    @Test func testAFileWithAnotherFingerprintIsRebuilt() throws {
        let cache = try SharedDataset.scratch("stale")
        // A small input set keeps the rebuild fast.
        let inputs = SharedDataset.unitInputs
        let fingerprint = try DatasetFingerprint.compute(inputs: inputs)
        let target = cache.appendingPathComponent("default-\(fingerprint).sqlite")
        // A complete dataset under the right name whose meta claims another fingerprint (built
        // here from the same two files rather than copied from the shared default build, which
        // this test would otherwise be the first to pay for).
        _ = try DatasetBuilder().build(inputs: inputs, output: target)
        do {
            let db = try Database(path: target.path, mode: .readWrite)
            try db.execute("UPDATE meta SET value = 'something-else' WHERE key = 'source_fingerprint'")
        }
        let result = try DatasetCache.ensureDefaultDataset(inputs: inputs, cacheDirectory: cache)
        expectEqual(result.url, target)
        expectNotNil(result.built, "rebuilt")
        let info = try DatasetInfo.read(path: target.path)
        expectEqual(info.sourceFingerprint, fingerprint)
        expectEqual(info.count(DatasetSchema.MetaKey.placeCount), 34 + 3321)
    }
}

/// Thread-safe slots for results produced on concurrent threads.
private final class ResultBox: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var results: [Int: Result<(url: URL, built: DatasetBuildReport?), any Error>] = [:]

    func set(_ index: Int, _ result: Result<(url: URL, built: DatasetBuildReport?), any Error>) {
        lock.lock(); results[index] = result; lock.unlock()
    }

    func get(_ index: Int) throws -> (url: URL, built: DatasetBuildReport?) {
        lock.lock(); defer { lock.unlock() }
        return try results[index]!.get()
    }
}
