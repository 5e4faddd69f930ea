import Dataset
import Foundation
import TestExpectations
import Testing

@Suite final class CSVReaderTests {
    private func records(_ text: String) throws -> [[String]] {
        let reader = CSVReader(data: Data(text.utf8), name: "t.csv")
        var result: [[String]] = []
        while let record = try reader.next() { result.append(record) }
        return result
    }

    @Test func testQuotedFieldsWithCommasQuotesAndNewlines() throws {
        let text = "a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\nplain,,\"\"\n"
        expectEqual(try records(text), [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["plain", "", ""]])
    }

    @Test func testCRLFAndMissingFinalNewlineAndBOM() throws {
        expectEqual(try records("\u{FEFF}h1,h2\r\n1,2\r\n3,4"), [["h1", "h2"], ["1", "2"], ["3", "4"]])
        expectEqual(try records("h\r1\r"), [["h"], ["1"]])
        expectEqual(try records("\"a\r\nb\",c\r\n"), [["a\r\nb", "c"]])
    }

    @Test func testBlankLinesAreSkippedAndLinesCounted() throws {
        let reader = CSVReader(data: Data("h\n\n\"multi\nline\"\n\nlast\n".utf8), name: "t.csv")
        expectEqual(try reader.next(), ["h"])
        expectEqual(try reader.next(), ["multi\nline"])
        expectEqual(reader.recordStartLine, 3)
        expectEqual(try reader.next(), ["last"])
        expectEqual(reader.recordStartLine, 6)
        expectEqual(reader.recordNumber, 3)
        expectNil(try reader.next())
    }

    @Test func testUTF8AndLiteralQuoteInUnquotedField() throws {
        expectEqual(try records("Nhà thờ Đức Bà,12\" tv\n"), [["Nhà thờ Đức Bà", "12\" tv"]])
    }

    @Test func testMalformedQuotingIsAnErrorNamingTheLine() {
        expectThrowsError(try records("a\n\"open,b\nc\n")) { error in
            expectEqual("\(error)", "t.csv: line 2: unterminated quoted field (opened in the record starting here)")
        }
        expectThrowsError(try records("a\n\"x\"y,b\n")) { error in
            expectEqual("\(error)", "t.csv: line 2: unexpected character after a closing quote")
        }
    }

    @Test func testStreamsAFileLargerThanOneChunk() throws {
        let url = try SharedDataset.scratch("csv").appendingPathComponent("big.csv")
        var text = "id,text\n"
        for i in 0..<20_000 { text += "\(i),\"row \(i), with comma\"\r\n" }
        try text.write(to: url, atomically: true, encoding: .utf8)
        let reader = try CSVReader(url: url)
        _ = try reader.next()
        var count = 0
        while let record = try reader.next() {
            expectEqual(record, ["\(count)", "row \(count), with comma"])
            count += 1
        }
        expectEqual(count, 20_000)
    }
}
