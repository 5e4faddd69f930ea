// Guarded: a build without tests may not see Swift Testing (on a Mac it comes with the test frameworks, and
// `swift build` builds this target too); the test targets, which use these, always do.
#if canImport(Testing)
import Testing

// Swift Testing expectations with XCTest's argument shapes, as plain functions: the suites that spawn
// processes, build datasets or wait on deadlines are Swift Testing suites (run side by side, where XCTest
// runs one test at a time), and they keep the assertions they were written with. Plain functions, not
// `#expect`: each macro expansion costs the build ≈ 22 ms (measured: 400 `#expect` 8.7 s of compile,
// 400 of these ≈ 1.2 s), and these suites hold over a thousand assertions. A failed expectation is an
// `Issue` at the caller's line, with XCTest's wording; the test goes on, as with XCTest.

/// Records a failed expectation at the caller's line; `message` follows " - " when given.
private func record(_ what: String, _ message: String, _ location: SourceLocation) {
    Issue.record(Comment(rawValue: message.isEmpty ? what : "\(what) - \(message)"), sourceLocation: location)
}

/// Evaluates `body`; a thrown error is recorded as the expectation's failure and gives nil.
private func evaluate<T>(_ name: String, _ message: () -> String, _ location: SourceLocation,
                         _ body: () throws -> T) -> T? {
    do {
        return try body()
    } catch {
        record("\(name) threw error \"\(error)\"", message(), location)
        return nil
    }
}

