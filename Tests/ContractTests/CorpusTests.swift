import ContractKit
import Foundation
import JSON
import VietMapWire
import XCTest

/// The contract files themselves.
final class CorpusTests: XCTestCase {
    func testCorporaAreCheckedAgainstQueriesSchemaWhenLoaded() throws {
        let directory = ContractSimulator.contractsDirectory
        XCTAssertNoThrow(try Contracts.load(from: directory))
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("contract-bad-corpus-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: bad) }
        try Data(#"{"queries":[{"name":"a","endpoint":"place","parameters":[],"expect":{"status":200},"extra":1}]}"#.utf8).write(to: bad)
        XCTAssertThrowsError(try Contracts.load(from: directory, queries: bad)) { error in
            XCTAssertTrue("\(error)".contains("queries.schema.json") && "\(error)".contains("/queries/0"), "\(error)")
        }
    }

    func testTheOpenAPIDocumentReferencesTheSchemaFiles() throws {
        let contracts = try ContractSimulator.get().contracts
        XCTAssertEqual(contracts.openAPI["openapi"], "3.1.0")
        XCTAssertEqual(contracts.openAPI["components"]?["securitySchemes"]?["ApiKeyAuth"]?["in"], "query")
        XCTAssertEqual(contracts.openAPI["components"]?["securitySchemes"]?["ApiKeyAuth"]?["name"], "apikey")
        XCTAssertEqual(contracts.documentedStatuses(.autocomplete), [200, 400, 401, 414, 429, 500])
        XCTAssertEqual(contracts.documentedStatuses(.place), [200, 400, 401, 404, 414, 429, 500])
        XCTAssertEqual(contracts.response(.route, status: 200)?.schemaStem, "route-response")
        XCTAssertEqual(contracts.response(.route, status: 400)?.schemaStem, "route-error")
        XCTAssertEqual(contracts.response(.place, status: 404)?.schemaStem, "error")
        XCTAssertEqual(contracts.response(.route, status: 429)?.requiredHeaders.sorted(), ["access-control-allow-origin", "retry-after"])
        XCTAssertNil(contracts.response(.route, status: 503))
        XCTAssertEqual(Set(contracts.schemaStems), ["autocomplete-response", "boundary", "entry-point", "error", "instruction", "linestring",
                                                    "path", "place-detail", "route-error", "route-response", "search-item", "search-variant",
                                                    "search-item-v3", "search-v3-response", "reverse-item", "reverse-response",
                                                    "reverse-item-v3", "reverse-v3-response", "matrix-response", "matrix-error",
                                                    "migrate-address-response", "directions-response", "directions-error",
                                                    "map-style", "tilejson", "sprite-index"])
        XCTAssertEqual(contracts.response(.routeV1, status: 200)?.schemaStem, "route-response")
        XCTAssertEqual(contracts.response(.tspV3, status: 400)?.schemaStem, "route-error")
        XCTAssertEqual(contracts.response(.matrix, status: 401)?.schemaStem, "matrix-error")
        XCTAssertEqual(contracts.response(.placeV3, status: 200)?.schemaStem, "place-detail")
        XCTAssertEqual(contracts.response(.search, status: 200)?.schemaStem, "autocomplete-response")
        XCTAssertEqual(contracts.documentedStatuses(.migrateAddress), [200, 400, 401, 404, 414, 429, 500])
    }

    func testBadCorporaAreRefusedWithTheirLocation() {
        func refusal(_ text: String) -> String {
            do {
                _ = try QueryCorpus(json: try JSONParser.parse(text))
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertTrue(refusal(#"{"queries":[{"name":"a","endpoint":"nope","expect":{"status":200}}]}"#).contains("/queries/0/endpoint"))
        XCTAssertTrue(refusal(#"{"queries":[{"name":"a","endpoint":"place","parameters":[["refid","$from:b:/0"]],"expect":{"status":200}}]}"#)
            .contains("not an earlier query"))
        XCTAssertTrue(refusal(#"{"queries":[{"name":"a","endpoint":"place","expect":{"status":200,"checks":["polyline"]}}]}"#)
            .contains("does not apply to place"))
        XCTAssertTrue(refusal(#"{"queries":[{"name":"a","endpoint":"reverse","expect":{"status":200,"checks":["matrix-dimensions"]}}]}"#)
            .contains("does not apply to reverse"))
        XCTAssertTrue(refusal(#"{"queries":[{"name":"a","endpoint":"matrix","pending":"","expect":{"status":200}}]}"#).contains("/queries/0/pending"))
        XCTAssertEqual(refusal(#"{"queries":[{"name":"a","endpoint":"migrate-address","expect":{"status":200,"checks":["new-format"]}}]}"#), "accepted")
        XCTAssertTrue(refusal(#"{"queries":[{"name":"a","endpoint":"place","expect":{"status":200,"model":"Foo"}}]}"#).contains("unknown model"))
    }
}
