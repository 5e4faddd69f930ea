import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The `XMLParser` delegate: assembles `<node>`, `<way>`, `<relation>` (with their `<tag>`,
/// `<nd>`, `<member>` children) and `<bounds>` into elements and passes them to `sink`.
/// Elements excluded by the options are recognised but not built; an element beyond
/// `OSMLimits` stops the parse (a `Failure` naming it) as soon as it is seen.
final class OSMXMLElementBuilder: NSObject, XMLParserDelegate {
    struct Failure {
        var line: Int
        var reason: String
        /// The element refused for breaking `OSMLimits` (`node 42`), nil for malformed XML.
        var element: String? = nil
    }

    private enum Current {
        case none
        case skipped
        case node(OSMNode, tagged: Bool)
        case way(OSMWay)
        case relation(OSMRelation)
    }

    private let options: OSMReadOptions
    var sink: ((OSMXMLElement) -> Void)?
    /// The first error: a malformed OSM element, or the parser's own error.
    private(set) var failure: Failure?
    private var current = Current.none
    /// `<tag>`, `<nd>` and `<member>` children of the current element so far.
    private var tagCount = 0, childCount = 0

    init(options: OSMReadOptions) {
        self.options = options
    }

    private func fail(_ parser: XMLParser, _ reason: String) {
        if failure == nil { failure = Failure(line: parser.lineNumber, reason: reason) }
        parser.abortParsing()
    }

    /// Stops at an element beyond `OSMLimits`.
    private func refuse(_ parser: XMLParser, _ element: String, _ reason: String) {
        if failure == nil { failure = Failure(line: parser.lineNumber, reason: reason, element: element) }
        current = .skipped
        parser.abortParsing()
    }

    /// `node 42`, `way 7`, `relation 9` for the element being built.
    private var currentName: String {
        switch current {
        case .node(let node, _): "node \(node.id)"
        case .way(let way): "way \(way.id)"
        case .relation(let relation): "relation \(relation.id)"
        case .none, .skipped: "element"
        }
    }

    private func int64(_ name: String, _ attributes: [String: String], _ element: String,
                       _ parser: XMLParser) -> Int64? {
        guard let text = attributes[name], let value = Int64(text) else {
            fail(parser, "<\(element)> has no valid \(name) attribute (\(attributes[name] ?? "missing"))")
            return nil
        }
        return value
    }

    private func double(_ name: String, _ attributes: [String: String], _ element: String,
                        _ parser: XMLParser) -> Double? {
        guard let text = attributes[name], let value = Double(text) else {
            fail(parser, "<\(element)> has no valid \(name) attribute (\(attributes[name] ?? "missing"))")
            return nil
        }
        return value
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        switch elementName {
        case "node":
            guard options.kinds.contains(.nodes) else { current = .skipped; return }
            guard let id = int64("id", attributes, elementName, parser),
                  let lat = double("lat", attributes, elementName, parser),
                  let lon = double("lon", attributes, elementName, parser) else { return }
            if let problem = OSMLimits.coordinateProblem(lat: lat, lon: lon) { return refuse(parser, "node \(id)", problem) }
            (tagCount, childCount) = (0, 0)
            current = .node(OSMNode(id: id, lat: lat, lon: lon), tagged: false)
        case "way":
            guard options.kinds.contains(.ways) else { current = .skipped; return }
            guard let id = int64("id", attributes, elementName, parser) else { return }
            (tagCount, childCount) = (0, 0)
            current = .way(OSMWay(id: id, nodeIDs: []))
        case "relation":
            guard options.kinds.contains(.relations) else { current = .skipped; return }
            guard let id = int64("id", attributes, elementName, parser) else { return }
            (tagCount, childCount) = (0, 0)
            current = .relation(OSMRelation(id: id, members: []))
        case "tag":
            addTag(attributes, parser)
        case "nd":
            guard case .way(var way) = current else { return }
            guard let ref = int64("ref", attributes, elementName, parser) else { return }
            childCount += 1
            guard childCount <= OSMLimits.maxWayNodes else {
                return refuse(parser, "way \(way.id)", OSMLimits.tooMany(nil, "nodes", limit: OSMLimits.maxWayNodes))
            }
            current = .none  // keep `way`'s arrays uniquely referenced while appending
            way.nodeIDs.append(ref)
            current = .way(way)
        case "member":
            guard case .relation(var relation) = current else { return }
            guard let ref = int64("ref", attributes, elementName, parser) else { return }
            guard let type = attributes["type"].flatMap(OSMRelation.MemberType.init(rawValue:)) else {
                fail(parser, "<member> has no valid type attribute (\(attributes["type"] ?? "missing"))")
                return
            }
            childCount += 1
            guard childCount <= OSMLimits.maxRelationMembers else {
                return refuse(parser, "relation \(relation.id)", OSMLimits.tooMany(nil, "members", limit: OSMLimits.maxRelationMembers))
            }
            let role = attributes["role"] ?? ""
            if let problem = OSMLimits.stringProblem(role, what: "a member role") { return refuse(parser, "relation \(relation.id)", problem) }
            current = .none
            relation.members.append(.init(type: type, ref: ref, role: role))
            current = .relation(relation)
        case "bounds":
            guard let minLat = double("minlat", attributes, elementName, parser),
                  let minLon = double("minlon", attributes, elementName, parser),
                  let maxLat = double("maxlat", attributes, elementName, parser),
                  let maxLon = double("maxlon", attributes, elementName, parser) else { return }
            sink?(.bounds(OSMBounds(minLat: minLat, minLon: minLon, maxLat: maxLat, maxLon: maxLon)))
        default:
            break
        }
    }

    private func addTag(_ attributes: [String: String], _ parser: XMLParser) {
        let key = attributes["k"], value = attributes["v"]
        switch current {
        case .node, .way, .relation:
            tagCount += 1
            guard tagCount <= OSMLimits.maxTags else {
                return refuse(parser, currentName, OSMLimits.tooMany(nil, "tags", limit: OSMLimits.maxTags, by: "the reader takes"))
            }
            if let problem = key.flatMap({ OSMLimits.stringProblem($0, what: "a tag key") })
                ?? value.flatMap({ OSMLimits.stringProblem($0, what: "a tag value") }) {
                return refuse(parser, currentName, problem)
            }
        case .none, .skipped:
            return
        }
        switch current {
        case .node(var node, _):
            guard let key, let value else { return fail(parser, "<tag> lacks k or v") }
            current = .none
            if options.nodeTags { node.tags[key] = value }
            current = .node(node, tagged: true)
        case .way(var way):
            guard let key, let value else { return fail(parser, "<tag> lacks k or v") }
            current = .none
            way.tags[key] = value
            current = .way(way)
        case .relation(var relation):
            guard let key, let value else { return fail(parser, "<tag> lacks k or v") }
            current = .none
            relation.tags[key] = value
            current = .relation(relation)
        case .none, .skipped:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName: String?) {
        guard elementName == "node" || elementName == "way" || elementName == "relation" else { return }
        let finished = current
        current = .none
        switch finished {
        case let .node(node, tagged):
            if tagged || options.untaggedNodes { sink?(.node(node)) }
        case .way(let way):
            sink?(.way(way))
        case .relation(let relation):
            sink?(.relation(relation))
        case .none, .skipped:
            break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if failure == nil {
            failure = Failure(line: parser.lineNumber, reason: XMLErrorText.describe(parseError))
        }
    }
}
