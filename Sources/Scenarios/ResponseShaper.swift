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
enum ResponseShaper {
    static func shape(_ decision: Decision, request: HTTPRequest, endpoint: APIEndpoint?, inner: ScenarioInner,
                      completion: @escaping @Sendable (HTTPResponse, String?) -> Void) {
        let action = decision.action
        if let retryAfter = decision.quotaRetryAfter {
            completion(APIResponses.error(APIError(status: 429, code: APIErrorCode.overDailyLimit.rawValue, message: APIErrorCode.overDailyLimit.defaultMessage, retryAfterSeconds: retryAfter), for: endpoint), nil)
            return
        }
        if let literal = action.respond?.makeResponse(endpoint: endpoint) {
            let (response, note) = transform(literal, with: action)
            completion(response, note)
            return
        }
        inner(request) { real in
            let edited = action.respond?.edit(real) ?? real
            let (response, note) = transform(edited, with: action)
            completion(response, note)
        }
    }

    /// Polyline transform, patch, faults and dribble. A transform or patch that cannot be
    /// applied leaves the body as it was and explains why in the note (the journal shows it).
    static func transform(_ response: HTTPResponse, with action: ScenarioAction) -> (HTTPResponse, String?) {
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
                response.body = Data(JSONSerializer.bytes(try patch.apply(to: document)))
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
