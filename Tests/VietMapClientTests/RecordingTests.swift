import Foundation
import VietMapClient
import XCTest

/// Record from the simulator once, replay from files: identical typed results, no network.
final class RecordingTests: XCTestCase {
    let sim = ClientTestSimulator.shared

    private func temporaryDirectory() throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("vm-client-recordings-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// The same session against any backend: three typed calls and two typed errors.
    private struct Session {
        var items = "", place = "", route = "", notFound = "", noRoute = ""
    }

    private func runSession(_ provider: any VietMapProvider) async throws -> Session {
        var session = Session()
        let items = try await provider.autocomplete(text: "nha tho duc ba", focus: Places.focus,
                                                    additionalParameters: [VMParameter("layers", "POI")])
        session.items = try canonicalJSON(items)
        let detail = try await provider.placeDetail(refId: try XCTUnwrap(items.first).refId)
        session.place = try canonicalJSON(detail)
        let from = VMCoordinate(latitude: try XCTUnwrap(detail.lat), longitude: try XCTUnwrap(detail.lng))
        let route = try await provider.route(points: [from, Places.benThanhMarket, Places.q3], vehicle: .car)
        session.route = try canonicalJSON(route)
        session.notFound = String(describing: await assertThrowsClientError { try await provider.placeDetail(refId: "auto:nope") })
        session.noRoute = String(describing: await assertThrowsClientError { try await provider.route(points: [Places.focus, Places.hoanKiem]) })
        return session
    }

    func testReplayGivesIdenticalTypedResults() async throws {
        let recorder = RecordingVietMapProvider(wrapping: sim.provider())
        let live = try await runSession(recorder)
        XCTAssertTrue(live.notFound.contains("HTTP 404"), live.notFound)
        XCTAssertTrue(live.noRoute.contains("no route"), live.noRoute)

        let directory = try temporaryDirectory()
        let files = try await recorder.write(to: directory)
        XCTAssertEqual(files.count, 5)
        let recordings = await recorder.recordings
        XCTAssertEqual(recordings.map(\.request.endpoint), [.autocomplete, .place, .route, .place, .route])
        // No key, no per-run headers in the fixtures.
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            XCTAssertFalse(text.contains(ClientTestSimulator.apiKey), file.lastPathComponent)
            XCTAssertFalse(text.lowercased().contains("\"date\""), file.lastPathComponent)
        }
        // Bodies are embedded verbatim: the replayed bytes are the recorded bytes.
        let replay = try RecordedVietMapProvider(directory: directory)
        for recording in recordings {
            let replayed = try await replay.send(recording.request)
            XCTAssertEqual(replayed.body, recording.response.body)
            XCTAssertEqual(replayed.status, recording.response.status)
            XCTAssertEqual(replayed.headers["content-type"], recording.response.headers["content-type"])
        }

        let replayedSession = try await runSession(replay)
        XCTAssertEqual(replayedSession.items, live.items)
        XCTAssertEqual(replayedSession.place, live.place)
        XCTAssertEqual(replayedSession.route, live.route)
        XCTAssertEqual(replayedSession.notFound, live.notFound)
        XCTAssertEqual(replayedSession.noRoute, live.noRoute)
    }

