import Foundation
import HTTPServer
import JSON

/// The admin API under `/__sim/` (only with `serve --admin`). Every answer is JSON.
///
/// | request | effect |
/// |---|---|
/// | `GET /__sim/scenarios` | the loaded scenarios, the active one and the load problems |
/// | `GET /__sim/scenarios/NAME` | one scenario's document |
/// | `POST /__sim/scenarios` (body: a scenario document) | add (or replace) a runtime scenario, validated like a file: `201`/`200`, or `400` with the problems |
/// | `PUT /__sim/scenarios/NAME` (body: its document) | add or replace the runtime scenario NAME (the body's `name` must be NAME) |
/// | `DELETE /__sim/scenarios/NAME` | remove the runtime scenario NAME |
/// | `POST /__sim/scenarios/NAME/save` | write the runtime scenario NAME to the scenarios folder as NAME.json |
/// | `GET /__sim/active` | the server-wide default scenario |
/// | `POST /__sim/activate?scenario=NAME` | make NAME the default |
/// | `POST /__sim/deactivate` | no default |
/// | `GET /__sim/states[?limit=N][&after=ID][&offset=N]` | a page of per-client states (creation order), `total`, `next` |
/// | `POST /__sim/reset[?scenario=NAME][&apikey=KEY]` | forget per-client state |
/// | `POST /__sim/reload` | reload the scenarios folder |
/// | `GET /__sim/journal?FILTERS` | entries, `count`, `gapsMs` between arrivals |
/// | `GET /__sim/journal/count?FILTERS` | `{"count": N}` |
/// | `GET /__sim/journal/SEQ` | one entry with its `response` (content type, size, bounded body) |
/// | `GET /__sim/journal/SEQ/scenario[?name=NAME]` | a scenario replaying that exchange (`JournalReplay`) |
/// | `DELETE /__sim/journal`, `POST /__sim/journal/clear` | empty the journal |
///
/// Every request first passes `AdminGuard` (Host, Origin, token, no simple state-changing requests).
/// The rows are `HTTPRoute`s of the one `/__sim` table (`table(engine:extraRoutes:)`, with the
/// dashboard's): a method a path does not take is a 405 whose `Allow` lists the path's methods.
///
/// Journal filters: `endpoint`, `scenario`, `client`, `status`, `after` (sequence number),
/// `limit` (last N), `param.NAME=VALUE` (`param.NAME=` for "present").
enum AdminAPI {
    static let prefix = "/__sim"

    /// A refusal with its status.
    struct Failure: Error {
        let status: Int
        let message: String
    }

    /// Whether `path` is under `/__sim` (the table's, not the scenario engine's).
    static func handles(_ path: String) -> Bool {
        path == prefix || path.hasPrefix(prefix + "/")
    }

    /// The `/__sim` table: the admin API's routes and `extraRoutes` (the dashboard's) behind one
    /// guard (`AdminGuard`: Host, Origin, token but for open routes, state-changing requests).
    static func table(engine: ScenarioEngine, extraRoutes: [HTTPRoute]) -> RouteTable {
        let guardian = AdminGuard(token: engine.adminToken, extraHosts: engine.configuration.adminHosts)
        return RouteTable(routes(engine) + extraRoutes, admission: { request, open in
            guardian.check(request, tokenRequired: !open).map(refusal)
        }, failure: { request, failure in
            switch failure {
            case .notFound:
                var path = String(request.path.dropFirst(prefix.count))
                if path.count > 1 && path.hasSuffix("/") { path.removeLast() }
                return .simulatorError("no admin endpoint \(prefix + path.prefix(100))", status: 404)
            case .methodNotAllowed(let allowed):
                var response = HTTPResponse.simulatorError("method \(request.method.prefix(10)) not allowed here", status: 405)
                response.headers.set("Allow", allowed)
                return response
            case .malformedQuery(let problem):
                return .simulatorError("malformed query: \(problem)", status: 400)
            }
        })
    }

