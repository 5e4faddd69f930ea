import CZlib
import Foundation

/// gzip (RFC 1952) for tiles: MBTiles stores vector tiles gzip-compressed, and MapLibre accepts
/// `Content-Encoding: gzip`. `decompress` is bounded, for tests and for reading tiles back.
public enum Gzip {
    /// Why bytes could not be inflated.
    public enum Failure: Error, Equatable {
        /// More than the limit would have come out; inflation stopped there.
        case tooLarge(limit: Int)
        /// The stream ended before its end marker.
        case truncated
        /// Not a gzip stream, or damaged.
        case corrupt(String)
    }

    /// `data` gzip-compressed (deflate level 6 unless told, no file name, mtime 0: the same bytes every run).
    public static func compress(_ data: Data, level: Int32 = 6) -> Data {
        var stream = z_stream()
        // windowBits 15 + 16: the largest window, with a gzip header and trailer.
        guard deflateInit2_(&stream, min(max(level, 0), 9), Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                            zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            fatalError("zlib deflateInit2 failed: out of memory")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(data.count))) + 32
        var output = [UInt8](repeating: 0, count: bound)
        var input = [UInt8](data)
        let produced: Int = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                let status = deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "deflate into deflateBound bytes must finish")
                return target.count - Int(stream.avail_out)
            }
        }
        return Data(output[..<produced])
    }

    /// The bytes a gzip stream holds; throws when it is not gzip, damaged, truncated, or inflates to more
    /// than `limit` bytes (default 64 MiB).
    public static func decompress(_ data: Data, limit: Int = 64 << 20) throws(Failure) -> Data {
        guard data.count >= 18, data[data.startIndex] == 0x1F, data[data.startIndex + 1] == 0x8B else {
            throw .corrupt("not a gzip stream")
        }
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var input = [UInt8](data)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
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
                    total += produced
                    if total <= limit { output.append(buffer.baseAddress!, count: produced) }
                    return result
                }
                if total > limit { return Z_MEM_ERROR }
            } while status == Z_OK && (stream.avail_in > 0 || stream.avail_out == 0)
            return status
        }
        switch status {
        case Z_STREAM_END: return output
        case Z_MEM_ERROR where total > limit: throw .tooLarge(limit: limit)
        case Z_OK, Z_BUF_ERROR: throw .truncated
        default: throw .corrupt(stream.msg.map { String(cString: $0) } ?? String(cString: zError(status)))
        }
    }
}