    func testMatchingIgnoresOrderAndKeyButNotPointOrder() async throws {
        let route = try VMRequest.route(points: [Places.benThanhMarket, Places.q3], additionalParameters: [VMParameter("avoid", "toll")])
        let replay = RecordedVietMapProvider(recordings: [
            VMRecording(request: route, response: VMRawResponse(status: 200, body: Data(#"{"code":"OK","paths":[]}"#.utf8))),
        ])
        // Shuffled parameters (points kept in order) and an apikey: still the recording.
        var shuffled = route
        shuffled.parameters = [VMParameter("apikey", "anything")] + route.parameters.reversed().filter { $0.name != "point" }
            + route.parameters.filter { $0.name == "point" }
        let answer = try await replay.send(shuffled)
        XCTAssertEqual(answer.status, 200)

        // Points reversed: another route, not recorded.
        var reversed = route
        reversed.parameters = route.parameters.filter { $0.name != "point" } + route.parameters.filter { $0.name == "point" }.reversed()
        let error = await assertThrowsClientError { try await replay.send(reversed) }
        guard case .notRecorded(let request, let detail)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(request, reversed)
        XCTAssertTrue(detail.contains("another order"), detail)
    }

    func testUnmatchedRequestIsAClearError() async throws {
        let directory = try temporaryDirectory()
        let recorder = RecordingVietMapProvider(wrapping: sim.provider())
        _ = try await recorder.autocomplete(text: "cho ben thanh", focus: Places.focus)
        try await recorder.write(to: directory)
        let replay = try RecordedVietMapProvider(directory: directory)
        _ = try await replay.autocomplete(text: "cho ben thanh", focus: Places.focus)

        var error = await assertThrowsClientError { try await replay.autocomplete(text: "cho ben thanh 2", focus: Places.focus) }
        guard case .notRecorded(_, let detail)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertTrue(detail.contains("text=cho ben thanh 2"), detail)
        XCTAssertTrue(detail.contains("text=cho ben thanh where"), detail)
        XCTAssertTrue(error!.description.hasPrefix("no recording for /api/autocomplete/v4?text=cho ben thanh 2"), error!.description)

        error = await assertThrowsClientError { try await replay.placeDetail(refId: "auto:x") }
        guard case .notRecorded(_, let other)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(other, "no recordings for /api/place/v4 among 1")
    }

    func testFixtureFormat() throws {
        let handWritten = #"""
        [
          {"request": {"endpoint": "/api/place/v4", "parameters": [["refid", "auto:a"], ["apikey", "secret"]]},
           "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                        "body": {"display": "Chợ \"Bến\" Thành \u0041\ud83d\udef5", "lat": 10.7725, "lng": 106.698}}},
          {"request": {"endpoint": "/api/place/v4", "parameters": [["refid", "auto:b"]]},
           "response": {"status": 502, "body": "<html>bad gateway</html>"}},
          {"request": {"endpoint": "/api/place/v4", "parameters": [["refid", "auto:c"]]},
           "response": {"status": 200, "body": "//79", "bodyEncoding": "base64"}}
        ]
        """#
        let recordings = try VMRecording.decode(fixture: Data(handWritten.utf8))
        XCTAssertEqual(recordings.count, 3)
        // The key is redacted to its class on reading: never kept, still told apart.
        XCTAssertEqual(recordings[0].request.parameters, [VMParameter("refid", "auto:a"), VMParameter("apikey", VMKeyRedaction.token(for: "secret"))])
        XCTAssertTrue(recordings[0].request.keyClass?.hasPrefix("<redacted:key#") ?? false)
        XCTAssertFalse(String(decoding: recordings[0].fixtureData(), as: UTF8.self).contains("secret"))
        XCTAssertEqual(recordings[0].response.headers, ["content-type": "application/json"])
        XCTAssertEqual(String(decoding: recordings[0].response.body, as: UTF8.self),
                       #"{"display": "Chợ \"Bến\" Thành \u0041\ud83d\udef5", "lat": 10.7725, "lng": 106.698}"#)
        XCTAssertEqual(String(decoding: recordings[1].response.body, as: UTF8.self), "<html>bad gateway</html>")
        XCTAssertEqual(recordings[2].response.body, Data([0xFF, 0xFE, 0xFD]))

        // Writing then reading gives the same bytes back, whatever the body.
        for recording in recordings {
            let again = try VMRecording.decode(fixture: recording.fixtureData())
            XCTAssertEqual(again.count, 1)
            XCTAssertEqual(again[0].response.body, recording.response.body)
            XCTAssertEqual(again[0].response.status, recording.response.status)
            XCTAssertEqual(again[0].request, recording.request)
        }
        let quoted = VMRecording(request: try .autocomplete(text: "a\"b\\c\n\u{1}"),
                                 response: VMRawResponse(status: 200, body: Data(#""just a JSON string""#.utf8)))
        let again = try VMRecording.decode(fixture: quoted.fixtureData())[0]
        XCTAssertEqual(again.request, quoted.request)
        XCTAssertEqual(again.response.body, quoted.response.body)

        // Broken fixtures name the place and the problem.
        for (text, expected) in [
            (#"{"request": {"endpoint": "/api/route/v9"}, "response": {"status": 200}}"#, "unknown request.endpoint"),
            (#"{"request": {"endpoint": "/api/place/v4"}, "response": {"status": "200"}}"#, "response.status"),
            ("{\n\"request\": [,]}", "line 2"),
            (#"{"response": {"status": 200}}"#, "needs \"request\" and \"response\""),
        ] {
            XCTAssertThrowsError(try VMRecording.decode(fixture: Data(text.utf8), source: "x.json")) { error in
                XCTAssertTrue("\(error)".hasPrefix("x.json"), "\(error)")
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }
}