    /// The admin API's routes, in the order its index lists them.
    private static func routes(_ engine: ScenarioEngine) -> [HTTPRoute] {
        [
            route("GET", "/__sim", listed: false) { _ in
                json(["endpoints": .array(routes(engine).compactMap(\.listed).map { .string($0) })])
            },
            route("GET", "/__sim/scenarios") { _ in json(scenarioList(engine)) },
            route("GET", "/__sim/scenarios/*name", listed: "NAME") { request throws(Failure) in
                let name = request.pathParameters["name"] ?? ""
                guard let scenario = engine.library.scenario(named: name) else {
                    throw Failure(status: 404, message: "no scenario named '\(name)'")
                }
                return json(scenario.source)
            },
            route("POST", "/__sim/scenarios") { request throws(Failure) in
                try putScenario(request.body, expectedName: nil, engine: engine)
            },
            route("PUT", "/__sim/scenarios/:name", listed: "NAME") { request throws(Failure) in
                try putScenario(request.body, expectedName: request.pathParameters["name"] ?? "", engine: engine)
            },
            route("DELETE", "/__sim/scenarios/:name", listed: "NAME") { request throws(Failure) in
                let name = request.pathParameters["name"] ?? ""
                do throws(RuntimeScenarioError) {
                    try engine.removeRuntimeScenario(name)
                } catch {
                    throw Failure(status: error.status, message: error.description)
                }
                return json(["removed": .string(name)])
            },
            route("POST", "/__sim/scenarios/*name/save", listed: "NAME") { request throws(Failure) in
                let name = request.pathParameters["name"] ?? ""
                do throws(RuntimeScenarioError) {
                    let file = try engine.saveRuntimeScenario(name)
                    return json(["saved": .string(name), "file": .string(file.path)])
                } catch {
                    throw Failure(status: error.status, message: error.description)
                }
            },
            route("GET", "/__sim/active") { _ in json(["active": .string(engine.activeScenario)]) },
            route("POST", "/__sim/activate") { request throws(Failure) in
                guard let name = request.query.first("scenario") ?? bodyMember(request, "scenario") else {
                    throw Failure(status: 400, message: "give the scenario: /__sim/activate?scenario=NAME")
                }
                do throws(ScenarioEngineError) {
                    try engine.activate(name)
                } catch {
                    throw Failure(status: 404, message: error.description)
                }
                return json(["active": .string(name)])
            },
            route("POST", "/__sim/deactivate") { _ in
                engine.deactivate()
                return json(["active": .null])
            },
            route("GET", "/__sim/states") { request throws(Failure) in try states(request.query, engine: engine) },
            route("POST", "/__sim/reset") { request in
                let query = request.query
                return json(["reset": .integer(engine.resetState(scenario: query.first("scenario"), apiKey: query.first("apikey")))])
            },
            route("POST", "/__sim/reload") { _ in
                let issues = engine.reload()
                return json(["scenarios": .integer(engine.library.scenarios.count), "errors": .array(issues.map(issueJSON))])
            },
            route("GET", "/__sim/journal") { request throws(Failure) in
                let entries = engine.journal.entries(matching: try JournalQuery(adminQuery: request.query))
                let times = entries.map(\.arrivalMilliseconds)
                let gaps = zip(times.dropFirst(), times).map { ($0 - $1) }
                return json(.object(JSONObject([
                    ("count", .integer(entries.count)),
                    ("gapsMs", .array(gaps.map { .number(($0 * 1000).rounded() / 1000) })),
                    ("minGapMs", gaps.min().map { .number(($0 * 1000).rounded() / 1000) } ?? .null),
                    ("entries", .array(entries.map(\.json))),
                ])))
            },
            route("GET", "/__sim/journal/count") { request throws(Failure) in
                json(["count": .integer(engine.journal.count(matching: try JournalQuery(adminQuery: request.query)))])
            },
            route("GET", "/__sim/journal/#seq", listed: "SEQ") { request throws(Failure) in
                let sequence = request.pathParameters["seq"] ?? ""
                guard let entry = engine.journal.entry(sequence: Int(sequence) ?? -1) else {
                    throw Failure(status: 404, message: "journal entry \(sequence) is not (or no longer) in the journal")
                }
                return json(entry.detailJSON)
            },
            route("GET", "/__sim/journal/#seq/scenario", listed: "SEQ") { request throws(Failure) in
                let sequence = request.pathParameters["seq"] ?? ""
                guard let entry = engine.journal.entry(sequence: Int(sequence) ?? -1) else {
                    throw Failure(status: 404, message: "journal entry \(sequence) is not (or no longer) in the journal")
                }
                let document = try JournalReplay.scenario(for: entry, name: request.query.first("name"))
                var response = HTTPResponse.json(Data(JSONPrettyPrinter.string(document).utf8))
                response.headers.set("Cache-Control", "no-store")
                return response
            },
            route("DELETE", "/__sim/journal") { _ in json(["cleared": .integer(engine.journal.clear())]) },
            route("POST", "/__sim/journal/clear") { _ in json(["cleared": .integer(engine.journal.clear())]) },
        ]
    }

    /// One admin route: `answer` throws a `Failure` to answer with its status. `listed`: how the
    /// index names the pattern's parameter (`NAME`, `SEQ`); `false` keeps the route out of the index.
    private static func route(_ method: String, _ pattern: String, listed: String? = nil,
                              _ answer: @escaping @Sendable (HTTPRequest) throws(Failure) -> HTTPResponse) -> HTTPRoute {
        let shown = pattern.split(separator: "/").map { $0.first.map { ":#*".contains($0) } == true ? Substring(listed ?? "") : $0 }
        return HTTPRoute([method], pattern, listed: "\(method) /" + shown.joined(separator: "/"), allowsTrailingSlash: true,
                     ClosureResponder { request, reply in
            do throws(Failure) {
                reply.send(try answer(request))
            } catch {
                reply.send(.simulatorError(error.message, status: error.status))
            }
        })
    }

