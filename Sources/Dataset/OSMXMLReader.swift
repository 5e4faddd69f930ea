import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Extracts named POI nodes from an OpenStreetMap XML file.
///
/// A node becomes a POI candidate when it has a `name` and one of
/// ``CategoryCodes/poiKeys`` (amenity, shop, tourism, …); its category is the first such
/// key in that order, as `key=value`. Ways and relations are ignored here (roads come from
/// a later importer).
enum OSMXMLReader {
    struct POINode {
        let id: Int64
        let lat: Double
        let lng: Double
        let tags: [String: String]
        let category: String
    }

    /// - Throws: ``DatasetError`` naming the file and line for malformed XML or a node
    ///   with an invalid id or coordinates.
    static func readPOIs(_ url: URL) throws -> (pois: [POINode], nodes: Int) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw DatasetError.missing(url) }
        let parser = XMLParser(data: data)
        let delegate = Delegate(url: url, parser: parser)
        parser.delegate = delegate
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if let failure = delegate.failure { throw failure }
        if !ok || !delegate.sawRoot {
            let line = delegate.errorLine ?? parser.lineNumber
            let code = (parser.parserError as NSError?)?.code
            let message = code.map { "malformed XML (\(Delegate.describe($0)))" } ?? "malformed XML"
            throw DatasetError.malformed(url, "line \(line)", delegate.sawRoot ? message : "not an OSM XML document (root is not <osm>)")
        }
        return (delegate.pois, delegate.nodeCount)
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        let url: URL
        unowned let parser: XMLParser
        var pois: [POINode] = []
        var nodeCount = 0
        var failure: DatasetError?
        var errorLine: Int?
        var sawRoot = false
        private var depth = 0
        private var current: (id: Int64, lat: Double, lng: Double, line: Int)?
        private var tags: [String: String] = [:]

        init(url: URL, parser: XMLParser) {
            self.url = url
            self.parser = parser
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            depth += 1
            if depth == 1 {
                if elementName == "osm" { sawRoot = true } else { parser.abortParsing() }
                return
            }
            switch elementName {
            case "node" where depth == 2:
                nodeCount += 1
                let line = parser.lineNumber
                guard let id = attributeDict["id"].flatMap({ Int64($0) }),
                      let lat = attributeDict["lat"].flatMap({ Double($0) }), (-90...90).contains(lat),
                      let lng = attributeDict["lon"].flatMap({ Double($0) }), (-180...180).contains(lng) else {
                    // Deleted/redacted nodes in some exports carry no coordinates: only an
                    // explicit visible="false" is tolerated.
                    if attributeDict["visible"] == "false" { current = nil; return }
                    failure = DatasetError.malformed(url, "line \(line)", "node \(attributeDict["id"] ?? "?") has an invalid id, lat or lon")
                    parser.abortParsing()
                    return
                }
                current = (id, lat, lng, line)
                tags.removeAll(keepingCapacity: true)
            case "tag" where current != nil && depth == 3:
                if let key = attributeDict["k"], let value = attributeDict["v"] { tags[key] = value }
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            defer { depth -= 1 }
            guard elementName == "node", depth == 2, let node = current else { return }
            current = nil
            guard let name = tags["name"], !name.trimmingCharacters(in: .whitespaces).isEmpty else { return }
            for key in CategoryCodes.poiKeys {
                if let value = tags[key], !value.isEmpty, value != "no" {
                    pois.append(POINode(id: node.id, lat: node.lat, lng: node.lng, tags: tags, category: "\(key)=\(value)"))
                    return
                }
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if errorLine == nil { errorLine = parser.lineNumber }
        }

        static func describe(_ code: Int) -> String {
            switch code {
            case 4: return "empty document"
            case 5: return "premature end of document"
            case 9: return "invalid character"
            case 23, 38, 39, 40, 41: return "malformed tag or attribute"
            case 73, 74: return "'>' expected"
            case 76: return "mismatched closing tag"
            case 111: return "unclosed tag at end of document"
            default: return "parser error \(code)"
            }
        }
    }
}
