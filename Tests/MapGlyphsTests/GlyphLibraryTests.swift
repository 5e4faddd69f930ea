@testable import MapGlyphs
import Foundation
import TestExpectations
import Testing

@Suite final class GlyphLibraryTests {
    static let library: GlyphLibrary = {
        do { return try GlyphLibrary() } catch { fatalError("\(error)") }
    }()

    static let stacks: [[String]] = [["Roboto Regular"], ["Roboto Medium"], ["Roboto Condensed Italic"]]
    static let border: UInt32 = 3

    private func stack(_ names: [String], _ range: String, library: GlyphLibrary = GlyphLibraryTests.library,
                       filePath: String = #filePath, line: Int = #line) throws -> GlyphPBFReader.Stack {
        let bytes = library.pbf(stack: names, range: try GlyphRange(parsing: range))
        let stacks = try GlyphPBFReader.read(bytes)
        expectEqual(stacks.count, 1, filePath: filePath, line: line)
        let stack = try unwrap(stacks.first, filePath: filePath, line: line)
        expectEqual(stack.name, names.joined(separator: ", "), filePath: filePath, line: line)
        expectEqual(stack.range, range, filePath: filePath, line: line)
        return stack
    }

    private func assertInked(_ text: String, in stack: GlyphPBFReader.Stack, filePath: String = #filePath, line: Int = #line) {
        for scalar in text.unicodeScalars where scalar != " " {
            guard let glyph = stack.glyph(scalar) else {
                fail("\(stack.name ?? "?") \(stack.range ?? "?") lacks \(scalar) U+\(String(scalar.value, radix: 16, uppercase: true))", filePath: filePath, line: line)
                continue
            }
            expectGreaterThan(glyph.width, 0, "\(scalar)", filePath: filePath, line: line)
            expectGreaterThan(glyph.height, 0, "\(scalar)", filePath: filePath, line: line)
            expectGreaterThan(glyph.advance, 0, "\(scalar)", filePath: filePath, line: line)
            expectEqual(glyph.bitmap?.count, Int((glyph.width + 2 * Self.border) * (glyph.height + 2 * Self.border)),
                           "\(scalar): bitmap must be (w+6)·(h+6)", filePath: filePath, line: line)
        }
    }

    @Test func testTheEmbeddedFontsAreVietMapsThreeStacksAndCarryThoseNames() throws {
        expectEqual(Self.library.fontNames, ["Roboto Regular", "Roboto Medium", "Roboto Condensed Italic"])
        let freeType = try FreeTypeLibrary()
        for (name, file) in EmbeddedFonts.files {
            let data = try Data(contentsOf: EmbeddedFonts.directory.appendingPathComponent(file))
            let font = try FreeTypeFont(name: name, data: data, library: freeType, pixelSize: 24)
            expectEqual(font.familyAndStyle, name)
            expectGreaterThan(font.ascender, 18)
            expectLessThan(font.ascender, 30)
        }
        for notice in ["LICENSE.txt", "README.md"] {
            expectTrue(FileManager.default.fileExists(atPath: EmbeddedFonts.directory.appendingPathComponent(notice).path), notice)
        }
    }

    @Test func testVietnameseExtendedRangeHasItsLetters() throws {
        for names in Self.stacks {
            let stack = try stack(names, "7680-7935")
            assertInked("ạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ", in: stack)
            assertInked("ẠẢẤỸ", in: stack)
        }
    }

    @Test func testLatin1RangeHasEveryAsciiLetterTheVietnameseVowelsAndASpace() throws {
        let ascii = (0x41...0x5A).map { String(UnicodeScalar($0)!) }.joined() + (0x61...0x7A).map { String(UnicodeScalar($0)!) }.joined()
        for names in Self.stacks {
            let stack = try stack(names, "0-255")
            assertInked(ascii + "0123456789.,-", in: stack)
            assertInked("àáâãèéêìíòóôõùúýÀÁÂÃÈÉÊÌÍÒÓÔÕÙÚÝ", in: stack)
            let space = try unwrap(stack.glyph(" "))
            expectNil(space.bitmap)
            expectEqual(space.width, 0)
            expectEqual(space.height, 0)
            expectGreaterThan(space.advance, 0)
            expectLessThan(space.advance, 12)
        }
    }

