import Foundation
import StableHashing

/// The fingerprint of a set of inputs: FNV-1a 64 over the schema and builder versions and,
/// for each input in order, its file name, size and full content. Any change to an input
/// or to the import logic (via ``DatasetSchema/builderVersion``) changes it.
public enum DatasetFingerprint {
    /// - Returns: 16 lower-case hex digits.
    /// - Throws: ``DatasetError`` `.missingInput` if an input cannot be read.
    /// `knownContents` holds content hashes already known (by standardized path: size and hex, as
    /// the embedded files' were computed at build time); the other inputs are read and hashed.
    public static func compute(inputs: [URL], knownContents: [String: (size: Int, hash: String)] = [:]) throws -> String {
        var hash = FNV1a64()
        hash.update("vietmap-sim dataset")
        hash.update("schema \(DatasetSchema.schemaVersion)")
        hash.update("builder \(DatasetSchema.builderVersion)")
        // Each file's content hash on its own thread (memory-mapped: no copy), combined in order.
        nonisolated(unsafe) let contents = UnsafeMutableBufferPointer<(size: Int, hex: String)?>.allocate(capacity: inputs.count)
        contents.initialize(repeating: nil)
        defer { contents.deinitialize(); contents.deallocate() }
        for (index, url) in inputs.enumerated() {
            if let known = knownContents[url.standardizedFileURL.path] { contents[index] = (known.size, known.hash) }
        }
        let unknown = inputs.indices.filter { contents[$0] == nil }
        DispatchQueue.concurrentPerform(iterations: unknown.count) { position in
            let index = unknown[position]
            guard let data = try? Data(contentsOf: inputs[index], options: .alwaysMapped) else { return }
            var content = FNV1a64()
            data.withUnsafeBytes { content.update($0) }
            contents[index] = (data.count, content.hex)
        }
        for (index, url) in inputs.enumerated() {
            guard let (size, hex) = contents[index] else { throw DatasetError.missing(url) }
            hash.update(url.lastPathComponent)
            hash.update("\(size)")
            hash.update(hex)
        }
        return hash.hex
    }
}
