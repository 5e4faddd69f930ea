import Foundation

/// Writes a file next to its destination, then renames it into place: readers never see half a
/// file, and a failure leaves nothing behind (nor touches an existing destination).
enum AtomicWrite {
    /// Throws a one-line `CLIError` naming `destination`.
    static func write(_ data: Data, to destination: URL) throws(CLIError) {
        let temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CLIError("cannot write \(destination.path): \((error as NSError).localizedDescription)")
        }
        // rename(2) replaces an existing file atomically (FileManager.replaceItemAt does not on Linux).
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CLIError("cannot write \(destination.path): \(reason)")
        }
    }
}
