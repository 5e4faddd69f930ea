/// The two OSM encodings `OSMReader` understands, told apart by the first bytes.
enum OSMFileFormat: Equatable {
    case xml
    case pbf

    /// Sniffs the first bytes of the file at `path`.
    ///
    /// PBF starts with a 4-byte big-endian BlobHeader length followed by the BlobHeader,
    /// whose first field (`type`, tag 0x0A) is the string "OSMHeader". XML starts —
    /// after an optional UTF-8 BOM and whitespace — with `<` (`<?xml`, `<osm`, a comment).
    static func detect(path: String) throws(OSMReadError) -> OSMFileFormat {
        let file = try BinaryFile(path: path)
        let storage = ByteBuffer(capacity: 64)
        let count = try file.read(into: storage.bytes(64))
        let prefix = Array(storage.bytes(64).prefix(count))
        if let format = detect(prefix: prefix) { return format }
        throw .unrecognizedFormat(path: path)
    }

    static func detect(prefix: [UInt8]) -> OSMFileFormat? {
        let osmHeader = Array("OSMHeader".utf8)
        if prefix.count >= 6 + osmHeader.count, prefix[0] == 0, prefix[1] == 0, prefix[4] == 0x0A,
           Int(prefix[5]) == osmHeader.count, Array(prefix[6 ..< 6 + osmHeader.count]) == osmHeader {
            return .pbf
        }
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if bytes.first == UInt8(ascii: "<") { return .xml }
        return nil
    }
}
