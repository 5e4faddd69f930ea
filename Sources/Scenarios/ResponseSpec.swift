import VietMapWireHTTP
import VietMapWire
import Foundation
import HTTPServer
import JSON

/// A literal or edited answer (`"respond"`):
/// `{"status": 503, "headers": {"Retry-After": "5"}, "json": {…}}`, `{"text": "…"}`, raw bytes
/// `{"base64": "…"}` (for bodies that must go out byte for byte, such as replayed captures), or a
/// ready-made VietMap error `{"error": "OVER_DAILY_LIMIT", "message": "…"}` (`"error": 401`
/// for the unauthorized body). Without `json`/`text`/`base64`/`error` the real simulated answer is
/// kept and only its status and headers change. A header set to `null` is removed.
struct ResponseSpec: Sendable, Equatable {
    enum Body: Sendable, Equatable {
        case json(JSONValue)
        case text(String)
        /// Raw bytes (`"base64"`), sent as they are (`application/octet-stream` unless a header says otherwise).
        case bytes(Data)
        case error(APIErrorCode, message: String?)
    }

    var status: Int?
    var headers: [HeaderEdit] = []
    var body: Body?

    struct HeaderEdit: Sendable, Equatable {
        var name: String
        /// nil removes the header.
        var value: String?
    }

    /// The answer when `body` is given (the inner handler is not asked).
    func makeResponse(endpoint: APIEndpoint?) -> HTTPResponse? {
        guard let body else { return nil }
        var response: HTTPResponse
        switch body {
        case .json(let value):
            response = .json(Data(JSONSerializer.bytes(value)), status: status ?? 200)
        case .text(let text):
            response = .text(text, status: status ?? 200)
        case .bytes(let data):
            response = HTTPResponse(status: status ?? 200, headers: ["Content-Type": "application/octet-stream"], body: data)
        case .error(let error, let message):
            return editHeaders(APIResponses.error(APIError(error, message: message, status: status), for: endpoint))
        }
        APIResponses.applyCORS(to: &response)
        return editHeaders(response)
    }

    /// The real answer with this spec's status and header edits.
    func edit(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        if let status { response.status = status }
        return editHeaders(response)
    }

    private func editHeaders(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        for edit in headers {
            response.headers[edit.name] = edit.value
        }
        return response
    }
}
