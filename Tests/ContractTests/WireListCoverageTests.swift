import ContractKit
import Foundation
import JSON
import JSONSchema
import VietMapClient
import XCTest

/// The wire list (`APIEndpoint`, `APIParameter`) and the contract (`Contracts/openapi.json`, the
/// corpus) cannot drift apart: every endpoint has an operation at its path with every parameter
/// the endpoint reads, errors in the endpoint's envelope, and at least one corpus query — every
/// endpoint but those the contract leaves out with a reason (`APIEndpoint.contractExclusion`:
/// the map resources, binary or in MapLibre's own formats).
final class WireListCoverageTests: XCTestCase {
    /// The endpoints the contract covers.
    static let covered = APIEndpoint.allCases.filter { $0.contractExclusion == nil }

    /// What `openAPI` fails to say about the wire list; empty when it documents all of it.
    static func wireListProblems(_ openAPI: JSONValue) -> [String] {
        var problems: [String] = []
        let securityName = openAPI["components"]?["securitySchemes"]?["ApiKeyAuth"]?["name"]?.stringValue
        if securityName != APIParameter.apikey.name { problems.append("apikey is not the ApiKeyAuth scheme's query parameter") }
        let documentedPaths = Set(openAPI["paths"]?.objectValue?.keys.map { $0 } ?? [])
        // The map resources are documented too (media types, MapLibre's JSON formats), outside the corpus.
        for path in documentedPaths.subtracting(APIEndpoint.allCases.map(\.documentedPath)) {
            problems.append("\(path): documented, but no APIEndpoint has this path")
        }
        for endpoint in covered {
            guard let operation = openAPI["paths"]?[endpoint.documentedPath]?["get"] else {
                problems.append("\(endpoint.name): no GET operation at \(endpoint.documentedPath)")
                continue
            }
            // Path parameters (Directions v5's profile and coordinates) are `documentedPath`'s.
            let documented = (operation["parameters"]?.arrayValue ?? []).filter { $0["in"]?.stringValue == "query" }
            func entry(_ name: String) -> JSONValue? {
                documented.first { $0["name"]?.stringValue == name && $0["in"]?.stringValue == "query" }
            }
            for parameter in endpoint.parameters where parameter != .apikey {
                guard let found = entry(parameter.name) else {
                    problems.append("\(endpoint.name): parameter '\(parameter.name)' is not documented at \(endpoint.path)")
                    continue
                }
                if (found["required"]?.boolValue ?? false) != parameter.required {
                    problems.append("\(endpoint.name): '\(parameter.name)' is \(parameter.required ? "" : "not ")required in the wire list but not in openapi.json")
                }
            }
            let spellings = Set(endpoint.parameters.flatMap(\.spellings))
            for name in documented.compactMap({ $0["name"]?.stringValue }) where !spellings.contains(name) {
                problems.append("\(endpoint.name): openapi.json documents '\(name)', which the wire list does not read")
            }
            if let version = endpoint.apiVersion, entry(APIParameter.apiVersion.name)?["schema"]?["enum"] != .array([.string(version)]) {
                problems.append("\(endpoint.name): api-version is not documented as the enum [\"\(version)\"]")
            }
            let envelope: String
            switch endpoint.errorEnvelope {
            case .codeMessage: envelope = "schemas/error.schema.json"
            case .route: envelope = "schemas/route-error.schema.json"
            case .matrix: envelope = "schemas/matrix-error.schema.json"
            case .mapbox: envelope = "schemas/directions-error.schema.json"
            }
            // 414 comes from the HTTP layer, before any endpoint: always {"code","message"}.
            for (status, response) in operation["responses"]?.objectValue?.members ?? [] where status.hasPrefix("4") || status.hasPrefix("5") {
                let reference = response["content"]?["application/json"]?["schema"]?["$ref"]?.stringValue
                let expected = status == "414" ? "schemas/error.schema.json" : envelope
                if reference != expected {
                    problems.append("\(endpoint.name): HTTP \(status) answers \(reference ?? "no schema"), the \(endpoint.errorEnvelope) envelope is \(expected)")
                }
            }
        }
        return problems
    }

    func testEveryEndpointAndParameterOfTheWireListIsInTheOpenAPIDocument() throws {
        let contracts = try ContractSimulator.get().contracts
        XCTAssertEqual(Self.wireListProblems(contracts.openAPI), [])
        XCTAssertEqual(contracts.openAPI["paths"]?.objectValue?.count, APIEndpoint.allCases.count, "the map resources included")
        for endpoint in Self.covered {
            XCTAssertEqual(contracts.documentedStatuses(endpoint).filter { (200..<300).contains($0) }, [200], endpoint.name)
            XCTAssertNotNil(contracts.response(endpoint, status: 200)?.schemaStem, endpoint.name)
        }
    }

