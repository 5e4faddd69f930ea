import Foundation

// Decodable shapes of the administrative-unit inputs (see DefaultData's data/SOURCES.md).

/// A unit's code and names as every admin input gives them.
protocol UnitNames {
    var code: String { get }
    var name: String { get }
    var nameEn: String? { get }
    var fullName: String { get }
}

/// A unit with no units below it in the input (a ward): its code and names.
struct UnitEntry: Decodable, UnitNames {
    let code: String, name: String, nameEn: String?, fullName: String
    enum CodingKeys: String, CodingKey { case code = "Code", name = "Name", nameEn = "NameEn", fullName = "FullName" }
}

/// A unit with units below it in the input (a province, a pre-2025 district): its code and names
/// as `UnitEntry` reads them, and its children under the key `Children.name`.
struct ParentUnit<Child: Decodable, Children: ChildrenKey>: Decodable, UnitNames {
    let code: String, name: String, nameEn: String?, fullName: String
    let children: [Child]?

    init(from decoder: any Decoder) throws {
        let unit = try UnitEntry(from: decoder)
        (code, name, nameEn, fullName) = (unit.code, unit.name, unit.nameEn, unit.fullName)
        children = try decoder.container(keyedBy: NamedKey.self).decodeIfPresent([Child].self, forKey: NamedKey(Children.name))
    }

    /// The one key a parent unit reads besides `UnitEntry`'s.
    private struct NamedKey: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.init(stringValue) }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}

/// The key under which an input lists a parent unit's children.
protocol ChildrenKey { static var name: String { get } }

/// `units_2025.json`: the provinces, each with its wards under `Wards`.
enum Units2025File {
    enum Wards: ChildrenKey { static let name = "Wards" }
    typealias Province = ParentUnit<UnitEntry, Wards>
}

/// `units_pre2025.json`: the provinces, each with its districts under `District`, each with its
/// wards under `Ward`.
enum UnitsPre2025File {
    enum Districts: ChildrenKey { static let name = "District" }
    enum Wards: ChildrenKey { static let name = "Ward" }
    typealias District = ParentUnit<UnitEntry, Wards>
    typealias Province = ParentUnit<District, Districts>
}

struct MappingNewToOldFile: Decodable {
    struct Link: Decodable {
        let oldID: String, type: String?
        enum CodingKeys: String, CodingKey { case oldID = "old_id", type }
    }
    struct Ward: Decodable {
        let id: String, name: String?, merges: [Link]?
        enum CodingKeys: String, CodingKey { case id = "level2_id", name, merges }
    }
    struct Province: Decodable {
        let id: String, merges: [Link]?, wards: [Ward]?
        enum CodingKeys: String, CodingKey { case id = "level1_id", merges, wards = "level2s" }
    }
    let data: [Province]
}

struct MappingOldToNewFile: Decodable {
    struct Split: Decodable {
        let newID: String, name: String?
        enum CodingKeys: String, CodingKey { case newID = "new_id", name }
    }
    struct Ward: Decodable {
        let id: String, splits: [Split]?
        enum CodingKeys: String, CodingKey { case id = "level3_id", splits }
    }
    struct Province: Decodable {
        let id: String, splits: [Split]?, wards: [Ward]?
        enum CodingKeys: String, CodingKey { case id = "level1_id", splits, wards = "level3s" }
    }
    let data: [Province]
}

enum JSONInput {
    /// Decodes `url` as `T`; any failure becomes one line naming the file and the JSON path.
    static func decode<T: Decodable>(_ type: T.Type, from url: URL) throws -> T {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw DatasetError.missing(url) }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw DatasetError.malformed(url, nil, describe(error))
        } catch {
            throw DatasetError.malformed(url, nil, "invalid JSON: \(error)")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "top level" : text
        }
        switch error {
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\(($0 as NSError).userInfo[NSDebugDescriptionErrorKey] ?? $0))" } ?? ""
            if context.codingPath.isEmpty { return "invalid JSON: \(context.debugDescription)\(underlying)" }
            return "at \(path(context.codingPath)): \(context.debugDescription)\(underlying)"
        case .keyNotFound(let key, let context):
            return "at \(path(context.codingPath)): missing key \"\(key.stringValue)\""
        case .typeMismatch(let type, let context):
            return "at \(path(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "at \(path(context.codingPath)): expected \(type), found null"
        @unknown default:
            return "invalid JSON: \(error)"
        }
    }
}
