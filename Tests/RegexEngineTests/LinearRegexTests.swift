import Foundation
@testable import RegexEngine
import TestExpectations
import Testing

/// The non-backtracking regex dialect of `regex` conditions: same answers as ICU on the
/// subset, refusals with reasons, and linear time on patterns that stall a backtracker.
@Suite final class LinearRegexTests {
    private func matches(_ pattern: String, _ text: String, ignoreCase: Bool = false) throws -> Bool {
        try LinearRegex(pattern, ignoreCase: ignoreCase).matches(text)
    }

    @Test func testAgreesWithICUOnTheSubset() throws {
        let patterns = ["^ben", "thanh$", "^(a+)+$", "a|b|c", "^[a-c]{2,3}$", "\\d{3}", "^\\w+\\s\\w+$", "[^0-9]",
                        "x*y?z+", "(?:ab)+c", "^.*$", "\\bben\\b", "\\Bn", "colou?r", "^$", "a{2}", "a{2,}", "[.-]",
                        "\\.", "^10\\.7\\d*,106", "[A-Z][a-z]*", "(a|ab)(c|bcd)(d*)", "^\\x41\\u00e9"]
        let texts = ["ben thanh", "Ben Thanh", "aaaa", "aaaa!", "", "abc", "12", "123", "a b", "xxyzz", "ababc",
                     "color", "colour", "10.7769,106.7008", "a.b", "Aé", "benn", "abcd"]
        for pattern in patterns {
            for ignoreCase in [false, true] {
                let icu = try NSRegularExpression(pattern: pattern, options: ignoreCase ? [.caseInsensitive] : [])
                for text in texts {
                    let expected = icu.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                    expectEqual(try matches(pattern, text, ignoreCase: ignoreCase), expected,
                                   "\(pattern) on \"\(text)\" (ignoreCase \(ignoreCase))")
                }
            }
        }
    }

    @Test func testUnsupportedSyntaxIsRefusedWithAReason() {
        let refused = ["(a)\\1": "backreferences", "a(?=b)": "lookahead", "(?<=a)b": "lookbehind", "a++": "possessive",
                       "(": "missing ')'", "a)": "unbalanced", "*a": "nothing to repeat", "[a": "missing ']'",
                       "a{3,1}": "below the minimum", "\\p{L}": "unsupported escape", "a{5000}": "above 1000"]
        for (pattern, reason) in refused {
            expectThrowsError(try LinearRegex(pattern)) { error in
                expectTrue(String(describing: error).contains(reason), "\(pattern): \(error)")
            }
        }
        expectThrowsError(try LinearRegex("(a{1000}){1000}"), "the program size is capped")
    }
    @Test func testCatastrophicPatternRunsInLinearTime() throws {
        let regex = try LinearRegex("^(a+)+$")
        let hostile = String(repeating: "a", count: 10_000) + "!"
        let started = Date()
        expectFalse(regex.matches(hostile))
        expectTrue(regex.matches(String(repeating: "a", count: 10_000)))
        let elapsed = Date().timeIntervalSince(started)
        print("LinearRegex ^(a+)+$ on 10 KB (no match + match): \(String(format: "%.2f", elapsed * 1000)) ms")
        expectLessThan(elapsed, 2.0, "generous bound: a backtracker takes ages, the Pike VM milliseconds")
        let nested = try LinearRegex("^((a*)*b?)*(x|y|a{1,20})*$")
        expectFalse(nested.matches(hostile))
    }
}
