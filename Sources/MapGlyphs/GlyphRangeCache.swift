import Foundation

/// The encoded glyphs of (fonts, range) pairs already rendered, least recently used first out:
/// at most `maximumEntries` entries and `maximumBytes` bytes of glyph data. Thread-safe.
final class GlyphRangeCache: @unchecked Sendable {
    /// Which fonts (indices into the library, in stack order) and which range.
    struct Key: Hashable {
        let fonts: [Int]
        let rangeStart: UInt32
    }

    let maximumEntries: Int
    let maximumBytes: Int

    private struct Entry {
        let bytes: [UInt8]
        var lastUse: UInt64
    }

    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
    private var totalBytes = 0
    private var clock: UInt64 = 0

    init(maximumEntries: Int, maximumBytes: Int) {
        self.maximumEntries = maximumEntries
        self.maximumBytes = maximumBytes
    }

    /// The bytes stored for `key`, marked as just used.
    func value(for key: Key) -> [UInt8]? {
        lock.withLock {
            guard var entry = entries[key] else { return nil }
            clock += 1
            entry.lastUse = clock
            entries[key] = entry
            return entry.bytes
        }
    }

    /// Stores `bytes` for `key`, evicting the least recently used entries over the bounds
    /// (a value larger than `maximumBytes` is not stored).
    func store(_ bytes: [UInt8], for key: Key) {
        guard bytes.count <= maximumBytes, maximumEntries > 0 else { return }
        lock.withLock {
            clock += 1
            if let old = entries.updateValue(Entry(bytes: bytes, lastUse: clock), forKey: key) { totalBytes -= old.bytes.count }
            totalBytes += bytes.count
            while entries.count > maximumEntries || totalBytes > maximumBytes {
                // A linear scan: the cache holds hundreds of entries and a miss costs milliseconds of rendering.
                guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { break }
                entries.removeValue(forKey: oldest.key)
                totalBytes -= oldest.value.bytes.count
            }
        }
    }

    /// Entries and bytes held now.
    var usage: (entries: Int, bytes: Int) { lock.withLock { (entries.count, totalBytes) } }
}
