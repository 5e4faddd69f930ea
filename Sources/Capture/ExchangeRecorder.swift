import Foundation
import VietMapClient

/// Writes every exchange as one `VMRecording` fixture file in a directory, named
/// `NNNNNN-<endpoint>-<hash>.json` (a running number, so file-name order is arrival order and
/// identical requests that got different answers are all kept). The client's key is redacted
/// by `VMRecording`; the upstream key is never part of the request it is given.
public final class ExchangeRecorder: @unchecked Sendable {
    // @unchecked: `next` only under `lock`.
    public let directory: URL
    /// At most this many files are written (further exchanges are not recorded; one notice).
    public let maxFiles: Int
    private let lock = NSLock()
    private var next: Int
    private var warned = false
    private let notice: @Sendable (String) -> Void

    /// - Throws: when the directory cannot be created.
    public init(directory: URL, maxFiles: Int = 100_000, notice: @escaping @Sendable (String) -> Void) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.maxFiles = maxFiles
        self.notice = notice
        // Continue after files already there, so a second session appends in order.
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        next = (existing.compactMap { Int($0.prefix(while: \.isNumber)) }.max() ?? 0) + 1
    }

    /// Writes `recording` (atomically); failures are reported through `notice`, never thrown.
    public func record(_ recording: VMRecording) {
        let number: Int? = lock.withLock {
            guard next <= maxFiles else {
                if !warned { warned = true; notice("vietmap-sim: --record: \(maxFiles) files written; further exchanges are not recorded") }
                return nil
            }
            defer { next += 1 }
            return next
        }
        guard let number else { return }
        let digits = String(number)
        let name = String(repeating: "0", count: max(0, 6 - digits.count)) + digits + "-" + recording.suggestedFileName
        do {
            try recording.fixtureData().write(to: directory.appendingPathComponent(name), options: .atomic)
        } catch {
            notice("vietmap-sim: --record: cannot write \(name): \(error.localizedDescription)")
        }
    }
}
