import Foundation
import JSON
import VietMapClient

/// A query parameter value: literal, or taken from an earlier query's response.
package enum ParameterValue: Sendable, Equatable, CustomStringConvertible {
    case literal(String)
    /// `"$from:<query>:<JSON pointer>"`.
    case reference(query: String, pointer: String)

    init(parsing text: String) throws(ContractError) {
        guard text.hasPrefix("$from:") else { self = .literal(text); return }
        let rest = text.dropFirst("$from:".count)
        guard let colon = rest.firstIndex(of: ":") else {
            throw ContractError("'\(text)': expected $from:<query name>:<JSON pointer>")
        }
        let name = String(rest[..<colon]), pointer = String(rest[rest.index(after: colon)...])
        guard !name.isEmpty, ContractPointer.tokens(pointer) != nil else {
            throw ContractError("'\(text)': expected $from:<query name>:<JSON pointer>")
        }
        self = .reference(query: name, pointer: pointer)
    }

    package var description: String {
        switch self {
        case .literal(let s): return s
        case .reference(let q, let p): return "$from:\(q):\(p)"
        }
    }
}

/// What a query must get back.
package struct QueryExpectation: Sendable {
    package var status: Int
    /// Schema file stem (`autocomplete-response`); must be the one openapi.json gives for `status`.
    package var schema: String?
    /// Reference model name (`VMSearchItem[]`, `VMPlaceDetail`, `VMRouteResponse`), nil for `none`.
    package var model: String?
    /// The body's `code` (route envelope and error bodies).
    package var code: String?
    package var checks: [SemanticCheck]
}

/// One named request of the corpus.
package struct ContractQuery: Sendable {
    /// The one kind of target a query makes sense against.
    package enum Only: String, Sendable { case simulator, live }
    package var name: String
    package var description: String?
    package var endpoint: VMEndpoint
    package var parameters: [(name: String, value: ParameterValue)]
    /// Path segments after the endpoint's path (`"path"` in the corpus; Directions v5's profile
    /// and coordinates), "" for the others.
    package var pathSuffix: String = ""
    package var expect: QueryExpectation
    /// Run only against this kind of target (e.g. ZERO_RESULTS needs the simulator's disconnected graphs).
    package var only: Only?
    /// Why the query waits for an endpoint that is not served yet (`"pending"` in the corpus):
    /// it is skipped unless `ContractSuite.Options.runPending` (`contract --pending`) asks for it.
    package var pending: String?

    /// Names of the queries whose responses this one needs.
    package var dependencies: [String] {
        parameters.compactMap { if case .reference(let q, _) = $0.value { return q } else { return nil } }
    }
}

/// A deliberate, documented disagreement between a reference model and the contract (the
/// reference client's `VMRoutePath.points: String` cannot hold a points_encoded=false geometry).
/// Findings it covers are reported as known gaps and do not fail the run.
package struct KnownModelGap: Sendable {
    package var model: String
    /// JSON pointer pattern (`*` = any element) of the response location.
    package var path: String
    package var reason: String
}

