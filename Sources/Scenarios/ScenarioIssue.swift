/// A problem in a scenario file: the file, where in the document (a JSON Pointer, `""` for
/// the document as a whole) and why.
///
///     Scenarios/flaky.json: /rules/0/when/probability: must be a number from 0 to 1, found 1.5
public struct ScenarioIssue: Sendable, Equatable, CustomStringConvertible {
    /// The file as given to the loader or validator (nil for documents not read from a file).
    public let file: String?
    /// A JSON Pointer into the document.
    public let pointer: String
    public let reason: String
    /// A warning does not stop the file from loading (`validate` prints it and still says OK).
    public let isWarning: Bool

    public init(file: String?, pointer: String, reason: String, isWarning: Bool = false) {
        self.file = file
        self.pointer = pointer
        self.reason = reason
        self.isWarning = isWarning
    }

    public var description: String {
        "\(file ?? "<scenario>"): \(pointer.isEmpty ? "(document)" : pointer): \(isWarning ? "warning: " : "")\(reason)"
    }
}
