import Dataset
import Foundation
import XCTest

final class CSVReaderTests: XCTestCase {
    private func records(_ text: String) throws -> [[String]] {
        let reader = CSVReader(data: Data(text.utf8), name: "t.csv")
        var result: [[String]] = []
        while let record = try reader.next() { result.append(record) }
        return result
    }

    func testQuotedFieldsWithCommasQuotesAndNewlines() throws {
        let text = "a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\nplain,,\"\"\n"
        XCTAssertEqual(try records(text), [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["plain", "", ""]])
    }

    func testCRLFAndMissingFinalNewlineAndBOM() throws {
        XCTAssertEqual(try records("\u{FEFF}h1,h2\r\n1,2\r\n3,4"), [["h1", "h2"], ["1", "2"], ["3", "4"]])
        XCTAssertEqual(try records("h\r1\r"), [["h"], ["1"]])
        XCTAssertEqual(try records("\"a\r\nb\",c\r\n"), [["a\r\nb", "c"]])
    }

    func testBlankLinesAreSkippedAndLinesCounted() throws {
        let reader = CSVReader(data: Data("h\n\n\"multi\nline\"\n\nlast\n".utf8), name: "t.csv")
        XCTAssertEqual(try reader.next(), ["h"])
        XCTAssertEqual(try reader.next(), ["multi\nline"])
        XCTAssertEqual(reader.recordStartLine, 3)
        XCTAssertEqual(try reader.next(), ["last"])
        XCTAssertEqual(reader.recordStartLine, 6)
        XCTAssertEqual(reader.recordNumber, 3)
        XCTAssertNil(try reader.next())
    }

    func testUTF8AndLiteralQuoteInUnquotedField() throws {
        XCTAssertEqual(try records("Nhà thờ Đức Bà,12\" tv\n"), [["Nhà thờ Đức Bà", "12\" tv"]])
    }

    func testMalformedQuotingIsAnErrorNamingTheLine() {
        XCTAssertThrowsError(try records("a\n\"open,b\nc\n")) { error in
            XCTAssertEqual("\(error)", "t.csv: line 2: unterminated quoted field (opened in the record starting here)")
        }
        XCTAssertThrowsError(try records("a\n\"x\"y,b\n")) { error in
            XCTAssertEqual("\(error)", "t.csv: line 2: unexpected character after a closing quote")
        }
    }

    func testStreamsAFileLargerThanOneChunk() throws {
        let url = try SharedDataset.scratch("csv").appendingPathComponent("big.csv")
        var text = "id,text\n"
        for i in 0..<20_000 { text += "\(i),\"row \(i), with comma\"\r\n" }
        try text.write(to: url, atomically: true, encoding: .utf8)
        let reader = try CSVReader(url: url)
        _ = try reader.next()
        var count = 0
        while let record = try reader.next() {
            XCTAssertEqual(record, ["\(count)", "row \(count), with comma"])
            count += 1
        }
        XCTAssertEqual(count, 20_000)
    }
}
