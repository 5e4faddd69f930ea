import Foundation
import Platform
import StableHashing

/// What the folder watcher knows of a scenarios folder: each scenario file's status (`stat`:
/// device, inode, size, modification and status-change times) and a hash of its content.
///
/// A new look (`refreshed`) stats every file and reads again only those whose status changed —
/// or whose status-change time was too recent at the previous look to be trusted — so a poll
/// costs one `stat` per file while nothing changes. A file is reported changed only when its
/// content is: a rewrite of the same size whose modification time was restored (`cp -p`,
/// `rsync -t`, `tar x`) is caught, because the status-change time moves on every write and no
/// user call can set it back; a `touch` of unchanged content reloads nothing.
struct ScenarioFolderSnapshot: Sendable {
    struct Entry: Sendable, Equatable {
        var status: FileStatus?
        /// FNV-1a 64 of the content; nil when the file could not be read.
        var contentHash: UInt64?
    }

    /// By file name.
    private(set) var entries: [String: Entry] = [:]
    /// Wall-clock time of the look (nanoseconds since 1970, as file times are).
    private var takenAt: Int64 = 0

    /// Timestamps are kept at the kernel's clock tick, not to the nanosecond: a second rewrite
    /// within the tick of the look before would leave the status unchanged. A file whose
    /// status-change time is this close to a look is read again at the next one.
    static let untrustedWindowNanoseconds: Int64 = 1_000_000_000

    /// The folder now, every file read.
    init(directory: URL) {
        self = ScenarioFolderSnapshot().refreshed(directory: directory).snapshot
    }

    private init() {}

    /// The folder now, and whether a scenario file appeared, disappeared or has other content than
    /// at this look; `bytesRead`: what it cost beyond the `stat`s.
    func refreshed(directory: URL) -> (snapshot: ScenarioFolderSnapshot, changed: Bool, bytesRead: Int) {
        var next = ScenarioFolderSnapshot()
        next.takenAt = Int64(Date().timeIntervalSince1970 * 1e9)
        let names = ((try? ScenarioFiles.list(in: directory)) ?? []).map(\.lastPathComponent)
        var changed = Set(names) != Set(entries.keys)
        var bytesRead = 0
        for name in names {
            let path = directory.appendingPathComponent(name).path
            let status = FileStatus(path: path)
            if let previous = entries[name], let status, previous.status == status,
               status.changedNanoseconds < self.takenAt - Self.untrustedWindowNanoseconds {
                next.entries[name] = previous
                continue
            }
            let content = FileManager.default.contents(atPath: path)
            bytesRead += content?.count ?? 0
            let entry = Entry(status: status, contentHash: content.map { FNV1a64.bytewise($0) })
            if entries[name]?.contentHash != entry.contentHash || entry.contentHash == nil { changed = true }
            next.entries[name] = entry
        }
        return (next, changed, bytesRead)
    }
}
