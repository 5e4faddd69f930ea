@testable import Dataset
import Foundation
import StableHashing
import TestExpectations
import Testing

/// The start-up hashes computed in parallel give what a plain sequential pass gives: the
/// dataset seal (a CRC of two halves combined with `crc32_combine`) for files of every size
/// around the split, and the input fingerprint (the cache file's name must not change).
@Suite final class ParallelHashingTests {
    /// Plain bitwise CRC-32 (IEEE, as zlib), independent of zlib.
    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            var c: UInt32 = 0xFFFF_FFFF
            for byte in buffer { c = Self.crcTable[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
            return c ^ 0xFFFF_FFFF
        }
    }

    /// Pseudo-random bytes starting with a SQLite header (so `verify` reads the seal).
    private func file(size: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        var bytes = [UInt8](repeating: 0, count: size)
        for i in 0..<size {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[i] = UInt8(truncatingIfNeeded: state >> 33)
        }
        let header = Array("SQLite format 3\0".utf8)
        bytes.replaceSubrange(0..<header.count, with: header)
        return bytes
    }

    @Test func testTheSealIsTheCRCOfTheWholeFileForSizesAroundTheSplit() throws {
        let directory = try SharedDataset.scratch("crc")
        let split = 8 << 20
        for (n, size) in [100, 4097, split - 1, split, split + 1, split + 3, split + (1 << 20) + 7].enumerated() {
            var bytes = file(size: size, seed: UInt64(n + 1))
            let url = directory.appendingPathComponent("f\(n).sqlite")
            try Data(bytes).write(to: url)
            try DatasetIntegrity.seal(path: url.path)
            let sealed = [UInt8](try Data(contentsOf: url))
            expectEqual(sealed.count, size)
            let recorded = sealed[60..<64].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            // What was hashed: the file with the magic written and bytes 60–63 as zero.
            bytes.replaceSubrange(68..<72, with: Array("VMSD".utf8))
            bytes.replaceSubrange(60..<64, with: [0, 0, 0, 0])
            expectEqual(recorded, crc32(bytes), "size \(size)")
            expectEqual(try DatasetIntegrity.verify(path: url.path), .intact, "size \(size)")
            // One flipped byte in the second half is found.
            var damaged = sealed
            damaged[size - 1] ^= 0x40
            try Data(damaged).write(to: url)
            expectThrowsError(try DatasetIntegrity.verify(path: url.path), "size \(size)")
            try FileManager.default.removeItem(at: url)
        }
    }

    /// The fingerprint as it was computed before the inputs were hashed in parallel: each file
    /// read in 1 MiB chunks.
    private func sequentialFingerprint(_ inputs: [URL]) throws -> String {
        var hash = FNV1a64()
        hash.update("vietmap-sim dataset")
        hash.update("schema \(DatasetSchema.schemaVersion)")
        hash.update("builder \(DatasetSchema.builderVersion)")
        for url in inputs {
            let handle = try unwrap(FileHandle(forReadingAtPath: url.path))
            defer { try? handle.close() }
            var size = 0
            var content = FNV1a64()
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                size += chunk.count
                chunk.withUnsafeBytes { content.update($0) }
            }
            hash.update(url.lastPathComponent)
            hash.update("\(size)")
            hash.update(content.hex)
        }
        return hash.hex
    }

    @Test func testTheFingerprintIsTheSequentialOne() throws {
        let directory = try SharedDataset.scratch("fingerprint")
        var inputs: [URL] = []
        for (n, size) in [0, 1, 7, 9, (1 << 20) + 5, (3 << 20) + 1].enumerated() {
            let url = directory.appendingPathComponent("input\(n).csv")
            try Data(file(size: max(size, 16), seed: UInt64(40 + n)).prefix(size)).write(to: url)
            inputs.append(url)
        }
        expectEqual(try DatasetFingerprint.compute(inputs: inputs), try sequentialFingerprint(inputs))
        expectEqual(try DatasetFingerprint.compute(inputs: Array(inputs.reversed())), try sequentialFingerprint(inputs.reversed()))
        expectNotEqual(try DatasetFingerprint.compute(inputs: inputs), try DatasetFingerprint.compute(inputs: Array(inputs.dropLast())))
        expectThrowsError(try DatasetFingerprint.compute(inputs: inputs + [directory.appendingPathComponent("missing.csv")]))
    }
}
