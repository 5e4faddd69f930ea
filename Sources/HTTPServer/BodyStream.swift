import CMicroHTTPD
import Foundation

/// A response body produced by an MHD content-reader callback, for the transport faults
/// that need control over when and how many body bytes go out:
/// - truncation: the headers announce the full length, the reader fails after `sendLimit`
///   bytes and MHD closes the connection;
/// - dribbling: chunk `k` is released `k × interval` after the headers; while a chunk is
///   not due the connection is suspended and a timer resumes it (no thread is held, and a
///   reader that returned 0 without suspending would make MHD's event loop spin).
final class BodyStream {
    private let context: RequestContext
    private let body: Data
    private let sendLimit: Int
    /// End offset of each chunk, ascending; the last one is `body.count`.
    private let chunkEnds: [Int]
    private let intervalNanoseconds: UInt64
    private let announcesLength: Bool
    private let start = DispatchTime.now()

    /// - Parameters:
    ///   - sendLimit: bytes sent before the connection is cut (at most `body.count`).
    ///   - chunks: pieces the body is released in (1 ≤ chunks ≤ body.count), `intervalMilliseconds` apart.
    ///   - announcesLength: whether MHD sends `Content-Length: body.count`; false when the
    ///     response carries its own (possibly wrong) length and ends by closing the connection.
    init(context: RequestContext, body: Data, sendLimit: Int, chunks: Int = 1, intervalMilliseconds: Int = 0,
         announcesLength: Bool = true) {
        self.context = context
        self.body = body
        self.sendLimit = min(max(0, sendLimit), body.count)
        let chunks = max(1, min(chunks, body.count))
        self.chunkEnds = (1...chunks).map { body.count * $0 / chunks }
        self.intervalNanoseconds = UInt64(max(0, intervalMilliseconds)) * 1_000_000
        self.announcesLength = announcesLength
    }

    /// An MHD response reading from this stream (which it keeps alive until MHD destroys
    /// the response).
    func makeResponse() -> OpaquePointer? {
        let retained = Unmanaged.passRetained(self)
        let size = announcesLength ? UInt64(body.count) : UInt64.max  // UInt64.max is MHD_SIZE_UNKNOWN
        guard let response = MHD_create_response_from_callback(size, 16 * 1024, readBodyStream,
                                                               retained.toOpaque(), releaseBodyStream)
        else {
            retained.release()
            return nil
        }
        return response
    }

    /// Content-reader semantics: bytes written, 0 = nothing yet (connection suspended),
    /// -1 = end of stream, -2 = abort the connection.
    fileprivate func read(at position: Int, into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int {
        let endOfStream = -1, abort = -2
        if context.isCancelled || position >= sendLimit { return position >= body.count ? endOfStream : abort }
        guard let chunk = chunkEnds.firstIndex(where: { $0 > position }) else { return endOfStream }
        let due = DispatchTime(uptimeNanoseconds: start.uptimeNanoseconds + UInt64(chunk) * intervalNanoseconds)
        if DispatchTime.now() < due {
            return context.pauseStream(until: due) ? 0 : abort
        }
        let count = min(capacity, min(chunkEnds[chunk], sendLimit) - position)
        body.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            buffer.copyMemory(from: base + position, byteCount: count)
        }
        return count
    }
}

private func readBodyStream(_ cls: UnsafeMutableRawPointer?, _ position: UInt64,
                            _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int) -> Int {
    guard let cls, let buffer else { return -2 }
    let stream = Unmanaged<BodyStream>.fromOpaque(cls).takeUnretainedValue()
    return stream.read(at: Int(position), into: UnsafeMutableRawPointer(buffer), capacity: capacity)
}

private func releaseBodyStream(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<BodyStream>.fromOpaque(cls).release()
}
