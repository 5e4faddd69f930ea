import Foundation
import Protobuf
import Zlib

/// Writes an OpenStreetMap PBF file as Osmosis does: an `OSMHeader` blob (bbox, required
/// features OsmSchema-V0.6 and DenseNodes, optional Sort.Type_then_ID), then `OSMData` blobs of
/// at most `blockSize` entities, zlib-compressed, one kind per block. Entities must be added
/// nodes first, then ways, then relations, each kind by increasing id (checked).
///
/// Memory holds one block; the output is byte-identical for the same calls.
///
///     let writer = try PBFWriter(path: "out.osm.pbf", bounds: box)
///     try writer.node(id: 1, latE7: 107_769_000, lonE7: 1_067_008_000, tags: [("name", "Chợ Bến Thành")])
///     try writer.way(id: 1, refs: [1, 2], tags: [("highway", "primary")])
///     try writer.close()
public final class PBFWriter {
    public static let defaultBlockSize = 8000

    public let path: String
    public let blockSize: Int
    private var file: UnsafeMutablePointer<FILE>?
    private var block = PBFBlockEncoder()
    private var lastKind: PBFBlockEncoder.Kind = .nodes
    private var lastID: Int64 = .min
    public private(set) var nodes = 0
    public private(set) var ways = 0
    public private(set) var relations = 0
    /// Bytes written so far (all of the file once `close()` returned).
    public private(set) var bytesWritten = 0

    public init(path: String, bounds: PBFBoundingBox?, writingProgram: String = "vietmap-sim",
                source: String? = nil, blockSize: Int = PBFWriter.defaultBlockSize) throws(PBFWriteError) {
        self.path = path
        self.blockSize = max(1, blockSize)
        guard let file = fopen(path, "wb") else {
            throw PBFWriteError(path: path, reason: String(cString: strerror(errno)))
        }
        self.file = file
        block.reset(kind: .nodes)

        // HeaderBlock { bbox = 1; required_features = 4; optional_features = 5; writingprogram = 16; source = 17 }.
        var header = ProtobufWriter()
        if let bounds {
            // HeaderBBox { left = 1; right = 2; top = 3; bottom = 4 }, sint64 nanodegrees.
            var bbox = ProtobufWriter()
            bbox.sintField(1, bounds.minLonE7 * 100)
            bbox.sintField(2, bounds.maxLonE7 * 100)
            bbox.sintField(3, bounds.maxLatE7 * 100)
            bbox.sintField(4, bounds.minLatE7 * 100)
            header.message(1, bbox)
        }
        header.stringField(4, "OsmSchema-V0.6")
        header.stringField(4, "DenseNodes")
        header.stringField(5, "Sort.Type_then_ID")
        header.stringField(16, writingProgram)
        if let source { header.stringField(17, source) }
        try writeBlob(type: "OSMHeader", payload: header.bytes)
    }

    deinit {
        if let file { fclose(file) }
    }

    public func node(id: Int64, latE7: Int64, lonE7: Int64, tags: PBFTags = []) throws(PBFWriteError) {
        try prepare(.nodes, id: id)
        block.addNode(id: id, latE7: latE7, lonE7: lonE7, tags: tags)
        nodes += 1
    }

    public func way(id: Int64, refs: [Int64], tags: PBFTags = []) throws(PBFWriteError) {
        try prepare(.ways, id: id)
        block.addWay(id: id, refs: refs, tags: tags)
        ways += 1
    }

    public func relation(id: Int64, members: [PBFMember], tags: PBFTags = []) throws(PBFWriteError) {
        try prepare(.relations, id: id)
        block.addRelation(id: id, members: members, tags: tags)
        relations += 1
    }

    /// Writes the last block and closes the file (flushed to the OS; the caller renames it).
    public func close() throws(PBFWriteError) {
        try flush()
        guard let file else { return }
        self.file = nil
        let flushed = fflush(file) == 0
        let reason = String(cString: strerror(errno))
        let closed = fclose(file) == 0
        guard flushed, closed else { throw PBFWriteError(path: path, reason: reason) }
    }

    private func prepare(_ kind: PBFBlockEncoder.Kind, id: Int64) throws(PBFWriteError) {
        guard file != nil else { throw PBFWriteError(path: path, reason: "the writer is closed") }
        if kind != lastKind {
            guard order(kind) > order(lastKind) else {
                throw PBFWriteError(path: path, reason: "\(kind) after \(lastKind) (write nodes, then ways, then relations)")
            }
            try flush()
            block.reset(kind: kind)
            lastKind = kind
            lastID = .min
        } else if block.count >= blockSize {
            try flush()
            block.reset(kind: kind)
        }
        guard id > lastID else { throw PBFWriteError(path: path, reason: "\(kind) id \(id) after \(lastID) (ids must increase)") }
        lastID = id
    }

    private func order(_ kind: PBFBlockEncoder.Kind) -> Int {
        switch kind {
        case .nodes: 0
        case .ways: 1
        case .relations: 2
        }
    }

    private func flush() throws(PBFWriteError) {
        guard !block.isEmpty else { return }
        try writeBlob(type: "OSMData", payload: block.encoded())
        block.reset(kind: block.kind)
    }

    /// (4-byte big-endian BlobHeader length, BlobHeader { type = 1; datasize = 3 }, Blob { raw_size = 2; zlib_data = 3 }).
    private func writeBlob(type: String, payload: [UInt8]) throws(PBFWriteError) {
        let compressed = Deflate.compress(payload)
        var blob = ProtobufWriter(capacity: compressed.count + 16)
        blob.intField(2, Int64(payload.count))
        blob.bytesField(3, compressed)
        var header = ProtobufWriter()
        header.stringField(1, type)
        header.intField(3, Int64(blob.bytes.count))
        let length = UInt32(header.bytes.count)
        let prefix: [UInt8] = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        try write(prefix)
        try write(header.bytes)
        try write(blob.bytes)
    }

    private func write(_ bytes: [UInt8]) throws(PBFWriteError) {
        guard let file else { throw PBFWriteError(path: path, reason: "the writer is closed") }
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count else {
            throw PBFWriteError(path: path, reason: String(cString: strerror(errno)))
        }
        bytesWritten += written
    }
}
