/// Reads an `.osm.pbf` file blob by blob: the `OSMHeader` blob first (checked for
/// required features), then every `OSMData` blob; blobs of other types are skipped.
struct PBFReader {
    private var blobs: PBFBlobStream
    private var decoder: PBFPrimitiveBlockDecoder

    init(path: String, options: OSMReadOptions) throws(OSMReadError) {
        blobs = PBFBlobStream(file: try BinaryFile(path: path))
        decoder = PBFPrimitiveBlockDecoder(options: options)
    }

    mutating func read(handler: inout some OSMHandler) throws(OSMReadError) {
        guard let first = try blobs.next() else { throw blobs.malformed("empty file") }
        guard first.type == "OSMHeader" else {
            throw blobs.malformed("first blob is \"\(first.type)\", expected \"OSMHeader\"")
        }
        let header: PBFHeaderBlock
        do throws(ProtobufError) {
            header = try PBFHeaderBlock(first.data)
        } catch {
            throw blobs.malformed("HeaderBlock: \(error.reason) at byte \(error.offset) of the inflated blob")
        }
        if let feature = header.unsupportedFeatures.first {
            throw .unsupportedFeature(path: blobs.path, feature: feature)
        }
        if let bounds = header.bounds { handler.bounds(bounds) }

        while let blob = try blobs.next() {
            guard blob.type == "OSMData" else { continue }
            do throws(ProtobufError) {
                try decoder.decode(blob.data, handler: &handler)
            } catch {
                if let element = error.element { throw blobs.refused(element, error.reason) }
                throw blobs.malformed("PrimitiveBlock: \(error.reason) at byte \(error.offset) of the inflated blob")
            }
        }
    }
}