    @Test func testLatinExtendedARangeHasTheVietnameseLetters() throws {
        for names in Self.stacks {
            assertInked("ăđĩũơưĂĐĨŨƠƯ", in: try stack(names, "256-511"))
        }
    }

    @Test func testARangeNoFontCoversIsAValidEmptyAnswer() throws {
        for names in Self.stacks + [["Roboto Regular", "Roboto Medium"]] {
            expectEqual(try stack(names, "57344-57599").glyphs.count, 0)
        }
        // CJK: Roboto has none either.
        expectEqual(try stack(["Roboto Medium"], "20224-20479").glyphs.count, 0)
    }

    @Test func testAPercentEncodedTwoFontStackIsAnsweredFromItsFirstFont() throws {
        let parsed = try FontStack(pathSegment: "Roboto%20Medium%2cRoboto%20Regular")
        let bytes = Self.library.pbf(stack: parsed, range: try GlyphRange(parsing: "0-255"))
        let both = try unwrap(try GlyphPBFReader.read(bytes).first)
        expectEqual(both.name, "Roboto Medium, Roboto Regular")
        expectEqual(both.glyphs, try stack(["Roboto Medium"], "0-255").glyphs)
        expectNotEqual(both.glyphs, try stack(["Roboto Regular"], "0-255").glyphs)
    }

    @Test func testUnknownFontsAreSkippedAndAStackOfNoneFallsBackToRobotoRegular() throws {
        expectEqual(Self.library.resolvedFonts(for: ["Open Sans Bold", "roboto medium"]), ["Roboto Medium"])
        expectEqual(Self.library.resolvedFonts(for: ["Open Sans Bold", "Arial Unicode MS Regular"]), ["Roboto Regular"])
        let fallback = try stack(["Open Sans Bold"], "0-255")
        expectEqual(fallback.name, "Open Sans Bold")
        expectEqual(fallback.glyphs, try stack(["Roboto Regular"], "0-255").glyphs)
        expectEqual(try stack(["Noto Sans Regular", "Roboto Condensed Italic"], "256-511").glyphs,
                       try stack(["Roboto Condensed Italic"], "256-511").glyphs)
    }

    @Test func testMetricsPlaceLettersOnOneBaselineBelowTheAscender() throws {
        let stack = try stack(["Roboto Regular"], "0-255")
        let glyphs = try ["H", "x", "o", "p", "A"].map { try unwrap(stack.glyph(UnicodeScalar($0)!)) }
        let (capitalH, x, o, p, capitalA) = (glyphs[0], glyphs[1], glyphs[2], glyphs[3], glyphs[4])
        // Bottom edge = top − height: the same for letters standing on the baseline.
        expectEqual(capitalH.top - Int32(capitalH.height), x.top - Int32(x.height))
        expectEqual(capitalH.top - Int32(capitalH.height), capitalA.top - Int32(capitalA.height))
        expectLessThanOrEqual(abs((o.top - Int32(o.height)) - (x.top - Int32(x.height))), 1)
        expectLessThan(p.top - Int32(p.height), x.top - Int32(x.height) - 3, "p descends below the baseline")
        // Tops are measured from the ascender: below it, so negative.
        expectLessThan(capitalH.top, 0)
        expectGreaterThan(capitalH.top, -10)
        expectGreaterThan(capitalH.top, x.top)
        // 24 px: a capital H is about 17 px tall and 13–15 px wide in advance.
        expectTrue((15...19).contains(capitalH.height), "\(capitalH.height)")
        expectTrue((12...18).contains(capitalH.advance), "\(capitalH.advance)")
        expectTrue((0...3).contains(capitalH.left), "\(capitalH.left)")
    }

