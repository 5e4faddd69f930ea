import Zlib

/// One blob of a PBF file, inflated. `data` is valid until the stream's next `next()`.
struct PBFBlob {
    /// The BlobHeader type: "OSMHeader", "OSMData", or an unknown type to skip.
    var type: String
    var data: UnsafeRawBufferPointer
}

/// Reads a PBF file's framing — repeated (4-byte big-endian length, BlobHeader, Blob) —
/// one blob at a time into reused buffers, inflating zlib payloads.
///
/// Bounded by the file's own bytes: a BlobHeader of at most 64 KiB and a blob of at most
/// 32 MiB, compressed or not (the PBF specification's limits), and all blobs together inflating
/// to at most `maxInflation` times the bytes read so far plus `inflationAllowance` — OSM data
/// compresses 2–4× with zlib, so only a compression bomb (a few KB inflating to millions of
/// elements) goes beyond, and it is refused before it is inflated.
struct PBFBlobStream {
    /// BlobHeader bytes at most (the specification: "must be less than 64 KiB").
    static let maxHeaderSize = 64 * 1024
    /// Blob bytes at most, compressed or inflated (the specification: "must be less than 32 MiB").
    static let maxBlobSize = 32 * 1024 * 1024
    /// Inflated bytes per file byte at most, over the blobs read so far (real extracts: 2–4).
    static let maxInflation = 16
    /// Inflated bytes a file may have beyond `maxInflation` times its size (small synthetic
    /// files compress better than real data).
    static let inflationAllowance = 256 * 1024

    private let file: BinaryFile
    private let header = ByteBuffer(capacity: 1024)
    private let compressed = ByteBuffer()
    private let inflated = ByteBuffer()
    /// Index of the blob last returned (or being read), from 0.
    private(set) var blobIndex = -1
    /// File offset of that blob's length prefix.
    private(set) var blobOffset = 0
    /// Bytes of the blobs' payloads so far, inflated.
    private var inflatedBytes = 0

    init(file: BinaryFile) {
        self.file = file
    }

    var path: String { file.path }

    /// An error about the current blob.
    func malformed(_ reason: String) -> OSMReadError {
        .malformedPBF(path: file.path, blobIndex: blobIndex, offset: blobOffset, reason: reason)
    }

    /// An element of the current blob beyond `OSMLimits`.
    func refused(_ element: String, _ reason: String) -> OSMReadError {
        .refusedElement(path: file.path, location: "blob #\(blobIndex) at byte \(blobOffset)", element: element, reason: reason)
    }

    /// The next blob, or `nil` at a clean end of file (right after a complete blob).
    mutating func next() throws(OSMReadError) -> PBFBlob? {
        blobIndex += 1
        blobOffset = file.offset

        let prefix = header.bytes(4)
        let prefixCount = try file.read(into: prefix)
        if prefixCount == 0 { return nil }
        guard prefixCount == 4 else {
            throw malformed("truncated: file ends inside the 4-byte BlobHeader length")
        }
        let headerSize = prefix.reduce(0) { $0 << 8 | Int($1) }
        guard headerSize > 0, headerSize <= Self.maxHeaderSize else {
            throw malformed("BlobHeader length \(headerSize) is outside 1…\(Self.maxHeaderSize)")
        }

        let headerBytes = try readExactly(headerSize, into: header, what: "BlobHeader")
        let (type, dataSize) = try parseBlobHeader(headerBytes)

        let blobBytes = try readExactly(dataSize, into: compressed, what: "Blob")
        return PBFBlob(type: type, data: try payload(ofBlob: blobBytes))
    }

    private func readExactly(
        _ count: Int, into buffer: ByteBuffer, what: String
    ) throws(OSMReadError) -> UnsafeRawBufferPointer {
        let bytes = buffer.bytes(count)
        let got = try file.read(into: bytes)
        guard got == count else {
            throw malformed("truncated: \(what) needs \(count) bytes, file has \(got) left")
        }
        return UnsafeRawBufferPointer(bytes)
    }

