/// A test's own failure, thrown to stop it where going on makes no sense ("serve did not start: …"); Swift
/// Testing records it as the test's issue with this text.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
