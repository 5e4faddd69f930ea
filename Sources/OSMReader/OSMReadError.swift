/// Why `OSMReader.read` failed. Every case names the file; PBF cases name the blob
/// (0-based index and the file byte offset where it starts), XML cases the line.
public enum OSMReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case io(path: String, reason: String)
    /// The file is neither OSM XML (`<?xml` / `<osm`) nor OSM PBF (BlobHeader + `OSMHeader`).
    case unrecognizedFormat(path: String)
    /// The PBF file is truncated, or a blob is malformed, oversized or fails to inflate.
    /// `offset` is the file byte offset of the blob's 4-byte length prefix.
    case malformedPBF(path: String, blobIndex: Int, offset: Int, reason: String)
    /// The PBF file requires a feature this reader does not implement
    /// (e.g. `HistoricalInformation`, or LZMA/ZSTD blob compression).
    case unsupportedFeature(path: String, feature: String)
    /// The XML is not well-formed, or an OSM element lacks a required attribute.
    case malformedXML(path: String, line: Int, reason: String)
    /// An element beyond what OpenStreetMap allows (`OSMLimits`): a coordinate off the Earth
    /// (or one the PBF granularity and offsets overflow), a way of more than 2,000 nodes, …
    /// `location` is `line N` (XML) or `blob #N at byte B` (PBF); `element` e.g. `node 42`.
    case refusedElement(path: String, location: String, element: String, reason: String)

    public var description: String {
        switch self {
        case let .io(path, reason):
            return "\(path): cannot read: \(reason)"
        case let .unrecognizedFormat(path):
            return "\(path): not an OSM XML or PBF file"
        case let .malformedPBF(path, blobIndex, offset, reason):
            return "\(path): malformed PBF in blob #\(blobIndex) at byte \(offset): \(reason)"
        case let .unsupportedFeature(path, feature):
            return "\(path): unsupported PBF feature \(feature)"
        case let .malformedXML(path, line, reason):
            return "\(path):\(line): malformed OSM XML: \(reason)"
        case let .refusedElement(path, location, element, reason):
            return "\(path): \(location): \(element) \(reason)"
        }
    }
}