    /// BlobHeader { type = 1 string; indexdata = 2 bytes; datasize = 3 int32 }.
    private func parseBlobHeader(_ bytes: UnsafeRawBufferPointer) throws(OSMReadError) -> (String, Int) {
        var type: String?
        var dataSize: Int64?
        do throws(ProtobufError) {
            var reader = ProtobufReader(bytes)
            while let field = try reader.nextField() {
                switch (field.number, field.wireType) {
                case (1, .lengthDelimited): type = try reader.readString()
                case (3, .varint): dataSize = try reader.readInt64()
                default: try reader.skip(field.wireType)
                }
            }
        } catch {
            throw malformed("BlobHeader: \(error.reason) at byte \(error.offset)")
        }
        guard let type else { throw malformed("BlobHeader has no type") }
        guard let dataSize else { throw malformed("BlobHeader has no datasize") }
        guard dataSize >= 0, dataSize <= Int64(Self.maxBlobSize) else {
            throw malformed("Blob size \(dataSize) is outside 0…\(Self.maxBlobSize)")
        }
        return (type, Int(dataSize))
    }

    /// Blob { raw = 1; raw_size = 2; zlib_data = 3; lzma_data = 4; bzip2 = 5; lz4 = 6; zstd = 7 }.
    private mutating func payload(ofBlob bytes: UnsafeRawBufferPointer) throws(OSMReadError) -> UnsafeRawBufferPointer {
        var raw: UnsafeRawBufferPointer?
        var zlib: UnsafeRawBufferPointer?
        var rawSize: Int64?
        var otherCompression: String?
        do throws(ProtobufError) {
            var reader = ProtobufReader(bytes)
            while let field = try reader.nextField() {
                switch (field.number, field.wireType) {
                case (1, .lengthDelimited): raw = try reader.readBytes()
                case (2, .varint): rawSize = try reader.readInt64()
                case (3, .lengthDelimited): zlib = try reader.readBytes()
                case (4, .lengthDelimited): otherCompression = "LZMA"; try reader.skip(field.wireType)
                case (5, .lengthDelimited): otherCompression = "bzip2"; try reader.skip(field.wireType)
                case (6, .lengthDelimited): otherCompression = "LZ4"; try reader.skip(field.wireType)
                case (7, .lengthDelimited): otherCompression = "ZSTD"; try reader.skip(field.wireType)
                default: try reader.skip(field.wireType)
                }
            }
        } catch {
            throw malformed("Blob: \(error.reason) at byte \(error.offset)")
        }
        if let raw {
            inflatedBytes += raw.count
            return raw
        }
        if let zlib {
            guard let rawSize else { throw malformed("zlib Blob has no raw_size") }
            guard rawSize >= 0, rawSize <= Int64(Self.maxBlobSize) else {
                throw malformed("raw_size \(rawSize) is outside 0…\(Self.maxBlobSize)")
            }
            let budget = Self.inflationAllowance + Self.maxInflation * file.offset
            guard inflatedBytes + Int(rawSize) <= budget else {
                throw malformed("the blobs so far inflate to \(Self.size(inflatedBytes + Int(rawSize))) from \(Self.size(file.offset)) of file, "
                                + "more than \(Self.maxInflation)× plus \(Self.size(Self.inflationAllowance)) (OSM data inflates 2–4×): refused as a compression bomb")
            }
            inflatedBytes += Int(rawSize)
            let destination = inflated.bytes(Int(rawSize))
            if let failure = Self.inflate(zlib, into: destination) { throw malformed(failure) }
            return UnsafeRawBufferPointer(destination)
        }
        if let otherCompression {
            throw .unsupportedFeature(path: file.path, feature: "\(otherCompression) blob compression (blob #\(blobIndex))")
        }
        throw malformed("Blob has no data")
    }

    /// `512 B`, `3.4 KiB`, `12.0 MiB`.
    static func size(_ bytes: Int) -> String {
        func tenths(_ unit: Int) -> String {
            let value = (bytes * 10 + unit / 2) / unit
            return "\(value / 10).\(value % 10)"
        }
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return tenths(1024) + " KiB" }
        return tenths(1024 * 1024) + " MiB"
    }
}

extension PBFBlobStream {
    /// Inflates a blob's `zlib_data` into `destination`, which must come out exactly full
    /// (`raw_size`); returns a description of the failure otherwise.
    static func inflate(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) -> String? {
        do throws(InflateError) {
            let produced = try Inflate.decompress(source, format: .zlib, into: destination)
            guard produced == destination.count else {
                return "zlib data inflates to \(produced) bytes, raw_size says \(destination.count)"
            }
            return nil
        } catch {
            switch error {
            case .tooLarge: return "zlib data inflates to more than raw_size (\(destination.count)) bytes"
            case .truncated: return "zlib data is truncated"
            case .corrupt(let reason): return "corrupt zlib data (\(reason))"
            }
        }
    }
}
