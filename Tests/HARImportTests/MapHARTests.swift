import Foundation
import HTTPServer
import Scenarios
import SimTesting
import XCTest

/// A map screen's calls in a HAR (tiles, glyphs) are replayed per resource: the endpoint comes from
/// the wire home's `MapPath`, and the values in the path (`z`, `x`, `y`, `fontstack`, `range`) tell
/// the captured calls apart — binary bodies byte for byte.
final class MapHARTests: XCTestCase {
    func testTilesAndGlyphsOfAHARAreReplayedPerResource() throws {
        // MVT- and glyph-shaped bytes (a layer tag 0x1a; a fontstack tag 0x0a), not valid UTF-8.
        let captured: [(target: String, body: Data)] = [
            ("/api/maps/data/vlc-vt-sdk-20250122/14/13048/7698.pbf?apikey=SECRET", Data([0x1a, 0x8f, 0xff, 0x00, 0x01])),
            ("/api/maps/data/vlc-vt-sdk-20250122/14/13049/7698.pbf?apikey=SECRET", Data([0x1a, 0x90, 0xfe, 0x00, 0x02])),
            ("/mt/fonts/Roboto%20Regular/7680-7935.pbf", Data([0x0a, 0xc3, 0x28, 0x00])),
        ]
        var har = HARWriter()
        for entry in captured {
            har.add(url: "https://maps.vietmap.vn" + entry.target, status: 200, headers: [("Content-Type", "application/x-protobuf")],
                    body: entry.body, storage: .base64)
        }
        let directory = try temporaryDirectory()
        try har.write(to: directory.appendingPathComponent("map.har"))
        let made = try runCLI(["scenarios", "from-har", "map.har", "--out", "map.json", "--name", "map", "--unmatched", "not-found"], in: directory)
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(made.stderr.contains("3 of 3 entries"), made.stderr)

        let library = ScenarioLibrary.load(files: [directory.appendingPathComponent("map.json")])
        XCTAssertEqual(library.issues.map(\.description), [])
        let replay = try startServer(engine: ScenarioEngine(library: library, configuration: .init(defaultScenario: "map")))
        for entry in captured {
            let target = entry.target.replacingOccurrences(of: "SECRET", with: "k")
            let again = try get(replay, target)
            XCTAssertEqual(again.status, 200, target)
            XCTAssertEqual(again.body, entry.body, target)
        }
        // Another tile, another range: not captured.
        XCTAssertEqual(try get(replay, "/api/maps/data/vlc-vt-sdk-20250122/14/13050/7698.pbf?apikey=k").status, 404)
        XCTAssertEqual(try get(replay, "/mt/fonts/Roboto%20Regular/0-255.pbf").status, 404)
    }
}
