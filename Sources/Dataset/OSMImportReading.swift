import Foundation
import OSMReader

extension OSMReader {
    /// `read`, failing with the importer's one-line error (`DatasetError.osm`).
    static func readForImport(_ url: URL, options: OSMReadOptions, handler: inout some OSMHandler) throws(DatasetError) {
        do {
            try read(url, options: options, handler: &handler)
        } catch {
            throw DatasetError.osm(error, url: url)
        }
    }
}
