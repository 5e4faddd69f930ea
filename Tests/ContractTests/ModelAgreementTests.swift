import ContractKit
import Foundation
import JSON
import VietMapClient
import XCTest

/// The recording decoder and model agreement, read from the models themselves.
final class ModelAgreementTests: XCTestCase {
    func testTheRecorderReadsWhatAModelAsksFor() {
        let shape = ModelRecorder(VMRouteResponse.self).shape
        guard case .object(let type, let fields) = shape else { return XCTFail("\(shape)") }
        XCTAssertEqual(type, "VMRouteResponse")
        XCTAssertEqual(fields.map(\.key), ["paths"])
        XCTAssertFalse(fields[0].required)
        XCTAssertEqual(fields[0].swiftType, "[VMRoutePath]?")
        guard case .array(.object("VMRoutePath", let path)) = fields[0].shape else { return XCTFail("\(fields[0].shape)") }
        XCTAssertEqual(path.map(\.key), ["distance", "time", "points"])
        XCTAssertEqual(path.map(\.required), [true, false, true])
        XCTAssertEqual(path.map(\.shape), [.number, .number, .string])
        XCTAssertEqual(path.map(\.property), ["distance", "time", "points"])

        let item = ModelRecorder([VMSearchItem].self).shape
        guard case .array(.object(_, let itemFields)) = item else { return XCTFail("\(item)") }
        let refID = itemFields.first { $0.key == "ref_id" }
        XCTAssertEqual(refID?.property, "refId")
        XCTAssertEqual(refID?.required, true)
        XCTAssertEqual(itemFields.first { $0.key == "data_old" }?.swiftType, "VMSearchVariant?")
    }

    /// The example the issue names: `VMRoutePath.points: String` against a points_encoded=false answer.
    func testPointsStringAgainstAnUnencodedRouteIsCaught() async throws {
        let sim = try ContractSimulator.get()
        let provider = ContractHTTPProvider(baseURL: sim.baseURL, apiKey: "test")
        let answer = try await provider.send(VMRequest(.route, [VMParameter("point", "10.7769,106.7008"), VMParameter("point", "10.7725,106.6980"),
                                                                VMParameter("points_encoded", "false")]))
        let body = try JSONParser.parse(answer.body)
        let recording = ModelRecorder(VMRouteResponse.self).walk(body, data: answer.body)
        XCTAssertFalse(recording.decodes)
        XCTAssertEqual(recording.decoderErrorPointer, "/paths/0/points")
        XCTAssertEqual(recording.issues.count, 1, "\(recording.issues)")
        let issue = try XCTUnwrap(recording.issues.first)
        XCTAssertEqual(issue.kind, .typeMismatch)
        XCTAssertEqual(issue.pointer, "/paths/0/points")
        XCTAssertEqual(issue.field, "VMRoutePath.points: String")
        XCTAssertTrue(issue.message.contains("object"), issue.message)

        // Without the corpus' known gap, the whole suite reports it as a failure, statically and per answer.
        var options = ContractSuite.Options()
        options.acceptKnownGaps = false
        let report = try await sim.suite(options: options).run(only: ["route-unencoded"])
        XCTAssertFalse(report.passed)
        XCTAssertTrue(report.allFailures.contains { $0.query == "route-unencoded" && $0.kind == .model && $0.pointer == "/paths/0/points" })
        XCTAssertTrue(report.allFailures.contains { $0.query == "model:VMRouteResponse" && $0.pointer == "/paths/*/points" })
    }

    /// `VMRoutePath.distance: Double` is required, but `paths` is optional: an error envelope with
    /// `paths: null` decodes, and so does ZERO_RESULTS' `paths: []`.
    func testRequiredFieldsBelowAnOptionalArrayAreFine() {
        let recorder = ModelRecorder(VMRouteResponse.self)
        for body: JSONValue in [["license": "vietmap", "code": "INVALID_REQUEST", "messages": "x", "paths": .null],
                                ["license": "vietmap", "code": "ZERO_RESULTS", "messages": "x", "paths": []],
                                ["code": "OK"]] {
            let recording = recorder.walk(body)
            XCTAssertTrue(recording.decodes, "\(body)")
            XCTAssertEqual(recording.issues, [])
        }
        let broken = recorder.walk(["paths": [["time": 1, "points": "??"], ["distance": .null, "points": 5]]])
        XCTAssertFalse(broken.decodes)
        XCTAssertEqual(broken.issues.map(\.kind), [.missingRequired, .nullForRequired, .typeMismatch])
        XCTAssertEqual(broken.issues.map(\.pointer), ["/paths/0/distance", "/paths/1/distance", "/paths/1/points"])
    }