    private static func route(_ method: String, _ pattern: String, listed: Bool,
                              _ answer: @escaping @Sendable (HTTPRequest) throws(Failure) -> HTTPResponse) -> HTTPRoute {
        let routed = route(method, pattern, answer)
        return HTTPRoute(routed.methods, routed.pattern, listed: listed ? routed.listed : nil, allowsTrailingSlash: true, routed.responder)
    }

    /// `GET /__sim/states`: one page of per-client states.
    private static func states(_ query: QueryParameters, engine: ScenarioEngine) throws(Failure) -> HTTPResponse {
        let limit = try integer(query, "limit", default: defaultStatesPage, in: 1...maxStatesPage)
        let offset = try integer(query, "offset", default: 0, in: 0...Int.max)
        let after: Int? = query.first("after") == nil ? nil : try integer(query, "after", default: 0, in: 0...Int.max)
        let page = engine.statePage(after: after, offset: offset, limit: limit)
        let counts = engine.stateCounts
        let states = page.states.map { entry -> JSONValue in
            .object(JSONObject([
                ("id", .integer(entry.id)), ("scenario", .string(entry.scenario)),
                ("apikey", .string(ScenarioSelection.redacted(entry.apiKey, apiKeys: engine.configuration.apiKeys))),
                ("state", .string(entry.state)),
            ]))
        }
        return json(.object(JSONObject([
            ("total", .integer(page.total)), ("capacity", .integer(counts.capacity)), ("evicted", .integer(counts.evicted)),
            ("limit", .integer(limit)), ("next", page.next.map { .integer($0) } ?? .null), ("states", .array(states)),
        ])))
    }

    /// `POST /__sim/scenarios` and `PUT /__sim/scenarios/NAME`: the body is a scenario document.
    private static func putScenario(_ body: Data, expectedName: String?, engine: ScenarioEngine) throws(Failure) -> HTTPResponse {
        guard !body.isEmpty else { throw Failure(status: 400, message: "send the scenario document as the request body (JSON, see Scenarios/README.md)") }
        if let expectedName {
            let name = (try? JSONParser.parse(body))?["name"]?.stringValue
            guard name == expectedName else {
                throw Failure(status: 400, message: "the document's \"name\" (\(name.map { "'\($0.prefix(100))'" } ?? "none")) must be '\(expectedName.prefix(100))', the name in the path")
            }
        }
        do {
            let (name, created) = try engine.putRuntimeScenario(body)
            return json(.object(JSONObject([("name", .string(name)), ("created", .bool(created)), ("origin", .string(RuntimeScenarios.origin))])),
                        status: created ? 201 : 200)
        } catch {
            if case .invalid(let issues) = error {
                return .simulatorError("the scenario does not load", status: 400, extra: [("errors", .array(issues.map(issueJSON)))])
            }
            throw Failure(status: error.status, message: error.description)
        }
    }

    private static func scenarioList(_ engine: ScenarioEngine) -> JSONValue {
        let library = engine.library
        let scenarios = library.scenarios.map { scenario -> JSONValue in
            .object(JSONObject([
                ("name", .string(scenario.name)), ("description", .string(scenario.description)),
                ("file", .string(scenario.file)), ("rules", .integer(scenario.ruleCount)),
                ("runtime", .bool(engine.isRuntimeScenario(scenario.name))),
            ]))
        }
        return .object(JSONObject([
            ("active", .string(engine.activeScenario)),
            ("directory", .string(library.directory?.path)),
            ("scenarios", .array(scenarios)),
            ("errors", .array(library.issues.map(issueJSON))),
        ]))
    }

    private static func issueJSON(_ issue: ScenarioIssue) -> JSONValue {
        ["file": .string(issue.file), "path": .string(issue.pointer), "reason": .string(issue.reason)]
    }

    /// `GET /__sim/states` pages: default and largest `limit`.
    static let defaultStatesPage = 100
    static let maxStatesPage = 500

    /// An integer query parameter within `range`, or `fallback` when absent.
    private static func integer(_ query: QueryParameters, _ name: String, default fallback: Int,
                                in range: ClosedRange<Int>) throws(Failure) -> Int {
        guard let text = query.first(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            let upper = range.upperBound == Int.max ? "" : " to \(range.upperBound)"
            throw Failure(status: 400, message: "'\(name)' must be a whole number from \(range.lowerBound)\(upper), got '\(text.prefix(40))'")
        }
        return value
    }

    /// The answer to a request `AdminGuard` refused.
    static func refusal(_ refusal: AdminGuard.Refusal) -> HTTPResponse {
        var response = HTTPResponse.simulatorError(refusal.message, status: refusal.status, extra: [("reason", .string(refusal.reason))])
        if refusal.status == 401 { response.headers.set("WWW-Authenticate", "Bearer realm=\"vietmap-sim admin\"") }
        return response
    }

    /// A string member of a JSON request body, if the body is such an object.
    private static func bodyMember(_ request: HTTPRequest, _ name: String) -> String? {
        guard !request.body.isEmpty, let value = try? JSONParser.parse(request.body) else { return nil }
        return value[name]?.stringValue
    }

    private static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        var response = HTTPResponse.json(Data(JSONSerializer.bytes(value)), status: status)
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}