    /// Directions v5's path parameters: the profile enum is `DirectionsProfile` (after `mapbox/`).
    func testTheDirectionsProfilesAreTheWireLists() throws {
        let operation = try XCTUnwrap(ContractSimulator.get().contracts.operation(.directionsV5))
        let profile = operation["parameters"]?.arrayValue?.first { $0["name"]?.stringValue == "profile" && $0["in"]?.stringValue == "path" }
        XCTAssertEqual(profile?["schema"]?["enum"], .array(DirectionsProfile.allCases.map { .string(String($0.rawValue.dropFirst("mapbox/".count))) }))
        XCTAssertTrue(APIEndpoint.directionsV5.documentedPath.hasPrefix(APIEndpoint.directionsV5.path + "/mapbox/{profile}/"))
        XCTAssertEqual(APIEndpoint(path: APIEndpoint.directionsV5.path + "/mapbox/driving/1,2;3,4.json"), .directionsV5)
        XCTAssertNil(APIEndpoint(path: APIEndpoint.directionsV5.path + "x/mapbox/driving/1,2;3,4.json"))
        // The bare path is the endpoint (answered 422: no profile and coordinates to read).
        XCTAssertEqual(APIEndpoint(path: APIEndpoint.directionsV5.path + "/"), .directionsV5)
        XCTAssertNil(DirectionsPath(path: APIEndpoint.directionsV5.path + "/"))
        XCTAssertEqual(DirectionsPath(path: APIEndpoint.directionsV5.path + "/mapbox/driving/1,2;3,4.json"),
                       DirectionsPath(path: APIEndpoint.directionsV5.path + "/mapbox/driving/1,2;3,4"))
        XCTAssertEqual(DirectionsPath(path: APIEndpoint.directionsV5.path + "/mapbox/driving/1,2;3,4.json")?.profile, "mapbox/driving")
    }

    func testTheCoverageCheckNoticesDrift() throws {
        let openAPI = try ContractSimulator.get().contracts.openAPI
        // Without the reverse v3 operation, a parameter of migrate-address, the matrix error envelope.
        var text = JSONSerializer.string(openAPI)
        text = text.replacingOccurrences(of: "\"/api/reverse/v3\"", with: "\"/api/reverse/v3-gone\"")
        text = text.replacingOccurrences(of: "\"name\":\"migrate_type\"", with: "\"name\":\"migration\"")
        text = text.replacingOccurrences(of: "schemas/matrix-error.schema.json", with: "schemas/route-error.schema.json")
        let problems = Self.wireListProblems(try JSONParser.parse(text))
        XCTAssertTrue(problems.contains("reverse-v3: no GET operation at /api/reverse/v3"), "\(problems)")
        XCTAssertTrue(problems.contains("/api/reverse/v3-gone: documented, but no APIEndpoint has this path"), "\(problems)")
        XCTAssertTrue(problems.contains("migrate-address: parameter 'migrate_type' is not documented at /api/migrate-address/v3"), "\(problems)")
        XCTAssertTrue(problems.contains("migrate-address: openapi.json documents 'migration', which the wire list does not read"), "\(problems)")
        XCTAssertTrue(problems.contains { $0.hasPrefix("matrix-v4: HTTP 400 answers schemas/route-error.schema.json") }, "\(problems)")
    }

    func testEveryEndpointHasCorpusQueriesForSuccessAndError() throws {
        let corpus = try ContractSimulator.get().contracts.corpus
        for endpoint in Self.covered {
            let queries = corpus.queries.filter { $0.endpoint == endpoint }
            XCTAssertTrue(queries.contains { $0.expect.status == 200 }, "no 200 query for \(endpoint.name)")
            XCTAssertTrue(queries.contains { $0.expect.status >= 400 }, "no error query for \(endpoint.name)")
        }
        // Every endpoint is served: nothing waits.
        XCTAssertEqual(corpus.queries.filter { $0.pending != nil }.map(\.name), [])
    }

    /// What the contract leaves out is the map family, each with its reason; the rest is covered.
    func testOnlyTheMapResourcesAreLeftOutOfTheContract() {
        XCTAssertEqual(Set(APIEndpoint.allCases.filter { $0.contractExclusion != nil }), APIEndpoint.named("map"))
        for endpoint in APIEndpoint.allCases where endpoint.contractExclusion != nil {
            XCTAssertFalse(endpoint.contractExclusion?.isEmpty ?? true, endpoint.name)
        }
    }

