import Foundation
import HTTPServer
import JSON

/// Executes a `Decision`: produces the answer from the rule's action and, when needed, the
/// inner handler's real answer.
///
/// Order: quota (over → 429 `OVER_DAILY_LIMIT`), `respond` (literal answer, or status and
/// header edits of the real one), `patch`, `fault`s, `dribble`. The delay is applied by the
/// engine when sending.
enum ResponseShaper {
    static func shape(_ decision: Decision, request: HTTPRequest, endpoint: APIEndpoint, inner: ScenarioInner,
                      completion: @escaping @Sendable (HTTPResponse, String?) -> Void) {
        let action = decision.action
        if let retryAfter = decision.quotaRetryAfter {
            completion(VietMapError.overDailyLimit.response(status: 429, endpoint: endpoint, retryAfterSeconds: retryAfter), nil)
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

    /// Patch, faults and dribble. A patch that cannot be applied leaves the body as it was
    /// and explains why in the note (the journal shows it).
    static func transform(_ response: HTTPResponse, with action: ScenarioAction) -> (HTTPResponse, String?) {
        var response = response
        var note: String?
        if let patch = action.patch {
            do {
                let document = try JSONParser.parse(response.body)
                response.body = Data(JSONSerializer.bytes(try patch.apply(to: document)))
            } catch let error as JSONPatchError {
                note = "patch not applied: \(error)"
            } catch {
                note = "patch not applied: the answer is not JSON (\(error))"
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
