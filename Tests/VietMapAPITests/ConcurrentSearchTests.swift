import Dataset
import Foundation
import HTTPServer
import SimTesting
import VietMapAPI
import XCTest

/// One search shared by every request thread: the same answers under concurrent requests as
/// one at a time, including the first queries with a typing error, which build the typo
/// vocabulary while others wait for it (the response cache is off, so every request searches).
final class ConcurrentSearchTests: XCTestCase {
    static let targets: [String] = {
        let queries = [
            "text=b", "text=ben%20thanh", "text=nguyen%20hue&focus=10.7769,106.7009", "text=cafe&focus=21.0285,105.8542",
            "text=thnah%20pho%20ho%20chi%20minh", "text=benh%20vien%20cho%20rayy", "text=pho%20hang%20bac&focus=21.03,105.85",
            "text=20%20ly%20tu%20trong%2C%20phuong%20ben%20nghe", "text=Q1", "text=cay%20xang&focus=10.78,106.69",
            "text=bitexxo", "text=nha%20sach&circle_center=10.77,106.70&circle_radius=3000", "text=h&layers=WARD",
            "text=cathedrl%20notre%20dame", "text=duong%20dong%20khoi",
        ]
        return queries.map { "/api/autocomplete/v4?apikey=k&" + $0 }
    }()

    private func start() throws -> (HTTPServer, VietMapService) {
        let service = try VietMapService(databasePath: try TestDataset.path(), responseCacheBytes: 0)
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, responder: service)
        try server.start()
        return (server, service)
    }

    private static func get(_ port: UInt16, _ target: String) throws -> (status: Int, body: Data) {
        let client = try RawHTTPClient(port: port, receiveTimeout: 30)
        try client.get(target)
        let response = try client.readResponse()
        return (response.status, response.body)
    }

    func testConcurrentRequestsGetTheAnswersOfSequentialOnes() throws {
        let (reference, referenceService) = try start()
        let expected = try Self.targets.map { try Self.get(reference.port, $0) }
        reference.stop()
        _ = referenceService
        XCTAssertTrue(expected.allSatisfy { $0.status == 200 })
        XCTAssertGreaterThan(expected.filter { $0.body.count > 2 }.count, 10, "most queries find something")

        // A fresh service: its typo vocabulary is built by whichever request needs it first.
        let (server, service) = try start()
        defer { server.stop() }
        _ = service
        let rounds = 3
        nonisolated(unsafe) let answers = UnsafeMutableBufferPointer<(status: Int, body: Data)?>.allocate(capacity: Self.targets.count * rounds)
        answers.initialize(repeating: nil)
        defer { answers.deinitialize(); answers.deallocate() }
        let port = server.port
        DispatchQueue.concurrentPerform(iterations: Self.targets.count * rounds) { i in
            // Each round in another order, so different queries overlap.
            let target = Self.targets[(i * (1 + i / Self.targets.count)) % Self.targets.count]
            answers[i] = try? Self.get(port, target)
        }
        for i in 0..<Self.targets.count * rounds {
            let index = (i * (1 + i / Self.targets.count)) % Self.targets.count
            let answer = try XCTUnwrap(answers[i], Self.targets[index])
            XCTAssertEqual(answer.status, expected[index].status, Self.targets[index])
            XCTAssertEqual(answer.body, expected[index].body, Self.targets[index])
        }
    }
}
