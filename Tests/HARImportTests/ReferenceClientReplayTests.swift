import Foundation
import HARImport
import HTTPServer
import JSON
import Scenarios
import VietMapClient
import XCTest

/// A HAR with failing routes becomes a scenario under which the reference client
/// (`HTTPVietMapProvider` + the reference models) fails exactly as it did on the captured answers.
final class ReferenceClientReplayTests: XCTestCase {
    func testFailingRoutesFromAHARFailTheReferenceClientTheSameWay() async throws {
        let points = [VMCoordinate(latitude: 10.7769, longitude: 106.7008), VMCoordinate(latitude: 10.7725, longitude: 106.6980)]
        let request = try VMRequest.route(points: points, vehicle: .car)
        let capturedURL = try HTTPVietMapProvider.live(apiKey: "FIELD-KEY").url(for: request).absoluteString

        // The same route asked four times in the field, four different failures, in this order.
        let answers: [(status: Int, headers: [(String, String)], body: String)] = [
            (500, [("Content-Type", "application/json")], #"{"license":"vietmap","code":"ERROR_UNKNOWN","messages":"internal error","paths":null}"#),
            (200, [("Content-Type", "application/json")], #"{"license":"vietmap","code":"OK","messages":null,"paths":[]}"#),
            (200, [("Content-Type", "application/json")], #"{"license":"vietmap","code":"ZERO_RESULTS","messages":"no route","paths":[]}"#),
            (200, [("Content-Type", "application/json")], #"{"license":"vietmap","code":"OK","paths":[{"distance":"12","points":[[106.7,10.77]]}]}"#),
            (429, [("Content-Type", "application/json"), ("Retry-After", "60")], #"{"code":"OVER_DAILY_LIMIT","message":"limit"}"#),
        ]
        var har = HARWriter()
        for answer in answers {
            har.add(url: capturedURL, status: answer.status, headers: answer.headers, body: Data(answer.body.utf8), storage: .gzipBase64)
        }
        let result = try HARImport.exchanges(fromHAR: Data(JSONSerializer.bytes(har.document)))
        XCTAssertEqual(result.exchanges.count, answers.count)
        let document = try ReplayScenario.document(for: result.exchanges, options: .init(name: "route-field-failures", description: "d"))
        let scenario = try Scenario(json: Data(JSONSerializer.bytes(document)))
        XCTAssertNotNil(document["rules"]?[0]?["sequence"], "one request, several answers: a sequence")

        let engine = ScenarioEngine(library: ScenarioLibrary(scenarios: [scenario]))
        let server = try startServer(engine: engine)
        let provider = HTTPVietMapProvider(baseURL: URL(string: "http://127.0.0.1:\(server.port)/__scenario/route-field-failures")!,
                                           apiKey: "dev")
        // …and a sixth call gets the last answer again.
        for (index, answer) in (answers + [answers.last!]).enumerated() {
            let captured = VMRawResponse(status: answer.status, body: Data(answer.body.utf8))
            let expected = outcome { () throws(VMClientError) in try VMResponseDecoding.route(from: captured) }
            let replayed: String
            do throws(VMClientError) {
                replayed = describe(.success(try await provider.route(points: points, vehicle: .car)))
            } catch {
                replayed = describe(.failure(error))
            }
            XCTAssertEqual(replayed, expected, "call \(index + 1)")
        }
        XCTAssertTrue(outcome { () throws(VMClientError) in
            try VMResponseDecoding.route(from: VMRawResponse(status: 500, body: Data(answers[0].body.utf8)))
        }.hasPrefix("failure: HTTP 500: ERROR_UNKNOWN"))
    }

    private func outcome(_ body: () throws(VMClientError) -> VMRouteResponse) -> String {
        do {
            return describe(.success(try body()))
        } catch {
            return describe(.failure(error))
        }
    }

    private func describe(_ result: Result<VMRouteResponse, VMClientError>) -> String {
        switch result {
        case .success(let route): return "success: \(route.paths?.count ?? -1) paths"
        case .failure(let error): return "failure: \(error.description)"
        }
    }
}
