import VietMapWire
import Foundation
import HTTPServer
import Search
import VietMapWire

/// Typed access to query parameters with VietMap's aliases; every malformed value is an
/// `APIError.invalidRequest` naming the parameter.
struct RequestParameters {
    let query: QueryParameters

    /// The first non-empty value of any of `names` (documented name first, aliases after).
    /// Empty values count as absent, as the JS SDK sends `focus=` with nothing.
    func string(_ parameter: APIParameter) -> String? { string(parameter.spellings) }
    func required(_ parameter: APIParameter) throws(APIError) -> String { try required(parameter.spellings) }
    func integer(_ parameter: APIParameter) throws(APIError) -> Int? { try integer(parameter.spellings) }
    func number(_ parameter: APIParameter) throws(APIError) -> Double? { try number(parameter.spellings) }
    func coordinate(_ parameter: APIParameter) throws(APIError) -> Coordinate? { try coordinate(parameter.spellings) }
    func list(_ parameter: APIParameter, limit: Int, noun: String = "values",
              separators: (Character) -> Bool = { $0 == "," }) throws(APIError) -> [String] {
        try list(parameter.spellings, limit: limit, noun: noun, separators: separators)
    }

    func string(_ names: String...) -> String? { string(names) }

    func string(_ names: [String]) -> String? {
        for name in names {
            for item in query.items where item.name == name && !item.value.isEmpty { return item.value }
        }
        return nil
    }

    func required(_ names: String...) throws(APIError) -> String { try required(names) }

    func required(_ names: [String]) throws(APIError) -> String {
        for name in names {
            for item in query.items where item.name == name && item.value.contains(where: { !$0.isWhitespace }) {
                return item.value
            }
        }
        throw .invalidRequest("missing required parameter '\(names[0])'")
    }

    func integer(_ names: String...) throws(APIError) -> Int? { try integer(names) }

    func integer(_ names: [String]) throws(APIError) -> Int? {
        guard let text = names.lazy.compactMap({ self.string($0) }).first else { return nil }
        guard let value = Int(Self.trimmed(text)) else {
            throw .invalidRequest("parameter '\(names[0])' must be an integer, got '\(text.prefix(40))'")
        }
        return value
    }

    func number(_ names: String...) throws(APIError) -> Double? { try number(names) }

    func number(_ names: [String]) throws(APIError) -> Double? {
        guard let text = names.lazy.compactMap({ self.string($0) }).first else { return nil }
        guard let value = Double(Self.trimmed(text)), value.isFinite else {
            throw .invalidRequest("parameter '\(names[0])' must be a number, got '\(text.prefix(40))'")
        }
        return value
    }

    /// The comma-separated items of the first non-empty value of `names`, trimmed, empties dropped.
    /// More than `limit` items is a 400 naming the parameter and the limit. Counting stops at
    /// `limit + 1`, so an oversized list costs no more than a bounded scan of the value.
    func list(_ names: String..., limit: Int, noun: String = "values",
              separators: (Character) -> Bool = { $0 == "," }) throws(APIError) -> [String] {
        try list(names, limit: limit, noun: noun, separators: separators)
    }

    func list(_ names: [String], limit: Int, noun: String,
              separators: (Character) -> Bool) throws(APIError) -> [String] {
        guard let text = names.lazy.compactMap({ self.string($0) }).first else { return [] }
        var items: [String] = []
        for piece in text.split(whereSeparator: separators) {
            let item = piece.trimmingCharacters(in: .whitespaces)
            if item.isEmpty { continue }
            guard items.count < limit else {
                let count = text.split(whereSeparator: separators).count
                throw .invalidRequest("parameter '\(names[0])' has \(count) \(noun), at most \(limit)")
            }
            items.append(item)
        }
        return items
    }

    /// `text` without surrounding whitespace (`CharacterSet.whitespaces`); no copy when there is none.
    static func trimmed(_ text: String) -> Substring {
        // Fast path: ASCII ends that are no space or tab have nothing to trim.
        if let first = text.utf8.first, let last = text.utf8.last, first < 0x80, last < 0x80,
           first != 0x20, first != 0x09, last != 0x20, last != 0x09 {
            return text[...]
        }
        return Substring(text.trimmingCharacters(in: .whitespaces))
    }

    func coordinate(_ names: String...) throws(APIError) -> Coordinate? { try coordinate(names) }

    func coordinate(_ names: [String]) throws(APIError) -> Coordinate? {
        guard let text = names.lazy.compactMap({ self.string($0) }).first else { return nil }
        guard let value = Coordinate(parsing: text) else {
            throw .invalidRequest("parameter '\(names[0])' must be 'lat,lng' with -90≤lat≤90 and -180≤lng≤180, got '\(text.prefix(40))'")
        }
        return value
    }
}
