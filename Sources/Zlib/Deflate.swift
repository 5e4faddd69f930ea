internal import CZlib
import Foundation

/// Deflate compression, zlib or gzip framed. The same bytes, format and level give the same output
/// on every run (gzip: no file name, mtime 0); `.zlib` output is byte for byte that of zlib's `compress2`.
public enum Deflate {
    /// `bytes` compressed at `level` (0 none … 9 best; 6 is zlib's default).
    public static func compress(_ bytes: UnsafeRawBufferPointer, format: ZlibFormat = .zlib, level: Int32 = 6) -> [UInt8] {
        var stream = z_stream()
        // memLevel 8 and the default strategy: what `compress2` uses.
        guard deflateInit2_(&stream, min(max(level, 0), 9), Z_DEFLATED, format.windowBits, 8, Z_DEFAULT_STRATEGY,
                            zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            fatalError("zlib deflateInit2 failed: out of memory")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count))) + 32
        var output = [UInt8](repeating: 0, count: bound)
        let produced: Int = output.withUnsafeMutableBufferPointer { target in
            stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(bytes.count)
            stream.next_out = target.baseAddress
            stream.avail_out = uInt(target.count)
            let status = deflate(&stream, Z_FINISH)
            precondition(status == Z_STREAM_END, "deflate into deflateBound bytes must finish")
            return target.count - Int(stream.avail_out)
        }
        output.removeSubrange(produced...)
        return output
    }

    /// `bytes` compressed at `level`.
    public static func compress<Bytes: ContiguousBytes>(_ bytes: Bytes, format: ZlibFormat = .zlib, level: Int32 = 6) -> [UInt8] {
        bytes.withUnsafeBytes { compress($0, format: format, level: level) }
    }

    /// `data` compressed at `level`, as `Data`.
    public static func compressedData(_ data: Data, format: ZlibFormat = .zlib, level: Int32 = 6) -> Data {
        Data(compress(data, format: format, level: level))
    }
}
