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

    /// Streams a file into place: `body` writes it through `BufferedOutput` on a temporary file
    /// next to `destination`, renamed over it once `body` returns. Whatever `body` throws (or a
    /// failure to write) removes the temporary file and is rethrown; `destination` is untouched.
    static func write(to destination: URL, _ body: (BufferedOutput) throws -> Void) throws {
        let temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: temporary.path) else {
            throw CLIError("cannot write \(destination.path): \(String(cString: strerror(errno)))")
        }
        do {
            defer { try? handle.close() }
            let output = BufferedOutput(handle, name: destination.path)
            try body(output)
            try output.flush()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CLIError("cannot write \(destination.path): \(reason)")
        }
    }
}
