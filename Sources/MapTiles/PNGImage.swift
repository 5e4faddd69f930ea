import Zlib

/// Why bytes could not be read as a PNG image.
public enum PNGImageError: Error, Equatable {
    /// The eight signature bytes are missing or wrong.
    case notPNG
    /// A chunk runs past the end, or IHDR/IEND is missing.
    case truncated
    /// A chunk's CRC does not match its bytes.
    case badChecksum(chunk: String)
    /// Bit depth, colour type or interlacing this reader does not handle (it reads 8-bit grey, grey+alpha,
    /// RGB and RGBA, not interlaced).
    case unsupported(String)
    /// Width × height beyond the reader's limit (2^26 pixels) or zero.
    case badSize(width: Int, height: Int)
    /// The image data does not inflate to the expected size, or a row filter is unknown.
    case corruptData
}

/// A PNG read back into 8-bit RGBA pixels: what checks raster tiles and sprite atlases (tests, and anyone who
/// needs a tile's pixels), with zlib for the inflating and no other decoder. Reads what Cairo writes — 8-bit RGB
/// and RGBA, every row filter — and 8-bit grey; every chunk's CRC is checked.
public struct PNGImage: Sendable {
    public let width: Int
    public let height: Int
    /// Whether the file had an alpha channel.
    public let hasAlpha: Bool
    /// Row-major RGBA, straight alpha, 4 bytes a pixel (alpha 255 when the file had none).
    public let rgba: [UInt8]

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let maxPixels = 1 << 26

    public init(decoding bytes: [UInt8]) throws(PNGImageError) {
        guard bytes.count >= 8, Array(bytes[0..<8]) == Self.signature else { throw .notPNG }
        var offset = 8
        var header: (width: Int, height: Int, depth: UInt8, colorType: UInt8, interlace: UInt8)?
        var compressed: [UInt8] = []
        var ended = false
        func be32(_ i: Int) -> UInt32 {
            UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
        }
        while !ended {
            guard offset + 12 <= bytes.count else { throw .truncated }
            let length = Int(be32(offset))
            guard length <= bytes.count - offset - 12 else { throw .truncated }
            let typeBytes = Array(bytes[(offset + 4)..<(offset + 8)])
            let type = String(decoding: typeBytes, as: UTF8.self)
            let dataStart = offset + 8
            let stored = be32(dataStart + length)
            let computed = CRC32.checksum(bytes[(offset + 4)..<(dataStart + length)])
            guard stored == computed else { throw .badChecksum(chunk: type) }
            switch type {
            case "IHDR":
                guard length == 13 else { throw .corruptData }
                header = (Int(be32(dataStart)), Int(be32(dataStart + 4)), bytes[dataStart + 8], bytes[dataStart + 9], bytes[dataStart + 12])
            case "IDAT":
                compressed.append(contentsOf: bytes[dataStart..<(dataStart + length)])
            case "IEND":
                ended = true
            default:
                break
            }
            offset = dataStart + length + 4
        }
        guard let header else { throw .truncated }
        let (width, height) = (header.width, header.height)
        guard width > 0, height > 0, width <= Self.maxPixels / height else { throw .badSize(width: width, height: height) }
        guard header.depth == 8 else { throw .unsupported("bit depth \(header.depth)") }
        guard header.interlace == 0 else { throw .unsupported("interlaced") }
        let channels: Int
        switch header.colorType {
        case 0: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: throw .unsupported("colour type \(header.colorType)")
        }

        let stride = width * channels
        let expected = height * (stride + 1)
        var raw = [UInt8](repeating: 0, count: expected)
        let rawLength: Int? = raw.withUnsafeMutableBytes { out in
            compressed.withUnsafeBytes { input in try? Inflate.decompress(input, format: .zlib, into: out) }
        }
        guard rawLength == expected else { throw .corruptData }

        // Undo the row filters in place (each row: one filter byte, then `stride` bytes).
        let bpp = channels
        var pixels = [UInt8](repeating: 0, count: height * stride)
        for row in 0..<height {
            let filter = raw[row * (stride + 1)]
            let src = row * (stride + 1) + 1
            let dst = row * stride
            let up = dst - stride
            for i in 0..<stride {
                let x = raw[src + i]
                let a = i >= bpp ? pixels[dst + i - bpp] : 0
                let b = row > 0 ? pixels[up + i] : 0
                let c = (row > 0 && i >= bpp) ? pixels[up + i - bpp] : 0
                let predicted: UInt8
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = UInt8((Int(a) + Int(b)) / 2)
                case 4:
                    let p = Int(a) + Int(b) - Int(c)
                    let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
                    predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw .corruptData
                }
                pixels[dst + i] = x &+ predicted
            }
        }

        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for p in 0..<(width * height) {
            let s = p * channels, d = p * 4
            switch channels {
            case 1: rgba[d] = pixels[s]; rgba[d + 1] = pixels[s]; rgba[d + 2] = pixels[s]
            case 2: rgba[d] = pixels[s]; rgba[d + 1] = pixels[s]; rgba[d + 2] = pixels[s]; rgba[d + 3] = pixels[s + 1]
            case 3: rgba[d] = pixels[s]; rgba[d + 1] = pixels[s + 1]; rgba[d + 2] = pixels[s + 2]
            default: rgba[d] = pixels[s]; rgba[d + 1] = pixels[s + 1]; rgba[d + 2] = pixels[s + 2]; rgba[d + 3] = pixels[s + 3]
            }
        }
        self.width = width
        self.height = height
        self.hasAlpha = channels == 2 || channels == 4
        self.rgba = rgba
    }

    /// The pixel at column `x`, row `y`; nil outside the image.
    public func pixel(x: Int, y: Int) -> RGBAColor? {
        guard x >= 0, x < width, y >= 0, y < height else { return nil }
        let i = (y * width + x) * 4
        return RGBAColor(red: rgba[i], green: rgba[i + 1], blue: rgba[i + 2], alpha: rgba[i + 3])
    }
}
