import Foundation
import HTTPServer
import VietMapWireHTTP

/// One API endpoint's successful answer as the service sends it: the JSON its renderer wrote and what
/// the response's headers report beyond the protocol's own. Every API endpoint answers one — the map
/// resources excepted (bytes with their own content types and validators, `MapEndpoints`) — so one
/// place, `response`, sets the headers of every answer; errors are `APIResponses.error`'s.
struct EndpointAnswer {
    /// The JSON text, sent with status 200.
    var body: Data
    /// Search states the road-graph search settled, sent as `Server-Timing: search;desc="settled N"`
    /// (nil: the answer comes from no road-graph search).
    var settledStates: Int?
    /// A TSP answer's visiting order (indexes into the request's points, start first), sent in
    /// `VietMapService.pointsOrderHeader`: no documented key of the body holds it. Empty: no header.
    var pointsOrder: [Int]

    init(body: [UInt8], settledStates: Int? = nil, pointsOrder: [Int] = []) {
        self.init(body: Data(body), settledStates: settledStates, pointsOrder: pointsOrder)
    }

    /// A body kept from an earlier answer (`ResponseCache`).
    init(body: Data, settledStates: Int? = nil, pointsOrder: [Int] = []) {
        self.body = body
        self.settledStates = settledStates
        self.pointsOrder = pointsOrder
    }

    /// The response: `APIResponses.json`'s headers (content type, CORS), then the search metric and the order.
    var response: HTTPResponse {
        var response = APIResponses.json(body, status: 200)
        if let settledStates { response.headers.set("Server-Timing", "search;desc=\"settled \(settledStates)\"") }
        if !pointsOrder.isEmpty {
            response.headers.set(VietMapService.pointsOrderHeader, pointsOrder.map(String.init).joined(separator: ","))
        }
        return response
    }
}