/// `Contracts/queries.json`.
package struct QueryCorpus: Sendable {
    package var queries: [ContractQuery]
    package var knownModelGaps: [KnownModelGap]

    package init(queries: [ContractQuery], knownModelGaps: [KnownModelGap] = []) {
        self.queries = queries
        self.knownModelGaps = knownModelGaps
    }

    package init(json: JSONValue, file: String = "queries.json") throws {
        func fail(_ message: String) -> ContractError { ContractError("\(file): \(message)") }
        guard let list = json["queries"]?.arrayValue else { throw fail("expected {\"queries\": [...]}") }
        var queries: [ContractQuery] = []
        var names = Set<String>()
        for (index, item) in list.enumerated() {
            let at = "/queries/\(index)"
            guard let name = item["name"]?.stringValue, !name.isEmpty, !name.contains(":") else {
                throw fail("\(at)/name: a non-empty name without ':' is required")
            }
            guard names.insert(name).inserted else { throw fail("\(at)/name: duplicate query name '\(name)'") }
            guard let endpointName = item["endpoint"]?.stringValue, let endpoint = VMEndpoint(nameOrPath: endpointName) else {
                throw fail("\(at)/endpoint: expected one of \(VMEndpoint.allCases.map(\.name).joined(separator: ", "))")
            }
            let pathSuffix = item["path"]?.stringValue ?? ""
            guard pathSuffix.isEmpty || (endpoint.takesPathSegments && pathSuffix.hasPrefix("/")) else {
                throw fail("\(at)/path: only an endpoint that takes path segments (\(VMEndpoint.allCases.filter(\.takesPathSegments).map(\.name).joined(separator: ", "))) has a \"path\", starting with '/'")
            }
            guard !endpoint.takesPathSegments || !pathSuffix.isEmpty else { throw fail("\(at)/path: \(endpointName) needs a \"path\" (e.g. \"/mapbox/driving/106.7008,10.7769;106.6980,10.7725.json\")") }
            var parameters: [(String, ParameterValue)] = []
            for (p, pair) in (item["parameters"]?.arrayValue ?? []).enumerated() {
                guard let pairArray = pair.arrayValue, pairArray.count == 2,
                      let key = pairArray[0].stringValue, let value = pairArray[1].stringValue else {
                    throw fail("\(at)/parameters/\(p): expected [\"name\", \"value\"]")
                }
                let parsed: ParameterValue
                do { parsed = try ParameterValue(parsing: value) } catch { throw fail("\(at)/parameters/\(p): \(error)") }
                if case .reference(let source, _) = parsed, !names.contains(source) || source == name {
                    throw fail("\(at)/parameters/\(p): '\(value)' refers to '\(source)', which is not an earlier query")
                }
                parameters.append((key, parsed))
            }
            guard let expect = item["expect"], let status = expect["status"]?.intValue else {
                throw fail("\(at)/expect/status: required")
            }
            var model = expect["model"]?.stringValue
            if model == "none" { model = nil }
            if let model, ContractModel.reference[model] == nil {
                throw fail("\(at)/expect/model: unknown model '\(model)' (known: \(ContractModel.reference.keys.sorted().joined(separator: ", ")), none)")
            }
            var checks: [SemanticCheck] = []
            for (c, check) in (expect["checks"]?.arrayValue ?? []).enumerated() {
                guard let text = check.stringValue, let parsed = SemanticCheck(rawValue: text) else {
                    throw fail("\(at)/expect/checks/\(c): unknown check \(check) (known: \(SemanticCheck.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                guard parsed.endpoints.contains(endpoint) else {
                    throw fail("\(at)/expect/checks/\(c): check '\(text)' does not apply to \(endpointName)")
                }
                checks.append(parsed)
            }
            var only: ContractQuery.Only?
            if let text = item["only"]?.stringValue {
                guard let value = ContractQuery.Only(rawValue: text) else { throw fail("\(at)/only: expected simulator or live") }
                only = value
            }
            var pending: String?
            if let value = item["pending"] {
                guard let text = value.stringValue, !text.isEmpty else { throw fail("\(at)/pending: expected a non-empty reason") }
                pending = text
            }
            queries.append(ContractQuery(
                name: name, description: item["description"]?.stringValue, endpoint: endpoint, parameters: parameters,
                pathSuffix: pathSuffix, expect: QueryExpectation(status: status, schema: expect["schema"]?.stringValue, model: model,
                                    code: expect["code"]?.stringValue, checks: checks),
                only: only, pending: pending))
        }
        var gaps: [KnownModelGap] = []
        for (index, gap) in (json["knownModelGaps"]?.arrayValue ?? []).enumerated() {
            guard let model = gap["model"]?.stringValue, let path = gap["path"]?.stringValue, ContractPointer.tokens(path) != nil else {
                throw fail("/knownModelGaps/\(index): expected {\"model\", \"path\" (JSON pointer), \"reason\"}")
            }
            gaps.append(KnownModelGap(model: model, path: path, reason: gap["reason"]?.stringValue ?? ""))
        }
        self.queries = queries
        self.knownModelGaps = gaps
    }

    package func query(named name: String) -> ContractQuery? { queries.first { $0.name == name } }

    /// `names` plus every query they depend on, in corpus order.
    package func closure(of names: Set<String>) -> [ContractQuery] {
        var needed = names
        for query in queries.reversed() where needed.contains(query.name) {
            needed.formUnion(query.dependencies)
        }
        return queries.filter { needed.contains($0.name) }
    }
}
