import Foundation

/// Streams the elements of an OpenStreetMap file — XML (`.osm`) or PBF (`.osm.pbf`) —
/// to an `OSMHandler`, in file order, without loading the whole file in memory.
///
/// The format is detected from the content, not the file name. PBF is decoded one blob
/// at a time (a few MiB at most); XML is parsed by `XMLParser` from an input stream.
///
///     struct Counter: OSMHandler {
///         var highways = 0
///         mutating func way(_ way: OSMWay) { if way.tags["highway"] != nil { highways += 1 } }
///     }
///     var counter = Counter()
///     try OSMReader.read(url, options: .init(kinds: .ways), handler: &counter)
public enum OSMReader {
    /// Reads `url` and calls `handler` for every element `options` selects.
    ///
    /// - Throws: `OSMReadError` naming the file and the failing blob/byte offset (PBF) or
    ///   line (XML). Elements delivered before the error stay delivered.
    public static func read(
        _ url: URL,
        options: OSMReadOptions = OSMReadOptions(),
        handler: inout some OSMHandler
    ) throws(OSMReadError) {
        let path = url.path
        switch try OSMFileFormat.detect(path: path) {
        case .pbf:
            var reader = try PBFReader(path: path, options: options)
            try reader.read(handler: &handler)
        case .xml:
            try OSMXMLReader.read(path: path, options: options, handler: &handler)
        }
    }
}
