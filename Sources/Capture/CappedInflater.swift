import CZlib
import Foundation

/// Streaming gzip (or zlib) inflation that stops at a cap: the upstream body is fed as it
/// arrives and inflated at most `limit` bytes, so a small bomb never becomes a large buffer.
final class CappedInflater {
    enum Failure: Error, Equatable {
        case tooLarge
        case corrupt(String)
    }

    let limit: Int
    private(set) var output = Data()
    private(set) var finished = false
    private var stream = z_stream()
    private var started = false

    init(limit: Int) throws(Failure) {
        self.limit = limit
        // 15 + 32: the largest window, gzip or zlib header detected.
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt("zlib could not start")
        }
        started = true
    }

    deinit { if started { inflateEnd(&stream) } }

    /// Inflates `data`; bytes after the end of the stream are ignored.
    func feed(_ data: Data) throws(Failure) {
        guard !finished, !data.isEmpty else { return }
        var input = [UInt8](data)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            var status: Int32 = Z_OK
            repeat {
                status = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    let result = inflate(&stream, Z_NO_FLUSH)
                    let produced = buffer.count - Int(stream.avail_out)
                    if output.count + produced > limit { return Z_MEM_ERROR }
                    output.append(buffer.baseAddress!, count: produced)
                    return result
                }
            } while status == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)
            return status
        }
        switch status {
        case Z_STREAM_END: finished = true
        case Z_OK, Z_BUF_ERROR: return
        case Z_MEM_ERROR: throw .tooLarge
        default: throw .corrupt(stream.msg.map { String(cString: $0) } ?? String(cString: zError(status)))
        }
    }
}
