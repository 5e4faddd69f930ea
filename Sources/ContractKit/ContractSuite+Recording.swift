import Foundation
import VietMapClient

// MARK: - Record and replay

extension ContractSuite.Target {
    /// Answers recorded by `ContractSuite.record(into:)` (or `RecordingVietMapProvider`),
    /// replayed offline; a query whose request was not recorded is skipped.
    public static func recorded(_ directory: URL) throws -> ContractSuite.Target {
        .provider(try RecordedVietMapProvider(directory: directory))
    }
}

extension ContractSuite {
    /// Runs the corpus (or `only`) against the target like `run`, recording every answer into
    /// `directory` (one fixture file per request), for replay with `.recorded(directory)`.
    /// Returns the report of the recorded run.
    public func record(into directory: URL, only: Set<String>? = nil, app: AppContract? = nil) async throws -> ContractReport {
        let recorder = RecordingVietMapProvider(wrapping: provider)
        var recording = self
        recording.recordingProvider = recorder
        let report = await recording.run(only: only, app: app)
        try await recorder.write(to: directory)
        return report
    }
}
