import Dashboard
import Foundation
import HTTPServer
import VietMapAPI

/// The dashboard part of `serve --admin`: `/__sim/ui/`, `/__sim/roads` and `/__sim/place`
/// in front of the scenario engine (whose admin API the page calls), with place lookups
/// going straight to the service (no scenario, not journaled).
enum ServeDashboard {
    static func wrap(_ handler: @escaping HTTPHandler, service: VietMapService, apiKey: String?) -> HTTPHandler {
        let key = apiKey ?? "dashboard"
        let dashboard = Dashboard(roadGraph: service.roadGraph) { refid in
            service.respond(to: HTTPRequest(method: "GET", path: "/api/place/v4",
                                            query: QueryParameters([("apikey", key), ("refid", refid)])))
        }
        FileHandle.standardError.write(Data("vietmap-sim: dashboard under \(Dashboard.uiPath)/\n".utf8))
        return dashboard.wrap(handler)
    }
}
