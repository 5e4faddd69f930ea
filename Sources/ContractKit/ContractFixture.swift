import Foundation
import JSON
import VietMapClient

/// A recorded live response (`Contracts/fixtures/live/*.json`): the body as documented, where it
/// comes from, and what it must satisfy.
package struct ContractFixture: Sendable {
    /// How the simulator's answer must match the fixture's shape.
    package enum ShapeMatch: String, Sendable {
        /// The simulator's answer has the same keys (types and nullability alike).
        case exact
        /// The simulator's answer has at least the fixture's keys (an older API version's example).
        case subset
    }

    package var name: String
    package var file: String
    package var source: String
    package var notes: String
    package var endpoint: VMEndpoint
    package var status: Int
    package var schema: String
    package var model: String?
    package var checks: [SemanticCheck]
    /// The request the body answered (for checks that need the requested points).
    package var parameters: [(name: String, value: String)]
    /// The corpus query whose simulator answer must have this body's shape.
    package var compareQuery: String?
    package var shapeMatch: ShapeMatch
    /// Where to compare inside both bodies (`/0` compares the first items of two arrays).
    package var comparePointer: String
    package var body: JSONValue

    static func loadAll(from directory: URL) throws -> [ContractFixture] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return try files.filter { $0.hasSuffix(".json") }.sorted().map { file in
            try ContractFixture(json: try Contracts.readJSON(directory.appendingPathComponent(file)), file: file)
        }
    }

    init(json: JSONValue, file: String) throws {
        func fail(_ message: String) -> ContractError { ContractError("fixtures/live/\(file): \(message)") }
        guard let endpointName = json["endpoint"]?.stringValue, let endpoint = VMEndpoint(nameOrPath: endpointName) else {
            throw fail("endpoint: expected autocomplete, place or route")
        }
        guard let body = json["body"] else { throw fail("body: required") }
        guard let schema = json["schema"]?.stringValue else { throw fail("schema: required") }
        self.file = file
        name = json["name"]?.stringValue ?? String(file.dropLast(5))
        source = json["source"]?.stringValue ?? ""
        notes = json["notes"]?.stringValue ?? ""
        self.endpoint = endpoint
        status = json["status"]?.intValue ?? 200
        self.schema = schema
        model = json["model"]?.stringValue.flatMap { $0 == "none" ? nil : $0 }
        if let model, ContractModel.reference[model] == nil { throw fail("model: unknown model '\(model)'") }
        checks = try (json["checks"]?.arrayValue ?? []).map { value in
            guard let name = value.stringValue, let check = SemanticCheck(rawValue: name) else { throw fail("checks: unknown check \(value)") }
            return check
        }
        parameters = (json["request"]?.arrayValue ?? []).compactMap { pair in
            guard let a = pair.arrayValue, a.count == 2, let k = a[0].stringValue, let v = a[1].stringValue else { return nil }
            return (k, v)
        }
        compareQuery = json["compare"]?["query"]?.stringValue
        shapeMatch = ShapeMatch(rawValue: json["compare"]?["mode"]?.stringValue ?? "exact") ?? .exact
        comparePointer = json["compare"]?["pointer"]?.stringValue ?? ""
        self.body = body
    }
}
