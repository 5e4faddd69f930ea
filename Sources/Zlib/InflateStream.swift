internal import CZlib

/// One zlib inflate stream (the C state on the heap, so it never moves), fed input piece by piece
/// and handing each piece of output to a sink while a byte cap holds: the one loop behind
/// `Inflate` and `StreamingInflater`.
final class InflateStream {
    /// What feeding some input came to.
    enum Outcome {
        /// The end marker was reached (bytes after it are ignored).
        case finished
        /// All input was used and more is expected.
        case needsInput
    }

    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    /// Bytes inflated so far (those handed to the sink).
    private(set) var total = 0
    let limit: Int

    /// `format` nil: gzip or zlib, detected from the header.
    init(format: ZlibFormat?, limit: Int) throws(InflateError) {
        self.limit = limit
        stream.initialize(to: z_stream())
        // 15 + 32: the largest window, gzip or zlib header detected automatically.
        guard inflateInit2_(stream, format?.windowBits ?? 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            throw .corrupt("zlib could not start")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Inflates `input`, handing output to `sink` until the end marker; throws `.tooLarge` as soon as
    /// more than `limit` bytes came out (the sink never sees them), `.corrupt` for damaged data.
    func feed(_ input: UnsafeRawBufferPointer, sink: (UnsafeBufferPointer<UInt8>) -> Void) throws(InflateError) -> Outcome {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        var status: Int32 = Z_OK
        var overLimit = false
        repeat {
            status = chunk.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = uInt(buffer.count)
                let result = CZlib.inflate(stream, Z_NO_FLUSH)
                let produced = buffer.count - Int(stream.pointee.avail_out)
                if total + produced > limit {
                    overLimit = true
                } else {
                    total += produced
                    sink(UnsafeBufferPointer(rebasing: buffer[..<produced]))
                }
                return result
            }
        } while !overLimit && status == Z_OK && (stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0)
        stream.pointee.next_in = nil
        if overLimit { throw .tooLarge(limit: limit) }
        switch status {
        case Z_STREAM_END: return .finished
        case Z_OK, Z_BUF_ERROR: return .needsInput
        default: throw .corrupt(message(status))
        }
    }

    /// Inflates all of `source` straight into `destination` (no scratch copy); returns how many bytes
    /// came out. Throws `.tooLarge(limit: destination.count)` when the stream holds more.
    func inflate(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) throws(InflateError) -> Int {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(source.count)
        var status = Z_BUF_ERROR
        var produced = 0
        if let base = destination.baseAddress, !destination.isEmpty {
            stream.pointee.next_out = base.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(destination.count)
            status = CZlib.inflate(stream, Z_FINISH)
            produced = destination.count - Int(stream.pointee.avail_out)
        }
        if status == Z_BUF_ERROR && produced == destination.count {
            // The destination is full: one more byte of room tells a longer stream from an end marker
            // still to be read.
            var probe: UInt8 = 0
            status = withUnsafeMutablePointer(to: &probe) { byte in
                stream.pointee.next_out = byte
                stream.pointee.avail_out = 1
                return CZlib.inflate(stream, Z_FINISH)
            }
            if stream.pointee.avail_out == 0 { throw .tooLarge(limit: destination.count) }
        }
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
        switch status {
        case Z_STREAM_END: return produced
        case Z_OK, Z_BUF_ERROR: throw .truncated
        default: throw .corrupt(message(status))
        }
    }

    private func message(_ status: Int32) -> String {
        stream.pointee.msg.map { String(cString: $0) } ?? String(cString: zError(status))
    }
}