    func testPendingQueriesAreSkippedUnlessAskedFor() async throws {
        let sim = try ContractSimulator.get()
        // A corpus of one query marked pending (as a query for an endpoint still being built is).
        let pendingCorpus: JSONValue = ["queries": [[
            "name": "matrix-flutter-style", "description": "Flutter's matrix, marked pending.", "endpoint": "matrix",
            "pending": "waits for the endpoint",
            "parameters": [["api-version", "1.1"], ["sources", "0;1"], ["destinations", "0;1"],
                           ["point", "10.7769,106.7008"], ["point", "10.7725,106.6980"]],
            "expect": ["status": 200, "schema": "matrix-response"],
        ]]]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pending-\(UUID().uuidString).json")
        try Data(JSONSerializer.bytes(pendingCorpus)).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let contracts = try Contracts.load(from: ContractSimulator.contractsDirectory, queries: file)
        func suite(_ options: ContractSuite.Options) throws -> ContractSuite {
            try ContractSuite(target: .simulator(sim.baseURL), contracts: contracts, options: options)
        }
        let skipped = try await suite(.init()).run(only: ["matrix-flutter-style"])
        XCTAssertEqual(skipped.results.map(\.name), ["matrix-flutter-style"])
        XCTAssertTrue(skipped.results[0].skipped?.hasPrefix("pending: ") == true, "\(skipped.results[0].skipped ?? "run")")
        XCTAssertEqual(skipped.results[0].failures.count, 0, skipped.summary())
        let run = try await suite(.init(runPending: true)).run(only: ["matrix-flutter-style"])
        XCTAssertNil(run.results[0].skipped)
        XCTAssertEqual(run.results[0].request?.description.hasPrefix("/api/matrix?api-version=1.1&sources=0;1"), true,
                       run.results[0].request?.description ?? "no request")
        XCTAssertEqual(run.results[0].status, 200)
        XCTAssertEqual(run.results[0].failures.count, 0, "the matrix answers now: " + run.summary())
    }

    func testTheV3SchemasRefuseTheV4OnlyKeys() throws {
        let contracts = try ContractSimulator.get().contracts
        let search3 = try XCTUnwrap(contracts.validator(stem: "search-v3-response"))
        let v3Value: JSONValue = ["ref_id": "vm:ADDRESS:1", "distance": 0, "address": "a", "name": "n", "display": "n a",
                                  "boundaries": [], "categories": [], "entry_points": []]
        let v3Item = try XCTUnwrap(v3Value.objectValue)
        func with(_ object: JSONObject, _ key: String, _ value: JSONValue?) -> JSONValue {
            var copy = object
            copy[key] = value
            return .object(copy)
        }
        XCTAssertEqual(search3.validate([.object(v3Item)]).count, 0)
        XCTAssertFalse(search3.validate([with(v3Item, "data_old", .null)]).isEmpty, "data_old on a v3 item")
        XCTAssertFalse(search3.validate([with(v3Item, "ref_id", "auto:x")]).isEmpty, "a v4 id on v3")
        let reverse3 = try XCTUnwrap(contracts.validator(stem: "reverse-v3-response"))
        var reverseItem = v3Item
        reverseItem["entry_points"] = nil
        reverseItem["lat"] = 10.7
        reverseItem["lng"] = 106.7
        XCTAssertEqual(reverse3.validate([.object(reverseItem)]).count, 0)
        XCTAssertFalse(reverse3.validate([with(reverseItem, "entry_points", [])]).isEmpty, "entry_points on a v3 reverse item")
        let matrix = try XCTUnwrap(contracts.validator(stem: "matrix-response"))
        XCTAssertEqual(matrix.validate(["code": "OK", "messages": .null, "durations": [[0, .null]], "distances": [[0, .null]]]).count, 0)
        XCTAssertFalse(matrix.validate(["code": "OK", "messages": .null, "durations": .null, "distances": .null]).isEmpty)
        let matrixError = try XCTUnwrap(contracts.validator(stem: "matrix-error"))
        XCTAssertEqual(matrixError.validate(["code": "INVALID_REQUEST", "messages": "m", "durations": .null, "distances": .null]).count, 0)
        XCTAssertFalse(matrixError.validate(["code": "INVALID_REQUEST", "message": "m"]).isEmpty)
    }
}
