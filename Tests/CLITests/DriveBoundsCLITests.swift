import Foundation
import SimTesting
import TestExpectations
import Testing

/// `vietmap-sim drive` within bounds: a drive of more than 1,000,000 fixes is refused before it
/// is made (one line naming the options, exit 64, nothing written), `--via`, `--stop`, `--detour`
/// and `--gap` are taken at most 1,000 times each, and a trace is streamed out, not held — the same
/// bytes to a file and to stdout.
@Suite final class DriveBoundsCLITests {
    static let from = "10.7769,106.7008", to = "10.7798,106.6990"

    var binary: URL {
        CLIRunner.executable(besideBundleOf: DriveBoundsCLITests.self)
            ?? Bundle(for: DriveBoundsCLITests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("vietmap-sim")
    }

    var folder: URL!

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-drive-bounds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    func drive(_ arguments: [String]) throws -> CLIRunner.Outcome {
        try CLIRunner.run(binary, ["drive", "--db", try TestDataset.path(), "--from", Self.from, "--to", Self.to] + arguments)
    }

    private func assertRefused(_ arguments: [String], _ fragments: [String], line: Int = #line) throws {
        let out = folder.appendingPathComponent("refused.gpx")
        let outcome = try drive(arguments + ["--out", out.path])
        expectEqual(outcome.status, 64, outcome.stderr, line: line)
        let lines = outcome.stderr.split(separator: "\n")
        expectEqual(lines.count, 1, outcome.stderr, line: line)
        for fragment in fragments { expectTrue(outcome.stderr.contains(fragment), "\(fragment) in \(outcome.stderr)", line: line) }
        expectEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "nothing written", line: line)
    }

    @Test func testADriveOverAMillionFixesIsRefusedUpFront() throws {
        let dayLongStops = (0..<20).flatMap { _ in ["--stop", "0:86400"] }
        try assertRefused(["--rate", "50"] + dayLongStops, ["the trace would have 86404", "--rate 50", "at most 1000000"])
        try assertRefused(["--rate", "50", "--speed-factor", "0.01", "--stop", "10:20000"],
                          ["fixes (29", "--speed-factor 0.01", "at most 1000000"])
    }

    @Test func testViaStopDetourAndGapAreTakenAtMostAThousandTimes() throws {
        for option in ["--via", "--stop", "--detour", "--gap"] {
            let value = option == "--detour" ? "50@1" : option == "--via" ? Self.to : "1:1"
            try assertRefused(Array((0...1_000).map { _ in [option, value] }.joined()), ["\(option) is given 1001 times; at most 1000"])
        }
        let gaps = (0..<1_000).flatMap { ["--gap", "\(Double($0) / 10):0.05"] }
        let fine = try drive(["--rate", "10", "--out", folder.appendingPathComponent("gaps.gpx").path] + gaps)
        expectEqual(fine.status, 0, fine.stderr)
    }

    /// 50 Hz over the 99 s route: ≈ 4,950 fixes, ≈ 890 KB of GPX — many 64 KiB pieces.
    @Test func testALargeTraceIsTheSameBytesInAFileAndOnStdout() throws {
        let out = folder.appendingPathComponent("fast.gpx")
        let written = try drive(["--rate", "50", "--out", out.path])
        expectEqual(written.status, 0, written.stderr)
        let file = try Data(contentsOf: out)
        expectGreaterThan(file.count, 800_000)
        let printed = try drive(["--rate", "50", "--format", "gpx"])
        expectEqual(printed.status, 0, printed.stderr)
        expectEqual(Data(printed.stdout.utf8), file)
        let text = String(decoding: file, as: UTF8.self)
        expectTrue(text.hasSuffix("</trkseg>\n  </trk>\n</gpx>\n"))
        let fixes = text.components(separatedBy: "<trkpt ").count - 1
        expectEqual(text.components(separatedBy: "<wpt ").count - 1, fixes)
        expectTrue(written.stderr.contains("\(fixes) fixes (gpx)"), written.stderr)
    }
}
