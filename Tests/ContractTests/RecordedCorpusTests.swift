import ContractKit
import Foundation
import VietMapClient
import XCTest

/// `.provider(...)` targets go green: keys reach the backend as the query says, recordings keep
/// answers that differ only in the key apart, and a recorded corpus replays the whole contract offline.
final class RecordedCorpusTests: XCTestCase {
    static let key = "rec-key-7f3a91"

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("recorded-corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    func testTheClientProviderPassesTheWholeCorpus() async throws {
        let sim = try ContractSimulator.get()
        let provider = HTTPVietMapProvider.simulator(baseURL: sim.baseURL, apiKey: Self.key)
        let report = try await ContractSuite(target: .provider(provider), contracts: sim.contracts).run()
        XCTAssertTrue(report.passed, report.summary())
        let emptyKey = sim.contracts.corpus.queries.filter { $0.pending == nil && $0.parameters.contains { $0.name == "apikey" && $0.value == .literal("") } }
        XCTAssertGreaterThanOrEqual(emptyKey.count, 3)
        XCTAssertEqual(report.results.filter { $0.status == 401 }.count, emptyKey.count, "the empty-key queries reach the backend without a key")
    }

    func testARecordedCorpusReplaysTheWholeContractOffline() async throws {
        let sim = try ContractSimulator.get()
        let recorder = RecordingVietMapProvider(wrapping: HTTPVietMapProvider.simulator(baseURL: sim.baseURL, apiKey: Self.key))
        let recorded = try await ContractSuite(target: .provider(recorder), contracts: sim.contracts).run()
        XCTAssertTrue(recorded.passed, recorded.summary())
        XCTAssertEqual(recorded.results.count, sim.contracts.corpus.queries.count)
        let queries = recorded.results.filter { $0.skipped == nil }.count

        let directory = try temporaryDirectory()
        let files = try await recorder.write(to: directory)
        let distinct = Set(recorded.results.compactMap { $0.request.map { VMRecording(request: $0, response: VMRawResponse(status: 0, body: Data())).suggestedFileName } })
        XCTAssertEqual(files.count, distinct.count, "one file per distinct request and key class")
        XCTAssertGreaterThanOrEqual(files.count, queries - 2, "a 401 and a 200 to the same request no longer overwrite each other")
        var sawEmptyKeyClass = false
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            XCTAssertFalse(text.contains(Self.key), "\(file.lastPathComponent) holds the key")
            if text.contains("<redacted:empty>") { sawEmptyKeyClass = true }
        }
        XCTAssertTrue(sawEmptyKeyClass)

        // Offline: only the files answer.
        let replay = try RecordedVietMapProvider(directory: directory)
        let offline = try await ContractSuite(target: .provider(replay), contracts: sim.contracts).run()
        XCTAssertTrue(offline.passed, offline.summary())
        XCTAssertTrue(offline.results.allSatisfy { $0.skipped == nil || $0.skipped!.hasPrefix("pending: ") }, "every query but the pending ones ran")
        XCTAssertEqual(offline.results.map(\.name), recorded.results.map(\.name))
        XCTAssertEqual(offline.results.map(\.status), recorded.results.map(\.status))
        XCTAssertEqual(offline.results.map(\.body), recorded.results.map(\.body))
    }

    func testRequestsDifferingOnlyInTheKeyAreKeptApart() async throws {
        let sim = try ContractSimulator.get()
        let recorder = RecordingVietMapProvider(wrapping: HTTPVietMapProvider.simulator(baseURL: sim.baseURL, apiKey: Self.key))
        let text = VMParameter("text", "ben thanh")
        let withProviderKey = VMRequest(.autocomplete, [text])
        let empty = VMRequest(.autocomplete, [VMParameter("apikey", ""), text])
        let other = VMRequest(.autocomplete, [VMParameter("apikey", "another-key"), text])
        let answers = [try await recorder.send(withProviderKey), try await recorder.send(empty), try await recorder.send(other)]
        XCTAssertEqual(answers.map(\.status), [200, 401, 200])
        let directory = try temporaryDirectory()
        let written = try await recorder.write(to: directory)
        XCTAssertEqual(written.count, 3)

        let replay = try RecordedVietMapProvider(directory: directory)
        var replayed: [Int] = []
        for request in [withProviderKey, empty, other] { replayed.append(try await replay.send(request).status) }
        XCTAssertEqual(replayed, [200, 401, 200])
        // A key never recorded falls back to the provider-key recording; an empty key never does.
        let unseen = try await replay.send(VMRequest(.autocomplete, [VMParameter("apikey", "unseen"), text]))
        XCTAssertEqual(unseen.status, 200)
        let emptyOnly = RecordedVietMapProvider(recordings: replay.recordings.filter { $0.request.keyClass == nil })
        do {
            _ = try await emptyOnly.send(empty)
            XCTFail("an empty key must not get the answer recorded with a key")
        } catch let error as VMClientError {
            XCTAssertTrue("\(error)".contains("<redacted:empty>"), "\(error)")
        }
    }
}
