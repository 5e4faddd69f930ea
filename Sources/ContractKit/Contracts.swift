import ContractFiles
import Foundation
import JSON
import JSONSchema
import VietMapClient

/// A problem with the contract files themselves (missing, unparsable, inconsistent).
public struct ContractError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// What the OpenAPI document says about one status of one operation.
package struct DocumentedResponse: Sendable {
    /// The schema reference as written in the OpenAPI document, resolved against it
    /// (e.g. `schemas/route-response.schema.json`).
    package let schemaReference: String?
    /// The schema file stem (`route-response`) when the reference is a file of `schemas/`.
    package let schemaStem: String?
    /// Response headers the document marks `required: true` (lower-cased names).
    package let requiredHeaders: [String]
}

/// The contract files: the OpenAPI document, the JSON Schemas it references, the query corpus and
/// the recorded live fixtures — loaded once, schemas compiled once.
///
/// `Contracts.load()` finds the folder itself: `$VIETMAP_CONTRACTS`, else the copy embedded in the
/// library (`ContractFiles`: the `Contracts/` folder it was built with), so an app that depends on
/// the package gets the contract without copying it and nothing is read from a checkout — the
/// same on a Mac, in the iOS Simulator and on CI.
public struct Contracts: Sendable {
    public let directory: URL
    /// The OpenAPI 3.1 document.
    package let openAPI: JSONValue
    /// Every schema document by registry key: `openapi.json`, `schemas/<stem>.schema.json`.
    package let documents: [String: JSONValue]
    package let corpus: QueryCorpus
    package let fixtures: [ContractFixture]
    private let validators: [String: SchemaValidator]

