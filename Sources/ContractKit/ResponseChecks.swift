import Foundation
import Platform
import JSON
import Polyline
import VietMapClient
#if canImport(FoundationNetworking)
import FoundationNetworking
import JSONSchema
#endif

/// Checking: every check of one answer (status, headers, JSON, schema, code, semantic checks,
/// the model, the app's polyline decoder) and of the live fixtures.
extension ContractSuite {
    struct Checked {
        var body: JSONValue?
        var failures: [ContractFailure] = []
        var notes: [String] = []
        var model: String?
        var modelDecodes: Bool?
        var gapsUsed: [String] = []
        var unobserved: [ContractFailure] = []
    }

    /// Every check of one response: status, headers, JSON, schema of the documented status, code,
    /// semantic checks and the model.
    func checkResponse(name: String, endpoint: VMEndpoint, status: Int, headers: [String: String]?, data: Data,
                       expect: QueryExpectation, requestParameters: [(name: String, value: String)],
                       context: RunContext, accumulator: AgreementAccumulator) -> Checked {
        let models = context.models
        var out = Checked()
        func fail(_ kind: ContractFailure.Kind, _ pointer: String, _ reason: String, property: String? = nil, function: String? = nil) {
            out.failures.append(ContractFailure(query: name, kind: kind, pointer: pointer, reason: reason, property: property, function: function))
        }
        let body = try? JSONParser.parse(data)
        out.body = body
        if let model = models[endpoint], let external = model.external {
            // A decoder in another language judges every answer (errors included, by status).
            out.model = model.name
            let started = DispatchTime.now().uptimeNanoseconds
            let verdict = external.decode(data, endpoint: endpoint.name, query: ExternalDecoder.queryString(requestParameters),
                                          status: status, timeout: context.timeout)
            context.runner.statistics.add(nanoseconds: DispatchTime.now().uptimeNanoseconds - started)
            let input = "the \(data.count)-byte HTTP \(status) body \(Self.snippet(String(decoding: data, as: UTF8.self)))"
            switch verdict {
            case .decoded:
                out.modelDecodes = true
            case .threw(let message, let pointer):
                out.modelDecodes = false
                if let gap = context.gaps.first(where: { $0.covers(model: model, pointer: pointer ?? "", field: external.name) }) {
                    out.notes.append("\(gap.declaredBy) (\(gap.id)) \(pointer ?? "/"): \(message)")
                    if !out.gapsUsed.contains(gap.id) { out.gapsUsed.append(gap.id) }
                } else {
                    fail(.model, pointer ?? "", "\(external.name): \(message)" + (body.map { Self.valuePreview($0, at: pointer ?? "") } ?? ""),
                         property: external.name)
                }
            case .crashed(let signal, let message):
                out.modelDecodes = false
                fail(.crash, "", "\(external.name) crashed (\(Signals.name(signal))\(message.isEmpty ? ", no message)" : "): " + message) — input: \(input)",
                     function: external.name)
            case .hung(let seconds):
                out.modelDecodes = false
                fail(.hang, "", "\(external.name) did not finish within \(String(format: "%g", seconds)) s — input: \(input)", function: external.name)
            case .failed(let reason):
                out.modelDecodes = false
                fail(.crash, "", reason, function: external.name)
            }
        }
        if status != expect.status {
            let detail = body.flatMap { b in (b["message"] ?? b["messages"] ?? b["code"])?.stringValue }.map { ": \($0.prefix(120))" } ?? ""
            fail(.status, "", "expected HTTP \(expect.status), got \(status)\(detail)")
        }
        let spec = contracts.response(endpoint, status: status)
        if spec == nil {
            fail(.undocumentedStatus, "", "HTTP \(status) is not documented for GET \(endpoint.path) (documented: \(contracts.documentedStatuses(endpoint).map(String.init).joined(separator: ", ")))")
        }
        if let headers {
            let type = headers["content-type"] ?? ""
            if !type.lowercased().hasPrefix("application/json") {
                fail(.header, "", "Content-Type is '\(type)', expected application/json")
            }
            for header in spec?.requiredHeaders ?? [] where headers[header] == nil {
                fail(.header, "", "header \(header) is missing (required for HTTP \(status))")
            }
        }
        guard let body else {
            let text = String(decoding: data.prefix(80), as: UTF8.self)
            fail(.json, "", data.isEmpty ? "empty body" : "body is not JSON (\(data.count) bytes: \(text.debugDescription))")
            // The client decodes every 200: a body that is not JSON breaks its model.
            if status == 200, let declared = expect.model, let model = models[endpoint] ?? ContractModel.reference[declared], model.external == nil {
                out.model = model.name
                out.modelDecodes = false
                fail(.model, "", "\(model.shortName) cannot decode an HTTP 200 whose body is not JSON", property: model.shortName)
            }
            return out
        }
        if let reference = spec?.schemaReference {
            if let validator = contracts.validator(reference: reference) {
                for error in validator.validate(body).prefix(25) {
                    fail(.schema, error.instancePath, "\(error.message) [\(reference.replacingOccurrences(of: "schemas/", with: ""))\(error.schemaPath.isEmpty ? "" : "#" + error.schemaPath)]")
                }
            } else {
                fail(.schema, "", "no compiled schema for \(reference)")
            }
        }
        guard status == expect.status else { return out }
        if let code = expect.code, body["code"]?.stringValue != code {
            fail(.code, "/code", "expected code \(code), got \(body["code"].map { JSONSerializer.string($0) } ?? "none")")
        }
        for failure in SemanticChecks.run(expect.checks, endpoint: endpoint, body: body, parameters: requestParameters) {
            fail(.semantic, failure.pointer, "\(failure.check.rawValue): \(failure.reason)")
        }
        // The reference client decodes only HTTP 200 bodies (anything else is VMError.http).
        let model: ContractModel?
        if let declared = expect.model {
            model = models[endpoint] ?? ContractModel.reference[declared]
        } else {
            model = nil
        }
        if let model, status == 200, model.external == nil {
            out.model = model.name
            let verdict = context.runner.decode(model, data, timeout: context.timeout)
            switch verdict {
            case .crashed, .hung, .failed:
                // The app's code did not survive this answer: no field-by-field walk (it runs the
                // same code in-process), no polyline.
                out.modelDecodes = false
                let kind: ContractFailure.Kind = { if case .hung = verdict { return .hang } else { return .crash } }()
                var input = "the \(data.count)-byte body \(Self.snippet(String(decoding: data, as: UTF8.self)))"
                var pointer = ""
                if case .crashed = verdict, let at = context.runner.crashLocation(model, body, timeout: context.timeout) {
                    pointer = at
                    input = "the \(data.count)-byte body, last read at \(at.isEmpty ? "/" : at)\(Self.valuePreview(body, at: at))"
                }
                fail(kind, pointer, "\(model.decoderName) \(verdict.error ?? "") — input: \(input)", function: model.decoderName)
                return out
            case .decoded, .threw:
                break
            }
            let recording = accumulator.recorder(for: model).walk(body, data: data, verdict: verdict)
            accumulator.add(recording, model: model.name, endpoint: endpoint.rawValue)
            out.modelDecodes = recording.decodes
            if recording.decodes {
                for issue in recording.issues { out.notes.append("\(model.name) \(issue) (JSONDecoder accepts it)") }
                if endpoint.family == .route || endpoint.family == .tsp, let polyline = context.polyline {
                    checkPolylines(body, query: name, decoder: polyline, context: context,
                                   fail: { out.failures.append($0) }, unobserved: { out.unobserved.append($0) },
                                   note: { out.notes.append($0) })
                }
            } else {
                var reported = false
                for issue in recording.issues {
                    if let gap = context.gaps.first(where: { $0.covers(model: model, pointer: issue.pointer, field: issue.field) }) {
                        out.notes.append("\(gap.declaredBy) (\(gap.id)) \(issue.pointer): \(issue.message)\(gap.reason.isEmpty ? "" : " — \(gap.reason)")")
                        if !out.gapsUsed.contains(gap.id) { out.gapsUsed.append(gap.id) }
                    } else {
                        fail(.model, issue.pointer, issue.message + Self.valuePreview(body, at: issue.pointer), property: Self.property(of: issue.field))
                    }
                    reported = true
                }
                if !reported {
                    fail(.model, recording.decoderErrorPointer ?? "", "\(model.shortName) does not decode: \(recording.decoderError ?? "?")",
                         property: model.shortName)
                }
            }
        }
        return out
    }

    /// Runs the app's polyline decoder (in a contract worker, or in-process) on every encoded
    /// `/paths/N/points`: a crash or hang fails; on a polyline the strict decoder reads, the points
    /// must agree within 1e-5°.
    func checkPolylines(_ body: JSONValue, query: String, decoder: AppPolylineDecoder, context: RunContext,
                        fail: (ContractFailure) -> Void, unobserved: (ContractFailure) -> Void, note: (String) -> Void) {
        for (index, path) in (body["paths"]?.arrayValue ?? []).enumerated() {
            guard let encoded = path["points"]?.stringValue else { continue }
            let pointer = "/paths/\(index)/points"
            let input = Self.exactInput(encoded)
            func failure(_ kind: ContractFailure.Kind, _ reason: String) {
                fail(ContractFailure(query: query, kind: kind, pointer: pointer, reason: reason, function: decoder.name))
            }
            let strict = try? Polyline.decode(encoded, precision: 5)
            switch context.runner.polyline(decoder, encoded, timeout: context.timeout) {
            case .crashed(let signal, let message):
                failure(.crash, "\(decoder.name)(\(input)) crashed (\(Signals.name(signal))\(message.isEmpty ? ", no message)" : "): " + message)")
            case .hung(let seconds):
                failure(.hang, "\(decoder.name)(\(input)) did not return within \(Int(seconds)) s")
            case .notRun(let why):
                unobserved(ContractFailure(query: query, kind: .notIsolated, pointer: pointer,
                                           reason: "\(decoder.name)(\(input)) not run: \(why)", function: decoder.name))
            case .failed(let reason):
                failure(.crash, "\(decoder.name)(\(input)): \(reason)")
            case .points(let points):
                guard let strict else {
                    note("\(decoder.name)(\(Self.snippet(encoded))) returns \(points.count) points for a polyline the strict decoder rejects (no crash)")
                    continue
                }
                if points.count != strict.count {
                    failure(.polyline, "\(decoder.name)(\(input)) gives \(points.count) points, the strict decoder \(strict.count)")
                } else if let i = Self.firstDifference(points, strict) {
                    failure(.polyline, "\(decoder.name)(\(input)) point \(i) is \(points[i].lat),\(points[i].lng); the strict decoder gives \(strict[i].lat),\(strict[i].lng) (tolerance 1e-5)")
                }
            }
        }
    }

    /// The first point where the two decoders differ by more than 1e-5°.
    static func firstDifference(_ app: [LatLng], _ strict: [Coordinate2D]) -> Int? {
        for i in app.indices {
            let latDelta: Double = abs(app[i].lat - strict[i].lat)
            let lngDelta: Double = abs(app[i].lng - strict[i].lng)
            if latDelta > 1e-5 || lngDelta > 1e-5 { return i }
        }
        return nil
    }

    /// A string as it appears in findings: quoted, escaped, cut to 60 characters.
    static func snippet(_ text: String) -> String {
        let cut = text.count > 60 ? String(text.prefix(60)) + "…" : text
        return cut.debugDescription + (text.count > 60 ? " (\(text.count) characters)" : "")
    }

    /// The input of a crash, quoted and escaped: whole up to 200 characters (a crash must be
    /// reproducible from its line), else its first and last 80 with the length.
    static func exactInput(_ text: String) -> String {
        guard text.count > 200 else { return text.debugDescription }
        return String(text.prefix(80)).debugDescription + "…" + String(text.suffix(80)).debugDescription + " (\(text.count) characters)"
    }

    /// `Type.property` of a recorded field (`VMPlaceDetail.lat: Double` → `VMPlaceDetail.lat`).
    static func property(of field: String) -> String {
        field.firstIndex(of: ":").map { String(field[..<$0]) } ?? field
    }

    /// ` (at /0/lat: null)`: the value at the failing pointer, or what encloses it when the key
    /// is missing — the part of the body the finding is about, not its first bytes.
    static func valuePreview(_ body: JSONValue, at pointer: String) -> String {
        if let value = ContractPointer.resolve(pointer, in: body) {
            return " (at \(pointer): \(previewText(value)))"
        }
        guard let slash = pointer.lastIndex(of: "/"), slash != pointer.startIndex || pointer.count > 1 else { return "" }
        let parent = String(pointer[..<slash])
        guard let enclosing = parent.isEmpty ? body : ContractPointer.resolve(parent, in: body) else { return "" }
        return " (\(parent.isEmpty ? "/" : parent): \(previewText(enclosing)))"
    }

    private static func previewText(_ value: JSONValue) -> String {
        let text = JSONSerializer.string(value)
        return text.count > 72 ? String(text.prefix(72)) + "… (\(text.count) characters)" : text
    }

    /// Checks one recorded fixture offline (schema, model, semantic checks).
    func check(_ fixture: ContractFixture, context: RunContext, accumulator: AgreementAccumulator) -> QueryResult {
        let expect = QueryExpectation(status: fixture.status, schema: fixture.schema, model: fixture.model, code: nil, checks: fixture.checks)
        let data = Data(JSONSerializer.bytes(fixture.body))
        var checked = checkResponse(name: "fixture:\(fixture.name)", endpoint: fixture.endpoint, status: fixture.status, headers: nil,
                                    data: data, expect: expect, requestParameters: fixture.parameters, context: context, accumulator: accumulator)
        if let validator = contracts.validator(stem: fixture.schema), contracts.response(fixture.endpoint, status: fixture.status)?.schemaStem != fixture.schema {
            for error in validator.validate(fixture.body).prefix(25) {
                checked.failures.append(ContractFailure(query: "fixture:\(fixture.name)", kind: .schema, pointer: error.instancePath, reason: error.message))
            }
        }
        return QueryResult(name: "fixture:\(fixture.name)", endpoint: fixture.endpoint, request: nil, status: fixture.status,
                           body: fixture.body, duration: 0, failures: checked.failures, notes: checked.notes, model: checked.model,
                           modelDecodes: checked.modelDecodes, skipped: nil, gapsUsed: checked.gapsUsed)
    }
}
