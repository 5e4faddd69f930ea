import Zlib
import Foundation
import Platform

/// The files a target embeds with the `EmbedResources` plugin, as a folder on disk: unpacked once
/// per content (the fingerprint) into `<cache>/embedded/NAME-FINGERPRINT/` — `$VIETMAP_SIM_CACHE`,
/// else `$XDG_CACHE_HOME/vietmap-sim`, else `~/.cache/vietmap-sim`, else the temporary folder —
/// and reused by every later start (one `stat`). A binary copied anywhere has its data, dashboard
/// and scenarios with no folder beside it (what `Bundle.module` needs).
///
/// The unpacking goes to a temporary folder renamed into place, so concurrent first starts and
/// an interrupted one never leave a half-written folder under the final name.
public enum EmbeddedFolder {
    /// The folder holding the embedded files (`deflatedBase64` as the plugin writes it).
    public static func materialize(name: String, fingerprint: String, inflatedSize: Int, deflatedBase64: StaticString) -> URL {
        var failures: [String] = []
        for base in candidateBases() {
            let folder = base.appendingPathComponent("\(name)-\(fingerprint)", isDirectory: true)
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(completeMarker).path) { return folder }
            do {
                try unpack(into: folder, inflatedSize: inflatedSize, deflatedBase64: deflatedBase64)
                return folder
            } catch {
                failures.append("\(folder.path): \(error)")
            }
        }
        fatalError("vietmap-sim: cannot unpack the embedded \(name) files: \(failures.joined(separator: "; "))")
    }

    /// Of `digests` (path below the folder → size and content hash, as the plugin computed them at
    /// build time), the files of `folder` still as unpacked, by standardized absolute path: the size
    /// as recorded and a status-change time no later than the completion marker's, which is written
    /// after every file (any later write moves a file's status-change time, and no user call sets
    /// it back). A file changed since is left out, for the caller to hash itself.
    public static func unchangedDigests(in folder: URL, _ digests: [String: (size: Int, hash: String)]) -> [String: (size: Int, hash: String)] {
        guard let marker = FileStatus(path: folder.appendingPathComponent(completeMarker).path) else { return [:] }
        var unchanged: [String: (size: Int, hash: String)] = [:]
        for (path, digest) in digests {
            let file = folder.appendingPathComponent(path).standardizedFileURL.path
            guard let status = FileStatus(path: file), status.size == Int64(digest.size),
                  status.changedNanoseconds <= marker.changedNanoseconds else { continue }
            unchanged[file] = digest
        }
        return unchanged
    }

    /// Written last into an unpacked folder.
    static let completeMarker = ".complete"

    static func candidateBases(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var bases: [URL] = []
        if let explicit = environment["VIETMAP_SIM_CACHE"], !explicit.isEmpty {
            bases.append(URL(fileURLWithPath: explicit, isDirectory: true))
        } else if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            bases.append(URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("vietmap-sim"))
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
            bases.append(home.appendingPathComponent(".cache/vietmap-sim", isDirectory: true))
        }
        bases.append(URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true).appendingPathComponent("vietmap-sim-\(getuid())"))
        return bases.map { $0.appendingPathComponent("embedded", isDirectory: true) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func unpack(into folder: URL, inflatedSize: Int, deflatedBase64: StaticString) throws {
        let encoded = Data(bytes: deflatedBase64.utf8Start, count: deflatedBase64.utf8CodeUnitCount)
        guard let deflated = Data(base64Encoded: encoded) else { throw Failure(description: "the embedded archive is not base64 (a build problem)") }
        var pack = [UInt8](repeating: 0, count: inflatedSize)
        let inflated: Result<Int, InflateError> = deflated.withUnsafeBytes { source in
            pack.withUnsafeMutableBytes { destination in
                do throws(InflateError) { return .success(try Inflate.decompress(source, format: .zlib, into: destination)) } catch { return .failure(error) }
            }
        }
        switch inflated {
        case .success(inflatedSize): break
        case .success(let size): throw Failure(description: "the embedded archive inflates to \(size) bytes, not \(inflatedSize) (a build problem)")
        case .failure(let error): throw Failure(description: "the embedded archive does not inflate: \(error)")
        }

        let manager = FileManager.default
        let parent = folder.deletingLastPathComponent()
        try manager.createDirectory(at: parent, withIntermediateDirectories: true)
        let temporary = parent.appendingPathComponent(".\(folder.lastPathComponent).\(getpid()).tmp", isDirectory: true)
        try? manager.removeItem(at: temporary)
        try manager.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? manager.removeItem(at: temporary) }
        var offset = 0
        func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
            guard offset + MemoryLayout<T>.size <= pack.count else { throw Failure(description: "the embedded archive is cut short") }
            var value: T = 0
            withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: pack[offset..<offset + MemoryLayout<T>.size]) }
            offset += MemoryLayout<T>.size
            return T(littleEndian: value)
        }
        while offset < pack.count {
            let pathLength = Int(try integer(UInt32.self))
            guard offset + pathLength <= pack.count else { throw Failure(description: "the embedded archive is cut short") }
            let path = String(decoding: pack[offset..<offset + pathLength], as: UTF8.self)
            offset += pathLength
            let length = Int(try integer(UInt64.self))
            guard offset + length <= pack.count, !path.split(separator: "/").contains("..") else {
                throw Failure(description: "the embedded archive is damaged at \(path)")
            }
            let file = temporary.appendingPathComponent(path)
            try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(pack[offset..<offset + length]).write(to: file)
            offset += length
        }
        try Data().write(to: temporary.appendingPathComponent(completeMarker))
        if rename(temporary.path, folder.path) != 0 {
            // Another process finished first (the folder exists and is complete), or a stale one is in the way.
            if manager.fileExists(atPath: folder.appendingPathComponent(completeMarker).path) { return }
            try? manager.removeItem(at: folder)
            guard rename(temporary.path, folder.path) == 0 else {
                throw Failure(description: "cannot move the unpacked files into place: \(String(cString: strerror(errno)))")
            }
        }
    }
}
