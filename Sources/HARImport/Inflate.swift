import CZlib
import Foundation

/// Inflates gzip (RFC 1952) and zlib (RFC 1950) streams, for HAR bodies stored compressed.
enum Inflate {
    /// Why a stream could not be inflated.
    enum Failure: Error {
        /// More than the limit came out; inflation stopped there.
        case tooLarge
        case truncated
        case corrupt(String)
    }

    /// Whether `data` starts like a gzip stream (`1f 8b 08`).
    static func isGzip(_ data: Data) -> Bool {
        data.count >= 3 && data[data.startIndex] == 0x1F && data[data.startIndex + 1] == 0x8B && data[data.startIndex + 2] == 8
    }

    /// Whether `data` starts like a zlib stream (deflate method, header checksum right).
    static func isZlib(_ data: Data) -> Bool {
        guard data.count >= 2 else { return false }
        let first = UInt16(data[data.startIndex]), second = UInt16(data[data.startIndex + 1])
        return first & 0x0F == 8 && (first << 8 | second) % 31 == 0
    }

    /// The inflated bytes (gzip or zlib, detected from the header; concatenated gzip members
    /// are not joined). Throws when the stream is corrupt, truncated or inflates to more than
    /// `limit` bytes.
    static func inflate(_ data: Data, limit: Int) throws(Failure) -> Data {
        var output = Data()
        _ = try run(data, limit: limit) { output.append($0.baseAddress!, count: $0.count) }
        return output
    }

    /// How many bytes `data` inflates to, without keeping them (64 KiB of scratch memory),
    /// stopping as soon as more than `limit` came out.
    static func inflatedSize(_ data: Data, limit: Int) throws(Failure) -> Int {
        try run(data, limit: limit) { _ in }
    }

    /// Inflates `data`, handing each piece of output to `sink`; returns the total.
    private static func run(_ data: Data, limit: Int, sink: (UnsafeBufferPointer<UInt8>) -> Void) throws(Failure) -> Int {
        var stream = z_stream()
        // 15 + 32: the largest window, gzip or zlib header detected automatically.
        guard inflateInit2_(&stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var input = [UInt8](data)
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            var status: Int32 = Z_OK
            repeat {
                status = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    let result = CZlib.inflate(&stream, Z_NO_FLUSH)
                    let produced = buffer.count - Int(stream.avail_out)
                    total += produced
                    if total <= limit { sink(UnsafeBufferPointer(rebasing: buffer[..<produced])) }
                    return result
                }
                if total > limit { return Z_MEM_ERROR }
            } while status == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)
            return status
        }
        switch status {
        case Z_STREAM_END: return total
        case Z_MEM_ERROR where total > limit: throw .tooLarge
        case Z_OK, Z_BUF_ERROR: throw .truncated
        default: throw .corrupt("zlib: \(stream.msg.map { String(cString: $0) } ?? String(cString: zError(status)))")
        }
    }
}
