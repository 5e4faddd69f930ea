import Foundation
import SimTesting
import TestExpectations
import Testing

/// `Scripts/check-portability` on a folder of its own (`--root`), so the result does not depend on
/// the repository's state: planted Glibc-only constructs are named by file and line, a clean file,
/// comments and Sources/Platform are not.
@Suite final class PortabilityCheckTests {
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scripts/check-portability")

    /// The Linux-only folder the check looks for in strings too, in two pieces so that it does
    /// not find it in this file.
    private static let procFolder = "/" + "proc/"

    private var root: URL!

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("portability-\(UUID().uuidString)")
        try write("Sources/Platform/Libc.swift", """
            #if canImport(Glibc)
            @_exported import Glibc
            #endif
            """)
        try write("Sources/Tool/Clean.swift", """
            import Platform

            /// Not `fork()`: ChildProcess.spawn. /* a block comment naming fork() and \(Self.procFolder) */
            let page = "http://example.com/proc" // a string with // in it, then fork() in a comment
            let type = Sockets.streamType
            /* fork()
               Int32(SOCK_STREAM.rawValue) */
            let text = "\\(page.count) // not a comment"
            """)
        try write("Tests/ToolTests/Planted.swift", """
            import Foundation
            // fork()
            func start() -> Int32 {
                let pid = fork()  // \(Self.procFolder) in a comment
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                return pid + fd
            }
            """)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    private func write(_ path: String, _ text: String) throws {
        let file = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    private func check() throws -> CLIRunner.Outcome {
        try CLIRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", Self.script.path, "--root", root.path])
    }

    @Test func testPlantedConstructsAreNamedByFileAndLine() throws {
        let outcome = try check()
        expectEqual(outcome.status, 1, outcome.stdout + outcome.stderr)
        let findings = outcome.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("portability:") }
        expectEqual(findings, ["Tests/ToolTests/Planted.swift:4: fork()",
                                  "Tests/ToolTests/Planted.swift:5: SOCK_STREAM.rawValue"], outcome.stdout)
    }

    @Test func testACleanTreeIsOneLine() throws {
        try FileManager.default.removeItem(at: root.appendingPathComponent("Tests"))
        let outcome = try check()
        expectEqual(outcome.status, 0, outcome.stdout + outcome.stderr)
        expectEqual(outcome.stdout, "portability: 1 files checked, nothing Glibc-only outside Sources/Platform\n")
    }
}
