import Foundation

extension HTTPRequest {
    /// Whether `If-None-Match` names `entityTag` (or `*`): the client's copy is current and the answer is a 304.
    /// Tags compare weakly (RFC 9110 §13.1.2): `W/"x"` matches `"x"`.
    public func ifNoneMatchHolds(_ entityTag: String) -> Bool {
        guard let header = headers["If-None-Match"] else { return false }
        return header.split(separator: ",").contains { item in
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == entityTag || "W/" + tag == entityTag
        }
    }
}
