import Foundation
import HARImport
import JSON
import Scenarios
import XCTest

/// `HARBudget`: bodies counted across entries before any is kept, the entry count, clamped
/// latencies, the file checks (FIFO, BOM, empty) and the size-limited printer.
final class HARBudgetTests: XCTestCase {
    private func har(entries: Int, bodyBytes: Int, waitMs: Double = 5) -> Data {
        var writer = HARWriter()
        for index in 0..<entries {
            writer.add(url: "https://maps.vietmap.vn/api/route/v4?point=10.7\(index),106.6&point=10.8,106.7", status: 200,
                       body: Data(repeating: UInt8(ascii: "a"), count: bodyBytes), storage: .gzipBase64, waitMs: waitMs)
        }
        return Data(JSONSerializer.bytes(writer.document))
    }

    private func budget(inflated: Int, entries: Int = 1000) -> HARImport.Options {
        HARImport.Options(budget: HARBudget(maxInflatedBytes: inflated, maxEntries: entries, maxOutputBytes: 1 << 30))
    }

    func testTheTotalOfInflatedBodiesIsRefusedAtTheEntryWhereItRunsOut() throws {
        let data = har(entries: 4, bodyBytes: 1 << 20)
        XCTAssertThrowsError(try HARImport.exchanges(fromHAR: data, options: budget(inflated: (5 << 20) / 2))) { error in
            let error = error as! HARImportError
            XCTAssertEqual(error.entry, 2, "\(error)")
            XCTAssertTrue(error.description.hasPrefix("entry 2 (/log/entries/2): "), error.description)
            XCTAssertTrue(error.description.contains("2.5 MiB") && error.description.contains("--max-inflated"), error.description)
            XCTAssertFalse(error.description.contains("\n"))
        }
        // Within the budget: every body kept, and counted.
        let result = try HARImport.exchanges(fromHAR: data, options: budget(inflated: 4 << 20))
        XCTAssertEqual(result.exchanges.count, 4)
        XCTAssertEqual(result.bodyBytes, 4 << 20)
        guard case .response(let response) = result.exchanges[3].outcome else { return XCTFail("no response") }
        XCTAssertEqual(response.body.count, 1 << 20)
    }

    func testPlainBodiesCountTowardsTheBudgetToo() throws {
        var writer = HARWriter()
        for index in 0..<3 {
            writer.add(url: "https://maps.vietmap.vn/api/place/v4?refid=x\(index)", status: 200, body: Data(repeating: 0x62, count: 1000))
        }
        XCTAssertThrowsError(try HARImport.exchanges(fromHAR: Data(JSONSerializer.bytes(writer.document)), options: budget(inflated: 2500))) {
            XCTAssertEqual(($0 as! HARImportError).entry, 2, "\($0)")
        }
    }

    func testMoreEntriesThanAllowedAreRefused() {
        XCTAssertThrowsError(try HARImport.exchanges(fromHAR: har(entries: 3, bodyBytes: 10), options: budget(inflated: 1 << 20, entries: 2))) {
            let error = $0 as! HARImportError
            XCTAssertEqual(error.entry, 2)
            XCTAssertTrue(error.reason.contains("--max-entries"), error.reason)
        }
    }

    func testALatencyOverTenMinutesIsListedAsClamped() throws {
        let result = try HARImport.exchanges(fromHAR: har(entries: 2, bodyBytes: 10, waitMs: 1e300))
        XCTAssertEqual(result.clampedLatencies.map(\.entry), [0, 1])
        XCTAssertEqual(result.clampedLatencies.first?.milliseconds, 1e300)
        XCTAssertTrue(try HARImport.exchanges(fromHAR: har(entries: 1, bodyBytes: 10, waitMs: 599_000)).clampedLatencies.isEmpty)
    }

    func testAByteOrderMarkIsSkippedAndEmptyOrXMLFilesAreNamedPlainly() throws {
        let plain = try HARImport.exchanges(fromHAR: har(entries: 1, bodyBytes: 10))
        let bom = try HARImport.exchanges(fromHAR: Data([0xEF, 0xBB, 0xBF]) + har(entries: 1, bodyBytes: 10))
        XCTAssertEqual(bom.exchanges.count, plain.exchanges.count)
        for (bytes, expected) in [(Data(), "empty file"), (Data(" \n".utf8), "only whitespace"), (Data("<html>".utf8), "starts with '<'"),
                                  (Data("{\n\"log\": nope}".utf8), "not JSON at line 2")] {
            XCTAssertThrowsError(try HARImport.exchanges(fromHAR: bytes)) {
                XCTAssertTrue("\($0)".contains(expected), "\($0)")
            }
        }
    }

    func testAFIFOOrADeviceIsRefusedWithoutReading() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("har-fifo-\(UUID().uuidString)")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        defer { unlink(fifo.path) }
        for url in [fifo, URL(fileURLWithPath: "/dev/zero")] {
            XCTAssertThrowsError(try HARImport.read(contentsOf: url)) {
                XCTAssertTrue("\($0)".hasPrefix("not a regular file"), "\($0)")
            }
        }
    }

    func testThePrettyPrinterStopsAtItsLimitAndSaysWhere() throws {
        let document: JSONValue = ["rules": [["name": "small"], ["name": "big", "respond": ["text": .string(String(repeating: "\u{0}", count: 1000))]]]]
        let full = try JSONPrettyPrinter.bytes(document, limit: .max)
        XCTAssertEqual(String(decoding: full, as: UTF8.self), JSONPrettyPrinter.string(document))
        XCTAssertNoThrow(try JSONPrettyPrinter.bytes(document, limit: full.count))
        XCTAssertThrowsError(try JSONPrettyPrinter.bytes(document, limit: full.count - 1))
        // 1000 NULs escape to 6000 bytes: refused before they are copied, at their pointer.
        do {
            _ = try JSONPrettyPrinter.bytes(document, limit: 3000)
            XCTFail("no overflow")
        } catch {
            XCTAssertEqual(error.pointer, "/rules/1/respond/text")
        }
    }
}

extension HARBudgetTests {
    func testTheLeastScenarioBytesOfABodyFollowItsEncoding() {
        XCTAssertEqual(HARBudget.minimumScenarioBytes(of: Data(#"{"a":"b\n"}"#.utf8)), 11, "could be JSON: its length")
        XCTAssertEqual(HARBudget.minimumScenarioBytes(of: Data(count: 10)), 60, "NULs escape to \\u0000")
        XCTAssertEqual(HARBudget.minimumScenarioBytes(of: Data([0x01, 0xFF, 0xFE])), 4, "not UTF-8: base64")
    }
}