    /// Loads `directory` (`openapi.json`, `schemas/*.schema.json`, `queries.json`, `fixtures/live/*.json`).
    /// - Parameter queries: another corpus file instead of `directory/queries.json`.
    public static func load(from directory: URL? = nil, queries: URL? = nil) throws -> Contracts {
        let directory = try directory ?? locate()
        let openAPI = try readJSON(directory.appendingPathComponent("openapi.json"))
        var documents = ["openapi.json": openAPI]
        let schemasDirectory = directory.appendingPathComponent("schemas")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: schemasDirectory.path)) ?? []
        for file in files.sorted() where file.hasSuffix(".schema.json") {
            documents["schemas/" + file] = try readJSON(schemasDirectory.appendingPathComponent(file))
        }
        guard documents.count > 1 else { throw ContractError("\(schemasDirectory.path): no *.schema.json files") }
        var validators: [String: SchemaValidator] = [:]
        for key in documents.keys where key.hasPrefix("schemas/") {
            do {
                validators[key] = try SchemaValidator(reference: key, registry: documents)
            } catch {
                throw ContractError("\(directory.path)/\(key): \(error)")
            }
        }
        let corpusURL = queries ?? directory.appendingPathComponent("queries.json")
        let corpusJSON = try readJSON(corpusURL)
        let corpusSchemaURL = directory.appendingPathComponent("queries.schema.json")
        if FileManager.default.fileExists(atPath: corpusSchemaURL.path) {
            let errors = try SchemaValidator(schema: readJSON(corpusSchemaURL)).validate(corpusJSON)
            if !errors.isEmpty {
                throw ContractError("\(corpusURL.path) does not match queries.schema.json:\n" + errors.prefix(10).map { "  \($0)" }.joined(separator: "\n"))
            }
        }
        let corpus = try QueryCorpus(json: corpusJSON, file: corpusURL.path)
        let fixtures = try ContractFixture.loadAll(from: directory.appendingPathComponent("fixtures/live"))
        let contracts = Contracts(directory: directory, openAPI: openAPI, documents: documents, corpus: corpus,
                                  fixtures: fixtures, validators: validators)
        try contracts.lint()
        return contracts
    }

    /// The same contracts with another query corpus (checked against the OpenAPI document).
    package func replacingCorpus(_ corpus: QueryCorpus) throws -> Contracts {
        let contracts = Contracts(directory: directory, openAPI: openAPI, documents: documents, corpus: corpus,
                                  fixtures: fixtures, validators: validators)
        try contracts.lint()
        return contracts
    }

    /// Where `load()` looks, in order; the first folder holding `openapi.json` wins.
    package static func candidateDirectories(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        var candidates: [URL] = []
        if let env = environment["VIETMAP_CONTRACTS"], !env.isEmpty {
            candidates.append(URL(fileURLWithPath: env))
        }
        candidates.append(ContractFiles.directory)
        return candidates
    }

    package static func locate() throws -> URL {
        let candidates = candidateDirectories()
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("openapi.json").path) {
            return candidate.standardizedFileURL
        }
        throw ContractError("no Contracts folder found (looked in \(candidates.map(\.path).joined(separator: ", "))); pass --contracts DIR or set VIETMAP_CONTRACTS")
    }

    static func readJSON(_ url: URL) throws -> JSONValue {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ContractError("cannot read \(url.path): \(error.localizedDescription)")
        }
        do {
            return try JSONParser.parse(data)
        } catch {
            throw ContractError("\(url.path): \(error)")
        }
    }

    // MARK: - Schemas

    /// The compiled schema of `schemas/<stem>.schema.json`.
    package func validator(stem: String) -> SchemaValidator? { validators["schemas/\(stem).schema.json"] }

    /// The compiled schema at a registry key (`schemas/path.schema.json`).
    package func validator(reference: String) -> SchemaValidator? { validators[reference] }

    /// The schema stems (`route-response`, …).
    package var schemaStems: [String] {
        documents.keys.filter { $0.hasPrefix("schemas/") }.map { String($0.dropFirst("schemas/".count).dropLast(".schema.json".count)) }.sorted()
    }

    /// The OpenAPI operation object of `endpoint` (its `get`).
    package func operation(_ endpoint: VMEndpoint) -> JSONObject? {
        openAPI["paths"]?[endpoint.documentedPath]?["get"]?.objectValue
    }

    /// The statuses the document declares for `endpoint`, ascending.
    package func documentedStatuses(_ endpoint: VMEndpoint) -> [Int] {
        (operation(endpoint)?["responses"]?.objectValue?.keys.compactMap { Int($0) } ?? []).sorted()
    }

    /// What the document says about `status` for `endpoint` (`nil`: undocumented; a `default` or
    /// `4XX`-style range counts).
    package func response(_ endpoint: VMEndpoint, status: Int) -> DocumentedResponse? {
        guard let responses = operation(endpoint)?["responses"]?.objectValue else { return nil }
        let range = "\(status / 100)XX"
        guard var response = responses[String(status)] ?? responses[range] ?? responses[range.lowercased()] ?? responses["default"] else {
            return nil
        }
        if let ref = response["$ref"]?.stringValue, let resolved = resolveLocal(ref) { response = resolved }
        var reference: String?
        if let schema = response["content"]?["application/json"]?["schema"] {
            if let ref = schema["$ref"]?.stringValue {
                reference = ref.hasPrefix("#") ? "openapi.json" + ref : ref
            }
        }
        var stem: String?
        if let reference, reference.hasPrefix("schemas/"), reference.hasSuffix(".schema.json"), !reference.contains("#") {
            stem = String(reference.dropFirst("schemas/".count).dropLast(".schema.json".count))
        }
        let headers = response["headers"]?.objectValue?.members.filter { $0.value["required"] == .bool(true) }.map { $0.key.lowercased() } ?? []
        return DocumentedResponse(schemaReference: reference, schemaStem: stem, requiredHeaders: headers)
    }

    private func resolveLocal(_ ref: String) -> JSONValue? {
        guard ref.hasPrefix("#") else { return nil }
        return ContractPointer.resolve(String(ref.dropFirst()), in: openAPI)
    }

    /// The 2xx response schemas of `endpoint` — what a client decodes.
    package func successReferences(_ endpoint: VMEndpoint) -> [String] {
        documentedStatuses(endpoint).filter { (200..<300).contains($0) }.compactMap { response(endpoint, status: $0)?.schemaReference }
    }

    /// Checks that the corpus and fixtures agree with the OpenAPI document.
    func lint() throws {
        var problems: [String] = []
        for query in corpus.queries {
            let expect = query.expect
            guard let spec = response(query.endpoint, status: expect.status) else {
                problems.append("query '\(query.name)': status \(expect.status) is not documented for \(query.endpoint.path) in openapi.json")
                continue
            }
            if let stem = expect.schema, stem != spec.schemaStem {
                problems.append("query '\(query.name)': expects schema '\(stem)' but openapi.json gives '\(spec.schemaStem ?? spec.schemaReference ?? "none")' for \(expect.status)")
            }
            if let stem = expect.schema, validator(stem: stem) == nil {
                problems.append("query '\(query.name)': no schemas/\(stem).schema.json")
            }
        }
        for fixture in fixtures where validator(stem: fixture.schema) == nil {
            problems.append("fixture '\(fixture.name)': no schemas/\(fixture.schema).schema.json")
        }
        if !problems.isEmpty { throw ContractError(problems.joined(separator: "\n")) }
    }
}
