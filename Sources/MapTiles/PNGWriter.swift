import Zlib

/// Writes 8-bit RGB or RGBA PNGs from raw rows with zlib at a chosen level (1 by default): Cairo's own PNG writer
/// (libpng's defaults, every filter tried on every row, zlib level 6) took about half of a dense tile's time.
/// Rows use the "Up" filter, which suits map pictures' flat areas; the same pixels give the same bytes.
enum PNGWriter {
    /// Why encoding failed (zlib refused).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `rows(y, buffer)` writes row `y`'s `width · channels` bytes (RGB or RGBA) into `buffer`.
    static func encode(width: Int, height: Int, hasAlpha: Bool, level: Int32 = 1,
                       rows: (Int, UnsafeMutableBufferPointer<UInt8>) -> Void) throws(Failure) -> [UInt8] {
        let channels = hasAlpha ? 4 : 3
        let stride = width * channels
        var raw = [UInt8](repeating: 0, count: height * (stride + 1))
        var previous = [UInt8](repeating: 0, count: stride)
        var current = [UInt8](repeating: 0, count: stride)
        raw.withUnsafeMutableBufferPointer { out in
            previous.withUnsafeMutableBufferPointer { prev in
                current.withUnsafeMutableBufferPointer { cur in
                    var prev = prev, cur = cur
                    for y in 0..<height {
                        rows(y, cur)
                        let base = y * (stride + 1)
                        out[base] = 2  // Up
                        for i in 0..<stride { out[base + 1 + i] = cur[i] &- prev[i] }
                        swap(&prev, &cur)
                    }
                }
            }
        }

        let deflated = Deflate.compress(raw, level: level)

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(deflated.count + 64)
        var header: [UInt8] = []
        appendBE32(UInt32(width), to: &header)
        appendBE32(UInt32(height), to: &header)
        header += [8, hasAlpha ? 6 : 2, 0, 0, 0]
        appendChunk("IHDR", header[...], to: &png)
        appendChunk("IDAT", deflated[...], to: &png)
        appendChunk("IEND", [][...], to: &png)
        return png
    }

    private static func appendBE32(_ v: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    private static func appendChunk(_ type: String, _ data: ArraySlice<UInt8>, to png: inout [UInt8]) {
        appendBE32(UInt32(data.count), to: &png)
        let typeBytes = Array(type.utf8)
        let crc = CRC32.update(CRC32.checksum(typeBytes), data)
        png += typeBytes
        png += data
        appendBE32(crc, to: &png)
    }
}
