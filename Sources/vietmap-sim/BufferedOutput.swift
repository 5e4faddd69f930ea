import Foundation

/// Text written out through a file handle in pieces of 64 KiB, so that a large output (a long
/// drive's trace: up to a few hundred MB) is never held whole. Write errors are one-line
/// `CLIError`s naming `name`.
final class BufferedOutput {
    static let pieceBytes = 64 * 1024

    private let handle: FileHandle
    private let name: String
    private var buffer: [UInt8] = []
    /// Bytes handed to the handle so far.
    private(set) var bytesWritten = 0

    init(_ handle: FileHandle, name: String) {
        self.handle = handle
        self.name = name
        buffer.reserveCapacity(Self.pieceBytes + 4096)
    }

    func append(_ text: String) throws(CLIError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.pieceBytes { try flush() }
    }

    /// Writes what is buffered.
    func flush() throws(CLIError) {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw CLIError("cannot write \(name): \((error as NSError).localizedDescription)")
        }
        bytesWritten += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
}