    func testStaticAgreementFlagsRequirementsTheContractDoesNotGuarantee() async throws {
        struct Strict: Decodable {
            let partner_code: String       // optional and nullable in the contract
            let data_old: [String: String]? // an object: fine
            let distance: Int              // the contract says number
        }
        let report = try await ContractSimulator.get().suite().run(only: ["ac-no-focus"], models: [.autocomplete: ContractModel([Strict].self)])
        let agreement = try XCTUnwrap(report.models.first { $0.model.hasSuffix(".Strict]") })
        let kinds = Dictionary(grouping: agreement.errors, by: \.path).mapValues { Set($0.map(\.kind)) }
        XCTAssertEqual(kinds["/*/partner_code"], [.requiredButOptional, .requiredButNullable])
        XCTAssertEqual(kinds["/*/distance"], [.typeMismatch])
        XCTAssertNil(kinds["/*/data_old"])
    }

    /// A model that tries a polyline string and falls back to a GeoJSON object agrees with both
    /// encodings: the recorder lets the model's own fallback run instead of reporting it.
    func testAModelWithAFallbackAgrees() async throws {
        struct Geometry: Decodable {
            let encoded: String?
            let coordinates: [[Double]]?
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let string = try? container.decode(String.self) {
                    encoded = string
                    coordinates = nil
                } else {
                    struct LineString: Decodable { let coordinates: [[Double]] }
                    encoded = nil
                    coordinates = try container.decode(LineString.self).coordinates
                }
            }
        }
        struct Path: Decodable { let distance: Double; let points: Geometry }
        struct Route: Decodable { let paths: [Path]? }
        let report = try await ContractSimulator.get().suite().verify(Route.self, for: .route)
        let agreement = try XCTUnwrap(report.models.first { $0.model.hasSuffix(".Route") })
        XCTAssertEqual(agreement.errors, [])
        XCTAssertEqual(agreement.knownGaps, [])
        XCTAssertTrue(report.results.filter { $0.model?.hasSuffix(".Route") == true }.allSatisfy { $0.modelDecodes == true })
    }

    func testReferenceStyleAndStrictPolylineDecoding() {
        // Valid: both decoders agree.
        guard case .success(let points) = ReferencePolyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@") else { return XCTFail() }
        XCTAssertEqual(points.count, 3)
        XCTAssertEqual(points[0].latitude, 38.5, accuracy: 1e-9)
        // A space (below '?') traps in the reference client: asciiValue - 63 underflows.
        guard case .failure(let below) = ReferencePolyline.decode("_p~iF ps|U") else { return XCTFail() }
        XCTAssertEqual(below.offset, 5)
        XCTAssertTrue(below.reason.contains("overflows UInt8"))
        // Non-ASCII: asciiValue! unwraps nil.
        guard case .failure(let nonASCII) = ReferencePolyline.decode("_p~iFé") else { return XCTFail() }
        XCTAssertTrue(nonASCII.reason.contains("not ASCII"))
        // A latitude without its longitude: the reference reads past the end.
        guard case .failure(let truncated) = ReferencePolyline.decode("_p~iF") else { return XCTFail() }
        XCTAssertTrue(truncated.reason.contains("out-of-range"))
        // A value cut inside its chunks: the reference silently returns a wrong point, the strict decoder refuses.
        guard case .success(let silent) = ReferencePolyline.decode("_p~iF~ps|") else { return XCTFail() }
        XCTAssertEqual(silent.count, 1)
    }

    func testThePolylineCheckReportsWhatTheReferenceClientWouldDo() async throws {
        let contracts = try ContractSimulator.get().contracts
        let broken = #"{"license":"vietmap","code":"OK","messages":null,"paths":[{"distance":10,"weight":1,"time":1000,"transfers":0,"points_encoded":true,"bbox":[106.7,10.7,106.8,10.8],"points":"_p~iF","instructions":[{"distance":0,"heading":0,"sign":4,"interval":[0,0],"text":"","time":0,"street_name":"","last_heading":null}],"snapped_waypoints":"??"}]}"#
        let provider = ClosureProvider { _ in
            VMRawResponse(status: 200, headers: ["content-type": "application/json", "access-control-allow-origin": "*"], body: Data(broken.utf8))
        }
        let report = try await ContractSuite(target: .provider(provider), contracts: contracts).run(only: ["route-car"])
        let car = try XCTUnwrap(report.result("route-car"))
        let polyline = try XCTUnwrap(car.failures.first { $0.kind == .semantic && $0.reason.hasPrefix("polyline") })
        XCTAssertEqual(polyline.pointer, "/paths/0/points")
        XCTAssertTrue(polyline.reason.contains("latitude without longitude") && polyline.reason.contains("reference decodePolyline would crash"),
                      polyline.reason)
        XCTAssertEqual(car.modelDecodes, true, "a String is a String: only the checks see the broken polyline")
    }
}
