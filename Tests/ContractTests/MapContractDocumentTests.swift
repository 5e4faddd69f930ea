import ContractKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JSON
import JSONSchema
import VietMapClient
import XCTest

/// The map resources in `Contracts/openapi.json`: the simulator's real style documents, TileJSON
/// and sprite index pass the document's schemas (loose: MapLibre's formats), a broken one does
/// not, and every map answer's `Content-Type` is a media type the document names for its 200.
final class MapContractDocumentTests: XCTestCase {
    private func fetch(_ target: String) async throws -> (status: Int, type: String, body: Data) {
        let sim = try ContractSimulator.get()
        let url = try XCTUnwrap(URL(string: sim.baseURL.absoluteString + target))
        let (data, response) = try await URLSession(configuration: .ephemeral).data(from: url)
        let http = try XCTUnwrap(response as? HTTPURLResponse)
        return (http.statusCode, http.value(forHTTPHeaderField: "Content-Type") ?? "", data)
    }

    /// The schema the document names for `endpoint`'s 200 in `mediaType`.
    private func schemaReference(_ endpoint: APIEndpoint, _ mediaType: String) throws -> String? {
        let openAPI = try ContractSimulator.get().contracts.openAPI
        return openAPI["paths"]?[endpoint.documentedPath]?["get"]?["responses"]?["200"]?["content"]?[mediaType]?["schema"]?["$ref"]?.stringValue
    }

    func testTheSimulatorsStylesTileJSONAndSpriteIndexPassTheDocumentedSchemas() async throws {
        let contracts = try ContractSimulator.get().contracts
        let cases: [(APIEndpoint, String)] = [
            (.mapStyle, "/api/maps/light/styles.json?apikey=k"), (.mapStyle, "/api/maps/raster/styles.json?apikey=k"),
            (.mapStyle, "/maps/styles/dm/style.json?apikey=k"), (.mapTileJSON, "/maps/styles/tm/tiles.json?apikey=k"),
            (.sprite, "/mt/styles/tm/sprite@2x.json"), (.sprite, "/mt/styles/lm/sprite.json"),
        ]
        for (endpoint, target) in cases {
            let answer = try await fetch(target)
            XCTAssertEqual(answer.status, 200, target)
            let reference = try XCTUnwrap(try schemaReference(endpoint, "application/json"), "\(endpoint.name): no JSON schema")
            let validator = try XCTUnwrap(contracts.validator(reference: reference), reference)
            let document = try JSONParser.parse(answer.body)
            XCTAssertEqual(validator.validate(document).map { "\($0)" }, [], target)
        }
        // The schemas can fail: a layer without `type`, a style of version 7, a TileJSON without tiles.
        let style = try XCTUnwrap(contracts.validator(stem: "map-style"))
        XCTAssertFalse(style.validate(["version": 8, "sources": [:], "layers": [["id": "x"]]]).isEmpty)
        XCTAssertFalse(style.validate(["version": 7, "sources": [:], "layers": []]).isEmpty)
        XCTAssertEqual(style.validate(["version": 8, "sources": [:], "layers": [["id": "bg", "type": "background"]]]).count, 0)
        let tileJSON = try XCTUnwrap(contracts.validator(stem: "tilejson"))
        XCTAssertFalse(tileJSON.validate(["tilejson": "3.0.0", "tiles": []]).isEmpty)
        let sprite = try XCTUnwrap(contracts.validator(stem: "sprite-index"))
        XCTAssertFalse(sprite.validate(["poi": ["x": 0, "y": 0, "width": 10]]).isEmpty)
    }

    func testEveryMapAnswerHasADocumentedMediaType() async throws {
        let openAPI = try ContractSimulator.get().contracts.openAPI
        let cases: [(APIEndpoint, String)] = [
            (.mapStyle, "/api/maps/light/styles.json?apikey=k"), (.mapTileJSON, "/maps/styles/tm/tiles.json?apikey=k"),
            (.vectorTile, "/api/maps/data/sim-x/14/13048/7698.pbf?apikey=k"), (.rasterTile, "/api/tm/14/13048/7698@2x.png?apikey=k"),
            (.glyphs, "/mt/fonts/Roboto%20Regular/7680-7935.pbf"), (.sprite, "/mt/styles/tm/sprite@2x.png"),
            (.sprite, "/mt/styles/tm/sprite@2x.json"),
        ]
        for (endpoint, target) in cases {
            XCTAssertEqual(APIEndpoint(path: String(target.prefix { $0 != "?" })), endpoint, target)
            let answer = try await fetch(target)
            XCTAssertEqual(answer.status, 200, target)
            let documented = openAPI["paths"]?[endpoint.documentedPath]?["get"]?["responses"]?["200"]?["content"]?.objectValue?.keys ?? []
            let mediaType = answer.type.split(separator: ";").first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
            XCTAssertTrue(documented.contains(mediaType), "\(target): \(answer.type) not in \(documented)")
        }
    }
}
