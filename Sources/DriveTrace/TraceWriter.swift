/// A writer of one trace format: `write` hands the file to `emit` piece by piece, in order.
public protocol TraceWriter: Sendable {
    func write<E: Error>(_ fixes: [DriveFix], to emit: (String) throws(E) -> Void) throws(E)
}

extension TraceWriter {
    /// The whole file as one string (tests, small traces); `write(_:to:)` streams it.
    public func render(_ fixes: [DriveFix]) -> String {
        var out = ""
        write(fixes) { out += $0 }
        return out
    }
}
