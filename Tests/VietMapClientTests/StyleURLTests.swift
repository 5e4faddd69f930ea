import Foundation
import VietMapClient
import XCTest

/// `VietMapStyleURL`: every style URL generation and the raster template, live and simulator.
final class StyleURLTests: XCTestCase {
    func testLiveURLsOfEveryGeneration() throws {
        let styles = try VietMapStyleURL(apiKey: "k123")
        XCTAssertEqual(styles.baseURL.absoluteString, "https://maps.vietmap.vn")
        XCTAssertEqual(styles.style().absoluteString, "https://maps.vietmap.vn/maps/styles/tm/style.json?apikey=k123")
        XCTAssertEqual(styles.style(.light).absoluteString, "https://maps.vietmap.vn/maps/styles/lm/style.json?apikey=k123")
        XCTAssertEqual(styles.style(.dark).absoluteString, "https://maps.vietmap.vn/maps/styles/dm/style.json?apikey=k123")
        XCTAssertEqual(styles.rasterStyle(.dark).absoluteString, "https://maps.vietmap.vn/maps/styles/dm/tiles.json?apikey=k123")
        XCTAssertEqual(styles.sdkStyle().absoluteString, "https://maps.vietmap.vn/api/maps/light/styles.json?apikey=k123")
        XCTAssertEqual(styles.sdkStyle(.light).absoluteString, "https://maps.vietmap.vn/api/maps/light/styles.json?apikey=k123")
        XCTAssertEqual(styles.sdkStyle(.dark).absoluteString, "https://maps.vietmap.vn/api/maps/dark/styles.json?apikey=k123")
        for look in MapLook.allCases {
            XCTAssertEqual(styles.sdkStyle(look, flavour: .raster).absoluteString,
                           "https://maps.vietmap.vn/api/maps/raster/styles.json?apikey=k123")
        }
        XCTAssertEqual(styles.legacyStyle(.light).absoluteString, "https://maps.vietmap.vn/mt/lm/style.json?apikey=k123")
        XCTAssertEqual(styles.rasterTileTemplate(), "https://maps.vietmap.vn/api/tm/{z}/{x}/{y}@2x.png?apikey=k123")
        XCTAssertEqual(styles.rasterTileTemplate(.dark), "https://maps.vietmap.vn/api/dm/{z}/{x}/{y}@2x.png?apikey=k123")
        XCTAssertEqual(styles.rasterTile(.light, z: 14, x: 13048, y: 7698)?.absoluteString,
                       "https://maps.vietmap.vn/api/lm/14/13048/7698@2x.png?apikey=k123")
    }

    func testKeyIsPercentEncodedAndReadsBackUnchanged() throws {
        let key = "a+b/c d&e=f#g?ế%"
        let styles = try VietMapStyleURL(apiKey: key)
        let url = styles.style(.dark)
        XCTAssertEqual(url.absoluteString,
                       "https://maps.vietmap.vn/maps/styles/dm/style.json?apikey=a%2Bb%2Fc%20d%26e%3Df%23g%3F%E1%BA%BF%25")
        let components = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false))
        XCTAssertEqual(components.queryItems, [URLQueryItem(name: "apikey", value: key)])
        XCTAssertEqual(components.path, "/maps/styles/dm/style.json")
        XCTAssertTrue(styles.rasterTileTemplate().hasSuffix("/api/tm/{z}/{x}/{y}@2x.png?apikey=a%2Bb%2Fc%20d%26e%3Df%23g%3F%E1%BA%BF%25"))
    }

    func testFromTheClientsProviderKeepsHostPortPrefixAndQuery() throws {
        let sim = try VietMapStyleURL(HTTPVietMapProvider.simulator())
        XCTAssertEqual(sim.style(.dark).absoluteString, "http://127.0.0.1:8080/maps/styles/dm/style.json?apikey=dev")
        XCTAssertEqual(sim.sdkStyle(.dark).absoluteString, "http://127.0.0.1:8080/api/maps/dark/styles.json?apikey=dev")

        // An Android emulator's view of the host, a path prefix with a trailing slash, and a base query.
        let proxied = HTTPVietMapProvider(baseURL: URL(string: "http://10.0.2.2:9000/vietmap/?tenant=qa")!, apiKey: "dev")
        let styles = try VietMapStyleURL(proxied)
        XCTAssertEqual(styles.legacyStyle().absoluteString, "http://10.0.2.2:9000/vietmap/mt/tm/style.json?tenant=qa&apikey=dev")
        XCTAssertEqual(styles.rasterTileTemplate(.light), "http://10.0.2.2:9000/vietmap/api/lm/{z}/{x}/{y}@2x.png?tenant=qa&apikey=dev")

        // A key-adding proxy: no key, no query at all.
        let keyless = try VietMapStyleURL(HTTPVietMapProvider(baseURL: URL(string: "https://proxy.example")!, apiKey: nil))
        XCTAssertEqual(keyless.style().absoluteString, "https://proxy.example/maps/styles/tm/style.json")
        XCTAssertEqual(keyless.rasterTileTemplate(), "https://proxy.example/api/tm/{z}/{x}/{y}@2x.png")
        XCTAssertEqual(try VietMapStyleURL(apiKey: "").style().absoluteString, "https://maps.vietmap.vn/maps/styles/tm/style.json")
    }

    func testBadBaseURLAndImpossibleTilesAreRefused() throws {
        XCTAssertThrowsError(try VietMapStyleURL(baseURL: URL(string: "maps.vietmap.vn")!, apiKey: "k")) {
            guard case .invalidArgument = $0 as? VMClientError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try VietMapStyleURL(baseURL: URL(fileURLWithPath: "/tmp/styles"), apiKey: "k")) {
            guard case .invalidArgument = $0 as? VMClientError else { return XCTFail("\($0)") }
        }
        let styles = try VietMapStyleURL(apiKey: "k")
        XCTAssertNil(styles.rasterTile(z: 2, x: 4, y: 0))
        XCTAssertNil(styles.rasterTile(z: -1, x: 0, y: 0))
        XCTAssertNil(styles.rasterTile(z: 25, x: 0, y: 0))
        XCTAssertNotNil(styles.rasterTile(z: 0, x: 0, y: 0))
    }
}
