import Foundation
import JSON
import SimTesting
import TestExpectations
import Testing

/// `vietmap-sim contract` as a CI job runs it: an app's decoder in another language
/// (`--decoder`), a scenario baseline (`--baseline`), exit codes.
@Suite final class ContractCLITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    var binary: URL {
        CLIRunner.executable(besideBundleOf: ContractCLITests.self)
            ?? Bundle(for: ContractCLITests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("vietmap-sim")
    }

    var folder: URL!
    var server: Process!
    var base = ""

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("contract-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A small corpus: an autocomplete, the place taken from it, an encoded and a GeoJSON route.
        let corpus = try JSONParser.parse(Data(contentsOf: Self.root.appendingPathComponent("Contracts/queries.json")))
        let keep: Set<String> = ["ac-nha-tho-duc-ba", "place-from-autocomplete", "route-car", "route-unencoded"]
        let queries = corpus["queries"]?.arrayValue?.filter { keep.contains($0["name"]?.stringValue ?? "") } ?? []
        expectEqual(queries.count, keep.count)
        let small = JSONValue.object(JSONObject([("knownModelGaps", corpus["knownModelGaps"] ?? .array([])), ("queries", .array(queries))]))
        try Data(JSONSerializer.bytes(small)).write(to: folder.appendingPathComponent("queries.json"))

        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--db", try TestDataset.path(), "--admin"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        server = process
        var line = ""
        while !line.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += String(decoding: chunk, as: UTF8.self)
        }
        let ready = line.split(separator: "\n").first.map(String.init) ?? line
        expectTrue(ready.hasPrefix("vietmap-sim listening on "), ready)
        base = String(ready.dropFirst("vietmap-sim listening on ".count))
    }

    deinit {
        if server?.isRunning == true { server.terminate(); server.waitUntilExit() }
        try? FileManager.default.removeItem(at: folder)
    }

    func contract(_ arguments: [String]) throws -> CLIRunner.Outcome {
        try CLIRunner.run(binary, ["contract", "--target", base, "--queries", folder.appendingPathComponent("queries.json").path,
                                   "--contracts", Self.root.appendingPathComponent("Contracts").path] + arguments,
                          in: Self.root, environment: ["CI": ""])
    }

    /// The Node and Python decoders of Examples/Decoders, strict where the reference client is:
    /// every scenario through them, the polyline trap a crash, the missing `ref_id` a decode failure.
    @Test func testDecodersInOtherLanguagesGoThroughEveryScenario() throws {
        for decoder in ["node Examples/Decoders/decode.js", "python3 Examples/Decoders/decode.py"] {
            let outcome = try contract(["--decoder", decoder, "--accept-gap", "/paths/*/points", "--scenarios"])
            expectEqual(outcome.status, 0, outcome.stdout + outcome.stderr)
            let lines = outcome.stdout.split(separator: "\n").map(String.init)
            expectTrue(lines.contains { $0.hasPrefix("  malformed-polyline") && $0.contains("APP CODE CRASH") }, outcome.stdout)
            expectTrue(lines.contains { $0.contains("breaks: route-car /paths/0/points") == false && $0.contains("breaks: route-car /: [crash] decoder '\(decoder)' crashed (SIGABRT") },
                          outcome.stdout)
            expectTrue(lines.contains { $0.hasPrefix("  autocomplete-no-ref-id") && $0.contains("MODELS BREAK") }, outcome.stdout)
            expectTrue(lines.contains { $0.contains("breaks: ac-nha-tho-duc-ba /0/ref_id: [model] decoder '\(decoder)': \"ref_id\" is required") },
                          outcome.stdout)
            expectTrue(lines.contains { $0.hasPrefix("  flaky-503") && $0.contains("models survive") }, outcome.stdout)
        }
    }

    /// Without the accepted gap the GeoJSON route is the decoder's failure: exit 1, the line names
    /// the decoder, the pointer it gave and the value there. A gap that matches nothing fails too.
    @Test func testDecoderFailuresAndUnusedGapsExitOne() throws {
        let strict = try contract(["--decoder", "node Examples/Decoders/decode.js"])
        expectEqual(strict.status, 1)
        expectTrue(strict.stdout.contains(#"FAIL route-unencoded /paths/0/points: [model] decoder 'node Examples/Decoders/decode.js': "points" must be a string; the response has a object (at /paths/0/points: {"type":"LineString""#),
                      strict.stdout)
        let typo = try contract(["--decoder", "node Examples/Decoders/decode.js", "--accept-gap", "/paths/*/points,/path/*/points"])
        expectEqual(typo.status, 1)
        expectTrue(typo.stdout.contains("FAIL gap decoder 'node Examples/Decoders/decode.js' at /path/*/points: [unused-gap] accepted gap matched nothing"), typo.stdout)
    }

    /// A decoder that does not finish is a hang of the app's code; one killed by a signal a crash.
    @Test func testHangsAndSignalsOfTheDecoder() throws {
        let hanging = try contract(["--decoder", #"sh -c 'if [ "$0" = route ]; then sleep 5; fi'"#, "--decoder-timeout", "0.5",
                                    "--accept-gap", "/paths/*/points"])
        expectEqual(hanging.status, 1)
        expectTrue(hanging.stdout.contains("FAIL route-car /: [hang] decoder"), hanging.stdout)
        expectTrue(hanging.stdout.contains("did not finish within 0.5 s"), hanging.stdout)
        let killed = try contract(["--decoder", #"sh -c 'if [ "$0" = place ]; then kill -SEGV $$; fi'"#])
        expectTrue(killed.stdout.contains("FAIL place-from-autocomplete /: [crash] decoder"), killed.stdout)
        expectTrue(killed.stdout.contains("crashed (SIGSEGV"), killed.stdout)
    }

    /// `--baseline`: the first run writes the file, an edited expectation is one `[baseline]` line
    /// and exit 1 (that a run holds to an unchanged file: ScenarioBaselineTests).
    @Test func testABaselineFileHoldsScenarioOutcomes() throws {
        let file = folder.appendingPathComponent("ci/scenario-baseline.json")
        let arguments = ["--decoder", "node Examples/Decoders/decode.js", "--accept-gap", "/paths/*/points", "--baseline", file.path]
        let first = try contract(arguments)
        expectEqual(first.status, 0, first.stdout)
        expectTrue(first.stdout.contains("baseline written (25 scenarios)") || first.stdout.contains("baseline written ("), first.stdout)
        var text = try String(contentsOf: file, encoding: .utf8)
        let line = try unwrap(text.split(separator: "\n").first { $0.contains("\"malformed-polyline\"") })
        text = text.replacingOccurrences(of: String(line), with: #"    "malformed-polyline": {"outcome":"survives"},"#)
        try Data(text.utf8).write(to: file)
        let red = try contract(arguments)
        expectEqual(red.status, 1, red.stdout)
        expectTrue(red.stdout.contains("FAIL scenario malformed-polyline: [baseline] expected survives, now APP CODE CRASH (decoder 'node Examples/Decoders/decode.js') — route-car /: decoder"),
                      red.stdout)
        // On CI a missing baseline is a failure, not a file.
        let ci = try CLIRunner.run(binary, ["contract", "--target", base, "--queries", folder.appendingPathComponent("queries.json").path,
                                            "--baseline", folder.appendingPathComponent("missing.json").path],
                                   in: Self.root, environment: ["CI": "true"])
        expectEqual(ci.status, 1)
        expectTrue(ci.stdout.contains("on CI it is never written"), ci.stdout)
        expectFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("missing.json").path))
    }
}
