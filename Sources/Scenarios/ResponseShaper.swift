import VietMapWireHTTP
import VietMapWire
import Foundation
import HTTPServer
import JSON

/// Executes a `Decision`: produces the answer from the rule's action and, when needed, the
/// inner handler's real answer.
///
/// Order: quota (over → 429 `OVER_DAILY_LIMIT`), `respond` (literal answer, or status and
/// header edits of the real one), `transform`, `patch`, `fault`s, `dribble`. The delay is applied by the
/// engine when sending.
///
/// A patch whose result would pass `answerSizeLimit` bytes is stopped before it allocates
/// past it, and the client gets a 500 `ERROR_UNKNOWN` in the endpoint's envelope naming the rule.
enum ResponseShaper {
    static func shape(_ decision: Decision, request: HTTPRequest, endpoint: APIEndpoint?, inner: any HTTPResponder,
                      answerSizeLimit: Int = ScenarioLimits.answerBytes,
                      completion: @escaping @Sendable (HTTPResponse, String?) -> Void) {
        let context = Context(rule: decision.ruleLabel ?? "?", endpoint: endpoint, answerSizeLimit: answerSizeLimit)
        let action = decision.action
        if let retryAfter = decision.quotaRetryAfter {
            completion(APIResponses.error(APIError(status: 429, code: APIErrorCode.overDailyLimit.rawValue, message: APIErrorCode.overDailyLimit.defaultMessage, retryAfterSeconds: retryAfter), for: endpoint), nil)
            return
        }
        if let literal = action.respond?.makeResponse(endpoint: endpoint) {
            let (response, note) = transform(literal, with: action, context)
            completion(response, note)
            return
        }
        inner.respond(to: request) { real in
            let edited = action.respond?.edit(real) ?? real
            let (response, note) = transform(edited, with: action, context)
            completion(response, note)
        }
    }

    /// What the limit's 500 needs to say.
    struct Context {
        var rule: String
        var endpoint: APIEndpoint?
        var answerSizeLimit: Int
    }

    /// The 500 of a rule whose mutation would pass the answer-size limit.
    static func oversized(_ context: Context, detail: String) -> HTTPResponse {
        let message = "scenario rule '\(context.rule)': the mutated answer would exceed the answer-size limit of \(context.answerSizeLimit) bytes"
        return APIResponses.error(APIError(status: 500, code: APIErrorCode.errorUnknown.rawValue, message: message, cause: detail),
                                  for: context.endpoint)
    }

    /// Polyline transform, patch, faults and dribble. A transform or patch that cannot be
    /// applied leaves the body as it was and explains why in the note (the journal shows it).
    static func transform(_ response: HTTPResponse, with action: ScenarioAction, _ context: Context) -> (HTTPResponse, String?) {
        var response = response
        var note: String?
        if let transform = action.transform {
            if let document = try? JSONParser.parse(response.body) {
                let (answer, changed, problem) = transform.apply(to: document)
                if changed > 0 { response.body = Data(JSONSerializer.bytes(answer)) }
                if let problem {
                    note = "polyline \(transform.rawValue): \(problem)"
                } else if changed == 0 {
                    note = "polyline \(transform.rawValue): no encoded polyline in the answer"
                }
            } else {
                note = "polyline \(transform.rawValue) not applied: the answer is not JSON"
            }
        }
        if let patch = action.patch {
            do {
                let document = try JSONParser.parse(response.body)
                let patched = try patch.apply(to: document, inputBytes: response.body.count, sizeLimit: context.answerSizeLimit)
                response.body = Data(JSONSerializer.bytes(patched))
            } catch let error as JSONPatchError where error.exceedsSizeLimit {
                let note = "answer-size limit: \(error)"
                return (oversized(context, detail: note), note)
            } catch let error as JSONPatchError {
                note = [note, "patch not applied: \(error)"].compactMap { $0 }.joined(separator: "; ")
            } catch {
                note = [note, "patch not applied: the answer is not JSON (\(error))"].compactMap { $0 }.joined(separator: "; ")
            }
        }
        for fault in action.faults {
            fault.apply(to: &response)
        }
        if let dribble = action.dribble, response.transport == .normal {
            response.transport = dribble.transport
        }
        return (response, note)
    }
}
