/// Receives the elements of an OSM file, in file order, as `OSMReader.read` streams them.
///
/// Every method has an empty default implementation: implement only what you need.
/// Elements the options exclude are never decoded, so prefer `OSMReadOptions` over
/// filtering here when a whole element kind is not needed.
public protocol OSMHandler {
    /// Called at most once, before any element, when the file declares its bounding box.
    mutating func bounds(_ bounds: OSMBounds)
    mutating func node(_ node: OSMNode)
    mutating func way(_ way: OSMWay)
    mutating func relation(_ relation: OSMRelation)
}

extension OSMHandler {
    public mutating func bounds(_ bounds: OSMBounds) {}
    public mutating func node(_ node: OSMNode) {}
    public mutating func way(_ way: OSMWay) {}
    public mutating func relation(_ relation: OSMRelation) {}
}