    @Test func testTheDistanceFieldOfOIsBrightInTheStrokeAndDarkFarOutside() throws {
        let stack = try stack(["Roboto Regular"], "0-255")
        let glyph = try unwrap(stack.glyph("O"))
        let bitmap = try unwrap(glyph.bitmap)
        let width = Int(glyph.width + 6), height = Int(glyph.height + 6)
        let middleRow = Array(bitmap[(height / 2) * width..<(height / 2 + 1) * width])
        // Left to right: outside (dark), the left stroke (bright), the hole (darker), the right stroke, outside.
        expectLessThan(middleRow[0], 120, "\(middleRow)")
        expectLessThan(middleRow[width - 1], 120, "\(middleRow)")
        let leftStroke = middleRow[0..<width / 2].max()!, rightStroke = middleRow[width / 2..<width].max()!
        expectGreaterThan(leftStroke, 210, "\(middleRow)")
        expectGreaterThan(rightStroke, 210, "\(middleRow)")
        expectLessThan(middleRow[width / 2], 191, "the hole is outside the glyph: \(middleRow)")
        // The corners of the bordered bitmap are ≥ 3 px from the ink of a round letter: dark.
        for corner in [0, width - 1, (height - 1) * width, height * width - 1] {
            expectLessThan(bitmap[corner], 100, "corner \(corner): \(bitmap[corner])")
        }
        // The field crosses the outline value (≈191) along the row, so bytes on both sides exist.
        expectTrue(middleRow.contains { $0 > 191 } && middleRow.contains { $0 < 191 })
    }

    @Test func testTheSameRequestGivesTheSameBytesCachedOrNot() throws {
        let range = try GlyphRange(parsing: "7680-7935")
        let fresh = try GlyphLibrary()
        let first = fresh.pbf(stack: ["Roboto Medium"], range: range)
        expectEqual(fresh.cacheUsage.ranges, 1)
        let cached = fresh.pbf(stack: ["Roboto Medium"], range: range)
        let other = try GlyphLibrary().pbf(stack: ["Roboto Medium"], range: range)
        expectEqual(first, cached)
        expectEqual(first, other)
        expectEqual(fresh.cacheUsage.ranges, 1)
    }

    @Test func testTheCacheStaysWithinItsBounds() throws {
        let small = try GlyphLibrary(fonts: EmbeddedFonts.files.map {
            ($0.name, try Data(contentsOf: EmbeddedFonts.directory.appendingPathComponent($0.file)))
        }, cacheEntries: 3, cacheBytes: 1 << 20)
        for start in stride(from: UInt32(0), through: 1024, by: 256) {
            _ = small.pbf(stack: ["Roboto Regular"], range: try unwrap(GlyphRange(start: start)))
            expectLessThanOrEqual(small.cacheUsage.ranges, 3)
            expectLessThanOrEqual(small.cacheUsage.bytes, 1 << 20)
        }
        expectEqual(small.cacheUsage.ranges, 3)
    }

    @Test func testConcurrentRequestsGiveTheSameBytes() throws {
        let range = try GlyphRange(parsing: "256-511")
        let fresh = try GlyphLibrary(fonts: EmbeddedFonts.files.map {
            ($0.name, try Data(contentsOf: EmbeddedFonts.directory.appendingPathComponent($0.file)))
        }, cacheEntries: 0, cacheBytes: 0)
        let expected = Self.library.pbf(stack: ["Roboto Condensed Italic", "Roboto Regular"], range: range)
        let results = ConcurrentResults(count: 4)
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            let names = index % 2 == 0 ? ["Roboto Condensed Italic", "Roboto Regular"] : ["Roboto Regular"]
            results.set(index, fresh.pbf(stack: names, range: range))
        }
        expectEqual(results.value(0), expected)
        expectEqual(results.value(2), expected)
        expectEqual(results.value(1), Self.library.pbf(stack: ["Roboto Regular"], range: range))
        expectEqual(fresh.cacheUsage.ranges, 0)
    }

    /// Not an assertion: prints how long uncached ranges take, for the record.
    @Test func testMeasureUncachedRanges() throws {
        let fresh = try GlyphLibrary()
        for text in ["0-255", "7680-7935"] {
            let range = try GlyphRange(parsing: text)
            let start = DispatchTime.now().uptimeNanoseconds
            let bytes = fresh.pbf(stack: ["Roboto Regular"], range: range)
            let uncached = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            let again = DispatchTime.now().uptimeNanoseconds
            _ = fresh.pbf(stack: ["Roboto Regular"], range: range)
            let cached = Double(DispatchTime.now().uptimeNanoseconds - again) / 1e6
            print("MapGlyphs: Roboto Regular \(text): \(bytes.count) bytes, uncached \(String(format: "%.1f", uncached)) ms, cached \(String(format: "%.2f", cached)) ms")
        }
    }
}

/// Results written by concurrent workers, one slot each.
final class ConcurrentResults: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [[UInt8]?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: [UInt8]) { lock.withLock { slots[index] = value } }
    func value(_ index: Int) -> [UInt8]? { lock.withLock { slots[index] } }
}
