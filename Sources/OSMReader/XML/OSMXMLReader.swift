import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads an `.osm` XML file with `XMLParser`, streaming from an `InputStream`.
enum OSMXMLReader {
    static func read(
        path: String, options: OSMReadOptions, handler: inout some OSMHandler
    ) throws(OSMReadError) {
        guard let stream = InputStream(fileAtPath: path) else {
            throw .io(path: path, reason: "cannot open file")
        }
        let parser = XMLParser(stream: stream)
        let builder = OSMXMLElementBuilder(options: options)
        parser.delegate = builder
        // The builder calls back into `handler` while `parse()` runs, and drops the
        // closure before it returns: it never really escapes.
        let succeeded = withoutActuallyEscaping(
            { (element: OSMXMLElement) in handler.receive(element) }
        ) { sink in
            builder.sink = sink
            defer { builder.sink = nil }
            return parser.parse()
        }
        if let failure = builder.failure {
            if let element = failure.element {
                throw .refusedElement(path: path, location: "line \(failure.line)", element: element, reason: failure.reason)
            }
            throw .malformedXML(path: path, line: failure.line, reason: failure.reason)
        }
        if !succeeded {
            let reason = parser.parserError.map(XMLErrorText.describe) ?? "parse failed"
            throw .malformedXML(path: path, line: parser.lineNumber, reason: reason)
        }
    }
}

/// One completed top-level XML element.
enum OSMXMLElement {
    case bounds(OSMBounds)
    case node(OSMNode)
    case way(OSMWay)
    case relation(OSMRelation)
}

extension OSMHandler {
    fileprivate mutating func receive(_ element: OSMXMLElement) {
        switch element {
        case .bounds(let bounds): self.bounds(bounds)
        case .node(let node): self.node(node)
        case .way(let way): self.way(way)
        case .relation(let relation): self.relation(relation)
        }
    }
}
