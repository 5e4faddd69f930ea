import Foundation
import SeededRandom
import SimTesting
import TestExpectations
import Testing

/// `serve` on its default settings keeps heavy requests from delaying light ones: autocompletes are
/// answered while 8 heavy requests (25-point tours) are still running or waiting for their turn.
/// Ordering only, no latency threshold (`Scripts/stress-fairness` measures the figures).
@Suite final class CostAwareServingCLITests {
    var binary: URL {
        CLIRunner.executable(besideBundleOf: CostAwareServingCLITests.self)
            ?? Bundle(for: CostAwareServingCLITests.self).bundleURL.deletingLastPathComponent().appendingPathComponent("vietmap-sim")
    }

    /// The times answers arrived, from the test's threads.
    private final class Arrivals: @unchecked Sendable {
        private let lock = NSLock()
        private var times: [(kind: String, status: Int, at: Date)] = []

        func add(_ kind: String, _ status: Int) {
            lock.withLock { times.append((kind, status, Date())) }
        }

        var all: [(kind: String, status: Int, at: Date)] {
            lock.withLock { times }
        }
    }

    @Test func testLightRequestsAreAnsweredWhileHeavyOnesAreStillRunning() throws {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0", "--db", try TestDataset.path()]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        var ready = ""
        while !ready.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            ready += String(decoding: chunk, as: UTF8.self)
        }
        let port = try unwrap(ready.split(separator: "\n").first?.split(separator: ":").last.flatMap { UInt16($0) }, ready)

        // 25 points spread over District 1 and 3 (the default dataset's roads): a heavy tour.
        var random = SplitMix64(seed: 35)
        func point() -> String {
            String(format: "point=%.6f,%.6f", 10.765 + Double(random.next() % 30_000) / 1e6, 106.680 + Double(random.next() % 30_000) / 1e6)
        }
        let tours = (0..<8).map { _ in "/api/tsp?api-version=1.1&apikey=dev&" + (0..<25).map { _ in point() }.joined(separator: "&") }
        let arrivals = Arrivals()
        let group = DispatchGroup()
        let sent = DispatchSemaphore(value: 0)
        for tour in tours {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                guard let client = try? RawHTTPClient(port: port, receiveTimeout: 120), (try? client.get(tour)) != nil else {
                    sent.signal()
                    arrivals.add("heavy", 0)
                    return
                }
                sent.signal()
                arrivals.add("heavy", (try? client.readResponse().status) ?? 0)
            }
        }
        // Once every tour's request is written.
        for _ in tours { expectEqual(sent.wait(timeout: .now() + 30), .success) }
        for word in ["b", "be", "ben", "ben t", "ben th", "ben tha", "ben than", "ben thanh", "nha tho", "cho ben thanh"] {
            let client = try RawHTTPClient(port: port)
            try client.get("/api/autocomplete/v4?apikey=dev&text=\(word.replacingOccurrences(of: " ", with: "%20"))")
            arrivals.add("light", try client.readResponse().status)
        }
        expectEqual(group.wait(timeout: .now() + 300), .success, "the tours are answered")

        let all = arrivals.all
        expectEqual(all.filter { $0.kind == "light" }.map(\.status), Array(repeating: 200, count: 10))
        expectEqual(all.filter { $0.kind == "heavy" }.map(\.status), Array(repeating: 200, count: 8))
        let lastLight = try unwrap(all.last { $0.kind == "light" }?.at)
        let heavyBefore = all.filter { $0.kind == "heavy" && $0.at <= lastLight }.count
        expectLessThan(heavyBefore, 8, "every autocomplete was answered while tours were still running or queued")
    }
}