/// Where the caller is, from the literals its default arguments gave.
private func here(_ fileID: String, _ filePath: String, _ line: Int, _ column: Int) -> SourceLocation {
    SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Expects the two values to be equal (`XCTAssertEqual`).
public func expectEqual<T: Equatable>(_ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T,
                                      _ message: @autoclosure () -> String = "",
                                      fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    let location = here(fileID, filePath, line, column)
    guard let (a, b) = evaluate("expectEqual", message, location, { (try expression1(), try expression2()) }) else { return }
    if a != b { record("expectEqual failed: (\"\(a)\") is not equal to (\"\(b)\")", message(), location) }
}

/// Expects the two numbers to be within `accuracy` of each other (`XCTAssertEqual(_:_:accuracy:)`).
public func expectEqual<T: Numeric & Comparable>(_ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T,
                                          accuracy: T, _ message: @autoclosure () -> String = "",
                                          fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    let location = here(fileID, filePath, line, column)
    guard let (a, b) = evaluate("expectEqual", message, location, { (try expression1(), try expression2()) }) else { return }
    if !((a >= b ? a - b : b - a) <= accuracy) {
        record("expectEqual failed: (\"\(a)\") is not equal to (\"\(b)\") +/- (\"\(accuracy)\")", message(), location)
    }
}

/// Expects the two values to differ (`XCTAssertNotEqual`).
public func expectNotEqual<T: Equatable>(_ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T,
                                         _ message: @autoclosure () -> String = "",
                                         fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    let location = here(fileID, filePath, line, column)
    guard let (a, b) = evaluate("expectNotEqual", message, location, { (try expression1(), try expression2()) }) else { return }
    if a == b { record("expectNotEqual failed: (\"\(a)\") is equal to (\"\(b)\")", message(), location) }
}

/// Expects the condition to hold (`XCTAssertTrue`, `XCTAssert`).
public func expectTrue(_ expression: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "",
                       fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    let location = here(fileID, filePath, line, column)
    if evaluate("expectTrue", message, location, expression) == false { record("expectTrue failed", message(), location) }
}

/// Expects the condition not to hold (`XCTAssertFalse`).
public func expectFalse(_ expression: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "",
                        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    let location = here(fileID, filePath, line, column)
    if evaluate("expectFalse", message, location, expression) == true { record("expectFalse failed", message(), location) }
}

/// Expects nil (`XCTAssertNil`).
public func expectNil<T>(_ expression: @autoclosure () throws -> T?, _ message: @autoclosure () -> String = "",
                         fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    let location = here(fileID, filePath, line, column)
    guard let value = evaluate("expectNil", message, location, expression) else { return }
    if let value { record("expectNil failed: \"\(value)\"", message(), location) }
}

/// Expects a value (`XCTAssertNotNil`).
public func expectNotNil<T>(_ expression: @autoclosure () throws -> T?, _ message: @autoclosure () -> String = "",
                            fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    let location = here(fileID, filePath, line, column)
    guard let value = evaluate("expectNotNil", message, location, expression) else { return }
    if value == nil { record("expectNotNil failed", message(), location) }
}

/// Compares two values with `holds`; `relation` names it in the failure (`XCTAssertGreaterThan` and its kin).
private func expectOrdered<T: Comparable>(_ name: String, _ relation: String, _ holds: (T, T) -> Bool,
                                          _ expression1: () throws -> T, _ expression2: () throws -> T,
                                          _ message: () -> String, _ location: SourceLocation) {
    guard let (a, b) = evaluate(name, message, location, { (try expression1(), try expression2()) }) else { return }
    if !holds(a, b) { record("\(name) failed: (\"\(a)\") is not \(relation) (\"\(b)\")", message(), location) }
}

/// Expects the first value to be greater (`XCTAssertGreaterThan`).
public func expectGreaterThan<T: Comparable>(_ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T,
                                             _ message: @autoclosure () -> String = "",
                                             fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    expectOrdered("expectGreaterThan", "greater than", (>), expression1, expression2, message, here(fileID, filePath, line, column))
}

/// Expects the first value to be greater or equal (`XCTAssertGreaterThanOrEqual`).
public func expectGreaterThanOrEqual<T: Comparable>(_ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T,
                                                    _ message: @autoclosure () -> String = "",
                                                    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    expectOrdered("expectGreaterThanOrEqual", "greater than or equal to", (>=), expression1, expression2, message,
                  here(fileID, filePath, line, column))
}

/// Expects the first value to be less (`XCTAssertLessThan`).
public func expectLessThan<T: Comparable>(_ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T,
                                          _ message: @autoclosure () -> String = "",
                                          fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    expectOrdered("expectLessThan", "less than", (<), expression1, expression2, message, here(fileID, filePath, line, column))
}

/// Expects the first value to be less or equal (`XCTAssertLessThanOrEqual`).
public func expectLessThanOrEqual<T: Comparable>(_ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T,
                                                 _ message: @autoclosure () -> String = "",
                                                 fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    expectOrdered("expectLessThanOrEqual", "less than or equal to", (<=), expression1, expression2, message,
                  here(fileID, filePath, line, column))
}

/// Expects `expression` to throw, and hands the error to `errorHandler` (`XCTAssertThrowsError`).
public func expectThrowsError<T>(_ expression: @autoclosure () throws -> T, _ message: @autoclosure () -> String = "",
                                 fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
                                 _ errorHandler: (_ error: any Error) -> Void = { _ in }) {
    do {
        _ = try expression()
        record("expectThrowsError failed: did not throw an error", message(), here(fileID, filePath, line, column))
    } catch {
        errorHandler(error)
    }
}

/// Expects `expression` not to throw (`XCTAssertNoThrow`).
public func expectNoThrow<T>(_ expression: @autoclosure () throws -> T, _ message: @autoclosure () -> String = "",
                             fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    _ = evaluate("expectNoThrow", message, here(fileID, filePath, line, column), expression)
}

/// Records a failure at the caller's line (`XCTFail`).
public func fail(_ message: String = "", fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) {
    record("failed", message, here(fileID, filePath, line, column))
}

/// What `unwrap` throws after recording its failure: the test stops there, as with `XCTUnwrap`.
public struct UnwrapFailure: Error, CustomStringConvertible {
    /// The type that was expected.
    public let type: String
    public var description: String { "unwrap found nil where a value of type \(type) was expected (recorded at its line)" }
}

/// The value, or a recorded failure and a thrown ``UnwrapFailure`` when it is nil (`XCTUnwrap`).
public func unwrap<T>(_ expression: @autoclosure () throws -> T?, _ message: @autoclosure () -> String = "",
                      fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) throws -> T {
    if let value = try expression() { return value }
    record("unwrap failed: expected non-nil value of type \"\(T.self)\"", message(), here(fileID, filePath, line, column))
    throw UnwrapFailure(type: "\(T.self)")
}
#endif
