import EmbeddedFiles
import Foundation

/// The dashboard's static files (HTML, CSS, JavaScript, Leaflet), read once from the
/// target's resources into memory, each with its content type and an ETag.
struct DashboardAssets: Sendable {
    struct Asset: Sendable {
        let body: Data
        let contentType: String
        /// A strong validator: FNV-1a 64 of the bytes.
        let etag: String
        /// `vendor/…` files do not change between builds of one version; the app's own
        /// files are revalidated on every load so an updated binary is seen at once.
        let cacheControl: String
    }

    /// Relative path (`index.html`, `vendor/leaflet/leaflet.js`) → asset.
    let files: [String: Asset]

    /// The embedded `Resources/ui` folder (the `EmbedResources` plugin), unpacked on first use.
    static let embeddedDirectory = EmbeddedFolder.materialize(name: "Dashboard", fingerprint: EmbeddedArchive.fingerprint,
                                                             inflatedSize: EmbeddedArchive.inflatedSize,
                                                             deflatedBase64: EmbeddedArchive.deflatedBase64)
        .appendingPathComponent("ui", isDirectory: true)

    /// Reads every file under `root` (default: the embedded `ui` folder).
    init(root: URL? = nil) {
        let directory = root ?? Self.embeddedDirectory
        var files: [String: Asset] = [:]
        let base = directory.standardizedFileURL.path
        if let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in walker {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                      let body = try? Data(contentsOf: url) else { continue }
                var relative = url.standardizedFileURL.path
                if relative.hasPrefix(base) { relative.removeFirst(base.count) }
                while relative.hasPrefix("/") { relative.removeFirst() }
                files[relative] = Asset(body: body, contentType: Self.contentType(of: relative), etag: Self.etag(body),
                                        cacheControl: relative.hasPrefix("vendor/") ? "public, max-age=86400" : "no-cache")
            }
        }
        self.files = files
    }

    static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "json": return "application/json; charset=utf-8"
        case "png": return "image/png"
        case "svg": return "image/svg+xml"
        case "md", "txt", "": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }

    private static func etag(_ data: Data) -> String {
        // Over the bytes in place: `Data`'s own iterator made this a few milliseconds of every start.
        let hash = data.withUnsafeBytes { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
        return "\"" + String(hash, radix: 16) + "\""
    }
}
