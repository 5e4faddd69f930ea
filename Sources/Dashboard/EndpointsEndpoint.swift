import Foundation
import HTTPServer
import JSON
import VietMapWire

/// `GET /__sim/endpoints`: the simulator's endpoint list (`APIEndpoint.allCases`) for the
/// dashboard, so the page's journal filter, map drawing and "Try it" follow the one list
/// instead of a copy in JavaScript.
///
///     {"endpoints": [{"name": "route-1.1", "path": "/api/route", "family": "route", "apiVersion": "1.1"}, …],
///      "families": [{"name": "route", "endpoints": ["route", "route-v3", "route-1.1"]}, …],
///      "other": "other"}
///
/// `endpoints` are in declaration order; `path` is empty for the map resources, whose whole path
/// is request data (the journal shows the request's own path); `apiVersion` is the `api-version` value a legacy URL
/// carries (null for versioned paths). `families` are in `APIFamily` order, each with its
/// endpoints in declaration order. `other` is the journal's name for requests to no endpoint.
enum EndpointsEndpoint {
    /// The journal's `endpoint` for a request that names no endpoint.
    static let otherName = "other"

    /// The answer's JSON (the same for the life of the process).
    static let document: JSONValue = {
        let endpoints = APIEndpoint.allCases.map { endpoint -> JSONValue in
            .object(JSONObject([
                ("name", .string(endpoint.name)), ("path", .string(endpoint.path)),
                ("family", .string(endpoint.family.rawValue)), ("apiVersion", .string(endpoint.apiVersion)),
            ]))
        }
        let families = APIFamily.allCases.map { family -> JSONValue in
            .object(JSONObject([
                ("name", .string(family.rawValue)),
                ("endpoints", .array(APIEndpoint.allCases.filter { $0.family == family }.map { .string($0.name) })),
            ]))
        }
        return .object(JSONObject([("endpoints", .array(endpoints)), ("families", .array(families)), ("other", .string(otherName))]))
    }()

    private static let body = Data(JSONSerializer.bytes(document))

    static func respond() -> HTTPResponse {
        var response = HTTPResponse.json(body)
        response.headers.set("Cache-Control", "no-cache")
        return response
    }
}
